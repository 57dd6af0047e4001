package render

import (
	"math"

	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The curves stage: quadratic Bezier strokes, flattened into chords by the bin stage, from
// the distance to the nearest chord of their stroke (twin: kernels/curves.cu).

// curveScratch holds, while one stroke (a curve or a run of joined curves) is drawn into a
// tile, the squared distance from each pixel to the nearest of the stroke's chords and that
// chord's opacity, and per row the span of pixels any chord reached. A stroke takes the
// minimum over its chords before any coverage is blended, so a translucent curve is not
// darker where its chords meet. Between strokes every distance is MaxFloat32 (strokeRows
// sets the ones it blended back), so a chord needs no span of its own cleared first.
type curveScratch struct {
	d2      [ts * ts]float32
	opacity [ts * ts]float32
	span    [ts]composite.Span
	chord   rowSpans // one chord's
}

// newCurveScratch returns scratch with every distance far.
func newCurveScratch() *curveScratch {
	s := &curveScratch{}
	for i := range s.d2 {
		s.d2[i] = math.MaxFloat32
	}
	return s
}

func drawCurves(t *composite.Tile, s *curveScratch, cs []overlay.Curve, colors []layerColor, chords []chord, idx []int32, g *sdf.Glow) {
	for start := 0; start < len(idx); {
		ci := chords[idx[start]].stroke
		end := start + 1
		for end < len(idx) && chords[idx[end]].stroke == ci {
			end++
		}
		c := &cs[ci]
		drawStroke(t, s, c.Width, c.Dash, &colors[ci], chords, idx[start:end], g)
		start = end
	}
}

// drawStroke draws one stroke of width w, dash pattern dash, colour color and glow g: the
// chords idx of chords, the nearest at each pixel.
func drawStroke(t *composite.Tile, s *curveScratch, w float32, dash overlay.Dash, color *layerColor, chords []chord, idx []int32, g *sdf.Glow) {
	r := sdf.Reach(w) + g.Radius
	ylo, yhi := ts, 0
	for _, k := range idx {
		ch := &chords[k]
		seg := sdf.NewSeg(ch.x0, ch.y0, ch.x1, ch.y1)
		lo, hi := segmentRows(t, ch.y0, ch.y1, r)
		n := hi - lo
		if n <= 0 {
			continue
		}
		ylo, yhi = min(ylo, lo), max(yhi, hi)
		segmentSpans(&s.chord, t, lo, n, ch.x0, ch.y0, ch.x1, ch.y1, r)
		if dash.Period > 0 {
			nearestDashRowsGo(&s.d2, &s.opacity, t, &s.chord, lo, n, &seg, ch.l, ch.s0, dash, ch.opacity)
		} else {
			nearestChordRows(&s.d2, &s.opacity, t, &s.chord, lo, n, &seg, ch.opacity)
		}
		for j, cs := range s.chord[:n] {
			if cs[0] >= cs[1] {
				continue
			}
			sp := &s.span[lo+j]
			if sp.X0 >= sp.X1 {
				*sp = composite.Span{X0: cs[0], X1: cs[1]}
			} else {
				sp.X0, sp.X1 = min(sp.X0, cs[0]), max(sp.X1, cs[1])
			}
		}
	}
	strokeRows(t, &s.d2, &s.opacity, &s.span, ylo, yhi, w, color, g)
	for y := ylo; y < yhi; y++ {
		if sp := s.span[y]; sp.X0 < sp.X1 {
			t.Touch(y, int(sp.X0), int(sp.X1))
			s.span[y] = composite.Span{}
		}
	}
}
