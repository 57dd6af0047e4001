package curves

import (
	"math"
	"math/rand/v2"
	"testing"

	"trackink/sdf"
)

func TestControlIsPerpendicularAtBendTimesLength(t *testing.T) {
	for _, tc := range []struct{ ax, ay, bx, by, bend float32 }{
		{0, 0, 100, 0, 0.3}, {10, 10, 10, 200, 0.3}, {5, 7, -300, 40, -1.5}, {1, 1, 1.5, 1.25, 0.01},
	} {
		cx, cy := Control(tc.ax, tc.ay, tc.bx, tc.by, tc.bend)
		mx, my := (tc.ax+tc.bx)/2, (tc.ay+tc.by)/2
		dx, dy := tc.bx-tc.ax, tc.by-tc.ay
		ox, oy := cx-mx, cy-my
		if dot := ox*dx + oy*dy; math.Abs(float64(dot)) > 1e-3 {
			t.Errorf("%+v: offset not perpendicular (dot %g)", tc, dot)
		}
		want := math.Abs(float64(tc.bend)) * math.Hypot(float64(dx), float64(dy))
		if got := math.Hypot(float64(ox), float64(oy)); math.Abs(got-want) > 1e-3*want+1e-6 {
			t.Errorf("%+v: offset %g, want %g", tc, got, want)
		}
	}
}

// TestFlatteningErrorBound checks the promise the renderer relies on: the distance from any
// point to the flattened polyline is within Tolerance of the exact distance to the curve.
func TestFlatteningErrorBound(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < 300; i++ {
		scale := float32(1 + rng.Float64()*4000)
		p0x, p0y := float32(rng.Float64())*scale, float32(rng.Float64())*scale
		p2x, p2y := float32(rng.Float64())*scale, float32(rng.Float64())*scale
		bend := float32(rng.NormFloat64() * 2)
		p1x, p1y := Control(p0x, p0y, p2x, p2y, bend)
		n := Chords(p0x, p0y, p1x, p1y, p2x, p2y, Tolerance)
		for j := 0; j < 40; j++ {
			px := float64(p0x) + (rng.Float64()-0.5)*float64(scale)
			py := float64(p0y) + (rng.Float64()-0.5)*float64(scale)
			exact := quadDist(px, py, float64(p0x), float64(p0y), float64(p1x), float64(p1y), float64(p2x), float64(p2y))
			poly := math.Inf(1)
			for k := range n {
				ax, ay, bx, by := Chord(p0x, p0y, p1x, p1y, p2x, p2y, k, n)
				seg := sdf.NewSeg(ax, ay, bx, by)
				poly = math.Min(poly, float64(sdf.Sqrt(seg.Dist2(float32(px), float32(py)))))
			}
			// float32 evaluation adds rounding of about 1e-7 relative to the coordinates.
			if diff := math.Abs(poly - exact); diff > Tolerance+3e-7*float64(scale)*4 {
				t.Fatalf("curve (%g,%g) (%g,%g) (%g,%g), %d chords: at (%g,%g) polyline %g, exact %g",
					p0x, p0y, p1x, p1y, p2x, p2y, n, px, py, poly, exact)
			}
		}
	}
}

func TestChordsGrowsWithSquareRootOfCurvature(t *testing.T) {
	for _, tc := range []struct {
		bend float32
		want int
	}{
		{0, 1},            // a straight curve is one chord
		{1e30, MaxChords}, // absurd bends are capped
		{0.3, int(math.Ceil(math.Sqrt(2 * 0.3 * 2000 / (4 * Tolerance))))},
	} {
		p1x, p1y := Control(0, 0, 2000, 0, tc.bend)
		if got := Chords(0, 0, p1x, p1y, 2000, 0, Tolerance); got != tc.want {
			t.Errorf("bend %g: %d chords, want %d", tc.bend, got, tc.want)
		}
	}
}
