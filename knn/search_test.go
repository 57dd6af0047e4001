package knn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"trackink/scene"
)

func TestBackendsMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, shape := range shapes {
		for _, n := range []int{2, 3, 7, 60, 400} {
			for _, k := range []int{1, 2, 5, 9} {
				if k >= n {
					continue
				}
				t.Run(fmt.Sprintf("%s/n=%d/k=%d", shape, n, k), func(t *testing.T) {
					checkSearch(t, genPoints(rng, shape, n), k)
				})
			}
		}
	}
}

// TestBackendsProperty runs random shapes, sizes and k with a fresh seed each run.
func TestBackendsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 0))
	for range 60 {
		n := 2 + rng.IntN(800)
		k := 1 + rng.IntN(min(n-1, 16))
		checkSearch(t, genPoints(rng, shapes[rng.IntN(len(shapes))], n), k)
	}
}

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

func TestGridAllPointsInOneSpot(t *testing.T) {
	pts := make([]scene.Point, 50)
	for i := range pts {
		pts[i] = scene.Point{ID: 49 - i, X: 3, Y: 3}
	}
	checkSearch(t, pts, 6)
}

// TestGridParallelMatchesBrute covers frames large enough for the grid to split its queries
// between two goroutines, against brute force (the definition is too slow at this size).
func TestGridParallelMatchesBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 3))
	for _, shape := range shapes {
		n := parallelMin + rng.IntN(3000)
		xs, ys := byRank(genPoints(rng, shape, n))
		const k = 5
		var got [2][]int32
		for i, b := range []string{BackendGrid, BackendBrute} {
			s := newSearcher(t, b)
			got[i] = make([]int32, n*k)
			if err := s.search(xs, ys, k, got[i], make([]float64, n*k)); err != nil {
				t.Fatal(err)
			}
		}
		for q := range n {
			if !slices.Equal(got[0][q*k:q*k+k], got[1][q*k:q*k+k]) {
				t.Fatalf("%s, n=%d: query %d: grid %v, brute %v", shape, n, q, got[0][q*k:q*k+k], got[1][q*k:q*k+k])
			}
		}
	}
}
