package composite

import "encoding/binary"

// Space is the colour space a layer is drawn in, chosen by the frame it is composited onto:
// three linear functions of a premultiplied R'G'B'A colour (components 0..1) that give the
// frame's own components in its code values (8- or 10-bit), premultiplied, and alpha as it
// is. See the package comment for why Y'CbCr can be drawn in directly.
type Space struct {
	// M[i] holds the coefficients of channel i for r, g, b and α, in that order.
	M [3][4]float32
}

// Color returns the channels of the premultiplied colour (r, g, b, a) in s: channel i is
// ((M[i][0]·r + M[i][1]·g) + M[i][2]·b) + M[i][3]·a, each product rounded before the sum,
// and channel Alpha is a. Twin: layerColor (kernels/tile.cuh).
func (s *Space) Color(r, g, b, a float32) [Channels]float32 {
	var c [Channels]float32
	for i := range s.M {
		m := &s.M[i]
		// The conversions keep the compiler from fusing a product into the next sum (it may
		// with GOAMD64=v3): no FMA, as in the CUDA kernels.
		c[i] = float32(float32(float32(m[0]*r)+float32(m[1]*g))+float32(m[2]*b)) + float32(m[3]*a)
	}
	c[Alpha] = a
	return c
}

// RGBASpace is the space of RGBA frames: R', G' and B' in code values (255 for 1).
func RGBASpace() Space {
	return Space{M: [3][4]float32{{255, 0, 0, 0}, {0, 255, 0, 0}, {0, 0, 255, 0}}}
}

// YCbCrSpace is the space of 8-bit Y'CbCr frames with matrix m and range r: Y', Cb and Cr
// in code values, their offsets (16 or 0, 128) scaled by alpha.
func YCbCrSpace(m Matrix, r Range) Space { return YCbCrSpaceDepth(m, r, 8) }

// YCbCrSpaceDepth is the space of Y'CbCr frames of the given bit depth (8 or 10) with matrix
// m and range r, in that depth's code values (BT.2100 quantisation): limited range scales
// 8-bit's 16, 219 and 224 by 2^(depth−8) (10-bit: Y' 64..940, Cb and Cr 64..960), full range
// spans 0..2^depth − 1, and the chroma offset is 2^(depth−1) (128, 512).
func YCbCrSpaceDepth(m Matrix, r Range, depth int) Space {
	k := coeffsFor(m, r, depth)
	return Space{M: [3][4]float32{
		{k.yR, k.yG, k.yB, k.yOff},
		{k.cbR, k.cbG, k.cbB, k.cOff},
		{k.crR, k.crG, k.crB, k.cOff},
	}}
}

// coeffs carry a premultiplied R'G'B' colour (0..1) into the Y'CbCr code values it adds, with
// the matrix, range and bit depth folded in.
type coeffs struct {
	yOff          float32 // 16 (limited) or 0 (full), times 2^(depth−8)
	cOff          float32 // 128, times 2^(depth−8)
	yR, yG, yB    float32
	cbR, cbG, cbB float32
	crR, crG, crB float32
}

func coeffsFor(m Matrix, r Range, depth int) coeffs {
	kr, kb := float32(0.2126), float32(0.0722)
	switch m {
	case BT601:
		kr, kb = 0.299, 0.114
	case BT2020:
		kr, kb = 0.2627, 0.0593
	}
	kg := 1 - kr - kb
	scale := float32(int(1) << (depth - 8))
	sy, sc, off := 219*scale, 224*scale, 16*scale
	if r == Full {
		full := float32(int(1)<<depth - 1)
		sy, sc, off = full, full, 0
	}
	// Pb = (B' − Y')/(2(1 − Kb)), Pr = (R' − Y')/(2(1 − Kr)).
	pb, pr := sc/(2*(1-kb)), sc/(2*(1-kr))
	return coeffs{
		yOff: off, cOff: 128 * scale,
		yR: sy * kr, yG: sy * kg, yB: sy * kb,
		cbR: -kr * pb, cbG: -kg * pb, cbB: (1 - kb) * pb,
		crR: (1 - kr) * pr, crG: -kg * pr, crB: -kb * pr,
	}
}

// blend returns the sample under layer value c with alpha a: c + (1 − a)·sample, rounded to
// the nearest byte and saturated (over never leaves 0..255 by more than rounding, except
// full-range chroma, which can reach 255.5). The product is rounded before the sum (the
// conversion keeps the compiler from fusing them), as the assembly and the CUDA kernels do.
// Twin: blend (kernels/composite.cu).
func blend(sample byte, c, a float32) byte {
	return byte(blendTo(float32(sample), c, a, 255))
}

