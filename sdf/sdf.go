// Package sdf holds the signed distance functions trackink draws with, and the coverage rule
// that turns a distance into anti-aliased coverage.
//
// Anti-aliasing is analytic: a pixel whose centre lies at signed distance d (in pixels,
// negative inside) from a shape's edge is covered by
//
//	coverage = clamp(0.5 − d, 0, 1)
//
// which is the exact area coverage of a pixel by a straight edge at that distance, sampled
// one pixel wide: the summed coverage of a filled axis-aligned rectangle equals its area, and
// a stroke of width w ≥ 1 integrates to w across its profile. No supersampling is done.
//
// All functions work in float32: at 4K a float32 coordinate keeps better than 1/1000 px.
package sdf

import "math"

// Coverage returns the anti-aliased coverage of a pixel whose centre is at signed distance d
// from an edge (negative inside).
func Coverage(d float32) float32 {
	c := 0.5 - d
	if c <= 0 {
		return 0
	}
	if c >= 1 {
		return 1
	}
	return c
}

// Stroke returns the signed distance to a stroke of width w centred on a curve at unsigned
// distance dist. Strokes thinner than one pixel are drawn one pixel wide with their coverage
// scaled by w (see ThinScale), so that a stroke always integrates to w across its profile.
func Stroke(dist, w float32) float32 {
	return dist - max(w, 1)*0.5
}

// ThinScale is the factor that Stroke's coverage is multiplied by: w for strokes thinner than
// one pixel, else 1.
func ThinScale(w float32) float32 {
	return min(w, 1)
}

// Segment returns the distance from p to the segment ab; a zero-length segment is a point.
func Segment(px, py, ax, ay, bx, by float32) float32 {
	return sqrt(Segment2(px, py, ax, ay, bx, by))
}

// Segment2 returns the squared distance from p to the segment ab.
func Segment2(px, py, ax, ay, bx, by float32) float32 {
	s := NewSeg(ax, ay, bx, by)
	return s.Dist2(px, py)
}

// Seg is a segment prepared for many distance queries: the division is done once.
type Seg struct {
	ax, ay, dx, dy, invL2 float32
}

// NewSeg prepares the segment ab.
func NewSeg(ax, ay, bx, by float32) Seg {
	dx, dy := bx-ax, by-ay
	inv := float32(0)
	if l2 := dx*dx + dy*dy; l2 > 0 {
		inv = 1 / l2
	}
	return Seg{ax, ay, dx, dy, inv}
}

// Dist2 returns the squared distance from p to the segment.
func (s *Seg) Dist2(px, py float32) float32 {
	qx, qy := px-s.ax, py-s.ay
	t := min(max((qx*s.dx+qy*s.dy)*s.invL2, 0), 1)
	ex, ey := qx-t*s.dx, qy-t*s.dy
	return ex*ex + ey*ey
}

// RoundBox returns the signed distance from p to a rectangle centred at c with half extents
// (hx, hy) whose corners are rounded with radius r (0 ≤ r ≤ min(hx, hy)).
//
// With q = |p − c| − h + r, the distance is |max(q, 0)| + min(max(qx, qy), 0) − r. Only near a
// corner (both components positive) does that need the square root; along the straight edges
// and inside it reduces to max(qx, qy) − r, the same bits (√(x²) is exactly |x| in floating
// point), at a fraction of the cost: most of a box's border is straight edge.
func RoundBox(px, py, cx, cy, hx, hy, r float32) float32 {
	qx := abs(px-cx) - hx + r
	qy := abs(py-cy) - hy + r
	switch {
	case qx <= 0 && qy <= 0:
		return max(qx, qy) - r
	case qy <= 0:
		return qx - r
	case qx <= 0:
		return qy - r
	}
	return sqrt(qx*qx+qy*qy) - r
}

func abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

func sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }
