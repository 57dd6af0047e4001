package sdf

import "math"

// Quad returns the exact distance from p to the quadratic Bezier curve with end points p0, p2
// and control point p1. It solves the cubic whose roots are the curve parameters where the
// curve's tangent is perpendicular to p − B(t) (after Inigo Quilez's sdBezier), in float64
// so that it can serve as the reference the flattened curves are tested against.
func Quad(px, py, p0x, p0y, p1x, p1y, p2x, p2y float64) float64 {
	ax, ay := p1x-p0x, p1y-p0y
	bx, by := p0x-2*p1x+p2x, p0y-2*p1y+p2y
	best := math.Min(dist2(px, py, p0x, p0y), dist2(px, py, p2x, p2y))
	bb := bx*bx + by*by
	if bb < 1e-12 {
		// Collinear, evenly spaced control points: the curve is the segment p0p2.
		return math.Sqrt(math.Min(best, float64(Segment2(float32(px), float32(py), float32(p0x), float32(p0y), float32(p2x), float32(p2y)))))
	}
	dx, dy := p0x-px, p0y-py
	// With a = p1 − p0, b = p0 − 2·p1 + p2 and d = p0 − p, B(t) − p = d + 2a·t + b·t², and
	// (B(t) − p)·B'(t) = 0 is the cubic t³ + kx·t² + ky·t + kz = 0 below.
	kk := 1 / bb
	kx := 3 * (ax*bx + ay*by) * kk
	ky := (2*(ax*ax+ay*ay) + (dx*bx + dy*by)) * kk
	kz := (dx*ax + dy*ay) * kk
	for _, t := range cubicRoots(kx, ky, kz) {
		if t > 0 && t < 1 {
			qx := p0x + (2*ax+bx*t)*t - px
			qy := p0y + (2*ay+by*t)*t - py
			best = math.Min(best, qx*qx+qy*qy)
		}
	}
	return math.Sqrt(best)
}

func dist2(ax, ay, bx, by float64) float64 {
	dx, dy := ax-bx, ay-by
	return dx*dx + dy*dy
}

// cubicRoots returns the real roots of t³ + a·t² + b·t + c = 0 (one or three), each refined
// by two Newton steps so that near-double roots keep full precision.
func cubicRoots(a, b, c float64) []float64 {
	p := b - a*a/3
	q := a*(2*a*a-9*b)/27 + c
	disc := q*q/4 + p*p*p/27
	var roots []float64
	if disc >= 0 {
		s := math.Sqrt(disc)
		roots = []float64{math.Cbrt(-q/2+s) + math.Cbrt(-q/2-s) - a/3}
	} else {
		r := math.Sqrt(-p / 3)
		phi := math.Acos(math.Max(-1, math.Min(1, 3*q/(2*p)/r)))
		roots = []float64{
			2*r*math.Cos(phi/3) - a/3,
			2*r*math.Cos((phi-2*math.Pi)/3) - a/3,
			2*r*math.Cos((phi-4*math.Pi)/3) - a/3,
		}
	}
	for i, t := range roots {
		for range 2 {
			f := ((t+a)*t+b)*t + c
			df := (3*t+2*a)*t + b
			if df != 0 {
				t -= f / df
			}
		}
		roots[i] = t
	}
	return roots
}
