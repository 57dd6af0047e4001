package render

import (
	"math"

	"trackink/composite"
	"trackink/sdf"
)

// The per-tile stages. Each draws its primitives into one tile, in paint order, visiting only
// the pixels a primitive can cover (its rows within the tile, and in each row the span its
// distance field can reach), so work grows with covered pixels, not with the frame or the tile.
// Pixel (x, y) is sampled at its centre (x + 0.5, y + 0.5).

// over blends colour c with coverage cov onto the premultiplied pixel px.
func over(px []float32, c RGBA, cov float32) {
	a := c.A * cov
	k := 1 - a
	px[0] = c.R*cov + px[0]*k
	px[1] = c.G*cov + px[1]*k
	px[2] = c.B*cov + px[2]*k
	px[3] = a + px[3]*k
}

// overSpan blends the opaque-coverage colour c onto every pixel of a row segment: the
// inner loop of box fills, kept free of per-pixel coverage and bounds checks. With AVX2 it
// runs overSpanAVX2 (overspan_amd64.s), two pixels to a register, else its Go twin
// overSpanGo (overspan.go); the two give the same bits.
func overSpan(px []float32, c RGBA) {
	if haveAVX2 && len(px) >= 4 {
		overSpanAVX2(&px[0], len(px)/4, &c)
		return
	}
	overSpanGo(px, c)
}

// pixelRange returns the columns [lo, hi) of a tile whose centres lie in [x0, x1] (tile-local
// pixel coordinates), clipped to [0, w).
func pixelRange(x0, x1 float32, w int) (lo, hi int) {
	l := math.Ceil(float64(x0) - 0.5)
	h := math.Floor(float64(x1)-0.5) + 1
	return int(max(0, min(float64(w), l))), int(max(0, min(float64(w), h)))
}

// segmentRows returns the tile rows [lo, hi) whose centres lie within r of the segment's
// vertical extent.
func segmentRows(t *composite.Tile, y0, y1, r float32) (lo, hi int) {
	oy := float32(t.Y0)
	return pixelRange(min(y0, y1)-r-oy, max(y0, y1)+r-oy, t.H)
}

// segmentSpan returns the columns of tile row y that can lie within r of the segment: the
// part of the segment within r of the row's centre line, widened by r.
func segmentSpan(t *composite.Tile, y int, x0, y0, x1, y1, r float32) (lo, hi int) {
	yc := float32(t.Y0+y) + 0.5
	a, b, ok := bandX(x0, y0, x1, y1, yc-r, yc+r)
	if !ok {
		return 0, 0
	}
	ox := float32(t.X0)
	return pixelRange(a-r-ox, b+r-ox, t.W)
}

func drawLines(t *composite.Tile, lines []Line, idx []int32) {
	for _, i := range idx {
		l := &lines[i]
		r := reach(l.Width)
		thin := sdf.ThinScale(l.Width)
		c := l.Color
		seg := sdf.NewSeg(l.X0, l.Y0, l.X1, l.Y1)
		ylo, yhi := segmentRows(t, l.Y0, l.Y1, r)
		for y := ylo; y < yhi; y++ {
			lo, hi := segmentSpan(t, y, l.X0, l.Y0, l.X1, l.Y1, r)
			if lo >= hi {
				continue
			}
			py := float32(t.Y0+y) + 0.5
			row := t.Pix[y*ts*4:]
			touched := false
			for x := lo; x < hi; x++ {
				px := float32(t.X0+x) + 0.5
				cov := sdf.Coverage(sdf.Stroke(sqrt(seg.Dist2(px, py)), l.Width)) * thin
				if cov > 0 {
					over(row[4*x:4*x+4], c, cov)
					touched = true
				}
			}
			if touched {
				t.Touch(y, lo, hi)
			}
		}
	}
}

// curveScratch holds, while one stroke (a curve or a run of joined curves) is drawn into a
// tile, the squared distance from each pixel to the nearest of the stroke's chords and that
// chord's opacity, over the per-row spans in which they are valid. A stroke takes the minimum
// over its chords before any coverage is blended, so a translucent curve is not darker where
// its chords meet.
type curveScratch struct {
	d2      [ts * ts]float32
	opacity [ts * ts]float32
	span    [ts]composite.Span
}

func drawCurves(t *composite.Tile, s *curveScratch, cs []Curve, chords []chord, idx []int32) {
	for start := 0; start < len(idx); {
		ci := chords[idx[start]].stroke
		end := start + 1
		for end < len(idx) && chords[idx[end]].stroke == ci {
			end++
		}
		drawCurve(t, s, &cs[ci], chords, idx[start:end])
		start = end
	}
}

