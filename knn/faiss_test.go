//go:build faiss

package knn

import (
	"math"
	"math/rand/v2"
	"testing"

	"trackink/scene"
)

// TestFAISSFallback checks that the exact-scan fallback is reached, and right, where FAISS's
// float32 answer cannot be proven: ties that run past its candidate list (duplicates), and
// neighbours whose distances differ by less than FAISS's rounding error (circle).
func TestFAISSFallback(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// circle: a centre, 40 points 100 px away ±0.001 px, and two far points that make the
	// coordinates large.
	circle := []scene.Point{{ID: 0, X: 0, Y: 0}, {ID: 1, X: -3000, Y: 0}, {ID: 2, X: 3000, Y: 0}}
	for i := range 40 {
		a := 2 * math.Pi * float64(i) / 40
		r := 100 + (rng.Float64()-0.5)*0.002
		circle = append(circle, scene.Point{ID: 3 + i, X: float32(r * math.Cos(a)), Y: float32(r * math.Sin(a))})
	}
	for _, c := range []struct {
		name string
		pts  []scene.Point
	}{{"duplicates", genPoints(rng, "duplicates", 500)}, {"circle", circle}} {
		xs, ys := byRank(c.pts)
		want, _ := naiveKNN(xs, ys, 4)
		f := newSearcher(t, BackendFAISS).(*faissSearch)
		nbr, d2 := make([]int32, len(xs)*4), make([]float64, len(xs)*4)
		if err := f.search(xs, ys, 4, nbr, d2); err != nil {
			t.Fatal(err)
		}
		if f.fallbacks == 0 {
			t.Errorf("%s: no query fell back to the exact scan", c.name)
		}
		for i := range want {
			if nbr[i] != want[i] {
				t.Fatalf("%s: query %d differs", c.name, i/4)
			}
		}
		t.Logf("%s: %d of %d queries fell back", c.name, f.fallbacks, len(xs))
	}
	// Spread-out points should almost never need it.
	pts := genPoints(rng, "uniform", 2000)
	xs, ys := byRank(pts)
	f := newSearcher(t, BackendFAISS).(*faissSearch)
	if err := f.search(xs, ys, 5, make([]int32, len(xs)*5), make([]float64, len(xs)*5)); err != nil {
		t.Fatal(err)
	}
	if f.fallbacks > len(xs)/100 {
		t.Errorf("uniform: %d of %d queries fell back", f.fallbacks, len(xs))
	}
}
