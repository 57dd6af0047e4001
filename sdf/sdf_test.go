package sdf

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestCoverage(t *testing.T) {
	for _, tc := range []struct{ d, want float32 }{
		{-10, 1}, {-0.5, 1}, {-0.25, 0.75}, {0, 0.5}, {0.25, 0.25}, {0.5, 0}, {3, 0},
	} {
		if got := Coverage(tc.d); got != tc.want {
			t.Errorf("Coverage(%g) = %g, want %g", tc.d, got, tc.want)
		}
	}
}

func TestSegment(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		px, py, ax, ay, bx, by float32
		want                   float32
	}{
		{"above middle", 5, 3, 0, 0, 10, 0, 3},
		{"beyond end", 13, 4, 0, 0, 10, 0, 5},
		{"before start", -3, -4, 0, 0, 10, 0, 5},
		{"on segment", 2, 2, 0, 0, 4, 4, 0},
		{"zero length", 3, 4, 0, 0, 0, 0, 5},
	} {
		seg := NewSeg(tc.ax, tc.ay, tc.bx, tc.by)
		if got := Sqrt(seg.Dist2(tc.px, tc.py)); math.Abs(float64(got-tc.want)) > 1e-5 {
			t.Errorf("%s: %g, want %g", tc.name, got, tc.want)
		}
	}
}

func TestRoundBox(t *testing.T) {
	// Box centred at (10, 10), half size 5 × 3, corner radius 2.
	for _, tc := range []struct {
		name   string
		px, py float32
		want   float32
	}{
		{"centre", 10, 10, -3},
		{"right edge", 15, 10, 0},
		{"outside right", 17, 10, 2},
		{"outside top", 10, 5, 2},
		{"corner arc", 15 - 2 + 2*float32(math.Sqrt2), 13 - 2 + 2*float32(math.Sqrt2), 2},
	} {
		if got := RoundBox(tc.px, tc.py, 10, 10, 5, 3, 2); math.Abs(float64(got-tc.want)) > 1e-5 {
			t.Errorf("%s: %g, want %g", tc.name, got, tc.want)
		}
	}
}

// TestRoundBoxMatchesTheFormulaBitForBit checks RoundBox's shortcuts against the textbook
// formula, |max(q, 0)| + min(max(qx, qy), 0) − r, which the CUDA kernels compute: the same
// bits, so the CPU and GPU paths stay twins.
func TestRoundBoxMatchesTheFormulaBitForBit(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 9))
	for i := 0; i < 200000; i++ {
		f := func(s float64) float32 { return float32((rng.Float64() - 0.5) * s) }
		px, py, cx, cy := f(5000), f(5000), f(5000), f(5000)
		hx, hy := float32(rng.Float64()*500), float32(rng.Float64()*500)
		r := float32(rng.Float64()) * min(hx, hy)
		qx, qy := Abs(px-cx)-hx+r, Abs(py-cy)-hy+r
		ox, oy := max(qx, 0), max(qy, 0)
		want := Sqrt(ox*ox+oy*oy) + min(max(qx, qy), 0) - r
		if got := RoundBox(px, py, cx, cy, hx, hy, r); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("RoundBox(%g,%g, %g,%g, %g,%g, %g) = %g, formula %g", px, py, cx, cy, hx, hy, r, got, want)
		}
	}
}