func drawCurve(t *composite.Tile, s *curveScratch, c *Curve, chords []chord, idx []int32) {
	r := reach(c.Width)
	ylo, yhi := ts, 0
	for _, k := range idx {
		ch := &chords[k]
		seg := sdf.NewSeg(ch.x0, ch.y0, ch.x1, ch.y1)
		lo, hi := segmentRows(t, ch.y0, ch.y1, r)
		ylo, yhi = min(ylo, lo), max(yhi, hi)
		for y := lo; y < hi; y++ {
			x0, x1 := segmentSpan(t, y, ch.x0, ch.y0, ch.x1, ch.y1, r)
			if x0 >= x1 {
				continue
			}
			sp := &s.span[y]
			d2 := s.d2[y*ts : (y+1)*ts]
			op := s.opacity[y*ts : (y+1)*ts]
			// Widen the row's valid span, filling the new pixels with "far".
			if sp.X0 >= sp.X1 {
				*sp = composite.Span{X0: int32(x0), X1: int32(x0)}
			}
			for x := x0; x < int(sp.X0); x++ {
				d2[x] = math.MaxFloat32
			}
			for x := int(sp.X1); x < x1; x++ {
				d2[x] = math.MaxFloat32
			}
			sp.X0, sp.X1 = min(sp.X0, int32(x0)), max(sp.X1, int32(x1))
			py := float32(t.Y0+y) + 0.5
			for x := x0; x < x1; x++ {
				px := float32(t.X0+x) + 0.5
				if d := seg.Dist2(px, py); d < d2[x] {
					d2[x], op[x] = d, ch.opacity
				}
			}
		}
	}
	thin := sdf.ThinScale(c.Width)
	for y := ylo; y < yhi; y++ {
		sp := s.span[y]
		if sp.X0 >= sp.X1 {
			continue
		}
		s.span[y] = composite.Span{}
		d2 := s.d2[y*ts:]
		op := s.opacity[y*ts:]
		row := t.Pix[y*ts*4:]
		touched := false
		for x := int(sp.X0); x < int(sp.X1); x++ {
			cov := sdf.Coverage(sdf.Stroke(sqrt(d2[x]), c.Width)) * thin * op[x]
			if cov > 0 {
				over(row[4*x:4*x+4], c.Color, cov)
				touched = true
			}
		}
		if touched {
			t.Touch(y, int(sp.X0), int(sp.X1))
		}
	}
}

// drawBoxes draws each box's fill and stroke in one pass. Pixels farther inside than the
// stroke's reach take the fill colour without a distance evaluation; only the border band is
// shaded per pixel.
func drawBoxes(t *composite.Tile, boxes []Box, idx []int32) {
	for _, i := range idx {
		drawBox(t, &boxes[i])
	}
}

