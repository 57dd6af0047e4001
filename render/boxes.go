package render

import (
	"math"

	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The boxes stage: rounded rectangles, fill and stroke in one pass from the box's signed
// distance field (twin: kernels/boxes.cu).

// drawBoxes draws each box's fill and stroke in one pass. Pixels farther inside than the
// stroke's reach take the fill colour without a distance evaluation, and so do the runs of
// the top and bottom border rows between the corners, whose distance is the row's; the side
// bands are shaded once per column, and only the corners pixel by pixel.
func drawBoxes(t *composite.Tile, boxes []overlay.Box, paints []boxPaint, idx []int32, scratch *stageScratch, g *sdf.Glow) {
	for _, i := range idx {
		drawBox(t, &boxes[i], &paints[i], scratch, g)
	}
}

// boxPaint is a box's fill and stroke colours in the layer's Space.
type boxPaint struct {
	fill, stroke layerColor
}

func drawBox(t *composite.Tile, b *overlay.Box, paint *boxPaint, scratch *stageScratch, g *sdf.Glow) {
	m := boxMargin(b, g)
	ox, oy := float32(t.X0), float32(t.Y0)
	ylo, yhi := sdf.Centers(b.Y-m-oy, b.Y+b.H+m-oy, t.H)
	xlo, xhi := sdf.Centers(b.X-m-ox, b.X+b.W+m-ox, t.W)
	if ylo >= yhi || xlo >= xhi {
		return
	}
	hx, hy := b.W/2, b.H/2
	cx, cy := b.X+hx, b.Y+hy
	// A fill thinner than a pixel is drawn one pixel thick at coverage × thickness, as
	// strokes are (sdf.Stroke): the distance ramp alone would cover too much.
	fillColor := paint.fill
	if s := sdf.ThinScale(b.W) * sdf.ThinScale(b.H); s < 1 {
		fillColor = fillColor.scaled(s)
		hx, hy = max(hx, 0.5), max(hy, 0.5)
	}
	fill := b.Fill != (overlay.RGBA{})
	// A pixel centre at signed distance d ≤ −e has fill coverage 1 and stroke coverage 0
	// (glow 0): e is the outline's reach, its glow's included, on both sides.
	e := float32(0.5)
	var glow sdf.Glow // an outline's; a box without one has none
	if b.Stroke > 0 {
		e, glow = g.Reach(b.Stroke), *g
	}
	sh := boxShader{t: t, cy: cy, hy: hy, boxProfile: boxProfile{fillColor: fillColor, strokeColor: paint.stroke,
		cx: cx, hx: hx, r: b.Radius, e: e, half: sdf.HalfWidth(b.Stroke), thin: sdf.ThinScale(b.Stroke), glow: glow}}
	// Between the corners (|y − cy| ≤ hy − r) the rounded box's distance is
	// max(|x − cx| − hx, |y − cy| − hy), so a row there is solid fill over
	// |x − cx| ≤ hx − e when |y − cy| ≤ hy − e. Rows among the corners use the
	// corner-free inset max(r, e) instead. In the straight rows (|y − cy| ≤ hy − max(e, r))
	// the side bands' distance is |x − cx| − hx whatever the row (the same bits RoundBox
	// returns there), so their colours are shaded once per column, not once per pixel, and
	// the straight rows, every one the same, are drawn by one call (boxRows).
	// The rows among the corners (inside the border) are alike too, but for their distances:
	// they take their fill columns (inset max(r, e)) once, and each run of them one call
	// (boxCornerRows).
	fc := &fillColor
	if !fill {
		fc = nil
	}
	if b.Stroke > 0 && (b.Dash.Period > 0 || b.Bracket > 0) {
		o := boxOutline(b, hx, hy)
		sh.patterned(b, &o, ylo, yhi, xlo, xhi, fc)
		return
	}
	var straight, corner rowRun
	clo, chi := sh.inset(max(b.Radius, e), b, xlo, xhi)
	drawCorners := func() {
		if corner.y0 < corner.y1 {
			boxCornerRows(&sh, corner.y0, corner.y1, xlo, clo, chi, xhi, fc)
			corner = rowRun{}
		}
	}
	for y := ylo; y < yhi; y++ {
		py := float32(t.Y0+y) + 0.5
		dy := sdf.Abs(py - cy)
		switch {
		case dy > hy-e:
			drawCorners()
			sh.edgeRow(y, xlo, xhi, py)
		case dy <= hy-b.Radius:
			drawCorners()
			straight.add(y)
		default:
			corner.add(y)
		}
		t.Touch(y, xlo, xhi)
	}
	drawCorners()
	if straight.y0 == straight.y1 {
		return
	}
	ilo, ihi := sh.inset(e, b, xlo, xhi)
	py := float32(t.Y0+straight.y0) + 0.5
	sh.columns(&scratch.band, xlo, ilo, py)
	sh.columns(&scratch.band, ihi, xhi, py)
	boxRows(t, straight.y0, straight.y1, xlo, ilo, ihi, xhi, &scratch.band, fc)
}

// rowRun is a run of consecutive rows [y0, y1), empty when y0 == y1.
type rowRun struct{ y0, y1 int }

// add extends the run with row y, the one after it (or the first).
func (r *rowRun) add(y int) {
	if r.y0 == r.y1 {
		r.y0 = y
	}
	r.y1 = y + 1
}

// boxShader shades the pixels of one box in one tile.
type boxShader struct {
	t      *composite.Tile
	cy, hy float32 // the box's vertical centre and half height
	boxProfile
	// [edgeA, edgeB) is edgeRow's last run, for limit edgeLimit (once edgeSet): the rows
	// beyond a box's top or bottom border, many with a glow, all have limit 0 and one run.
	edgeA, edgeB int
	edgeLimit    float32
	edgeSet      bool
}

// boxProfile is what shading a pixel of a box from its distance takes, laid out for
// boxCornerRowsAVX2 (simd_amd64.s reads the fields at these offsets, in this order).
type boxProfile struct {
	fillColor, strokeColor layerColor
	cx, hx, r              float32 // the box's horizontal centre, half width and corner radius
	e                      float32 // the distance from which the box covers nothing
	half, thin             float32 // the stroke's max(w, 1)/2 (as in sdf.Stroke) and sdf.ThinScale(w)
	glow                   sdf.Glow
}

// inset returns the columns of [xlo, xhi) whose centres lie at least inset inside the box's
// sides (empty as xhi, xhi).
func (s *boxShader) inset(inset float32, b *overlay.Box, xlo, xhi int) (lo, hi int) {
	ox := float32(s.t.X0)
	lo, hi = sdf.Centers(b.X+inset-ox, b.X+b.W-inset-ox, s.t.W)
	lo, hi = max(lo, xlo), min(hi, xhi)
	if lo >= hi {
		return xhi, xhi
	}
	return lo, hi
}

// qy is sdf.RoundBox's qy for the row at py.
func (s *boxShader) qy(py float32) float32 { return sdf.Abs(py-s.cy) - s.hy + s.r }

// columns shades columns [x0, x1) of a straight row (centre py) into band: with a glow the
// side bands are its width and more, and shading them took as long as drawing them.
func (s *boxShader) columns(band *planarColors, x0, x1 int, py float32) {
	if x0 >= x1 {
		return
	}
	if haveAVX2 {
		prm := cornerParams{boxProfile: s.boxProfile, cy: s.cy, hy: s.hy, px0: float32(s.t.X0+x0) + 0.5, py0: py}
		boxColumnsAVX2(&band[0][x0], x1-x0, &prm)
		return
	}
	s.columnsGo(band, x0, x1, py)
}

// columnsGo is columns pixel by pixel: sdf.RoundBox, then boxProfile.color.
func (s *boxShader) columnsGo(band *planarColors, x0, x1 int, py float32) {
	for x := x0; x < x1; x++ {
		px := float32(s.t.X0+x) + 0.5
		d := sdf.RoundBox(px, py, s.cx, s.cy, s.hx, s.hy, s.r)
		c, _ := s.color(d, sdf.Abs(d)) // zero where uncovered: over leaves the pixel as it is
		for ch := range c {
			band[ch][x] = c[ch]
		}
	}
}

// edgeRow shades a row along the top or bottom border (|py − cy| > hy − e). Where the row
// is off the corners, RoundBox is qy − r for every pixel: for qy > 0 wherever
// qx = |px − cx| − hx + r ≤ 0, and for qy ≤ 0 wherever qx ≤ qy (where RoundBox takes
// max(qx, qy)). Those pixels are one run (edgeRun); it takes one colour, and only the corners
// either side are shaded pixel by pixel (as in the rows among the corners: boxCornerRows).
func (s *boxShader) edgeRow(y, x0, x1 int, py float32) {
	qy := s.qy(py)
	if limit := min(qy, 0); !s.edgeSet || limit != s.edgeLimit {
		s.edgeA, s.edgeB = s.edgeRun(x0, x1, limit)
		s.edgeLimit, s.edgeSet = limit, true
	}
	a, b := s.edgeA, s.edgeB
	c, covered := s.color(qy-s.r, sdf.Abs(qy-s.r))
	fill := &c
	if !covered {
		fill = nil
	}
	boxCornerRows(s, y, y+1, x0, a, b, x1, fill)
}

// qx is sdf.RoundBox's qx for column x.
func (s *boxShader) qx(x int) float32 { return sdf.Abs(float32(s.t.X0+x)+0.5-s.cx) - s.hx + s.r }

// edgeRun returns the first column a of [x0, x1) whose qx is not above limit and b, one past
// the last (x1, x1 where there is none). qx falls to the column nearest cx and rises after it
// (float32 rounding keeps it monotone either side), so those columns are one run. Its ends
// are estimated from |px − cx| ≤ limit + hx − r and kept where the columns either side of
// them confirm it; else (rounding, an empty run) they are found by bisection either side of
// cx. With a glow a box's edge rows are many and long: a scan from the row's ends walked the
// glow's width twice a row.
func (s *boxShader) edgeRun(x0, x1 int, limit float32) (a, b int) {
	w, c := float64(limit+s.hx-s.r), float64(s.cx)-float64(s.t.X0)-0.5
	a = min(max(int(math.Ceil(c-w)), x0), x1)
	return s.confirmRun(x0, x1, limit, a, min(max(int(math.Floor(c+w))+1, a), x1))
}

// confirmRun returns the guess [a, b) where the columns at and either side of its ends
// confirm it as edgeRun's run, else the run found by bisection.
func (s *boxShader) confirmRun(x0, x1 int, limit float32, a, b int) (int, int) {
	in := func(x int) bool { return !(s.qx(x) > limit) }
	if a < b && in(a) && (a == x0 || !in(a-1)) && in(b-1) && (b == x1 || !in(b)) {
		return a, b
	}
	// v is the first column whose centre lies right of cx: qx does not rise before it nor
	// fall from it.
	lo, hi := x0, x1
	for lo < hi {
		if m := (lo + hi) / 2; float32(s.t.X0+m)+0.5 > s.cx {
			hi = m
		} else {
			lo = m + 1
		}
	}
	v := lo
	for lo, hi = x0, v; lo < hi; {
		if m := (lo + hi) / 2; in(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	a = lo
	if a == v && (v == x1 || !in(v)) {
		return x1, x1
	}
	for lo, hi = a, x1; lo < hi; {
		if m := (lo + hi) / 2; in(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return a, lo
}

// color returns the colour at signed distance d, and false where the box covers nothing: the
// stroke over the fill as one colour, at coverage 1. strokeDist is the distance to the
// stroke's centre line: |d| for the whole outline, farther off the dashes of a patterned
// one. (A box without fill has a zero fill colour, and one without stroke a zero thin, so
// neither needs a test.) Twin: the colour of shadeBox.
func (s *boxProfile) color(d, strokeDist float32) (layerColor, bool) {
	if d >= s.e {
		return layerColor{}, false
	}
	cf := sdf.Coverage(d)
	sd := strokeDist - s.half
	cs := s.glow.Cover(sdf.Coverage(sd)*s.thin, sd)
	k := 1 - cs
	var c layerColor
	for i := range c {
		c[i] = float32(s.strokeColor[i]*cs) + float32(float32(s.fillColor[i]*cf)*k)
	}
	return c, true
}

// outline is a box stroke's pattern along each quarter of its outline (overlay.Box's Dash
// and Bracket): dashes on long centred on phase + k·period of the quarter's arc length
// (sdf.RoundBoxArc, sdf.DashGap); period 0 for the whole outline.
type outline struct{ phase, on, period float32 }

// boxOutline returns box b's outline pattern, for half extents (hx, hy) (the box's, or
// those of a box thinner than a pixel, widened). A bracket runs from Bracket × the side's
// length short of the corner (the rounded corner at least) to the corner: one dash per
// quarter, centred on the bracket, with a period too long to repeat. A dashed outline
// fits a whole number of periods (at least one) into each quarter. Twin: boxOutline.
func boxOutline(b *overlay.Box, hx, hy float32) outline {
	q := sdf.QuarterArc(hx, hy, b.Radius)
	switch {
	case b.Bracket > 0:
		k := 1 - 2*b.Bracket
		u0 := min(float32(hx*k), hx-b.Radius)
		u1 := q - min(float32(hy*k), hy-b.Radius)
		return outline{phase: (u0 + u1) / 2, on: u1 - u0, period: 4 * q}
	case b.Dash.Period > 0:
		m := max(sdf.Floor(q/b.Dash.Period+0.5), 1)
		return outline{on: b.Dash.On, period: q / m}
	}
	return outline{}
}

// patterned draws a box whose outline has a pattern (boxOutline) pixel by pixel, as the
// kernel does, but for the fill deeper inside than the stroke's reach: its run in each row
// takes the fill colour at coverage 1 (unless fill is nil). Patterned boxes are the rarer
// look; solid ones keep drawBox's runs of like rows.
func (s *boxShader) patterned(b *overlay.Box, o *outline, ylo, yhi, xlo, xhi int, fill *layerColor) {
	for y := ylo; y < yhi; y++ {
		py := float32(s.t.Y0+y) + 0.5
		dy := sdf.Abs(py - s.cy)
		ilo, ihi := xhi, xhi
		if dy <= s.hy-s.e {
			inset := s.e
			if dy > s.hy-s.r {
				inset = max(s.r, s.e)
			}
			ilo, ihi = s.inset(inset, b, xlo, xhi)
		}
		s.patternPixels(y*ts, xlo, ilo, py, o)
		if fill != nil {
			overSpan(s.t, y*ts+ilo, ihi-ilo, fill)
		}
		s.patternPixels(y*ts, ihi, xhi, py, o)
		s.t.Touch(y, xlo, xhi)
	}
}

// patternPixels shades pixels [x0, x1) of the tile's row at index row (centre py) of a box
// with outline pattern o: the stroke's distance is that to the nearest dash, √(gap² + d²)
// with gap measured along the outline.
func (s *boxShader) patternPixels(row, x0, x1 int, py float32, o *outline) {
	for x := x0; x < x1; x++ {
		px := float32(s.t.X0+x) + 0.5
		d := sdf.RoundBox(px, py, s.cx, s.cy, s.hx, s.hy, s.r)
		g := sdf.DashGap(sdf.RoundBoxArc(px, py, s.cx, s.cy, s.hx, s.hy, s.r)-o.phase, o.on, o.period)
		if c, covered := s.color(d, sdf.Sqrt(float32(g*g)+float32(d*d))); covered {
			over(s.t, row+x, &c, 1)
		}
	}
}
