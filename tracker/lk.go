package tracker

import "math"

// Pyramidal Lucas–Kanade as OpenCV's calcOpticalFlowPyrLK computes it (Bouguet's
// formulation), in the same fixed-point arithmetic, so that the two agree to a few
// hundredths of a pixel on the same images: each level of the pyramid is the one below
// blurred by the 5-tap binomial filter and halved (pyrDown, borders reflected), with its
// Scharr derivatives; a point's window is sampled bilinearly with 14-bit weights, the
// image scaled by 32; the iteration stops after lkIterations steps, at a step under
// lkEpsilon pixels, or where it oscillates (then halving the last step).
const (
	lkWindow     = 21 // window side, pixels
	lkLevels     = 3  // pyramid levels above the base
	lkIterations = 30
	lkEpsilon    = 0.01
	lkMinEig     = 1e-4
	wBits        = 14
)

// lkBorder is the border around every pyramid level, in pixels: a window may start up to
// lkWindow pixels outside the level (and reads its right and lower neighbours, and the
// assembly whole groups of 8 lanes), and the border holds what OpenCV's padded levels hold
// there, so no read needs a test.
const lkBorder = 32

// lkRow is a template row's length: lkWindow lanes and then zeros, whole groups of 8.
const lkRow = 24

// level is one level of a pyramid with a border of lkBorder pixels on every side: the
// image reflected into it (BORDER_REFLECT_101, as OpenCV builds its pyramids) and
// derivatives 0 there (as OpenCV pads them).
type level struct {
	w, h, stride int
	pix          []byte  // (h + 2·lkBorder) rows of stride samples
	d            []int16 // Scharr derivatives, x and y interleaved: 2·stride a row
}

// origin is the index of pixel (0, 0) in pix (half of it in d).
func (l *level) origin() int { return lkBorder*l.stride + lkBorder }

func (l *level) resize(w, h int) {
	if l.w == w && l.h == h && l.pix != nil {
		return // the derivatives' border is still 0: only the inside is ever written
	}
	l.w, l.h, l.stride = w, h, w+2*lkBorder
	n := (h + 2*lkBorder) * l.stride
	l.pix = make([]byte, n)
	l.d = make([]int16, 2*n)
}

// row returns row y (−lkBorder ≤ y < h + lkBorder) from x = 0 to the stride's end.
func (l *level) row(y int) []byte { return l.pix[l.origin()+y*l.stride:][:l.w+lkBorder] }

// fillBorder reflects the inside of the image into its border.
func (l *level) fillBorder() {
	w, h, s := l.w, l.h, l.stride
	for y := 0; y < h; y++ {
		r := l.pix[(lkBorder+y)*s : (lkBorder+y+1)*s]
		for i := 1; i <= lkBorder; i++ {
			r[lkBorder-i] = r[lkBorder+reflect101(-i, w)]
			r[lkBorder+w-1+i] = r[lkBorder+reflect101(w-1+i, w)]
		}
	}
	rowAt := func(y int) []byte { return l.pix[(lkBorder+y)*s : (lkBorder+y+1)*s] }
	for i := 1; i <= lkBorder; i++ {
		copy(rowAt(-i), rowAt(reflect101(-i, h)))
		copy(rowAt(h-1+i), rowAt(reflect101(h-1+i, h)))
	}
}

// pyramid is one frame's levels and their derivatives.
type pyramid struct {
	levels [lkLevels + 1]level
	rows   []uint16 // pyrDown's rows filtered along x
}

// build makes the pyramid of base (copied).
func (p *pyramid) build(base *plane) {
	l0 := &p.levels[0]
	l0.resize(base.w, base.h)
	for y := 0; y < base.h; y++ {
		copy(l0.row(y)[:base.w], base.pix[y*base.w:(y+1)*base.w])
	}
	l0.fillBorder()
	for k := 1; k <= lkLevels; k++ {
		p.pyrDown(&p.levels[k], &p.levels[k-1])
	}
	for k := range p.levels {
		scharr(&p.levels[k])
	}
}

// reflect101 maps i into 0..n−1 by reflection without repeating the edge (OpenCV's
// BORDER_REFLECT_101).
func reflect101(i, n int) int {
	if n == 1 {
		return 0
	}
	for i < 0 || i >= n {
		if i < 0 {
			i = -i
		}
		if i >= n {
			i = 2*n - 2 - i
		}
	}
	return i
}

