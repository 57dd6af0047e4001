package composite

// coeffs carry a layer pixel's premultiplied R'G'B' (0..1) into the 8-bit Y'CbCr values it
// adds under "over", with the matrix and range folded in.
type coeffs struct {
	yOff          float32 // 16 (limited) or 0 (full)
	yR, yG, yB    float32
	cbR, cbG, cbB float32
	crR, crG, crB float32
}

func coeffsFor(m Matrix, r Range) coeffs {
	kr, kb := float32(0.2126), float32(0.0722)
	if m == BT601 {
		kr, kb = 0.299, 0.114
	}
	kg := 1 - kr - kb
	sy, sc, off := float32(219), float32(224), float32(16)
	if r == Full {
		sy, sc, off = 255, 255, 0
	}
	// Pb = (B' − Y')/(2(1 − Kb)), Pr = (R' − Y')/(2(1 − Kr)).
	pb, pr := sc/(2*(1-kb)), sc/(2*(1-kr))
	return coeffs{
		yOff: off,
		yR:   sy * kr, yG: sy * kg, yB: sy * kb,
		cbR: -kr * pb, cbG: -kg * pb, cbB: (1 - kb) * pb,
		crR: (1 - kr) * pr, crG: -kg * pr, crB: -kb * pr,
	}
}

// toByte rounds v to the nearest byte, saturating. (Over never leaves 0..255 by more than
// rounding, except full-range chroma, which can reach 255.5.)
func toByte(v float32) byte {
	return byte(min(max(v+0.5, 0), 255))
}

// Over implements Frame.
func (f *RGBA) Over(t *Tile) {
	for y := 0; y < t.H; y++ {
		s := t.Span[y]
		if s.X0 >= s.X1 {
			continue
		}
		src := t.Pix[y*TileSize*4+4*int(s.X0) : y*TileSize*4+4*int(s.X1)]
		off := (t.Y0+y)*f.Stride + 4*(t.X0+int(s.X0))
		dst := f.Pix[off : off+len(src)]
		for i := 0; i+3 < len(src) && i+3 < len(dst); i += 4 {
			a := src[i+3]
			if a == 0 {
				continue
			}
			k := 1 - a
			dst[i] = toByte(src[i]*255 + float32(dst[i])*k)
			dst[i+1] = toByte(src[i+1]*255 + float32(dst[i+1])*k)
			dst[i+2] = toByte(src[i+2]*255 + float32(dst[i+2])*k)
			dst[i+3] = toByte(a*255 + float32(dst[i+3])*k)
		}
	}
}

// Over implements Frame.
func (f *YUV420P) Over(t *Tile) {
	k := coeffsFor(f.Matrix, f.Range)
	overLuma(f.Y, f.StrideY, t, &k)
	overChroma(f.U, f.StrideU, f.V, f.StrideV, 1, t, &k)
}

// Over implements Frame.
func (f *NV12) Over(t *Tile) {
	k := coeffsFor(f.Matrix, f.Range)
	overLuma(f.Y, f.StrideY, t, &k)
	overChroma(f.UV, f.StrideUV, f.UV[1:], f.StrideUV, 2, t, &k)
}

// The blends below are in 16.16 fixed point: here integer multiply-adds ran about 1.5× faster
// than the float32 formula with its float→byte conversion, for results within ±1/2 of a code
// value of it (composite_test.go checks them against the float formula).
const one = 1 << 16

// blend16 returns dst·(1 − α) + add, rounded and saturated, with α and add in 16.16.
func blend16(dst byte, alpha, add int32) byte {
	v := (int32(dst)*(one-alpha) + add + one/2) >> 16
	return byte(min(max(v, 0), 255))
}

