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
//
// The CUDA kernels carry a twin of every function here in kernels/geometry.cuh, with the
// same float32 operations in the same order (no multiply-add contraction on either side), so
// the CPU renderer (package render) and the kernels compute the same coverage bit for bit.
// Each function's comment names its twin.
package sdf

import "math"

// Coverage returns the anti-aliased coverage of a pixel whose centre is at signed distance d
// from an edge (negative inside). Twin: coverage.
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
// Twin: stroke.
func Stroke(dist, w float32) float32 {
	return dist - HalfWidth(w)
}

// HalfWidth is half the width a stroke of width w is drawn at: strokes thinner than a pixel
// are drawn one pixel wide (and ThinScale fades them).
func HalfWidth(w float32) float32 { return max(w, 1) * 0.5 }

// ThinScale is the factor that Stroke's coverage is multiplied by: w for strokes thinner than
// one pixel, else 1. Twin: thinScale.
func ThinScale(w float32) float32 {
	return min(w, 1)
}

// Reach is how far from its centre line a stroke of width w covers pixel centres: beyond it
// Coverage(Stroke(d, w)) is 0. Twin: reach.
func Reach(w float32) float32 { return max(w, 1)/2 + 0.5 }

// Centers returns the pixels [lo, hi) of a row of n pixels whose centres x + 0.5 lie in
// [x0, x1]. Twin: inRange, its per-pixel form.
//
// It runs for every row of every stroke a tile draws, so it works in float32 and integers:
// the bounds are first clamped to [−1, n + 2], where x − 0.5 is exact and rounding up or
// down is a truncation and a compare (math.Ceil and math.Floor are calls on amd64 before
// GOAMD64=v2); that clamp leaves the result as it was. A NaN bound gives an empty range.
func Centers(x0, x1 float32, n int) (lo, hi int) {
	if x0 != x0 || x1 != x1 {
		return 0, 0
	}
	top := float32(n) + 2
	a := min(max(x0, -1), top) - 0.5 // ⌈a⌉ is the first centre at or after x0
	b := min(max(x1, -1), top) - 0.5 // ⌊b⌋ is the last centre at or before x1
	lo, hi = int(a), int(b)
	if float32(lo) < a {
		lo++
	}
	if float32(hi) > b {
		hi--
	}
	return min(max(lo, 0), n), min(max(hi+1, 0), n)
}

// Seg is a segment prepared for many distance queries: the division is done once. The
// vectorised twins of Dist2 in package render read its fields in this order. Twin: Seg.
type Seg struct {
	ax, ay float32 // the start
	dx, dy float32 // the end minus the start
	invL2  float32 // 1 / (dx² + dy²), or 0 for a point
}

// NewSeg prepares the segment ab; a zero-length segment is a point. Twin: newSeg.
func NewSeg(ax, ay, bx, by float32) Seg {
	dx, dy := bx-ax, by-ay
	inv := float32(0)
	if l2 := dx*dx + dy*dy; l2 > 0 {
		inv = 1 / l2
	}
	return Seg{ax, ay, dx, dy, inv}
}

// Dist2 returns the squared distance from p to the segment. Twin: segDist2.
func (s *Seg) Dist2(px, py float32) float32 {
	d2, _ := s.Dist2T(px, py)
	return d2
}

// Dist2T returns Dist2 and the parameter t of the segment's point nearest p, 0 at the
// start and 1 at the end (a gradient's mix). Twin: segDist2T.
func (s *Seg) Dist2T(px, py float32) (d2, t float32) {
	// The conversions keep the compiler from fusing a product into a sum (it may with
	// GOAMD64=v3): no FMA, as in the kernels and the vectorised twins.
	qx, qy := px-s.ax, py-s.ay
	t = min(max(float32(float32(qx*s.dx)+float32(qy*s.dy))*s.invL2, 0), 1)
	ex, ey := qx-float32(t*s.dx), qy-float32(t*s.dy)
	return float32(ex*ex) + float32(ey*ey), t
}

// RoundBox returns the signed distance from p to a rectangle centred at c with half extents
// (hx, hy) whose corners are rounded with radius r (0 ≤ r ≤ min(hx, hy)).
//
// With q = |p − c| − h + r, the distance is |max(q, 0)| + min(max(qx, qy), 0) − r. Only near a
// corner (both components positive) does that need the square root; along the straight edges
// and inside it reduces to max(qx, qy) − r, the same bits (√(x²) is exactly |x| in floating
// point), at a fraction of the cost: most of a box's border is straight edge. Twin: roundBox.
func RoundBox(px, py, cx, cy, hx, hy, r float32) float32 {
	qx := Abs(px-cx) - hx + r
	qy := Abs(py-cy) - hy + r
	switch {
	case qx <= 0 && qy <= 0:
		return max(qx, qy) - r
	case qy <= 0:
		return qx - r
	case qx <= 0:
		return qy - r
	}
	return Sqrt(float32(qx*qx)+float32(qy*qy)) - r
}

