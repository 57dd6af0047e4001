package render

import "encoding/binary"

// The effects' blend, the inner loop of phase 2: a row of samples, each mixed with its effect
// value by its coverage (fxMix). On amd64 the AVX2 twins (effects_amd64.s) take the whole
// groups of 8 of a plane whose samples lie side by side (YUV420P and 10-bit planar, the luma
// of NV12 and P010); the Go twins take the rest, and everything with -tags purego.

// blendRow mixes effects into the len(cov) samples of plane pl from sample x0 of row y: the
// effect of sample k is e[k], or q's of the sample when q is given.
func (pl *fxPlane) blendRow(e []float32, q *fxPoint, cov []float32, x0, y int) {
	p := pl.p[y*pl.stride+x0*pl.step:]
	n := len(cov)
	if haveAVX2 && pl.step == pl.bytes() {
		if g := n / 8; g > 0 {
			_ = p[8*g*pl.step-1]
			var ep *float32
			if q == nil {
				_ = e[8*g-1]
				ep = &e[0]
			}
			if pl.wide {
				fxBlend16AVX2(&p[0], ep, q, &cov[0], g, pl.shift)
			} else {
				fxBlend8AVX2(&p[0], ep, q, &cov[0], g)
			}
			k := 8 * g
			p, cov = p[k*pl.step:], cov[k:]
			if q == nil {
				e = e[k:]
			}
		}
	}
	if pl.wide {
		fxBlend16Go(p, pl.step, pl.shift, e, q, cov)
	} else {
		fxBlend8Go(p, pl.step, e, q, cov)
	}
}

// bytes is the size of one of pl's samples.
func (pl *fxPlane) bytes() int {
	if pl.wide {
		return 2
	}
	return 1
}

// fxBlend8Go is fxMix sample by sample on one-byte samples step bytes apart. It mixes at
// coverage 0 too (which gives the sample back), as its twin does.
func fxBlend8Go(p []byte, step int, e []float32, q *fxPoint, cov []float32) {
	j := 0
	for k, c := range cov {
		s := float32(p[j])
		var ev float32
		if q != nil {
			ev = q.at(s)
		} else {
			ev = e[k]
		}
		p[j] = byte(fxMix(s, ev, c, 255))
		j += step
	}
}

// fxBlend16Go is fxBlend8Go on two-byte little-endian samples, the value at bit shift.
func fxBlend16Go(p []byte, step int, shift uint, e []float32, q *fxPoint, cov []float32) {
	j := 0
	for k, c := range cov {
		s := float32(binary.LittleEndian.Uint16(p[j:]) >> shift)
		var ev float32
		if q != nil {
			ev = q.at(s)
		} else {
			ev = e[k]
		}
		binary.LittleEndian.PutUint16(p[j:], uint16(fxMix(s, ev, c, 1023))<<shift)
		j += step
	}
}

// lerpRow sets out[x] to top[x] + t·(bot[x] − top[x]): zoom's vertical interpolation.
func lerpRow(out, top, bot []float32, t float32) {
	if haveAVX2 {
		if g := len(out) / 8; g > 0 {
			_, _ = top[8*g-1], bot[8*g-1]
			fxLerpAVX2(&out[0], &top[0], &bot[0], t, g)
			out, top, bot = out[8*g:], top[8*g:], bot[8*g:]
		}
	}
	lerpRowGo(out, top, bot, t)
}

// lerpRowGo is lerpRow's Go twin.
func lerpRowGo(out, top, bot []float32, t float32) {
	for x := range out {
		out[x] = top[x] + float32(t*(bot[x]-top[x]))
	}
}

// slide adds to col[i] sample x0+i of row add, and subtracts that of row sub (each unless
// negative): blur's column sums, moved down a row. The assembly always adds a row: a row
// only taken away (near the frame's bottom edge) is the Go twin's.
func (pl *fxPlane) slide(col []int32, x0, add, sub int, buf []int32) {
	n := len(col)
	if haveAVX2 && pl.step == pl.bytes() && add >= 0 {
		if g := n / 8; g > 0 {
			row := func(y int) *byte {
				if y < 0 {
					return nil
				}
				p := pl.p[y*pl.stride+x0*pl.step:]
				_ = p[8*g*pl.step-1]
				return &p[0]
			}
			if pl.wide {
				fxSlide16AVX2(&col[0], row(add), row(sub), g, pl.shift)
			} else {
				fxSlide8AVX2(&col[0], row(add), row(sub), g)
			}
			col, x0 = col[8*g:], x0+8*g
		}
	}
	pl.slideGo(col, x0, add, sub, buf)
}

// slideGo is slide's Go twin.
func (pl *fxPlane) slideGo(col []int32, x0, add, sub int, buf []int32) {
	buf = buf[:len(col)]
	if add >= 0 {
		pl.load(buf, x0, add)
		for i, v := range buf {
			col[i] += v
		}
	}
	if sub >= 0 {
		pl.load(buf, x0, sub)
		for i, v := range buf {
			col[i] -= v
		}
	}
}

// boxOut sets out[x] to float32(hi[x] − lo[x]) · recip[x]: blur's window sums (differences of
// prefix sums) to means.
func boxOut(out []float32, hi, lo []int32, recip []float32) {
	if haveAVX2 {
		if g := len(out) / 8; g > 0 {
			_, _, _ = hi[8*g-1], lo[8*g-1], recip[8*g-1]
			fxBoxOutAVX2(&out[0], &hi[0], &lo[0], &recip[0], g)
			k := 8 * g
			out, hi, lo, recip = out[k:], hi[k:], lo[k:], recip[k:]
		}
	}
	boxOutGo(out, hi, lo, recip)
}

// boxOutGo is boxOut's Go twin.
func boxOutGo(out []float32, hi, lo []int32, recip []float32) {
	for x := range out {
		out[x] = float32(hi[x]-lo[x]) * recip[x]
	}
}

// prefix sets p[i+1] to p[i] + col[i] for every i (p[0] given): blur's prefix sums along a
// row of column sums, int32 arithmetic (exact wherever a window's sum fits).
func prefix(p, col []int32) {
	if haveAVX2 {
		if g := len(col) / 8; g > 0 {
			_ = p[8*g]
			fxPrefixAVX2(&p[0], &col[0], g)
			p, col = p[8*g:], col[8*g:]
		}
	}
	prefixGo(p, col)
}

// prefixGo is prefix's Go twin.
func prefixGo(p, col []int32) {
	sum, p := p[0], p[1:len(col)+1]
	for i, v := range col {
		sum += v
		p[i] = sum
	}
}

// zoomCols are the source columns of zoom's samples along a row, the same in every row.
type zoomCols struct {
	i0, i1 []int32   // each sample's two source columns, from the loaded row's first
	w      []float32 // the weight of i1
	// The assembly's plan: per group of 8 samples its first i0 (base) and, in perm, i0 −
	// base then i1 − base − 1 per sample, each within 0..7 (fast), so that two loads of 8
	// from the row and a permutation fetch both columns.
	base, perm []int32
	fast       bool
}

// plan lays out the assembly's groups; fast is false where a group's columns spread wider
// than 8 (a zoom below 1, or the frame's edge repeated).
func (z *zoomCols) plan() {
	g := len(z.i0) / 8
	z.base, z.perm = grow(z.base, g), grow(z.perm, 16*g)
	z.fast = true
	for k := range g {
		b := z.i0[8*k]
		z.base[k] = b
		for j := range 8 {
			p0, p1 := z.i0[8*k+j]-b, z.i1[8*k+j]-b-1
			z.fast = z.fast && p0 >= 0 && p0 < 8 && p1 >= 0 && p1 < 8
			z.perm[16*k+j], z.perm[16*k+8+j] = p0, p1
		}
	}
}

// across sets dst[x] to the source row interpolated between columns i0[x] and i1[x]. row
// must hold 9 floats past the last column read (the assembly's loads).
func (z *zoomCols) across(dst, row []float32) {
	if haveAVX2 && z.fast {
		if g := len(dst) / 8; g > 0 {
			_ = row[z.base[g-1]+9]
			fxAcrossAVX2(&dst[0], &row[0], &z.base[0], &z.perm[0], &z.w[0], g)
			z.acrossGo(dst[8*g:], row, 8*g)
			return
		}
	}
	z.acrossGo(dst, row, 0)
}

// acrossGo is across's Go twin, for dst's samples from x0 on.
func (z *zoomCols) acrossGo(dst, row []float32, x0 int) {
	i0, i1, w := z.i0[x0:], z.i1[x0:], z.w[x0:]
	for x := range dst {
		a0, a1 := row[i0[x]], row[i1[x]]
		dst[x] = a0 + float32(w[x]*(a1-a0))
	}
}

// capRow sets dst[x] to src[x] capped at c: a row's coverage, its columns' capped at its own.
func capRow(dst, src []float32, c float32) {
	if haveAVX2 {
		if g := len(dst) / 8; g > 0 {
			_ = src[8*g-1]
			fxCapAVX2(&dst[0], &src[0], c, g)
			dst, src = dst[8*g:], src[8*g:]
		}
	}
	capRowGo(dst, src, c)
}

// capRowGo is capRow's Go twin.
func capRowGo(dst, src []float32, c float32) {
	for i, v := range src[:len(dst)] {
		if v > c {
			v = c
		}
		dst[i] = v
	}
}

// chromaCoverage sets each of covC's chroma samples to the mean coverage of its pixels, of
// luma rows c0 and c1 (rows of them: 1 or 2), in composite's order: (top left + bottom
// left) + (top right + bottom right).
func chromaCoverage(covC, c0, c1 []float32, rows int) {
	if haveAVX2 {
		// Whole pairs of pixels only: a last chroma sample over one column is the Go twin's.
		if g := min(len(covC), len(c0)/2) / 8; g > 0 {
			_, _ = c0[16*g-1], c1[16*g-1]
			fxChromaAVX2(&covC[0], &c0[0], &c1[0], 1/float32(rows*2), g)
			chromaCoverageGo(covC[8*g:], c0, c1, rows, 8*g)
			return
		}
	}
	chromaCoverageGo(covC, c0, c1, rows, 0)
}

// chromaCoverageGo is chromaCoverage's Go twin, for covC's samples from sample i0 of the row.
func chromaCoverageGo(covC, c0, c1 []float32, rows, i0 int) {
	n := len(c0)
	for i := range covC {
		x := 2 * (i0 + i)
		cols := min(2, n-x)
		var right float32
		if cols == 2 {
			right = c0[x+1] + c1[x+1]
		}
		covC[i] = ((c0[x] + c1[x]) + right) * (1 / float32(rows*cols))
	}
}
