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

func TestDashDist2(t *testing.T) {
	// Dashes [0, on], [period, period + on], … along a segment on the x axis from the origin,
	// which starts at arc length s0 (a chord in the middle of its stroke when s0 > 0).
	s := NewSeg(0, 0, 25, 0)
	for _, tc := range []struct {
		name      string
		px, py    float32
		l, s0     float32
		on, per   float32
		want      float32 // distance
		noneThere bool
	}{
		{"on a dash", 1, 0, 25, 0, 4, 10, 0, false},
		{"above a dash", 12, 3, 25, 0, 4, 10, 3, false},
		{"gap, nearer the dash before", 5, 0, 25, 0, 4, 10, 1, false},
		{"gap, nearer the dash after", 9, 0, 25, 0, 4, 10, 1, false},
		{"gap, round cap", 7, 4, 25, 0, 4, 10, 5, false},
		{"before the start", -3, 4, 25, 0, 4, 10, 5, false},
		{"past the end: the last dash cut at 25", 28, 4, 25, 0, 10, 20, 5, false},
		{"chord at s0 = 2: dash [10, 14] at x = 8..12", 9, 0, 25, 2, 4, 10, 0, false},
		{"chord at s0 = 2: dash [0, 4] cut to x = 0..2", 3, 0, 25, 2, 4, 10, 1, false},
		{"chord at s0 = 5: before its first dash", 0, 0, 25, 5, 4, 10, 5, false},
		{"dots: a disk every period", 20, 3, 25, 0, 0, 10, 3, false},
		{"dots, between", 15, 0, 25, 0, 0, 10, 5, false},
		{"no dash on a chord in a gap", 1, 0, 3, 5, 4, 10, 0, true},
		{"zero-length line on its dash: a disk", 3, 4, 0, 0, 4, 10, 5, false},
	} {
		seg := s
		if tc.l == 0 {
			seg = NewSeg(0, 0, 0, 0)
		} else if tc.l != 25 {
			seg = NewSeg(0, 0, tc.l, 0)
		}
		d2 := seg.DashDist2(tc.px, tc.py, tc.l, tc.s0, tc.on, tc.per)
		if tc.noneThere {
			if d2 != math.MaxFloat32 {
				t.Errorf("%s: %g, want none", tc.name, d2)
			}
			continue
		}
		if got := Sqrt(d2); math.Abs(float64(got-tc.want)) > 1e-5 {
			t.Errorf("%s: distance %g, want %g", tc.name, got, tc.want)
		}
	}
}

func TestRoundBoxArc(t *testing.T) {
	// A 40 × 20 box centred at the origin with corner radius 4: a quarter of its outline is
	// 16 along the top, 2π along the corner, 6 down the side.
	q := QuarterArc(20, 10, 4)
	if want := float32(16 + 6 + 2*math.Pi); math.Abs(float64(q-want)) > 1e-5 {
		t.Fatalf("QuarterArc = %g, want %g", q, want)
	}
	for _, tc := range []struct {
		name   string
		px, py float32
		want   float32
	}{
		{"top middle", 0, -10, 0},
		{"top, left half (mirrored)", -7, -11, 7},
		{"bottom, right half", 12, 10.5, 12},
		{"corner start", 16, -10, 16},
		{"corner middle", 16 + 4*float32(math.Sqrt2)/2, -6 - 4*float32(math.Sqrt2)/2, 16 + math.Pi},
		{"side, corner end", 20, -6, 16 + 2*math.Pi},
		{"side middle", 21, 0, q},
		{"side, lower half", -20, 3, q - 3},
	} {
		if got := RoundBoxArc(tc.px, tc.py, 0, 0, 20, 10, 4); math.Abs(float64(got-tc.want)) > 1e-4 {
			t.Errorf("%s: %g, want %g", tc.name, got, tc.want)
		}
	}
}

func TestDashGap(t *testing.T) {
	for _, tc := range []struct{ u, on, period, want float32 }{
		{0, 2, 10, 0}, {1, 2, 10, 0}, {-1, 2, 10, 0}, {3, 2, 10, 2}, {5, 2, 10, 4}, {7, 2, 10, 2},
		{29.5, 2, 10, 0}, {15, 0, 10, 5}, {40, 0, 10, 0},
	} {
		if got := DashGap(tc.u, tc.on, tc.period); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("DashGap(%g, %g, %g) = %g, want %g", tc.u, tc.on, tc.period, got, tc.want)
		}
	}
}
