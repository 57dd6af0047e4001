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
// sets the ones it blended back), so a chord needs no span of its own cleared first, and
// every row's span is noSpan.
type curveScratch struct {
	d2      tileField
	opacity tileField
	span    [ts]composite.Span
	chord   rowSpans // one chord's
}

// tileField is a float per pixel of a tile, row-major, and 8 more: the vector kernels take
// a row's last group of 8 whole, storing back the values they loaded in its lanes past the
// row's end, which for the last row lie in the padding.
type tileField [ts*ts + 8]float32

// noSpan is the empty span a stroke's row starts from: widening it to take a span in
// (min of the starts, max of the ends) gives that span, so unite needs no test.
var noSpan = composite.Span{X0: ts, X1: 0}

// newCurveScratch returns scratch with every distance far and every row's span noSpan.
func newCurveScratch() *curveScratch {
	s := &curveScratch{}
	for i := range s.d2 {
		s.d2[i] = math.MaxFloat32
	}
	for i := range s.span {
		s.span[i] = noSpan
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
//
// With a glow, a solid stroke's chord is taken only where it can be the nearest
// (slabSpans), not over all of its reach: a chord is much shorter than a glow is wide, and
// the chords' whole reaches would overlap several times over.
func drawStroke(t *composite.Tile, s *curveScratch, w float32, dash overlay.Dash, color *layerColor, chords []chord, idx []int32, g *sdf.Glow) {
	r := g.Reach(w)
	slabs := g.Radius > 0 && dash.Period == 0
	// A solid stroke whose chords all have one opacity (no fade: links) keeps no opacity
	// per pixel.
	op, opacity := &s.opacity, chords[idx[0]].opacity
	if dash.Period == 0 && uniformOpacity(chords, idx) {
		op = nil
	}
	ylo, yhi := ts, 0
	for _, k := range idx {
		ch := &chords[k]
		seg := sdf.NewSeg(ch.x0, ch.y0, ch.x1, ch.y1)
		lo, hi := segmentRows(t, ch.y0, ch.y1, r)
		n := hi - lo
		if n <= 0 {
			continue
		}
		spans, ok := s.chord[:], false
		if slabs {
			var first, end int
			if first, end, ok = slabSpans(&s.chord, t, lo, n, ch, r); ok {
				// Only the rows with a span.
				if first >= end {
					continue
				}
				spans, lo, n = s.chord[first:], lo+first, end-first
			}
		}
		if !ok {
			segmentSpans(&s.chord, t, lo, n, ch.x0, ch.y0, ch.x1, ch.y1, r)
		}
		ylo, yhi = min(ylo, lo), max(yhi, lo+n)
		if dash.Period > 0 {
			nearestDashRowsGo(&s.d2, &s.opacity, &s.span, t, spans, lo, n, &seg, ch.l, ch.s0, dash, ch.opacity)
		} else {
			nearestChordRows(&s.d2, op, &s.span, t, spans, lo, n, &seg, ch.opacity)
		}
	}
	strokeRows(t, &s.d2, op, &s.span, ylo, yhi, w, color, g, opacity)
	for y := ylo; y < yhi; y++ {
		if sp := s.span[y]; sp.X0 < sp.X1 {
			t.Touch(y, int(sp.X0), int(sp.X1))
			s.span[y] = noSpan
		}
	}
}

// uniformOpacity reports whether the chords idx all have the first one's opacity.
func uniformOpacity(chords []chord, idx []int32) bool {
	o := chords[idx[0]].opacity
	for _, k := range idx[1:] {
		if chords[k].opacity != o {
			return false
		}
	}
	return true
}

// slabSpans sets spans[j], j < n, to the columns of tile row row0+j whose centres lie in
// the rectangle where chord ch can be its stroke's nearest within reach r: within r of the
// chord's line, from r·turn0 + 1 before its start to r·turn1 + 1 past its end. It returns
// the first j with a span and one past the last (lo ≥ hi when none has: most of a steep
// chord's rows within its reach lie above or below the rectangle), and false, setting
// nothing, for a chord of no length.
//
// Why that suffices: a pixel within r of the stroke (a polyline) is nearest to a point
// inside some chord, and then lies across from it, within the chord's ends; or to a vertex
// where two chords meet, and then lies in the wedge between their normals on the outer side,
// which reaches at most r·sin(turn) past either chord's end (all of r past 90°); or to an end
// of the stroke, within r of it. Where the distances to two chords are equal but for
// rounding, either may be the one taken: the kernels, which take every chord over its
// reach, agree within the goldens' tolerance.
func slabSpans(spans *rowSpans, t *composite.Tile, row0, n int, ch *chord, r float32) (lo, hi int, ok bool) {
	dx, dy := ch.x1-ch.x0, ch.y1-ch.y0
	l := sdf.Sqrt(float32(dx*dx) + float32(dy*dy))
	if !(l > 0) {
		return 0, 0, false
	}
	ux, uy := dx/l, dy/l
	e0, e1 := float32(r*ch.turn0)+1, float32(r*ch.turn1)+1
	// Along the chord, (x − x0)·ux + qy·uy in [−e0, l + e1]; across it,
	// −(x − x0)·uy + qy·ux in [−r, r]: per row two ranges of x − x0, each bounded by
	// (c − v·qy)/k (where k is 0, the row is in or out as a whole).
	prm := slabParams{qy0: float32(t.Y0+row0) + 0.5 - ch.y0, aV: uy, aC0: -e0, aC1: l + e1, bV: ux, bC0: -r, bC1: r,
		w: int32(t.W), x0: ch.x0, ox: float32(t.X0), top: float32(t.W) + 2}
	if ux != 0 {
		prm.aInv = 1 / ux
	}
	if uy != 0 {
		prm.bInv = -1 / uy
	}
	switch {
	case n <= 0:
		return 0, 0, true
	case haveAVX2 && prm.aInv != 0 && prm.bInv != 0:
		lo, hi = slabSpansAVX2(&spans[0][0], n, &prm)
	default:
		lo, hi = slabSpansGo(spans, n, &prm)
	}
	return lo, hi, true
}