// pyrDown blurs src by [1 4 6 4 1]²/256 and keeps every other pixel:
// ((w+1)/2) × ((h+1)/2), as OpenCV's pyrDown. The rows it reads reach two pixels past
// src's edges, into the reflected border.
func (p *pyramid) pyrDown(dst, src *level) {
	dw, dh := (src.w+1)/2, (src.h+1)/2
	dst.resize(dw, dh)
	// Each source row from −2 to 2·dh filtered along x once (16 bits hold 16·255), then
	// the columns (16 bits hold 256·255).
	n := 2*dh + 3
	p.rows = grow(p.rows, n*dw)
	for k := 0; k < n; k++ {
		row := src.pix[src.origin()+(k-2)*src.stride-2:][:2*dw+4]
		out := p.rows[k*dw : (k+1)*dw]
		for x := pyrRows(out, row); x < dw; x++ {
			r := row[2*x : 2*x+5]
			out[x] = uint16(r[0]) + uint16(r[4]) + 4*(uint16(r[1])+uint16(r[3])) + 6*uint16(r[2])
		}
	}
	for y := 0; y < dh; y++ {
		r0, r1, r2 := p.rows[2*y*dw:][:dw], p.rows[(2*y+1)*dw:][:dw], p.rows[(2*y+2)*dw:][:dw]
		r3, r4 := p.rows[(2*y+3)*dw:][:dw], p.rows[(2*y+4)*dw:][:dw]
		o := dst.row(y)[:dw]
		for x := pyrCols(o, r0, r1, r2, r3, r4); x < dw; x++ {
			s := uint32(r0[x]) + uint32(r4[x]) + 4*(uint32(r1[x])+uint32(r3[x])) + 6*uint32(r2[x])
			o[x] = byte((s + 128) >> 8)
		}
	}
	dst.fillBorder()
}

// scharr writes the Scharr derivatives of l's image into l.d ([3 10 3] smoothing, central
// difference; unnormalised, as OpenCV's calcSharrDeriv); at the edges it reads the
// reflected border, as OpenCV does.
func scharr(l *level) {
	w, s := l.w, l.stride
	for y := 0; y < l.h; y++ {
		o := l.origin() + y*s - 1
		r0, r1, r2 := l.pix[o-s:][:w+2], l.pix[o:][:w+2], l.pix[o+s:][:w+2]
		out := l.d[2*(o+1):][:2*w]
		for x := scharrRows(out, r0, r1, r2); x < w; x++ {
			a0, a1, a2 := int(r0[x]), int(r1[x]), int(r2[x])
			c0, c1, c2 := int(r0[x+2]), int(r1[x+2]), int(r2[x+2])
			out[2*x] = int16(3*(c0+c2) + 10*c1 - 3*(a0+a2) - 10*a1)
			out[2*x+1] = int16(3*(a2-a0+c2-c0) + 10*(int(r2[x+1])-int(r0[x+1])))
		}
	}
}

// lkWork holds one point's window: the template (the first image and its derivatives
// sampled at the point), rows of lkRow lanes.
type lkWork struct {
	t, tx, ty [lkWindow * lkRow]int32
}

func descale(x int32, n uint) int32 { return (x + 1<<(n-1)) >> n }

// weights are the bilinear weights of the fractional offset (a, b), in 14 bits.
func weights(a, b float32) [4]int32 {
	w00 := int32(math.RoundToEven(float64((1 - a) * (1 - b) * (1 << wBits))))
	w01 := int32(math.RoundToEven(float64(a * (1 - b) * (1 << wBits))))
	w10 := int32(math.RoundToEven(float64((1 - a) * b * (1 << wBits))))
	return [4]int32{w00, w01, w10, 1<<wBits - w00 - w01 - w10}
}

// templateGo samples the window of I whose top-left pixel is (x, y) at the weights w into
// lw, and returns the sums of the derivatives' products (the structure tensor).
func (lw *lkWork) templateGo(I *level, x, y int, w *[4]int32) (a11, a12, a22 int64) {
	s := I.stride
	o := I.origin() + y*s + x
	w00, w01, w10, w11 := w[0], w[1], w[2], w[3]
	for wy := 0; wy < lkWindow; wy++ {
		r0, r1 := I.pix[o:][:lkWindow+1], I.pix[o+s:][:lkWindow+1]
		d0, d1 := I.d[2*o:][:2*lkWindow+2], I.d[2*(o+s):][:2*lkWindow+2]
		t := lw.t[wy*lkRow:][:lkWindow]
		tx, ty := lw.tx[wy*lkRow:][:lkWindow], lw.ty[wy*lkRow:][:lkWindow]
		for wx := range t {
			t[wx] = descale(int32(r0[wx])*w00+int32(r0[wx+1])*w01+int32(r1[wx])*w10+int32(r1[wx+1])*w11, wBits-5)
			ix := descale(int32(d0[2*wx])*w00+int32(d0[2*wx+2])*w01+int32(d1[2*wx])*w10+int32(d1[2*wx+2])*w11, wBits)
			iy := descale(int32(d0[2*wx+1])*w00+int32(d0[2*wx+3])*w01+int32(d1[2*wx+1])*w10+int32(d1[2*wx+3])*w11, wBits)
			tx[wx], ty[wx] = ix, iy
			a11 += int64(ix * ix)
			a12 += int64(ix * iy)
			a22 += int64(iy * iy)
		}
		o += s
	}
	return
}