// blendTo is blend for samples of any depth: c + (1 − a)·sample, plus one half, saturated
// to 0..top; the caller truncates it to an integer.
func blendTo(sample, c, a, top float32) float32 {
	return roundTo(c+float32((1-a)*sample), top)
}

// roundTo is v plus one half, saturated to 0..top; the caller truncates it to an integer.
func roundTo(v, top float32) float32 { return min(max(v+0.5, 0), top) }

// sampleFormat is how a plane holds its samples: a byte each (8-bit), or a little-endian
// 16-bit word each holding 10 bits in its low bits (yuv420p10le) or its high bits (P010,
// whose low 6 bits are zero).
type sampleFormat struct {
	size  int  // bytes a sample
	shift uint // the value's place in its word
}

var (
	bits8     = sampleFormat{size: 1}
	bits10Low = sampleFormat{size: 2}
	bits10Hi  = sampleFormat{size: 2, shift: 6}
)

// blendAt blends layer value c with alpha a onto the sample at the start of p. Twin:
// blend10 (kernels/composite.cu).
func (sf sampleFormat) blendAt(p []byte, c, a float32) {
	s, top := sf.at(p)
	sf.put(p, blendTo(s, c, a, top))
}

// screenAt is blendAt for screen's luma (blendConsts.screenLuma): the sample s under
// offset-free luma t with alpha a2 is (t + s) + a2·(o0 − s), which is c0′ + (1 − a2)·s in
// fewer operations. Twin: LUMA_SCREEN8 (over_amd64.s), screenLuma (kernels/composite.cu).
func (sf sampleFormat) screenAt(p []byte, t, a2, o0 float32) {
	s, top := sf.at(p)
	sf.put(p, roundTo((t+s)+float32(a2*(o0-s)), top))
}

// at returns the sample at the start of p and the format's largest sample.
func (sf sampleFormat) at(p []byte) (s, top float32) {
	if sf.size == 1 {
		return float32(p[0]), 255
	}
	return float32(binary.LittleEndian.Uint16(p) >> sf.shift), 1023
}

// put stores v, rounded and saturated (roundTo), as the sample at the start of p.
func (sf sampleFormat) put(p []byte, v float32) {
	if sf.size == 1 {
		p[0] = byte(v)
		return
	}
	binary.LittleEndian.PutUint16(p, uint16(v)<<sf.shift)
}

// Over implements HostSurface. Pixels of alpha 0 are left as they are.
func (f *RGBA) Over(t *Tile) {
	defer t.Clear()
	if t.blend.mode.picks() {
		t.pick(&frameLuma{pix: f.Pix, stride: f.Stride, rgba: true})
	}
	t.applyBlend()
	r, g, b, al := &t.Planes[0], &t.Planes[1], &t.Planes[2], &t.Planes[Alpha]
	for y := 0; y < t.H; y++ {
		s := t.Span[y]
		off := (t.Y0+y)*f.Stride + 4*t.X0
		dst := f.Pix[off : off+4*t.W]
		for x := int(s.X0); x < int(s.X1); x++ {
			i := y*TileSize + x
			a := al[i]
			if a == 0 {
				continue
			}
			p := dst[4*x : 4*x+4 : 4*x+4]
			p[0] = blend(p[0], r[i], a)
			p[1] = blend(p[1], g[i], a)
			p[2] = blend(p[2], b[i], a)
			p[3] = blend(p[3], float32(a*255), a)
		}
	}
}

// Over implements HostSurface.
func (f *YUV420P) Over(t *Tile) {
	overYCbCr(f.Y, f.StrideY, f.U, f.StrideU, f.V, f.StrideV, 1, bits8, t)
}

// Over implements HostSurface.
func (f *NV12) Over(t *Tile) {
	overYCbCr(f.Y, f.StrideY, f.UV, f.StrideUV, f.UV[1:], f.StrideUV, 2, bits8, t)
}

// Over implements HostSurface (in Go on every machine).
func (f *YUV420P10) Over(t *Tile) {
	overYCbCr(f.Y, f.StrideY, f.U, f.StrideU, f.V, f.StrideV, 2, bits10Low, t)
}

