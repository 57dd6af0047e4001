package knn

import (
	"fmt"
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