// BandX clips the segment (x0, y0)–(x1, y1) to the horizontal band y0b ≤ y ≤ y1b and returns
// the x extent of what remains; ok is false when nothing does. Binning and the stroke
// stages use it to bound the tiles and the row spans a stroke can reach. Twin: bandX.
func BandX(x0, y0, x1, y1, y0b, y1b float32) (lo, hi float32, ok bool) {
	dy := y1 - y0
	t0, t1 := float32(0), float32(1)
	if dy == 0 {
		if y0 < y0b || y0 > y1b {
			return 0, 0, false
		}
	} else {
		ta, tb := (y0b-y0)/dy, (y1b-y0)/dy
		if ta > tb {
			ta, tb = tb, ta
		}
		t0, t1 = max(t0, ta), min(t1, tb)
		if t0 > t1 {
			return 0, 0, false
		}
	}
	xa, xb := x0+float32((x1-x0)*t0), x0+float32((x1-x0)*t1) // no FMA, as in Dist2
	return min(xa, xb), max(xa, xb), true
}

// DashDist2 returns the squared distance from p to the dashes that lie on the segment, of
// the pattern with dashes [k·period, k·period + on] along a stroke's arc length, when the
// segment has length l and starts at arc length s0 (a chord of a curve, or a whole line at
// s0 = 0); math.MaxFloat32 when no dash touches the segment. period must be positive.
//
// The dashes on a straight segment are collinear intervals, so the point of them nearest p
// lies in the interval nearest p's projection u onto the segment's line, measured in arc
// length: the dash holding u clamped to the segment, else the end of the dash before it or
// the start of the one after, whichever is nearer. Distances to a dash's ends are Euclidean,
// so dashes have round caps and zero-length dashes are disks. A stroke takes the minimum
// over its segments, so a dash running over the joint of two chords is one dash.
// Twin: segDashDist2.
func (s *Seg) DashDist2(px, py, l, s0, on, period float32) float32 {
	qx, qy := px-s.ax, py-s.ay
	t := float32(float32(qx*s.dx)+float32(qy*s.dy)) * s.invL2
	u := s0 + float32(t*l)
	end := s0 + l
	uc := min(max(u, s0), end)
	a := float32(Floor(uc/period) * period)
	w := uc
	if b := a + on; uc > b {
		next := a + period
		before, after := b >= s0, next <= end
		switch {
		case before && (!after || u-b <= next-u):
			w = b
		case after:
			w = next
		default:
			return math.MaxFloat32
		}
	}
	tw := float32(0)
	if l > 0 {
		tw = (w - s0) / l
	}
	ex, ey := qx-float32(tw*s.dx), qy-float32(tw*s.dy)
	return float32(ex*ex) + float32(ey*ey)
}

// QuarterArc is the length of a quarter of the outline of a rounded box with half extents
// (hx, hy) and corner radius r: from the middle of a horizontal side to the middle of a
// vertical one. Twin: quarterArc.
func QuarterArc(hx, hy, r float32) float32 {
	return (hx - r) + (hy - r) + float32(r*(math.Pi/2))
}

// RoundBoxArc returns where the point of the rounded box's outline nearest p lies (near
// the outline; RoundBox's arguments): its arc length along the quarter of the outline in
// p's quadrant, from the middle of the top or bottom side through the corner to the middle
// of the left or right side, 0..QuarterArc. Each quadrant is measured from the vertical
// axis, so patterns laid along it are symmetric about both axes. Twin: roundBoxArc.
func RoundBoxArc(px, py, cx, cy, hx, hy, r float32) float32 {
	ax := Abs(px - cx)
	qx := ax - hx + r
	qy := Abs(py-cy) - hy + r
	switch {
	case qx > 0 && qy > 0: // the corner: the angle from the vertical
		return (hx - r) + float32(r*float32(math.Atan2(float64(qx), float64(qy))))
	case qy >= qx: // the horizontal side
		return ax
	}
	return (hx - r) + float32(r*(math.Pi/2)) - qy // the vertical side
}

// DashGap returns how far arc position u lies from the nearest dash of the pattern with
// dashes centred on the multiples of period, each on long (the dashes
// [k·period − on/2, k·period + on/2]): 0 on a dash. Twin: dashGap.
func DashGap(u, on, period float32) float32 {
	k := Floor(u/period + 0.5)
	return max(Abs(u-float32(k*period))-on/2, 0)
}

// Floor is ⌊x⌋ for float32. Twin: floorf.
func Floor(x float32) float32 { return float32(math.Floor(float64(x))) }

// Abs is |x| for float32. Twin: fabsf.
func Abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// Sqrt is the correctly rounded float32 square root (as float32(math.Sqrt), exact for
// float32 arguments). Twin: sqrtf.
func Sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }
