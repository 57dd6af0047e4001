package overlay

import (
	"math"
	"slices"
)

// Links to points far outside the frame (coordinates reach ±1e7 px, scene.MaxCoord) are cut
// to the part near the frame before they are drawn: the rasterisers (render, the CUDA
// kernels) measure distances to a stroke in float32, which at 1e7 px holds about one pixel,
// so an uncut link came out as scattered dots. The cut is made in float64, and
// only where an end lies beyond the margin: other links keep their exact coordinates.

// clipMargin is how far outside the frame a cut link's new ends lie: beyond the reach of
// its round caps (half the width), of antialiasing and of its glow (radius glow), plus one
// dash period so that a dashed link's first dash, moved back to keep the pattern in step,
// is out of sight too.
func clipMargin(width float32, d Dash, glow float32) float64 {
	return float64(width) + float64(d.Period) + float64(glow) + 2
}

// clipLine cuts l, drawn with a glow of radius glow, to the w×h frame and the margin around
// it; false when none of it is there. A dashed line's start moves by whole dash periods, so
// its dashes stay where they were.
func clipLine(l Line, w, h int, glow float32) (Line, bool) {
	m := clipMargin(l.Width, l.Dash, glow)
	x0, y0, x1, y1 := float64(l.X0), float64(l.Y0), float64(l.X1), float64(l.Y1)
	if inRect(x0, y0, w, h, m) && inRect(x1, y1, w, h, m) {
		return l, true
	}
	t0, t1, ok := clipSegment(x0, y0, x1, y1, -m, -m, float64(w)+m, float64(h)+m)
	if !ok {
		return l, false
	}
	if p := float64(l.Dash.Period); p > 0 && t0 > 0 {
		length := math.Hypot(x1-x0, y1-y0)
		t0 = math.Floor(t0*length/p) * p / length
	}
	dx, dy := x1-x0, y1-y0
	l.X0, l.Y0 = float32(x0+t0*dx), float32(y0+t0*dy)
	l.X1, l.Y1 = float32(x0+t1*dx), float32(y0+t1*dy)
	if l.Gradient { // the cut ends take the colours the whole link has there
		l.Color, l.Color1 = lerpRGBA(l.Color, l.Color1, float32(t0)), lerpRGBA(l.Color, l.Color1, float32(t1))
	}
	return l, true
}

// clipCurve cuts c to the w×h frame and the margin around it: to the span of the curve
// between its first and last points there (a quadratic Bezier leaves and re-enters a
// rectangle at most a few times; what lies between is kept); false when none of it is
// there. A cut dashed curve starts its pattern afresh at its new start.
func clipCurve(c Curve, w, h int, glow float32) (Curve, bool) {
	m := clipMargin(c.Width, c.Dash, glow)
	p := [3][2]float64{{float64(c.X0), float64(c.Y0)}, {float64(c.X1), float64(c.Y1)}, {float64(c.X2), float64(c.Y2)}}
	if inRect(p[0][0], p[0][1], w, h, m) && inRect(p[1][0], p[1][1], w, h, m) && inRect(p[2][0], p[2][1], w, h, m) {
		return c, true // the curve lies within its control points' hull
	}
	lo := [2]float64{-m, -m}
	hi := [2]float64{float64(w) + m, float64(h) + m}
	// The parameters where the curve crosses the margin's sides, and its ends, split it into
	// pieces that lie wholly inside or wholly outside. (An array: the drawer allocates
	// nothing in steady state.)
	var buf [10]float64
	ts := append(buf[:0], 0, 1)
	for axis := range 2 {
		for _, edge := range [2]float64{lo[axis], hi[axis]} {
			var roots [2]float64
			n := quadRoots(&roots, p[0][axis]-2*p[1][axis]+p[2][axis], 2*(p[1][axis]-p[0][axis]), p[0][axis]-edge)
			ts = append(ts, roots[:n]...)
		}
	}
	slices.Sort(ts)
	first, last := math.Inf(1), math.Inf(-1)
	for i := 1; i < len(ts); i++ {
		a, b := ts[i-1], ts[i]
		if x, y := bezier(p, (a+b)/2); a < b && x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1] {
			first, last = min(first, a), max(last, b)
		}
	}
	if first >= last {
		return c, false
	}
	q0x, q0y := bezier(p, first)
	q2x, q2y := bezier(p, last)
	// The control point of the piece from first to last: the curve's blossom at (first, last).
	u, v := first, last
	k0, k1, k2 := (1-u)*(1-v), (1-u)*v+u*(1-v), u*v
	c.X0, c.Y0 = float32(q0x), float32(q0y)
	c.X1, c.Y1 = float32(k0*p[0][0]+k1*p[1][0]+k2*p[2][0]), float32(k0*p[0][1]+k1*p[1][1]+k2*p[2][1])
	c.X2, c.Y2 = float32(q2x), float32(q2y)
	return c, true
}

// inRect reports whether (x, y) lies within margin m of the w×h frame.
func inRect(x, y float64, w, h int, m float64) bool {
	return x >= -m && x <= float64(w)+m && y >= -m && y <= float64(h)+m
}

// clipSegment is Liang–Barsky: the parameters t0 ≤ t1 of the part of the segment from
// (x0, y0) to (x1, y1) inside the rectangle, false when no part is.
func clipSegment(x0, y0, x1, y1, xmin, ymin, xmax, ymax float64) (t0, t1 float64, ok bool) {
	dx, dy := x1-x0, y1-y0
	t0, t1 = 0, 1
	for _, pq := range [4][2]float64{{-dx, x0 - xmin}, {dx, xmax - x0}, {-dy, y0 - ymin}, {dy, ymax - y0}} {
		p, q := pq[0], pq[1]
		switch {
		case p == 0:
			if q < 0 {
				return 0, 0, false
			}
		case p < 0:
			t0 = max(t0, q/p)
		default:
			t1 = min(t1, q/p)
		}
	}
	return t0, t1, t0 <= t1
}

// quadRoots puts the roots in (0, 1) of a·t² + b·t + c into roots and returns how many.
func quadRoots(roots *[2]float64, a, b, c float64) int {
	n := 0
	keep := func(t float64) {
		if t > 0 && t < 1 {
			roots[n] = t
			n++
		}
	}
	if math.Abs(a) < 1e-12*(math.Abs(b)+math.Abs(c)+1) {
		if b != 0 {
			keep(-c / b)
		}
	} else if d := b*b - 4*a*c; d >= 0 {
		s := math.Sqrt(d)
		keep((-b - s) / (2 * a))
		keep((-b + s) / (2 * a))
	}
	return n
}

// bezier is the quadratic Bezier p at t.
func bezier(p [3][2]float64, t float64) (x, y float64) {
	s := 1 - t
	return s*s*p[0][0] + 2*s*t*p[1][0] + t*t*p[2][0], s*s*p[0][1] + 2*s*t*p[1][1] + t*t*p[2][1]
}
