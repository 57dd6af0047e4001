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

// pyramid is one frame's levels and their derivatives (x, y interleaved).
type pyramid struct {
	levels [lkLevels + 1]plane
	deriv  [lkLevels + 1][]int16
	rows   []int32 // pyrDown's row sums
}

// build makes the pyramid of base (copied).
func (p *pyramid) build(base *plane) {
	l0 := &p.levels[0]
	l0.resize(base.w, base.h)
	copy(l0.pix, base.pix)
	for k := 1; k <= lkLevels; k++ {
		p.pyrDown(&p.levels[k], &p.levels[k-1])
	}
	for k := range p.levels {
		p.deriv[k] = scharr(p.deriv[k], &p.levels[k])
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
// ((w+1)/2) × ((h+1)/2), as OpenCV's pyrDown.
func (p *pyramid) pyrDown(dst, src *plane) {
	dw, dh := (src.w+1)/2, (src.h+1)/2
	dst.resize(dw, dh)
	p.rows = grow(p.rows, 5*dw)
	w := src.w
	for y := 0; y < dh; y++ {
		for k := 0; k < 5; k++ {
			sy := reflect101(2*y+k-2, src.h)
			row := src.pix[sy*w : (sy+1)*w]
			out := p.rows[k*dw : (k+1)*dw]
			for x := 0; x < dw; x++ {
				sx := 2 * x
				var a, b, c, d, e int32
				if sx >= 2 && sx+2 < w {
					a, b, c, d, e = int32(row[sx-2]), int32(row[sx-1]), int32(row[sx]), int32(row[sx+1]), int32(row[sx+2])
				} else {
					a, b, c = int32(row[reflect101(sx-2, w)]), int32(row[reflect101(sx-1, w)]), int32(row[reflect101(sx, w)])
					d, e = int32(row[reflect101(sx+1, w)]), int32(row[reflect101(sx+2, w)])
				}
				out[x] = a + e + 4*(b+d) + 6*c
			}
		}
		r := p.rows
		o := dst.pix[y*dw : (y+1)*dw]
		for x := range o {
			s := r[x] + r[4*dw+x] + 4*(r[dw+x]+r[3*dw+x]) + 6*r[2*dw+x]
			o[x] = byte((s + 128) >> 8)
		}
	}
}

// scharr returns the Scharr derivatives of p ([3 10 3] smoothing, central difference;
// unnormalised, as OpenCV's calcSharrDeriv), x and y interleaved, borders reflected.
func scharr(d []int16, p *plane) []int16 {
	w, h := p.w, p.h
	d = grow(d, 2*w*h)
	for y := 0; y < h; y++ {
		r0 := p.pix[reflect101(y-1, h)*w:]
		r1 := p.pix[y*w:]
		r2 := p.pix[reflect101(y+1, h)*w:]
		t0 := func(x int) int { return 3*(int(r0[x])+int(r2[x])) + 10*int(r1[x]) }
		t1 := func(x int) int { return int(r2[x]) - int(r0[x]) }
		out := d[2*y*w : 2*(y+1)*w]
		for _, x := range [2]int{0, w - 1} {
			xl, xr := reflect101(x-1, w), reflect101(x+1, w)
			out[2*x] = int16(t0(xr) - t0(xl))
			out[2*x+1] = int16(3*(t1(xl)+t1(xr)) + 10*t1(x))
		}
		for x := 1; x < w-1; x++ {
			a0, a1, a2 := int(r0[x-1]), int(r1[x-1]), int(r2[x-1])
			c0, c1, c2 := int(r0[x+1]), int(r1[x+1]), int(r2[x+1])
			out[2*x] = int16(3*(c0+c2) + 10*c1 - 3*(a0+a2) - 10*a1)
			out[2*x+1] = int16(3*(a2-a0+c2-c0) + 10*(int(r2[x])-int(r0[x])))
		}
	}
	return d
}

// lkWork holds one point's window.
type lkWork struct {
	iwin  [lkWindow * lkWindow]int32
	dwin  [2 * lkWindow * lkWindow]int32
	valid bool
}

func descale(x int32, n uint) int32 { return (x + 1<<(n-1)) >> n }

// weights are the bilinear weights of the fractional offset (a, b), in 14 bits.
func weights(a, b float32) (w00, w01, w10, w11 int32) {
	w00 = int32(math.RoundToEven(float64((1 - a) * (1 - b) * (1 << wBits))))
	w01 = int32(math.RoundToEven(float64(a * (1 - b) * (1 << wBits))))
	w10 = int32(math.RoundToEven(float64((1 - a) * b * (1 << wBits))))
	w11 = 1<<wBits - w00 - w01 - w10
	return
}

// at reads p at (x, y), reflected into the plane.
func at(p *plane, x, y int) int32 { return int32(p.pix[reflect101(y, p.h)*p.w+reflect101(x, p.w)]) }

// derivAt reads the derivatives at (x, y); outside the plane they are 0, as OpenCV pads them.
func derivAt(d []int16, w, h, x, y int) (int32, int32) {
	if x < 0 || y < 0 || x >= w || y >= h {
		return 0, 0
	}
	i := 2 * (y*w + x)
	return int32(d[i]), int32(d[i+1])
}

// flow follows pt (base-level pixels, pixel centres at whole numbers) from pyramid a to
// pyramid b and returns where it went, false where the window left the picture or had too
// little texture.
func (lw *lkWork) flow(a, b *pyramid, x, y float32) (nx, ny float32, ok bool) {
	half := float32(lkWindow-1) * 0.5
	ok = true
	for level := lkLevels; level >= 0; level-- {
		scale := float32(1) / float32(int(1)<<level)
		px, py := x*scale, y*scale
		if level == lkLevels {
			nx, ny = px, py
		} else {
			nx, ny = nx*2, ny*2
		}
		I, J := &a.levels[level], &b.levels[level]
		dI := a.deriv[level]
		px -= half
		py -= half
		ipx, ipy := int(math.Floor(float64(px))), int(math.Floor(float64(py)))
		if ipx < -lkWindow || ipx >= I.w || ipy < -lkWindow || ipy >= I.h {
			if level == 0 {
				return nx, ny, false
			}
			continue
		}
		w00, w01, w10, w11 := weights(px-float32(ipx), py-float32(ipy))
		var a11, a12, a22 int64
		inside := ipx >= 0 && ipy >= 0 && ipx+lkWindow < I.w && ipy+lkWindow < I.h
		for wy := 0; wy < lkWindow; wy++ {
			for wx := 0; wx < lkWindow; wx++ {
				sx, sy := ipx+wx, ipy+wy
				var iv, x00, y00, x01, y01, x10, y10, x11, y11 int32
				if inside {
					o := sy*I.w + sx
					iv = descale(int32(I.pix[o])*w00+int32(I.pix[o+1])*w01+int32(I.pix[o+I.w])*w10+int32(I.pix[o+I.w+1])*w11, wBits-5)
					d0, d1 := dI[2*o:2*o+4], dI[2*(o+I.w):2*(o+I.w)+4]
					x00, y00, x01, y01 = int32(d0[0]), int32(d0[1]), int32(d0[2]), int32(d0[3])
					x10, y10, x11, y11 = int32(d1[0]), int32(d1[1]), int32(d1[2]), int32(d1[3])
				} else {
					iv = descale(at(I, sx, sy)*w00+at(I, sx+1, sy)*w01+at(I, sx, sy+1)*w10+at(I, sx+1, sy+1)*w11, wBits-5)
					x00, y00 = derivAt(dI, I.w, I.h, sx, sy)
					x01, y01 = derivAt(dI, I.w, I.h, sx+1, sy)
					x10, y10 = derivAt(dI, I.w, I.h, sx, sy+1)
					x11, y11 = derivAt(dI, I.w, I.h, sx+1, sy+1)
				}
				ix := descale(x00*w00+x01*w01+x10*w10+x11*w11, wBits)
				iy := descale(y00*w00+y01*w01+y10*w10+y11*w11, wBits)
				k := wy*lkWindow + wx
				lw.iwin[k] = iv
				lw.dwin[2*k], lw.dwin[2*k+1] = ix, iy
				a11 += int64(ix * ix)
				a12 += int64(ix * iy)
				a22 += int64(iy * iy)
			}
		}
		const fltScale = float32(1) / (1 << 20)
		A11, A12, A22 := float32(a11)*fltScale, float32(a12)*fltScale, float32(a22)*fltScale
		D := A11*A22 - A12*A12
		minEig := (A22 + A11 - float32(math.Sqrt(float64((A11-A22)*(A11-A22)+4*A12*A12)))) / float32(2*lkWindow*lkWindow)
		if minEig < lkMinEig || D < 1.1920929e-07 {
			if level == 0 {
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
				if level == 0 {
					ok = false
				}
				break
			}
			v00, v01, v10, v11 := weights(nx-float32(inx), ny-float32(iny))
			var b1, b2 int64
			if inx >= 0 && iny >= 0 && inx+lkWindow < J.w && iny+lkWindow < J.h {
				// The window and its right and lower neighbours lie inside: no reflection.
				for wy := 0; wy < lkWindow; wy++ {
					r0 := J.pix[(iny+wy)*J.w+inx:]
					r1 := J.pix[(iny+wy+1)*J.w+inx:]
					iw := lw.iwin[wy*lkWindow : (wy+1)*lkWindow]
					dw := lw.dwin[2*wy*lkWindow : 2*(wy+1)*lkWindow]
					for wx := range iw {
						v := int32(r0[wx])*v00 + int32(r0[wx+1])*v01 + int32(r1[wx])*v10 + int32(r1[wx+1])*v11
						diff := descale(v, wBits-5) - iw[wx]
						b1 += int64(diff * dw[2*wx])
						b2 += int64(diff * dw[2*wx+1])
					}
				}
			} else {
				for wy := 0; wy < lkWindow; wy++ {
					for wx := 0; wx < lkWindow; wx++ {
						sx, sy := inx+wx, iny+wy
						k := wy*lkWindow + wx
						diff := descale(at(J, sx, sy)*v00+at(J, sx+1, sy)*v01+at(J, sx, sy+1)*v10+at(J, sx+1, sy+1)*v11, wBits-5) - lw.iwin[k]
						b1 += int64(diff * lw.dwin[2*k])
						b2 += int64(diff * lw.dwin[2*k+1])
					}
				}
			}
			B1, B2 := float32(b1)*fltScale, float32(b2)*fltScale
			dx, dy := (A12*B2-A22*B1)*D, (A12*B1-A11*B2)*D
			nx += dx
			ny += dy
			if dx*dx+dy*dy <= lkEpsilon*lkEpsilon {
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