// mismatchGo samples the window of J whose top-left pixel is (x, y) at the weights w and
// returns the sums of its difference from the template times the template's derivatives.
// No product overflows 32 bits: |difference| ≤ 255·32, |derivative| ≤ 16·255.
func (lw *lkWork) mismatchGo(J *level, x, y int, w *[4]int32) (b1, b2 int64) {
	s := J.stride
	o := J.origin() + y*s + x
	w00, w01, w10, w11 := w[0], w[1], w[2], w[3]
	for wy := 0; wy < lkWindow; wy++ {
		r0, r1 := J.pix[o:][:lkWindow+1], J.pix[o+s:][:lkWindow+1]
		t := lw.t[wy*lkRow:][:lkWindow]
		tx, ty := lw.tx[wy*lkRow:][:lkWindow], lw.ty[wy*lkRow:][:lkWindow]
		for wx := range t {
			v := int32(r0[wx])*w00 + int32(r0[wx+1])*w01 + int32(r1[wx])*w10 + int32(r1[wx+1])*w11
			diff := descale(v, wBits-5) - t[wx]
			b1 += int64(diff * tx[wx])
			b2 += int64(diff * ty[wx])
		}
		o += s
	}
	return
}

// flow follows pt (base-level pixels, pixel centres at whole numbers) from pyramid a to
// pyramid b and returns where it went, false where the window left the picture or had too
// little texture.
func (lw *lkWork) flow(a, b *pyramid, x, y float32) (nx, ny float32, ok bool) {
	half := float32(lkWindow-1) * 0.5
	ok = true
	for lv := lkLevels; lv >= 0; lv-- {
		scale := float32(1) / float32(int(1)<<lv)
		px, py := x*scale, y*scale
		if lv == lkLevels {
			nx, ny = px, py
		} else {
			nx, ny = nx*2, ny*2
		}
		I, J := &a.levels[lv], &b.levels[lv]
		px -= half
		py -= half
		ipx, ipy := int(math.Floor(float64(px))), int(math.Floor(float64(py)))
		if ipx < -lkWindow || ipx >= I.w || ipy < -lkWindow || ipy >= I.h {
			if lv == 0 {
				return nx, ny, false
			}
			continue
		}
		w := weights(px-float32(ipx), py-float32(ipy))
		a11, a12, a22 := lw.template(I, ipx, ipy, &w)
		const fltScale = float32(1) / (1 << 20)
		A11, A12, A22 := float32(a11)*fltScale, float32(a12)*fltScale, float32(a22)*fltScale
		D := float32(A11*A22) - float32(A12*A12) // products rounded on their own
		minEig := (A22 + A11 - float32(math.Sqrt(float64(float32((A11-A22)*(A11-A22))+float32(4*A12*A12))))) / float32(2*lkWindow*lkWindow)
		if minEig < lkMinEig || D < 1.1920929e-07 {
			if lv == 0 {
				return nx, ny, false
			}
			continue
		}
		D = 1 / D
		nx -= half
		ny -= half
		var pdx, pdy float32
		for j := 0; j < lkIterations; j++ {
			inx, iny := int(math.Floor(float64(nx))), int(math.Floor(float64(ny)))
			if inx < -lkWindow || inx >= J.w || iny < -lkWindow || iny >= J.h {
				if lv == 0 {
					ok = false
				}
				break
			}
			v := weights(nx-float32(inx), ny-float32(iny))
			b1, b2 := lw.mismatch(J, inx, iny, &v)
			B1, B2 := float32(b1)*fltScale, float32(b2)*fltScale
			dx, dy := float32((float32(A12*B2)-float32(A22*B1))*D), float32((float32(A12*B1)-float32(A11*B2))*D)
			nx += dx
			ny += dy
			if float32(dx*dx)+float32(dy*dy) <= lkEpsilon*lkEpsilon {
				break
			}
			if j > 0 && abs32(dx+pdx) < 0.01 && abs32(dy+pdy) < 0.01 {
				nx -= dx * 0.5
				ny -= dy * 0.5
				break
			}
			pdx, pdy = dx, dy
		}
		nx += half
		ny += half
		if !ok {
			return nx, ny, false
		}
	}
	return nx, ny, ok
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