func overLuma(plane []byte, stride int, t *Tile, k *coeffs) {
	// Locals, so that the loop keeps the coefficients in registers.
	yOff, yR, yG, yB := k.yOff*one, k.yR*one, k.yG*one, k.yB*one
	for y := 0; y < t.H; y++ {
		s := t.Span[y]
		if s.X0 >= s.X1 {
			continue
		}
		src := t.Pix[y*TileSize*4+4*int(s.X0) : y*TileSize*4+4*int(s.X1)]
		off := (t.Y0+y)*stride + t.X0 + int(s.X0)
		dst := plane[off : off+len(src)/4]
		for x := range dst {
			p := src[4*x : 4*x+4 : 4*x+4]
			a := p[3]
			if a == 0 {
				continue
			}
			dst[x] = blend16(dst[x], int32(a*one), int32(a*yOff+yR*p[0]+yG*p[1]+yB*p[2]))
		}
	}
}

// overChroma composites the tile onto the 4:2:0 chroma samples it covers: each sample takes
// the mean of the layer over its 2×2 block (fewer pixels at an odd frame edge), which equals
// compositing each pixel in R'G'B' and averaging. The Cb and Cr samples of chroma column x
// are u[x·step] and v[x·step] in their rows.
func overChroma(u []byte, uStride int, v []byte, vStride int, step int, t *Tile, k *coeffs) {
	cbR, cbG, cbB := k.cbR*one, k.cbG*one, k.cbB*one
	crR, crG, crB := k.crR*one, k.crG*one, k.crB*one
	cx0, cy0 := t.X0/2, t.Y0/2
	for cy := 0; cy < (t.H+1)/2; cy++ {
		y0 := 2 * cy
		s0, s1 := t.Span[y0], Span{}
		if y0+1 < t.H {
			s1 = t.Span[y0+1]
		}
		lo, hi := min(s0.X0, s1.X0), max(s0.X1, s1.X1)
		if s0.X0 >= s0.X1 {
			lo, hi = s1.X0, s1.X1
		} else if s1.X0 >= s1.X1 {
			lo, hi = s0.X0, s0.X1
		}
		if lo >= hi {
			continue
		}
		lo &^= 1
		hi = min(hi+hi&1, int32(t.W))
		// Below an odd bottom edge the second row of the tile is zero, and the block has one row.
		rows := float32(min(2, t.H-y0))
		r0 := t.Pix[y0*TileSize*4+4*int(lo) : y0*TileSize*4+4*int(hi)]
		r1 := t.Pix[(y0+1)*TileSize*4+4*int(lo) : (y0+1)*TileSize*4+4*int(hi)]
		urow := u[(cy0+cy)*uStride+cx0*step:]
		vrow := v[(cy0+cy)*vStride+cx0*step:]
		for x := 0; x+7 < len(r0) && x+7 < len(r1); x += 8 {
			a := r0[x+3] + r0[x+7] + r1[x+3] + r1[x+7]
			if a == 0 {
				continue
			}
			r := r0[x] + r0[x+4] + r1[x] + r1[x+4]
			g := r0[x+1] + r0[x+5] + r1[x+1] + r1[x+5]
			b := r0[x+2] + r0[x+6] + r1[x+2] + r1[x+6]
			mean := 1 / (2 * rows)
			r, g, b, a = r*mean, g*mean, b*mean, a*mean
			i := (int(lo) + x/4) / 2 * step
			ia := int32(a * one)
			urow[i] = blend16(urow[i], ia, int32(a*(128*one)+cbR*r+cbG*g+cbB*b))
			vrow[i] = blend16(vrow[i], ia, int32(a*(128*one)+crR*r+crG*g+crB*b))
		}
		if w := len(r0); w%8 != 0 { // a lone column at an odd right edge
			x := w - 4
			a := r0[x+3] + r1[x+3]
			if a == 0 {
				continue
			}
			mean := 1 / rows
			r, g, b := r0[x]*mean+r1[x]*mean, r0[x+1]*mean+r1[x+1]*mean, r0[x+2]*mean+r1[x+2]*mean
			a *= mean
			i := (int(lo) + x/4) / 2 * step
			ia := int32(a * one)
			urow[i] = blend16(urow[i], ia, int32(a*(128*one)+cbR*r+cbG*g+cbB*b))
			vrow[i] = blend16(vrow[i], ia, int32(a*(128*one)+crR*r+crG*g+crB*b))
		}
	}
}