// Over implements HostSurface (in Go on every machine).
func (f *P010) Over(t *Tile) {
	overYCbCr(f.Y, f.StrideY, f.UV, f.StrideUV, f.UV[2:], f.StrideUV, 4, bits10Hi, t)
}

// Prefetch implements Prefetcher.
func (f *YUV420P) Prefetch(x0, y0, w, h int) {
	prefetchPlane(f.Y, f.StrideY, x0, y0, h)
	prefetchPlane(f.U, f.StrideU, x0/2, y0/2, (h+1)/2)
	prefetchPlane(f.V, f.StrideV, x0/2, y0/2, (h+1)/2)
}

// Prefetch implements Prefetcher.
func (f *NV12) Prefetch(x0, y0, w, h int) {
	prefetchPlane(f.Y, f.StrideY, x0, y0, h)
	prefetchPlane(f.UV, f.StrideUV, x0/2*2, y0/2, (h+1)/2)
}

// prefetchPlane asks for the cache line at column x0 of rows [y0, y0+rows) of a plane: a
// tile's row of a 4:2:0 plane (64, 32 or 64 interleaved bytes) is one line when the rows are
// aligned, as decoders align them.
func prefetchPlane(p []byte, stride, x0, y0, rows int) {
	if rows > 0 && haveAVX2 {
		_ = p[(y0+rows-1)*stride+x0]
		prefetchRows(&p[y0*stride+x0], stride, rows)
	}
}

// Offsets within a tile, in floats, that the assembly (over_amd64.s) relies on: the Cr plane
// follows the Cb plane, the alpha plane follows the Cr plane, and rows are TileSize apart.
const (
	planeStride = TileSize * TileSize
	rowStride   = TileSize
)

// overYCbCr composites the tile onto a 4:2:0 frame's luma (y) and chroma samples, held as sf
// says (the Cb and Cr samples of chroma column x start at bytes x·step and x·step of their
// rows of u and v), zeroing the planes as it reads them, and leaves the tile clear. With
// AVX2, an 8-bit tile whose width is a multiple of 16 runs tileAVX2, which blends a pair of
// rows' luma and chroma in one pass, each plane read once; other tiles (at the right edge of
// odd-sized frames, and 10-bit frames) run the Go twins, overChromaGo then overLumaGo
// (chroma first: the luma blend clears the alpha both read). Both make screen as they read
// the layer (Tile.Blend); add is made first by applyBlend on the Go path. Multiply, lighten
// and darken are made first on both (applyBlend, pick: a pass over the spans each), and the
// layer then composited as over.
func overYCbCr(y []byte, yStride int, u []byte, uStride int, v []byte, vStride int, step int, sf sampleFormat, t *Tile) {
	switch {
	case t.blend.mode == BlendMultiply:
		t.applyBlend()
	case t.blend.mode.picks():
		t.pick(&frameLuma{pix: y, stride: yStride, sf: sf})
	}
	if haveAVX2 && sf.size == 1 && t.W%16 == 0 {
		rows, last := (t.H+1)/2, (t.W/2-1)*step
		yo := t.Y0*yStride + t.X0
		uo, vo := t.Y0/2*uStride+t.X0/2*step, t.Y0/2*vStride+t.X0/2*step
		_, _, _ = y[yo+(t.H-1)*yStride+t.W-1], u[uo+(rows-1)*uStride+last], v[vo+(rows-1)*vStride+last]
		tileAVX2(&y[yo], yStride, &u[uo], &v[vo], uStride, vStride, step, &t.Planes[0][0], &t.Span[0], t.H, t.W, &t.blend.k, t.blend.mode)
	} else {
		var screen *blendConsts
		if t.blend.mode == BlendScreen {
			screen = &t.blend.k
		} else {
			t.applyBlend()
		}
		overChromaGo(u, uStride, v, vStride, step, sf, screen, t)
		overLumaGo(y, yStride, sf, screen, t)
	}
	t.Span = [TileSize]Span{}
	t.blend = tileBlend{}
}

// overLumaGo composites the tile onto the luma samples (held as sf says) it covers, each
// row's span with lumaRow, screened with screen's constants unless it is nil, and zeroes its
// luma and alpha.
func overLumaGo(plane []byte, stride int, sf sampleFormat, screen *blendConsts, t *Tile) {
	for y := 0; y < t.H; y++ {
		s := t.Span[y]
		if s.X0 >= s.X1 {
			continue
		}
		off := (t.Y0+y)*stride + t.X0*sf.size
		i0, i1 := y*TileSize+int(s.X0), y*TileSize+int(s.X1)
		lumaRow(plane[off+int(s.X0)*sf.size:off+int(s.X1)*sf.size], sf, screen, t.Planes[0][i0:i1], t.Planes[Alpha][i0:i1])
	}
}

// lumaRow blends the luma layer c with alpha a onto the samples of dst (held as sf says), one
// for one, leaving those of alpha 0 as they are, and zeroes c and a. With screen's constants
// (not nil) each pixel is screened (blendConsts.screenLuma, sampleFormat.screenAt).
func lumaRow(dst []byte, sf sampleFormat, screen *blendConsts, c, a []float32) {
	for x := range c {
		switch {
		case a[x] == 0:
		case screen != nil:
			t, a2 := screen.screenLuma(c[x], a[x])
			sf.screenAt(dst[x*sf.size:], t, a2, screen.o[0])
		default:
			sf.blendAt(dst[x*sf.size:], c[x], a[x])
		}
		c[x], a[x] = 0, 0
	}
}

// overChromaGo composites the tile onto the 4:2:0 chroma samples it covers, screened with
// screen's constants unless it is nil, and zeroes its Cb and Cr: each sample takes the mean
// of the layer over its 2×2 block (fewer pixels at an odd frame edge), which equals
// compositing each pixel and averaging.
func overChromaGo(u []byte, uStride int, v []byte, vStride int, step int, sf sampleFormat, screen *blendConsts, t *Tile) {
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
		b0, b1 := int(lo)/2, (int(hi)+1)/2
		// Below an odd bottom edge the block has one row (the tile's next row is zero), and at
		// an odd right edge one column (the column past the tile's width is zero).
		rows := min(2, t.H-y0)
		urow := u[(cy0+cy)*uStride+cx0*step:]
		vrow := v[(cy0+cy)*vStride+cx0*step:]
		urow, vrow = urow[:(cw-1)*step+sf.size], vrow[:(cw-1)*step+sf.size]
		whole := min(b1, t.W/2) // blocks of two columns
		chromaRow(urow, vrow, step, sf, screen, t, y0*TileSize, b0, whole, 1/float32(2*rows))
		if b1 > whole { // the lone column at an odd right edge
			chromaRow(urow, vrow, step, sf, screen, t, y0*TileSize, whole, b1, 1/float32(rows))
		}
	}
}

// chromaRow blends the 2×2 blocks [b0, b1) of the pair of tile rows starting at index row of
// the planes onto their chroma samples (held as sf says, at bytes i·step of u and v for
// block i): it sums each block's four pixels of each of Cb, Cr and alpha as (top left +
// bottom left) + (top right + bottom right), scales the sums by mean and blends them, unless
// the block's alpha sums to 0, and zeroes the block's Cb and Cr. With screen's constants
// (not nil) the sums are screened: the alpha sum is that of the pixels' α′ (screenLuma's),
// and each chroma sum Σc takes o·(Σα′ − Σα), which is the sum of the pixels' c′ (the package
// comment's "Add and screen").
func chromaRow(u, v []byte, step int, sf sampleFormat, screen *blendConsts, t *Tile, row, b0, b1 int, mean float32) {
	y, cb, cr, al := &t.Planes[0], &t.Planes[1], &t.Planes[2], &t.Planes[Alpha]
	sum := func(p *[planeStride]float32, i int) float32 {
		s := (p[i] + p[i+rowStride]) + (p[i+1] + p[i+rowStride+1])
		if p != al {
			p[i], p[i+rowStride], p[i+1], p[i+rowStride+1] = 0, 0, 0, 0
		}
		return s
	}
	alpha2 := func(i int) float32 {
		_, a2 := screen.screenLuma(y[i], al[i])
		return a2
	}
	for b := b0; b < b1; b++ {
		i := row + 2*b
		a, scb, scr := sum(al, i), sum(cb, i), sum(cr, i)
		if screen != nil {
			a2 := (alpha2(i) + alpha2(i+rowStride)) + (alpha2(i+1) + alpha2(i+rowStride+1))
			d := a2 - a
			scb += float32(screen.o[1] * d)
			scr += float32(screen.o[2] * d)
			a = a2
		}
		if a == 0 {
			continue
		}
		a *= mean
		sf.blendAt(u[b*step:], scb*mean, a)
		sf.blendAt(v[b*step:], scr*mean, a)
	}
}
