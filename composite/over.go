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

// Fixed16 are a matrix and range's coefficients (coeffs) in 16.16 fixed point, held as
// float32: what the blends below multiply a layer pixel's premultiplied R'G'B' by. The CUDA
// kernels' composite (kernels/composite.cu) takes them from here, so both blend with the
// same numbers.
type Fixed16 struct {
	YOff, YR, YG, YB float32
	CbR, CbG, CbB    float32
	CrR, CrG, CrB    float32
}

// FixedCoefficients returns the 16.16 coefficients of matrix m and range r.
func FixedCoefficients(m Matrix, r Range) Fixed16 {
	k := coeffsFor(m, r)
	return Fixed16{
		YOff: k.yOff * one, YR: k.yR * one, YG: k.yG * one, YB: k.yB * one,
		CbR: k.cbR * one, CbG: k.cbG * one, CbB: k.cbB * one,
		CrR: k.crR * one, CrG: k.crG * one, CrB: k.crB * one,
	}
}

// toByte rounds v to the nearest byte, saturating. (Over never leaves 0..255 by more than
// rounding, except full-range chroma, which can reach 255.5.)
func toByte(v float32) byte {
	return byte(min(max(v+0.5, 0), 255))
}

// Over implements HostSurface.
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

// Over implements HostSurface.
func (f *YUV420P) Over(t *Tile) {
	k := FixedCoefficients(f.Matrix, f.Range)
	overLuma(f.Y, f.StrideY, t, &k)
	overChroma(f.U, f.StrideU, f.V, f.StrideV, 1, t, &k)
}

// Over implements HostSurface.
func (f *NV12) Over(t *Tile) {
	k := FixedCoefficients(f.Matrix, f.Range)
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

// lumaCoeffs are Fixed16's luma row, laid out for the assembly (over_amd64.s).
type lumaCoeffs struct {
	off, r, g, b float32
}

// chromaCoeffs are Fixed16's chroma rows, laid out for the assembly (over_amd64.s).
type chromaCoeffs struct {
	cbR, cbG, cbB float32
	crR, crG, crB float32
	mean          float32 // 1/(pixels in a block): 1/4, or 1/2 in a lone row at an odd bottom edge
}

func overLuma(plane []byte, stride int, t *Tile, k *Fixed16) {
	kl := lumaCoeffs{k.YOff, k.YR, k.YG, k.YB}
	for y := 0; y < t.H; y++ {
		s := t.Span[y]
		if s.X0 >= s.X1 {
			continue
		}
		row := t.Pix[y*TileSize*4 : y*TileSize*4+4*t.W]
		off := (t.Y0+y)*stride + t.X0
		lumaSpan(plane[off:off+t.W], row, int(s.X0), int(s.X1), &kl)
	}
}

// lumaSpan blends pixels [x0, x1) of one tile row (row, 4·W floats) onto its luma samples
// (dst, W bytes). With AVX2 it runs lumaAVX2 over whole groups of 8 pixels: a span that is
// not a multiple of 8 is widened to one, within the tile, and the lanes outside [x0, x1)
// keep their sample (the assembly rewrites it unchanged; the tile's samples are this
// worker's alone). Only a tile narrower than the widened span takes the Go loop.
func lumaSpan(dst []byte, row []float32, x0, x1 int, k *lumaCoeffs) {
	if haveAVX2 {
		groups := (x1 - x0 + 7) / 8
		if w0 := min(x0, len(dst)-8*groups); w0 >= 0 {
			n := 8 * groups
			d, s := dst[w0:w0+n], row[4*w0:4*(w0+n)]
			lumaAVX2(&d[0], &s[0], groups, x0-w0, x1-w0, k)
			return
		}
	}
	lumaRow(dst[x0:x1], row[4*x0:4*x1], k)
}

// lumaRow is the plain Go twin of lumaAVX2: it blends the pixels of src onto the luma
// samples of dst, one for one.
func lumaRow(dst []byte, src []float32, k *lumaCoeffs) {
	// Locals, so that the loop keeps the coefficients in registers.
	yOff, yR, yG, yB := k.off, k.r, k.g, k.b
	for x := range dst {
		p := src[4*x : 4*x+4 : 4*x+4]
		a := p[3]
		if a == 0 {
			continue
		}
		// The conversions keep the compiler from fusing a product into the next sum (it may
		// with GOAMD64=v3): no FMA, as in the assembly and the CUDA kernels.
		dst[x] = blend16(dst[x], int32(a*one), int32(float32(a*yOff)+float32(yR*p[0])+float32(yG*p[1])+float32(yB*p[2])))
	}
}

// overChroma composites the tile onto the 4:2:0 chroma samples it covers: each sample takes
// the mean of the layer over its 2×2 block (fewer pixels at an odd frame edge), which equals
// compositing each pixel in R'G'B' and averaging. The Cb and Cr samples of chroma column x
// are u[x·step] and v[x·step] in their rows.
func overChroma(u []byte, uStride int, v []byte, vStride int, step int, t *Tile, k *Fixed16) {
	kc := chromaCoeffs{cbR: k.CbR, cbG: k.CbG, cbB: k.CbB, crR: k.CrR, crG: k.CrG, crB: k.CrB}
	cx0, cy0 := t.X0/2, t.Y0/2
	cw := (t.W + 1) / 2 // chroma columns of the tile, a lone one at an odd right edge included
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
		kc.mean = 1 / (2 * rows)
		r0 := t.Pix[y0*TileSize*4 : y0*TileSize*4+4*t.W]
		r1 := t.Pix[(y0+1)*TileSize*4 : (y0+1)*TileSize*4+4*t.W]
		urow := u[(cy0+cy)*uStride+cx0*step:]
		vrow := v[(cy0+cy)*vStride+cx0*step:]
		urow, vrow = urow[:(cw-1)*step+1], vrow[:(cw-1)*step+1]
		chromaSpan(urow, vrow, step, r0, r1, int(lo)/2, int(hi)/2, &kc)
		if hi&1 != 0 { // a lone column at an odd right edge
			x := 4 * int(hi-1)
			a := r0[x+3] + r1[x+3]
			if a == 0 {
				continue
			}
			mean := 1 / rows
			// No FMA, as in lumaRow.
			r := float32(r0[x]*mean) + float32(r1[x]*mean)
			g := float32(r0[x+1]*mean) + float32(r1[x+1]*mean)
			b := float32(r0[x+2]*mean) + float32(r1[x+2]*mean)
			a *= mean
			i := int(hi-1) / 2 * step
			ia := int32(a * one)
			urow[i] = blend16(urow[i], ia, int32(float32(a*(128*one))+float32(kc.cbR*r)+float32(kc.cbG*g)+float32(kc.cbB*b)))
			vrow[i] = blend16(vrow[i], ia, int32(float32(a*(128*one))+float32(kc.crR*r)+float32(kc.crG*g)+float32(kc.crB*b)))
		}
	}
}

// chromaSpan blends the whole 2×2 blocks [b0, b1) of a pair of tile rows (r0, r1: 4·W floats
// each) onto their chroma samples (u[i·step], v[i·step] for block i). With AVX2 it runs
// chromaAVX2 over groups of 8 blocks, widened within the tile's whole blocks as lumaSpan
// widens a span; a tile narrower than that takes the Go loop.
func chromaSpan(u, v []byte, step int, r0, r1 []float32, b0, b1 int, k *chromaCoeffs) {
	if b0 >= b1 {
		return
	}
	if haveAVX2 {
		groups := (b1 - b0 + 7) / 8
		if w0 := min(b0, len(r0)/8-8*groups); w0 >= 0 {
			n := 8 * groups
			uw, vw := u[w0*step:(w0+n-1)*step+1], v[w0*step:(w0+n-1)*step+1]
			s0, s1 := r0[8*w0:8*(w0+n)], r1[8*w0:8*(w0+n)]
			chromaAVX2(&uw[0], &vw[0], step, &s0[0], &s1[0], groups, b0-w0, b1-w0, k)
			return
		}
	}
	chromaRow(u[b0*step:], v[b0*step:], step, r0[8*b0:8*b1], r1[8*b0:8*b1], k)
}

// chromaRow is the plain Go twin of chromaAVX2: it blends each 2×2 block of the rows r0 and
// r1 (two pixels of each) onto the chroma samples u[i·step] and v[i·step] of block i.
func chromaRow(u, v []byte, step int, r0, r1 []float32, k *chromaCoeffs) {
	cbR, cbG, cbB := k.cbR, k.cbG, k.cbB
	crR, crG, crB := k.crR, k.crG, k.crB
	mean := k.mean
	for x := 0; x+7 < len(r0) && x+7 < len(r1); x += 8 {
		a := r0[x+3] + r0[x+7] + r1[x+3] + r1[x+7]
		if a == 0 {
			continue
		}
		r := r0[x] + r0[x+4] + r1[x] + r1[x+4]
		g := r0[x+1] + r0[x+5] + r1[x+1] + r1[x+5]
		b := r0[x+2] + r0[x+6] + r1[x+2] + r1[x+6]
		r, g, b, a = r*mean, g*mean, b*mean, a*mean
		i := x / 8 * step
		ia := int32(a * one)
		// No FMA, as in lumaRow.
		u[i] = blend16(u[i], ia, int32(float32(a*(128*one))+float32(cbR*r)+float32(cbG*g)+float32(cbB*b)))
		v[i] = blend16(v[i], ia, int32(float32(a*(128*one))+float32(crR*r)+float32(crG*g)+float32(crB*b)))
	}
}
