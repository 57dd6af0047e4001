package render

import (
	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The boxes stage: rounded rectangles, fill and stroke in one pass from the box's signed
// distance field (twin: kernels/boxes.cu).

// drawBoxes draws each box's fill and stroke in one pass. Pixels farther inside than the
// stroke's reach take the fill colour without a distance evaluation; only the border band is
// shaded per pixel.
func drawBoxes(t *composite.Tile, boxes []overlay.Box, paints []boxPaint, idx []int32) {
	for _, i := range idx {
		drawBox(t, &boxes[i], &paints[i])
	}
}

// boxPaint is a box's fill and stroke colours in the layer's Space.
type boxPaint struct {
	fill, stroke layerColor
}

func drawBox(t *composite.Tile, b *overlay.Box, paint *boxPaint) {
	m := boxMargin(b)
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
	thin := sdf.ThinScale(b.Stroke)
	stroke := b.Stroke > 0
	fill := b.Fill != (overlay.RGBA{})
	// A pixel centre at signed distance d ≤ −e has fill coverage 1 and stroke coverage 0.
	e := float32(0.5)
	if stroke {
		e = max(b.Stroke, 1)/2 + 0.5
	}
	sh := boxShader{fill: fill, stroke: stroke, e: e, thin: thin, width: b.Stroke, fillColor: fillColor, strokeColor: paint.stroke}
	// Between the corners (|y − cy| ≤ hy − r) the rounded box's distance is
	// max(|x − cx| − hx, |y − cy| − hy), so a row there is solid fill over
	// |x − cx| ≤ hx − e when |y − cy| ≤ hy − e. Rows among the corners use the
	// corner-free inset max(r, e) instead. In the straight rows (|y − cy| ≤ hy − max(e, r))
	// the side bands' distance is |x − cx| − hx whatever the row (the same bits RoundBox
	// returns there), so their colours are shaded once per column, not once per pixel.
	var bandColor [ts]layerColor
	var bandCovered [ts]bool
	bandReady := false
	for y := ylo; y < yhi; y++ {
		row := y * ts
		py := float32(t.Y0+y) + 0.5
		dy := sdf.Abs(py - cy)
		ilo, ihi := 0, 0
		straight := false
		if dy <= hy-e {
			inset := e
			if dy > hy-b.Radius {
				inset = max(b.Radius, e)
			} else {
				straight = true
			}
			ilo, ihi = sdf.Centers(b.X+inset-ox, b.X+b.W-inset-ox, t.W)
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
					overSpan(t, row+ilo, ihi-ilo, &fillColor)
					touched = true
				}
				x = ihi - 1
				continue
			}
			var col layerColor
			var covered bool
			if straight {
				col, covered = bandColor[x], bandCovered[x]
			} else {
				col, covered = sh.color(sdf.RoundBox(float32(t.X0+x)+0.5, py, cx, cy, hx, hy, b.Radius))
			}
			if covered {
				over(t, row+x, &col, 1)
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
	fillColor, strokeColor layerColor
}

// color returns the colour at signed distance d, and false where the box covers nothing.
func (s *boxShader) color(d float32) (layerColor, bool) {
	if d >= s.e {
		return layerColor{}, false
	}
	cf := float32(0)
	if s.fill {
		cf = sdf.Coverage(d)
	}
	cs := float32(0)
	if s.stroke {
		cs = sdf.Coverage(sdf.Stroke(sdf.Abs(d), s.width)) * s.thin
	}
	k := 1 - cs
	var c layerColor
	for i := range c {
		c[i] = float32(s.strokeColor[i]*cs) + float32(float32(s.fillColor[i]*cf)*k)
	}
	return c, true
}

// overSpan blends colour c at coverage 1 onto the n pixels of the tile's planes from index i:
// the inner loop of box fills, kept free of per-pixel coverage and bounds checks. With AVX2
// it runs overSpanAVX2 (overspan_amd64.s) on groups of 8 pixels of each plane and its Go twin
// overSpanGo (overspan_go.go) on the rest; the two give the same bits.
func overSpan(t *composite.Tile, i, n int, c *layerColor) {
	if haveAVX2 && n >= 8 {
		g := n / 8
		overSpanAVX2(&t.Planes[0][i], g, c)
		i, n = i+8*g, n-8*g
	}
	overSpanGo(t, i, n, c)
}
