package render

import (
	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The stages' inner loops, each over a run of pixels of one tile row. Each has a plain Go
// twin (the …Go functions, built from the scalar functions of tile.go and package sdf) and,
// on amd64, an AVX2 twin (simd_amd64.s) that does the same float32 operations in the same
// order with one pixel per lane, so that the two give the same bits (simd_test.go checks
// every length and start); the Go twins run elsewhere and with -tags purego. The assembly
// reads and writes only the run's pixels: a run shorter than a group of 8 is masked.

// rowBuf is a row of per-pixel values (coverage, or colours by column) as long as a tile row.
type rowBuf = [ts]float32

// planarColors are one colour per column of a tile row, by channel.
type planarColors [composite.Channels]rowBuf

// overSpan blends colour c at coverage 1 onto the n pixels of the tile's planes from index
// i: the inner loop of box fills, free of per-pixel coverage.
func overSpan(t *composite.Tile, i, n int, c *layerColor) {
	if n <= 0 {
		return
	}
	if haveAVX2 {
		overSpanAVX2(&t.Planes[0][i], n, c)
		return
	}
	overSpanGo(t, i, n, c)
}

// overSpanGo is over(t, i+j, c, 1) for j < n, with c·1 = c: p = c + p·(1 − c.A).
func overSpanGo(t *composite.Tile, i, n int, c *layerColor) {
	k := 1 - c[3]
	for p := range t.Planes {
		v, cp := t.Planes[p][i:i+n], c[p]
		for j := range v {
			v[j] = cp + float32(v[j]*k)
		}
	}
}

// overColors blends the colours of columns [x, x+n) of col at coverage 1 onto the n pixels
// of the tile's planes from index i: a box's border band, shaded once per column.
func overColors(t *composite.Tile, i, n int, col *planarColors, x int) {
	if n <= 0 {
		return
	}
	if haveAVX2 {
		overColorsAVX2(&t.Planes[0][i], n, &col[0][x])
		return
	}
	overColorsGo(t, i, n, col, x)
}

// overColorsGo is over(t, i+j, colour of column x+j, 1) for j < n.
func overColorsGo(t *composite.Tile, i, n int, col *planarColors, x int) {
	for j := range n {
		c := layerColor{col[0][x+j], col[1][x+j], col[2][x+j], col[3][x+j]}
		over(t, i+j, &c, 1)
	}
}

// overCoverage blends colour c at coverage cov[j] onto pixel i+j of the tile's planes, for
// every j < len(cov). Coverage 0 leaves a pixel as it is.
func overCoverage(t *composite.Tile, i int, cov []float32, c *layerColor) {
	if len(cov) == 0 {
		return
	}
	if haveAVX2 {
		overCoverageAVX2(&t.Planes[0][i], &cov[0], len(cov), c)
		return
	}
	overCoverageGo(t, i, cov, c)
}

// overCoverageGo is over(t, i+j, c, cov[j]) for every j.
func overCoverageGo(t *composite.Tile, i int, cov []float32, c *layerColor) {
	for j, v := range cov {
		over(t, i+j, c, v)
	}
}

// overMask blends colour c at coverage m[j]/255 onto pixel i+j of the tile's planes, for every
// j < len(m): a glyph's mask row. m must have overlay.MaskSlack bytes of capacity past its
// end (the assembly loads whole groups of bytes).
func overMask(t *composite.Tile, i int, m []byte, c *layerColor) {
	if len(m) == 0 {
		return
	}
	if haveAVX2 {
		_ = m[:len(m)+overlay.MaskSlack-1]
		overMaskAVX2(&t.Planes[0][i], &m[0], len(m), c)
		return
	}
	overMaskGo(t, i, m, c)
}

// overMaskGo is over(t, i+j, c, m[j]/255) for every j.
func overMaskGo(t *composite.Tile, i int, m []byte, c *layerColor) {
	for j, v := range m {
		over(t, i+j, c, float32(v)*(1.0/255))
	}
}

// segmentCoverage sets cov[j], j < n, to the coverage of a stroke of width w along segment
// s at the pixel centre (px0 + j, py): the lines stage's per-pixel rule.
func segmentCoverage(cov *rowBuf, n int, s *sdf.Seg, px0, py, w float32) {
	if n <= 0 {
		return
	}
	if haveAVX2 {
		segmentCoverageAVX2(&cov[0], (n+7)/8, s, px0, py, float32(max(w, 1)*0.5), sdf.ThinScale(w))
		return
	}
	segmentCoverageGo(cov, n, s, px0, py, w)
}

// segmentCoverageGo is the scalar rule: Coverage(Stroke(√Dist2, w)) · ThinScale(w).
func segmentCoverageGo(cov *rowBuf, n int, s *sdf.Seg, px0, py, w float32) {
	thin := sdf.ThinScale(w)
	for j := range n {
		cov[j] = sdf.Coverage(sdf.Stroke(sdf.Sqrt(s.Dist2(px0+float32(j), py)), w)) * thin
	}
}

// nearestChord lowers d2[j] to the squared distance from the pixel centre (px0 + j, py) to
// segment s where that is smaller, and sets op[j] to opacity there: one chord of a curve
// stroke, for every j < len(d2).
func nearestChord(d2, op []float32, s *sdf.Seg, px0, py, opacity float32) {
	if len(d2) == 0 {
		return
	}
	op = op[:len(d2)]
	if haveAVX2 {
		nearestChordAVX2(&d2[0], &op[0], len(d2), s, px0, py, opacity)
		return
	}
	nearestChordGo(d2, op, s, px0, py, opacity)
}

// nearestChordGo is nearestChord one pixel at a time.
func nearestChordGo(d2, op []float32, s *sdf.Seg, px0, py, opacity float32) {
	op = op[:len(d2)]
	for j := range d2 {
		if d := s.Dist2(px0+float32(j), py); d < d2[j] {
			d2[j], op[j] = d, opacity
		}
	}
}

// strokeCoverage sets cov[j], j < len(d2), to the coverage of a stroke of width w at squared
// distance d2[j] from its centre line, times op[j]: the curves stage's per-pixel rule.
func strokeCoverage(cov *rowBuf, d2, op []float32, w float32) {
	if len(d2) == 0 {
		return
	}
	op = op[:len(d2)]
	if haveAVX2 {
		strokeCoverageAVX2(&cov[0], &d2[0], &op[0], len(d2), float32(max(w, 1)*0.5), sdf.ThinScale(w))
		return
	}
	strokeCoverageGo(cov, d2, op, w)
}

// strokeCoverageGo is the scalar rule: Coverage(Stroke(√d2, w)) · ThinScale(w) · op.
func strokeCoverageGo(cov *rowBuf, d2, op []float32, w float32) {
	thin := sdf.ThinScale(w)
	for j := range d2 {
		cov[j] = sdf.Coverage(sdf.Stroke(sdf.Sqrt(d2[j]), w)) * thin * op[j]
	}
}

// roundBoxDist sets d[j], j < n, to the signed distance from the pixel centre (px0 + j, py)
// to the rounded box centred at (cx, cy) with half size (hx, hy) and corner radius r.
func roundBoxDist(d *rowBuf, n int, px0, py, cx, cy, hx, hy, r float32) {
	if n <= 0 {
		return
	}
	if haveAVX2 {
		// sdf.RoundBox's qy, which is the row's.
		qy := sdf.Abs(py-cy) - hy + r
		roundBoxAVX2(&d[0], (n+7)/8, px0, qy, cx, hx, r)
		return
	}
	roundBoxDistGo(d, n, px0, py, cx, cy, hx, hy, r)
}

// roundBoxDistGo is sdf.RoundBox per pixel.
func roundBoxDistGo(d *rowBuf, n int, px0, py, cx, cy, hx, hy, r float32) {
	for j := range n {
		d[j] = sdf.RoundBox(px0+float32(j), py, cx, cy, hx, hy, r)
	}
}

// boxShade blends, onto pixel i+j of the tile's planes, the colour the box of profile b adds
// at signed distance d[j] (boxProfile.color), for every j: a box's corners.
func boxShade(t *composite.Tile, i int, d []float32, b *boxProfile) {
	if len(d) == 0 {
		return
	}
	if haveAVX2 {
		boxShadeAVX2(&t.Planes[0][i], &d[0], len(d), b)
		return
	}
	boxShadeGo(t, i, d, b)
}

// boxShadeGo is boxProfile.color and over at coverage 1, per pixel.
func boxShadeGo(t *composite.Tile, i int, d []float32, b *boxProfile) {
	for j, v := range d {
		if c, covered := b.color(v); covered {
			over(t, i+j, &c, 1)
		}
	}
}
