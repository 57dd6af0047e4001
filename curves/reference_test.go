package curves

import (
	"math"
	"math/rand/v2"
	"testing"

	"trackink/sdf"
)

// quadDist returns the exact distance from p to the quadratic Bezier curve with end points p0, p2
// and control point p1. It solves the cubic whose roots are the curve parameters where the
// curve's tangent is perpendicular to p − B(t) (after Inigo Quilez's sdBezier), in float64:
// the reference the flattened curves are tested against.
func quadDist(px, py, p0x, p0y, p1x, p1y, p2x, p2y float64) float64 {
	ax, ay := p1x-p0x, p1y-p0y
	bx, by := p0x-2*p1x+p2x, p0y-2*p1y+p2y
	best := math.Min(dist2(px, py, p0x, p0y), dist2(px, py, p2x, p2y))
	bb := bx*bx + by*by
	if bb < 1e-12 {
		// Collinear, evenly spaced control points: the curve is the segment p0p2.
		seg := sdf.NewSeg(float32(p0x), float32(p0y), float32(p2x), float32(p2y))
		return math.Sqrt(math.Min(best, float64(seg.Dist2(float32(px), float32(py)))))
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

// TestQuadDistAgainstSampling checks the exact Bezier distance against a dense sampling of the
// curve, which can only overestimate it.
func TestQuadDistAgainstSampling(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	pts := func() (float64, float64) { return rng.Float64() * 100, rng.Float64() * 100 }
	for i := 0; i < 500; i++ {
		p0x, p0y := pts()
		p1x, p1y := pts()
		p2x, p2y := pts()
		if i%10 == 0 { // collinear control points, evenly and unevenly spaced
			f := float64(i%30) / 10
			p1x, p1y = p0x+(p2x-p0x)*f, p0y+(p2y-p0y)*f
		}
		px, py := pts()
		got := quadDist(px, py, p0x, p0y, p1x, p1y, p2x, p2y)
		sampled := math.Inf(1)
		const n = 20000
		for k := 0; k <= n; k++ {
			s := float64(k) / n
			u := 1 - s
			x := u*u*p0x + 2*u*s*p1x + s*s*p2x
			y := u*u*p0y + 2*u*s*p1y + s*s*p2y
			sampled = math.Min(sampled, math.Hypot(px-x, py-y))
		}
		if got > sampled+1e-9 || sampled-got > 0.05 {
			t.Fatalf("curve (%g,%g) (%g,%g) (%g,%g), p (%g,%g): quadDist %g, sampled %g", p0x, p0y, p1x, p1y, p2x, p2y, px, py, got, sampled)
		}
	}
}
