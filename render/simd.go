package render

import (
	"math"

	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The stages' inner loops, each over a run of pixels of one tile row. Each has a plain Go
// twin (the …Go functions, built from the scalar functions of tile.go and package sdf) and,
// on amd64, an AVX2 twin (simd_amd64.s) that does the same float32 operations in the same
// order with one pixel per lane, so that the two give the same bits (simd_test.go checks
// every length and start); the Go twins run elsewhere and with -tags purego. The assembly
// changes only the run's pixels: it takes a run's last group of 8 whole and leaves the
// pixels past the run as they were, which past a tile's last row fall in padding
// (composite.Tile, tileField).

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

// boxRows draws rows [y0, y1) of a box that are all alike, its straight rows: the side band
// colours col of columns [xlo, ilo) and [ihi, xhi) and, unless fill is nil, the fill colour
// over [ilo, ihi), all at coverage 1.
func boxRows(t *composite.Tile, y0, y1, xlo, ilo, ihi, xhi int, col *planarColors, fill *layerColor) {
	if y0 >= y1 || xlo >= xhi {
		return
	}
	if haveAVX2 {
		boxRowsAVX2(&t.Planes[0][y0*ts+xlo], y1-y0, ilo-xlo, ihi-ilo, xhi-ihi, &col[0][xlo], fill)
		return
	}
	boxRowsGo(t, y0, y1, xlo, ilo, ihi, xhi, col, fill)
}

// boxRowsGo is overColorsGo and overSpanGo row by row.
func boxRowsGo(t *composite.Tile, y0, y1, xlo, ilo, ihi, xhi int, col *planarColors, fill *layerColor) {
	for y := y0; y < y1; y++ {
		row := y * ts
		overColorsGo(t, row+xlo, ilo-xlo, col, xlo)
		if fill != nil {
			overSpanGo(t, row+ilo, ihi-ilo, fill)
		}
		overColorsGo(t, row+ihi, xhi-ihi, col, ihi)
	}
}

// overColorsGo is over(t, i+j, colour of column x+j, 1) for j < n.
func overColorsGo(t *composite.Tile, i, n int, col *planarColors, x int) {
	for j := range n {
		c := layerColor{col[0][x+j], col[1][x+j], col[2][x+j], col[3][x+j]}
		over(t, i+j, &c, 1)
	}
}

// overCoverageGo is over(t, i+j, c, cov[j]) for every j: a row of per-pixel coverage.
func overCoverageGo(t *composite.Tile, i int, cov []float32, c *layerColor) {
	for j, v := range cov {
		over(t, i+j, c, v)
	}
}

// overMask blends colour c at coverage m/255 onto a rectangle of the tile's planes: rows rows
// of n pixels from index i, row r taking the mask bytes m[r·stride : r·stride+n] (a glyph's
// mask). m must have overlay.MaskSlack bytes of capacity past the last row's n (the
// assembly loads whole groups of bytes).
func overMask(t *composite.Tile, i int, m []byte, stride, n, rows int, c *layerColor) {
	if n <= 0 || rows <= 0 {
		return
	}
	if haveAVX2 {
		_ = m[:(rows-1)*stride+n+overlay.MaskSlack-1]
		overMaskAVX2(&t.Planes[0][i], &m[0], stride, n, rows, c)
		return
	}
	overMaskGo(t, i, m, stride, n, rows, c)
}

// overMaskGo is over(t, i + r·ts + j, c, m[r·stride + j]/255) for every row r and pixel j.
func overMaskGo(t *composite.Tile, i int, m []byte, stride, n, rows int, c *layerColor) {
	for r := range rows {
		for j, v := range m[r*stride : r*stride+n] {
			over(t, i+r*ts+j, c, float32(v)*(1.0/255))
		}
	}
}

// The strokes (lines, and the chords of curves) run one call per stroke and tile: the row
// spans of all the stroke's rows (segmentSpans), then the pixels of every span (lines:
// strokeSegmentRows; curves: nearestChordRows for each chord, strokeRows for the stroke).

// rowSpans are the spans of consecutive tile rows, [lo, hi) each, (0, 0) for none.
type rowSpans [ts][2]int32

// spanParams are a segment and a tile as segmentSpansAVX2 reads them, in this order.
type spanParams struct {
	x0, y0, x1, y1 float32 // the segment
	r              float32 // the reach of its stroke
	ox             float32 // the tile's left edge in the frame
	yc0            float32 // the centre of the first row
	w              int32   // the tile's width
	top            float32 // sdf.Centers' upper clamp for that width, w + 2
}

// segmentSpans sets spans[j], j < n, to segmentSpan(t, row0+j, …): the columns of the tile
// row that can lie within r of the segment (x0, y0)–(x1, y1), (0, 0) for none.
func segmentSpans(spans *rowSpans, t *composite.Tile, row0, n int, x0, y0, x1, y1, r float32) {
	if n <= 0 {
		return
	}
	if haveAVX2 {
		prm := spanParams{x0, y0, x1, y1, r, float32(t.X0), float32(t.Y0+row0) + 0.5, int32(t.W), float32(t.W) + 2}
		segmentSpansAVX2(&spans[0][0], n, &prm)
		return
	}
	segmentSpansGo(spans, t, row0, n, x0, y0, x1, y1, r)
}

// segmentSpansGo is segmentSpan row by row.
func segmentSpansGo(spans *rowSpans, t *composite.Tile, row0, n int, x0, y0, x1, y1, r float32) {
	for j := range n {
		lo, hi := segmentSpan(t, row0+j, x0, y0, x1, y1, r)
		if lo >= hi {
			lo, hi = 0, 0
		}
		spans[j] = [2]int32{int32(lo), int32(hi)}
	}
}

// slabParams are a chord's rectangle (slabSpans) and its tile as slabSpansAVX2 reads them,
// in this order (w at 28, where the SPANS macro reads it).
type slabParams struct {
	qy0                float32 // the first row's centre minus the chord's start y
	aInv, aV, aC0, aC1 float32 // along the chord: aC0 ≤ x'/aInv + aV·qy ≤ aC1, x' = x − x0 (aInv 0: any x')
	bInv, bV           float32 // across it, as along it
	w                  int32   // the tile's width
	bC0, bC1           float32
	x0, ox, top        float32 // the chord's start x, the tile's left edge, sdf.Centers' upper clamp (w + 2)
}

// slabSpansGo sets spans[j], j < n, to the columns of row j whose centres lie in the
// rectangle of p: for x' in both ranges, sdf.Centers(x' + x0 − ox). It returns the first j
// with a span and one past the last (n and 0 when none has).
func slabSpansGo(spans *rowSpans, n int, p *slabParams) (first, end int) {
	first = n
	for j := range n {
		qy := p.qy0 + float32(j)
		a0, a1, ok := slabRange(p.aInv, p.aV, p.aC0, p.aC1, qy)
		b0, b1, ok2 := slabRange(p.bInv, p.bV, p.bC0, p.bC1, qy)
		lo, hi := 0, 0
		// Many of the rows within the reach of a steep chord lie beyond its rectangle.
		if x0, x1 := max(a0, b0), min(a1, b1); ok && ok2 && x0 <= x1 {
			if lo, hi = sdf.Centers(float32(x0+p.x0)-p.ox, float32(x1+p.x0)-p.ox, int(p.w)); lo >= hi {
				lo, hi = 0, 0
			}
		}
		spans[j] = [2]int32{int32(lo), int32(hi)}
		if lo < hi {
			first, end = min(first, j), j+1
		}
	}
	return first, end
}

// slabRange returns the x' with c0 ≤ x'/inv + v·qy ≤ c1, in order: every x' (±MaxFloat32)
// where inv is 0 and v·qy is within the bounds, none (false) where it is not.
func slabRange(inv, v, c0, c1, qy float32) (a, b float32, ok bool) {
	q := float32(v * qy)
	if inv == 0 {
		return -math.MaxFloat32, math.MaxFloat32, c0 <= q && q <= c1
	}
	a, b = float32((c0-q)*inv), float32((c1-q)*inv)
	return min(a, b), max(a, b), true
}

// strokeParams are a straight stroke and its tile as strokeSegmentRowsAVX2 reads them, in
// this order.
type strokeParams struct {
	seg    sdf.Seg
	ox, oy int32 // the tile's left edge and the first row, in the frame
	profileParams
	dc       layerColor // a gradient line's end colour minus its start colour (profileParams.color)
	gradient int32      // 1 for a gradient line
}

// strokeSegmentRows blends, onto each row row0+j (j < n) over its span spans[j], the stroke
// of width w, colour c and glow g along segment s: the lines stage. Unless end is nil the
// line is a gradient (overlay.Line.Gradient): each pixel takes c + (end − c)·t, t the
// parameter of its nearest point of s.
func strokeSegmentRows(t *composite.Tile, spans *rowSpans, row0, n int, s *sdf.Seg, w float32, c, end *layerColor, g *sdf.Glow) {
	if n <= 0 {
		return
	}
	var dc *layerColor
	if end != nil {
		dc = &layerColor{}
		for k := range dc {
			dc[k] = end[k] - c[k]
		}
	}
	if haveAVX2 {
		prm := strokeParams{seg: *s, ox: int32(t.X0), oy: int32(t.Y0 + row0), profileParams: newProfile(w, c, g)}
		if dc != nil {
			prm.dc, prm.gradient = *dc, 1
		}
		strokeSegmentRowsAVX2(&t.Planes[0][row0*ts], &spans[0][0], n, &prm)
		return
	}
	strokeSegmentRowsGo(t, spans, row0, n, s, w, c, dc, g)
}

// strokeCover is the scalar rule of a stroke of width w with glow g at squared distance
// d2 from its centre line: g.Cover(Coverage(Stroke(√d2, w)) · ThinScale(w)).
func strokeCover(d2, w, thin float32, g *sdf.Glow) float32 {
	sd := sdf.Stroke(sdf.Sqrt(d2), w)
	return g.Cover(sdf.Coverage(sd)*thin, sd)
}

// strokeSegmentRowsGo is strokeCover at Dist2T's distance, and over, pixel by pixel, in
// colour c, or with dc not nil c + dc·t.
func strokeSegmentRowsGo(t *composite.Tile, spans *rowSpans, row0, n int, s *sdf.Seg, w float32, c, dc *layerColor, g *sdf.Glow) {
	thin := sdf.ThinScale(w)
	for j, sp := range spans[:n] {
		py := float32(t.Y0+row0+j) + 0.5
		for x := int(sp[0]); x < int(sp[1]); x++ {
			d2, u := s.Dist2T(float32(t.X0+x)+0.5, py)
			col := *c
			if dc != nil {
				for k := range col {
					col[k] = c[k] + float32(dc[k]*u)
				}
			}
			over(t, (row0+j)*ts+x, &col, strokeCover(d2, w, thin, g))
		}
	}
}

// chordParams are a chord and its tile as nearestChordRowsAVX2 reads them, in this order.
type chordParams struct {
	seg     sdf.Seg
	ox, oy  int32 // the tile's left edge and the first row, in the frame
	opacity float32
}

// nearestChordRows lowers, for each row row0+j (j < n) over its span spans[j], the squared
// distances d2 to those to segment s where they are smaller, setting op to opacity there
// (unless op is nil: a stroke whose chords all have one opacity keeps none), and widens the
// stroke's span of the row, union[row0+j] (a span or noSpan), to take spans[j] in (unite):
// one chord of a curve stroke. d2 and op are tile-sized, row-major.
func nearestChordRows(d2, op *tileField, union *[ts]composite.Span, t *composite.Tile, spans [][2]int32, row0, n int, s *sdf.Seg, opacity float32) {
	if n <= 0 {
		return
	}
	if haveAVX2 {
		prm := chordParams{*s, int32(t.X0), int32(t.Y0 + row0), opacity}
		var opRow *float32
		if op != nil {
			opRow = &op[row0*ts]
		}
		nearestChordRowsAVX2(&d2[row0*ts], opRow, &union[row0], &spans[0][0], n, &prm)
		return
	}
	nearestChordRowsGo(d2, op, union, t, spans, row0, n, s, opacity)
}

// nearestChordRowsGo is nearestChordRows pixel by pixel.
func nearestChordRowsGo(d2, op *tileField, union *[ts]composite.Span, t *composite.Tile, spans [][2]int32, row0, n int, s *sdf.Seg, opacity float32) {
	unite(union, spans, row0, n)
	for j, sp := range spans[:n] {
		py := float32(t.Y0+row0+j) + 0.5
		for x := int(sp[0]); x < int(sp[1]); x++ {
			i := (row0+j)*ts + x
			if d := s.Dist2(float32(t.X0+x)+0.5, py); d < d2[i] {
				d2[i] = d
				if op != nil {
					op[i] = opacity
				}
			}
		}
	}
}

// nearestDashRowsGo is nearestChordRowsGo for a dashed stroke: the distances to the dashes
// of pattern dash on chord s, of length l, which starts at arc length s0 along its stroke.
// It has no vector twin: dashed strokes are the rarer look, and solid ones keep their fast
// path.
func nearestDashRowsGo(d2, op *tileField, union *[ts]composite.Span, t *composite.Tile, spans [][2]int32, row0, n int, s *sdf.Seg, l, s0 float32, dash overlay.Dash, opacity float32) {
	unite(union, spans, row0, n)
	for j, sp := range spans[:n] {
		py := float32(t.Y0+row0+j) + 0.5
		for x := int(sp[0]); x < int(sp[1]); x++ {
			i := (row0+j)*ts + x
			if d := s.DashDist2(float32(t.X0+x)+0.5, py, l, s0, dash.On, dash.Period); d < d2[i] {
				d2[i], op[i] = d, opacity
			}
		}
	}
}

// unite widens each union[row0+j], j < n, to take the non-empty spans[j] in: the smallest
// span holding both, each union[row0+j] a span or noSpan.
func unite(union *[ts]composite.Span, spans [][2]int32, row0, n int) {
	for j, cs := range spans[:n] {
		if cs[0] < cs[1] {
			sp := &union[row0+j]
			sp.X0, sp.X1 = min(sp.X0, cs[0]), max(sp.X1, cs[1])
		}
	}
}

// profileParams are a stroke's profile, colour and glow as strokeRowsAVX2 reads them, in
// this order.
type profileParams struct {
	half, thin float32 // sdf.HalfWidth(w) and sdf.ThinScale(w)
	color      layerColor
	glow       sdf.Glow
}

// newProfile is the profile of a stroke of width w, colour c and glow g.
func newProfile(w float32, c *layerColor, g *sdf.Glow) profileParams {
	return profileParams{sdf.HalfWidth(w), sdf.ThinScale(w), *c, *g}
}

// strokeRows blends, onto each tile row y in [y0, y1) over its span spans[y], a stroke of
// width w, colour c and glow g at the squared distances d2 and opacities op there (d2 from
// nearestChordRows; with op nil, opacity everywhere), and sets d2 there back to
// MaxFloat32: the curves stage's blend.
func strokeRows(t *composite.Tile, d2, op *tileField, spans *[ts]composite.Span, y0, y1 int, w float32, c *layerColor, g *sdf.Glow, opacity float32) {
	if y0 >= y1 {
		return
	}
	if haveAVX2 {
		prm := newProfile(w, c, g)
		var opRow *float32
		if op != nil {
			opRow = &op[y0*ts]
		}
		strokeRowsAVX2(&t.Planes[0][y0*ts], &d2[y0*ts], opRow, &spans[y0], y1-y0, &prm, opacity)
		return
	}
	strokeRowsGo(t, d2, op, spans, y0, y1, w, c, g, opacity)
}

// strokeRowsGo is strokeCover · op (or opacity), and over, pixel by pixel.
func strokeRowsGo(t *composite.Tile, d2, op *tileField, spans *[ts]composite.Span, y0, y1 int, w float32, c *layerColor, g *sdf.Glow, opacity float32) {
	var cov rowBuf
	thin := sdf.ThinScale(w)
	for y := y0; y < y1; y++ {
		lo, hi := y*ts+int(spans[y].X0), y*ts+int(spans[y].X1)
		for i := lo; i < hi; i++ {
			o := opacity
			if op != nil {
				o = op[i]
			}
			cov[i-lo] = strokeCover(d2[i], w, thin, g) * o
			d2[i] = math.MaxFloat32
		}
		overCoverageGo(t, lo, cov[:max(hi-lo, 0)], c)
	}
}

// cornerParams are what boxCornerRowsAVX2 reads of a box and its run of corner rows, in this
// order.
type cornerParams struct {
	boxProfile
	cy, hy           float32     // the box's vertical centre and half height
	px0, py0         float32     // the centres of the run's first column and first row
	left, mid, right int32       // each row's pixels: corner, fill, corner
	fill             *layerColor // nil for none
}

// boxCornerRows draws rows [y0, y1) of the box shaded by s that lie among its corners or
// along its top or bottom border: in each, the corner pixels [xlo, clo) and [chi, xhi) from
// their distances (sdf.RoundBox, then boxProfile.color) and, unless fill is nil, the fill
// colour over [clo, chi).
func boxCornerRows(s *boxShader, y0, y1, xlo, clo, chi, xhi int, fill *layerColor) {
	t := s.t
	if y0 >= y1 || xlo >= xhi {
		return
	}
	if haveAVX2 {
		prm := cornerParams{boxProfile: s.boxProfile, cy: s.cy, hy: s.hy, px0: float32(t.X0+xlo) + 0.5,
			py0: float32(t.Y0+y0) + 0.5, left: int32(clo - xlo), mid: int32(chi - clo), right: int32(xhi - chi), fill: fill}
		boxCornerRowsAVX2(&t.Planes[0][y0*ts+xlo], y1-y0, &prm)
		return
	}
	boxCornerRowsGo(s, y0, y1, xlo, clo, chi, xhi, fill)
}

// boxCornerRowsGo is roundBoxDistGo, boxShadeGo and overSpanGo row by row.
func boxCornerRowsGo(s *boxShader, y0, y1, xlo, clo, chi, xhi int, fill *layerColor) {
	t := s.t
	var d rowBuf
	run := func(row, x0, x1 int, py float32) {
		roundBoxDistGo(&d, x1-x0, float32(t.X0+x0)+0.5, py, s.cx, s.cy, s.hx, s.hy, s.r)
		boxShadeGo(t, row+x0, d[:x1-x0], &s.boxProfile)
	}
	for y := y0; y < y1; y++ {
		row, py := y*ts, float32(t.Y0+y)+0.5
		run(row, xlo, clo, py)
		if fill != nil {
			overSpanGo(t, row+clo, chi-clo, fill)
		}
		run(row, chi, xhi, py)
	}
}

// roundBoxDistGo is sdf.RoundBox per pixel.
func roundBoxDistGo(d *rowBuf, n int, px0, py, cx, cy, hx, hy, r float32) {
	for j := range n {
		d[j] = sdf.RoundBox(px0+float32(j), py, cx, cy, hx, hy, r)
	}
}

// boxShadeGo is boxProfile.color and over at coverage 1, per pixel.
func boxShadeGo(t *composite.Tile, i int, d []float32, b *boxProfile) {
	for j, v := range d {
		if c, covered := b.color(v, sdf.Abs(v)); covered {
			over(t, i+j, &c, 1)
		}
	}
}
