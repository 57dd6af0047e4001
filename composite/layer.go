package composite

import (
	"bytes"
	"encoding/binary"
)

// The overlay alone, as a layer with alpha for an editor (a layer-only render).
//
// The overlay is drawn onto a transparent RGBA frame (all zero) exactly as onto a picture:
// RGBA's Over composites each tile with out = c + (1 − α)·out, so after the draw the frame
// holds the layer's premultiplied R'G'B'A in 8-bit code values, P = 255·α·C and A = 255·α
// for the straight colour C (0..1). Compositing it back with straight alpha,
//
//	out = A/255·(P/A) + (1 − A/255)·picture = P/255 + (1 − α)·picture,
//
// gives the burnt-in render's out = c + (1 − α)·picture in R'G'B', to the rounding of P and
// A (half a code value each).
//
// Editors, PNG and FFmpeg take straight (unassociated) alpha, so the layer leaves in straight
// form, C = P/A, converted here into the encoder's layout:
//   - StraightRGBA and StraightARGB: 8-bit R'G'B'A (PNG) and A R'G'B' (QuickTime
//     Animation), C rounded to the nearest code value;
//   - YUVA444P10: 10-bit planar Y'CbCr 4:4:4 with alpha (ProRes 4444), and YUVA420P: 8-bit
//     Y'CbCr 4:2:0 with alpha (VP9), in BT.709 at limited range (the Space of YCbCrSpaceDepth),
//     whatever the source's matrix and range: a layer is drawn in R'G'B' and only the
//     editor knows what it will meet. Alpha spans the full range (0..1023, 0..255), as
//     FFmpeg's yuva formats hold it. A 4:2:0 chroma sample is the alpha-weighted mean of its
//     2×2 block's straight colours, Σ(α·C)/Σα: the colour the block's covered pixels show,
//     not darkened by the undefined colour of transparent ones.
//
// Each conversion drains the frame as it reads it, leaving it transparent for the next
// draw, so a render touches each layer pixel once more, not twice; pixels of alpha 0 take a
// fast path eight bytes at a time. A transparent pixel's straight colour is black.

// LayerSpace is the Y'CbCr a layer is written in: BT.709 at limited range, in 10-bit code
// values for ProRes (LayerSpace(10)) or 8-bit for VP9 (LayerSpace(8)).
func LayerSpace(depth int) Space { return YCbCrSpaceDepth(BT709, Limited, depth) }

// Transparent fills f with alpha 0 (a new frame from make is transparent already).
func (f *RGBA) Transparent() {
	for y := range f.H {
		clear(f.Pix[y*f.Stride:][:4*f.W])
	}
}

// StraightRGBA writes f's pixels to dst (rows stride bytes apart) as 8-bit R'G'B'A with
// straight alpha, and leaves f transparent.
func (f *RGBA) StraightRGBA(dst []byte, stride int) { f.straight8(dst, stride, [4]int{0, 1, 2, 3}) }

// StraightARGB is StraightRGBA with the bytes in the order A, R', G', B' (FFmpeg's argb).
func (f *RGBA) StraightARGB(dst []byte, stride int) { f.straight8(dst, stride, [4]int{1, 2, 3, 0}) }

// straight8 writes each pixel's straight R', G', B' and A to bytes at[0..3] of its four.
func (f *RGBA) straight8(dst []byte, stride int, at [4]int) {
	for y := range f.H {
		src := f.Pix[y*f.Stride:][:4*f.W]
		out := dst[y*stride:][:4*f.W]
		for x := 0; x < f.W; {
			if n := clearRun(src, x, f.W); n > 0 {
				clear(out[4*x : 4*(x+n)])
				x += n
				continue
			}
			p := src[4*x : 4*x+4 : 4*x+4]
			o := out[4*x : 4*x+4 : 4*x+4]
			a := p[3]
			if a == 0 {
				o[0], o[1], o[2], o[3] = 0, 0, 0, 0
			} else {
				o[at[0]], o[at[1]], o[at[2]], o[at[3]] = unpremultiply(p[0], a), unpremultiply(p[1], a), unpremultiply(p[2], a), a
			}
			p[0], p[1], p[2], p[3] = 0, 0, 0, 0
			x++
		}
	}
}

// clearRun returns how many pixels from x on in the row src (w pixels) are all zero,
// counted two at a time (eight bytes a read); 0 when pixel x or x+1 is drawn on, or x is
// the row's last.
func clearRun(src []byte, x, w int) int {
	n := 0
	for x+n+1 < w && binary.LittleEndian.Uint64(src[4*(x+n):]) == 0 {
		n += 2
	}
	return n
}

// invAlpha[a] is 1/a, for the straight colours of pixels of alpha a.
var invAlpha = func() (t [256]float32) {
	for a := 1; a < 256; a++ {
		t[a] = 1 / float32(a)
	}
	return t
}()

// unpremultiply returns the straight code value of premultiplied value p under alpha a > 0:
// p·255/a rounded, at most 255.
func unpremultiply(p, a byte) byte {
	return byte(min((uint32(p)*255+uint32(a)/2)/uint32(a), 255))
}

// YUVA444P10 writes f's pixels into the planes y, u, v and al (yuva444p10le: a little-endian
// 16-bit word a sample, rows the strides' bytes apart) in LayerSpace(10), alpha scaled to
// 0..1023, and leaves f transparent.
func (f *RGBA) YUVA444P10(y, u, v, al []byte, strides [4]int) {
	s := LayerSpace(10)
	m := &s.M
	// A row of transparent pixels in each plane (the colour of black: the offsets; alpha
	// 0), copied over the runs nothing was drawn on.
	var blank [4][]byte
	for i := range 3 {
		blank[i] = make([]byte, 2*f.W)
		for x := range f.W {
			binary.LittleEndian.PutUint16(blank[i][2*x:], uint16(m[i][3]))
		}
	}
	blank[3] = make([]byte, 2*f.W)
	for row := range f.H {
		src := f.Pix[row*f.Stride:][:4*f.W]
		yr, ur, vr, ar := y[row*strides[0]:][:2*f.W], u[row*strides[1]:][:2*f.W], v[row*strides[2]:][:2*f.W], al[row*strides[3]:][:2*f.W]
		for x := 0; x < f.W; {
			if n := clearRun(src, x, f.W); n > 0 {
				copy(yr[2*x:2*(x+n)], blank[0])
				copy(ur[2*x:2*(x+n)], blank[1])
				copy(vr[2*x:2*(x+n)], blank[2])
				clear(ar[2*x : 2*(x+n)])
				x += n
				continue
			}
			p := src[4*x : 4*x+4 : 4*x+4]
			o := 2 * x
			if p[3] == 0 {
				put10(yr, o, m[0][3])
				put10(ur, o, m[1][3])
				put10(vr, o, m[2][3])
				put10(ar, o, 0)
			} else {
				inv := invAlpha[p[3]]
				r, g, b := float32(p[0])*inv, float32(p[1])*inv, float32(p[2])*inv
				put10(yr, o, m[0][0]*r+m[0][1]*g+m[0][2]*b+m[0][3])
				put10(ur, o, m[1][0]*r+m[1][1]*g+m[1][2]*b+m[1][3])
				put10(vr, o, m[2][0]*r+m[2][1]*g+m[2][2]*b+m[2][3])
				put10(ar, o, float32(p[3])*(1023.0/255))
			}
			p[0], p[1], p[2], p[3] = 0, 0, 0, 0
			x++
		}
	}
}

// put10 stores v rounded to a 10-bit sample as the little-endian word at byte o of row.
func put10(row []byte, o int, v float32) {
	q := uint16(min(max(v+0.5, 0), 1023))
	row[o], row[o+1] = byte(q), byte(q>>8)
}

// YUVA420P writes f's pixels into the planes y, u, v and al (yuva420p: a byte a sample;
// chroma ceil(W/2) × ceil(H/2), each the alpha-weighted mean of its block) in LayerSpace(8),
// and leaves f transparent.
func (f *RGBA) YUVA420P(y, u, v, al []byte, strides [4]int) {
	s := LayerSpace(8)
	m := &s.M
	black := [3]byte{byte(m[0][3]), byte(m[1][3]), byte(m[2][3])}
	cw := (f.W + 1) / 2
	var blank [3][]byte // rows of black's Y', Cb and Cr, copied over transparent runs
	for i := range blank {
		blank[i] = bytes.Repeat([]byte{black[i]}, f.W)
	}
	for cy := 0; cy < (f.H+1)/2; cy++ {
		rows := min(2, f.H-2*cy)
		urow, vrow := u[cy*strides[1]:][:cw], v[cy*strides[2]:][:cw]
		var src, yrow, arow [2][]byte
		for r := range rows {
			src[r] = f.Pix[(2*cy+r)*f.Stride:][:4*f.W]
			yrow[r] = y[(2*cy+r)*strides[0]:][:f.W]
			arow[r] = al[(2*cy+r)*strides[3]:][:f.W]
		}
		for cx := 0; cx < cw; cx++ {
			x0, x1 := 2*cx, min(2*cx+2, f.W)
			if transparentBlock(src, rows, x0, x1) {
				// The run of transparent blocks from here, filled at once.
				m := 1
				for cx+m < cw && transparentBlock(src, rows, 2*(cx+m), min(2*(cx+m)+2, f.W)) {
					m++
				}
				end := min(2*(cx+m), f.W)
				for r := range rows {
					copy(yrow[r][x0:end], blank[0])
					clear(arow[r][x0:end])
				}
				copy(urow[cx:cx+m], blank[1])
				copy(vrow[cx:cx+m], blank[2])
				cx += m - 1
				continue
			}
			// Σ α·C over the block is Σ P/255: the premultiplied values' own sum.
			var sum [3]float32
			var alphas float32
			for r := range rows {
				for x := x0; x < x1; x++ {
					p := src[r][4*x : 4*x+4 : 4*x+4]
					a := p[3]
					arow[r][x], yrow[r][x] = a, black[0]
					if a != 0 {
						inv := invAlpha[a]
						yrow[r][x] = byte(roundTo(m[0][0]*float32(p[0])*inv+m[0][1]*float32(p[1])*inv+m[0][2]*float32(p[2])*inv+m[0][3], 255))
						for i := range 3 {
							sum[i] += float32(p[i])
						}
						alphas += float32(a)
					}
					p[0], p[1], p[2], p[3] = 0, 0, 0, 0
				}
			}
			urow[cx], vrow[cx] = black[1], black[2]
			if alphas > 0 {
				c := s.Color(sum[0]/alphas, sum[1]/alphas, sum[2]/alphas, 1)
				urow[cx], vrow[cx] = byte(roundTo(c[1], 255)), byte(roundTo(c[2], 255))
			}
		}
	}
}

// transparentBlock reports whether pixels x0..x1 (one or two) of the rows of src are all
// zero, read eight bytes at a time: nothing was drawn there.
func transparentBlock(src [2][]byte, rows, x0, x1 int) bool {
	for r := range rows {
		if x1-x0 == 2 {
			if binary.LittleEndian.Uint64(src[r][4*x0:]) != 0 {
				return false
			}
		} else if binary.LittleEndian.Uint32(src[r][4*x0:]) != 0 {
			return false
		}
	}
	return true
}
