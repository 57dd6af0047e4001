package render

import (
	"trackink/composite"
	"trackink/curves"
	"trackink/overlay"
	"trackink/sdf"
)

// The lines stage: straight strokes with round caps from their exact distance field
// (twin: kernels/lines.cu).

// drawLines draws each line's rows: their spans (segmentSpans, widened by the glow g), then
// the coverage over them (strokeSegmentRows; a gradient line from colors[i] to ends[i]). A dashed line is drawn as a stroke of one chord, the curves
// stage's way (drawStroke), in its Color: a gradient is for solid lines.
func drawLines(t *composite.Tile, lines []overlay.Line, colors, ends []layerColor, idx []int32, sc *stageScratch, g *sdf.Glow) {
	spans := &sc.spans
	for _, i := range idx {
		l := &lines[i]
		if l.Dash.Period > 0 {
			sc.line[0] = chord{x0: l.X0, y0: l.Y0, x1: l.X1, y1: l.Y1, opacity: 1, s0: l.Dash.Phase, l: curves.ChordLen(l.X0, l.Y0, l.X1, l.Y1)}
			drawStroke(t, sc.curves, l.Width, l.Dash, &colors[i], sc.line[:], lineChord[:], g)
			continue
		}
		r := g.Reach(l.Width)
		seg := sdf.NewSeg(l.X0, l.Y0, l.X1, l.Y1)
		ylo, yhi := segmentRows(t, l.Y0, l.Y1, r)
		n := yhi - ylo
		// With a glow the reach is wide, and a slanted line's rows are taken over the
		// rectangle around it (slabSpans, the line a chord with round caps) rather than over
		// the band's extent widened by the reach either side.
		sc.line[0] = chord{x0: l.X0, y0: l.Y0, x1: l.X1, y1: l.Y1, turn0: 1, turn1: 1}
		ok := false
		if g.Radius > 0 {
			_, _, ok = slabSpans(spans, t, ylo, n, &sc.line[0], r)
		}
		if !ok {
			segmentSpans(spans, t, ylo, n, l.X0, l.Y0, l.X1, l.Y1, r)
		}
		var end *layerColor
		if l.Gradient {
			end = &ends[i]
		}
		strokeSegmentRows(t, spans, ylo, n, &seg, l.Width, &colors[i], end, g)
		for j, sp := range spans[:max(n, 0)] {
			if sp[0] < sp[1] {
				t.Touch(ylo+j, int(sp[0]), int(sp[1]))
			}
		}
	}
}

// lineChord lists the one chord of a dashed line (stageScratch.line).
var lineChord = [1]int32{0}