func drawBox(t *composite.Tile, b *Box) {
	m := boxMargin(b)
	ox, oy := float32(t.X0), float32(t.Y0)
	ylo, yhi := pixelRange(b.Y-m-oy, b.Y+b.H+m-oy, t.H)
	xlo, xhi := pixelRange(b.X-m-ox, b.X+b.W+m-ox, t.W)
	if ylo >= yhi || xlo >= xhi {
		return
	}
	hx, hy := b.W/2, b.H/2
	cx, cy := b.X+hx, b.Y+hy
	// A fill thinner than a pixel is drawn one pixel thick at coverage × thickness, as
	// strokes are (sdf.Stroke): the distance ramp alone would cover too much.
	fillColor := b.Fill
	if s := sdf.ThinScale(b.W) * sdf.ThinScale(b.H); s < 1 {
		fillColor = RGBA{fillColor.R * s, fillColor.G * s, fillColor.B * s, fillColor.A * s}
		hx, hy = max(hx, 0.5), max(hy, 0.5)
	}
	thin := sdf.ThinScale(b.Stroke)
	stroke := b.Stroke > 0
	fill := b.Fill != (RGBA{})
	// A pixel centre at signed distance d ≤ −e has fill coverage 1 and stroke coverage 0.
	e := float32(0.5)
	if stroke {
		e = max(b.Stroke, 1)/2 + 0.5
	}
	sh := boxShader{fill: fill, stroke: stroke, e: e, thin: thin, width: b.Stroke, fillColor: fillColor, strokeColor: b.StrokeColor}
	// Between the corners (|y − cy| ≤ hy − r) the rounded box's distance is
	// max(|x − cx| − hx, |y − cy| − hy), so a row there is solid fill over
	// |x − cx| ≤ hx − e when |y − cy| ≤ hy − e. Rows among the corners use the
	// corner-free inset max(r, e) instead. In the straight rows (|y − cy| ≤ hy − max(e, r))
	// the side bands' distance is |x − cx| − hx whatever the row (the same bits RoundBox
	// returns there), so their colours are shaded once per column, not once per pixel.
	var bandColor [ts]RGBA
	var bandCovered [ts]bool
	bandReady := false
	for y := ylo; y < yhi; y++ {
		row := t.Pix[y*ts*4:]
		py := float32(t.Y0+y) + 0.5
		dy := abs32(py - cy)
		ilo, ihi := 0, 0
		straight := false
		if dy <= hy-e {
			inset := e
			if dy > hy-b.Radius {
				inset = max(b.Radius, e)
			} else {
				straight = true
			}
			ilo, ihi = pixelRange(b.X+inset-ox, b.X+b.W-inset-ox, t.W)
			ilo, ihi = max(ilo, xlo), min(ihi, xhi)
		}
		if ilo >= ihi {
			ilo, ihi = xhi, xhi
		}
		touched := false
		if straight && !bandReady {
			for x := xlo; x < xhi; x++ {
				if x == ilo {
					x = ihi - 1
					continue
				}
				d := sdf.RoundBox(float32(t.X0+x)+0.5, py, cx, cy, hx, hy, b.Radius)
				bandColor[x], bandCovered[x] = sh.color(d)
			}
			bandReady = true
		}
		for x := xlo; x < xhi; x++ {
			if x == ilo {
				if fill {
					overSpan(row[4*ilo:4*ihi], fillColor)
					touched = true
				}
				x = ihi - 1
				continue
			}
			var col RGBA
			var covered bool
			if straight {
				col, covered = bandColor[x], bandCovered[x]
			} else {
				col, covered = sh.color(sdf.RoundBox(float32(t.X0+x)+0.5, py, cx, cy, hx, hy, b.Radius))
			}
			if covered {
				over(row[4*x:4*x+4], col, 1)
				touched = true
			}
		}
		if touched {
			t.Touch(y, xlo, xhi)
		}
	}
}

// boxShader turns a pixel's signed distance to a box's edge into the colour the box adds
// there: the stroke over the fill as one colour with coverage 1.
type boxShader struct {
	fill, stroke           bool
	e, thin, width         float32
	fillColor, strokeColor RGBA
}

// color returns the colour at signed distance d, and false where the box covers nothing.
func (s *boxShader) color(d float32) (RGBA, bool) {
	if d >= s.e {
		return RGBA{}, false
	}
	cf := float32(0)
	if s.fill {
		cf = sdf.Coverage(d)
	}
	cs := float32(0)
	if s.stroke {
		cs = sdf.Coverage(sdf.Stroke(abs32(d), s.width)) * s.thin
	}
	k := 1 - cs
	return RGBA{
		s.strokeColor.R*cs + s.fillColor.R*cf*k,
		s.strokeColor.G*cs + s.fillColor.G*cf*k,
		s.strokeColor.B*cs + s.fillColor.B*cf*k,
		s.strokeColor.A*cs + s.fillColor.A*cf*k,
	}, true
}

func sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// drawLabels draws each label's rounded background, then its glyphs.
func drawLabels(t *composite.Tile, labels []Label, f *Font, glyphs []placedGlyph, start []int32, idx []int32) {
	for _, i := range idx {
		l := &labels[i]
		w, h := f.LabelSize(l.Text)
		bg := Box{X: float32(l.X), Y: float32(l.Y), W: float32(w), H: float32(h),
			Radius: float32(min(w, h)) / 4, Fill: l.Background}
		drawBox(t, &bg)
		for _, g := range glyphs[start[i]:start[i+1]] {
			drawGlyph(t, &g, l.Color)
		}
	}
}

func drawGlyph(t *composite.Tile, pg *placedGlyph, c RGBA) {
	g := pg.g
	x0, y0 := max(pg.x, t.X0), max(pg.y, t.Y0)
	x1, y1 := min(pg.x+g.w, t.X0+t.W), min(pg.y+g.h, t.Y0+t.H)
	if x0 >= x1 || y0 >= y1 {
		return
	}
	for y := y0; y < y1; y++ {
		mask := g.mask[(y-pg.y)*g.w+x0-pg.x : (y-pg.y)*g.w+x1-pg.x]
		row := t.Pix[(y-t.Y0)*ts*4+4*(x0-t.X0):]
		for j, m := range mask {
			if m != 0 {
				over(row[4*j:4*j+4], c, float32(m)*(1.0/255))
			}
		}
		t.Touch(y-t.Y0, x0-t.X0, x1-t.X0)
	}
}
