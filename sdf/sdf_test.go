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

// TestCentersMatchesTheDefinition compares Centers with the first pixel centre at or after x0
// and the last at or before x1, computed in float64, on random and edge bounds.
func TestCentersMatchesTheDefinition(t *testing.T) {
	want := func(x0, x1 float32, n int) (int, int) {
		l := math.Ceil(float64(x0) - 0.5)
		h := math.Floor(float64(x1)-0.5) + 1
		return int(max(0, min(float64(n), l))), int(max(0, min(float64(n), h)))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	edges := []float32{0, 0.5, -0.5, 1, -1, -1.5, 63.5, 64, 64.5, 65, 66, 1e30, -1e30,
		float32(math.Inf(1)), float32(math.Inf(-1)), math.Nextafter32(0.5, 1), math.Nextafter32(0.5, 0),
		math.Nextafter32(-0.5, 0), math.Nextafter32(64.5, 0), 8388608.5, -8388608.5}
	for range 200000 {
		x0, x1 := float32(rng.Float64()*80-10), float32(rng.Float64()*80-10)
		if rng.IntN(4) == 0 {
			x0 = edges[rng.IntN(len(edges))]
		}
		if rng.IntN(4) == 0 {
			x1 = edges[rng.IntN(len(edges))]
		}
		if rng.IntN(3) == 0 {
			x0 = float32(math.Round(float64(x0)*2)) / 2
		}
		n := []int{1, 7, 63, 64}[rng.IntN(4)]
		lo, hi := Centers(x0, x1, n)
		if wl, wh := want(x0, x1, n); lo != wl || hi != wh {
			t.Fatalf("Centers(%g, %g, %d) = %d, %d; want %d, %d", x0, x1, n, lo, hi, wl, wh)
		}
	}
	nan := float32(math.NaN())
	if lo, hi := Centers(nan, 5, 64); lo < hi {
		t.Errorf("Centers(NaN, 5) = [%d, %d), want empty", lo, hi)
	}
}
