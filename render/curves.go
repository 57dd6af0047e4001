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
// chord's opacity, over the per-row spans in which they are valid. A stroke takes the minimum
// over its chords before any coverage is blended, so a translucent curve is not darker where
// its chords meet.
type curveScratch struct {
	d2      [ts * ts]float32
	opacity [ts * ts]float32
	span    [ts]composite.Span
	cov     rowBuf
}

func drawCurves(t *composite.Tile, s *curveScratch, cs []overlay.Curve, colors []layerColor, chords []chord, idx []int32) {
	for start := 0; start < len(idx); {
		ci := chords[idx[start]].stroke
		end := start + 1
		for end < len(idx) && chords[idx[end]].stroke == ci {
			end++
		}
		drawCurve(t, s, &cs[ci], &colors[ci], chords, idx[start:end])
		start = end
	}
}

func drawCurve(t *composite.Tile, s *curveScratch, c *overlay.Curve, color *layerColor, chords []chord, idx []int32) {
	r := sdf.Reach(c.Width)
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
			nearestChord(d2[x0:x1], s.opacity[y*ts+x0:y*ts+x1], &seg, float32(t.X0+x0)+0.5, float32(t.Y0+y)+0.5, ch.opacity)
		}
	}
	for y := ylo; y < yhi; y++ {
		sp := s.span[y]
		if sp.X0 >= sp.X1 {
			continue
		}
		s.span[y] = composite.Span{}
		lo, hi := y*ts+int(sp.X0), y*ts+int(sp.X1)
		strokeCoverage(&s.cov, s.d2[lo:hi], s.opacity[lo:hi], c.Width)
		overCoverage(t, lo, s.cov[:hi-lo], color)
		t.Touch(y, int(sp.X0), int(sp.X1))
	}
}
