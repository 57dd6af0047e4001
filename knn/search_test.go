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

// TestGridLargeFramesMatchBrute covers frames of thousands of points, against brute force
// (the definition is too slow at this size).
func TestGridLargeFramesMatchBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 3))
	for _, shape := range shapes {
		n := 2000 + rng.IntN(3000)
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

// TestGridSeedsAnyNeighbours: a query started from last frame's neighbours is exact whatever
// those were: the true neighbours, random points, fewer or more than k, or points that are
// gone; and so is one whose track is new.
func TestGridSeedsAnyNeighbours(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 5))
	for _, shape := range shapes {
		n := 2 + rng.IntN(600)
		k := 1 + rng.IntN(min(n-1, 9))
		xs, ys := byRank(genPoints(rng, shape, n))
		want, wantD := naiveKNN(xs, ys, k)
		g := newSearcher(t, BackendGrid).(*gridSearch)
		px, py := make([]float64, n), make([]float64, n)
		prank, posOf := make([]int32, n), make([]int32, n)
		g.layout(xs, ys, k, px, py, prank, posOf)
		// Last frame had the same positions; some of its tracks are gone or new now.
		sk := max(1, min(n-1, k+rng.IntN(3)-1))
		s := seedLists{make([]int32, n), make([]int32, n), make([]int32, n*sk), sk}
		for j := range n {
			s.fromPrev[j], s.toCur[j] = int32(j), int32(j)
			switch rng.IntN(10) {
			case 0:
				s.fromPrev[j] = -1 // new
			case 1:
				s.toCur[j] = -1 // gone
			}
			// Distinct points other than j, as a neighbour list is: the true neighbours or
			// random ones.
			r, seeds := int(prank[j]), s.nbr[j*sk:(j+1)*sk]
			for i := range seeds {
				o := int32(j)
				if i < k && rng.IntN(2) == 0 {
					o = posOf[want[r*k+i]]
				}
				for o == int32(j) || slices.Contains(seeds[:i], o) {
					o = int32(rng.IntN(n))
				}
				seeds[i] = o
			}
		}
		g.seeds = s
		nd, nb := make([]float64, k), make([]int32, k)
		var scratch queryScratch
		scratch.resize(n, k)
		for j := range n {
			g.query(j, &scratch, nd, nb)
			r := int(prank[j])
			for i := range k {
				if prank[nb[i]] != want[r*k+i] || nd[i] != wantD[r*k+i] {
					t.Fatalf("%s, n=%d k=%d seeds %d: query %d, neighbour %d is rank %d at %g, want %d at %g",
						shape, n, k, sk, r, i, prank[nb[i]], nd[i], want[r*k+i], wantD[r*k+i])
				}
			}
		}
	}
}

// TestPush: push appends exactly when insert would put the neighbour last in a list with
// room, and then leaves the list as insert does.
func TestPush(t *testing.T) {
	for _, c := range []struct {
		name string
		nd   []float64 // the list, nearest first
		nb   []int32
		d    float64
		r    int32
		want bool
	}{
		{"empty list", nil, nil, 4, 7, true},
		{"farther than the last", []float64{1, 2}, []int32{5, 3}, 2.5, 1, true},
		{"as far as the last, higher rank", []float64{1, 2}, []int32{5, 3}, 2, 4, true},
		{"as far as the last, lower rank", []float64{1, 2}, []int32{5, 3}, 2, 2, false},
		{"nearer than the last", []float64{1, 2}, []int32{5, 3}, 1.5, 9, false},
		{"duplicate position, nearest first", []float64{0, 0}, []int32{2, 6}, 0, 1, false},
		{"full list", []float64{1, 2, 3}, []int32{5, 3, 8}, 4, 1, false},
	} {
		const k = 3
		nd, nb := make([]float64, k), make([]int32, k)
		copy(nd, c.nd)
		copy(nb, c.nb)
		wantD, wantB := slices.Clone(nd), slices.Clone(nb)
		m := len(c.nd)
		wantM := insert(wantD, wantB, m, c.d, c.r)
		if got := push(nd, nb, m, c.d, c.r); got != c.want {
			t.Errorf("%s: push = %v, want %v", c.name, got, c.want)
		} else if got && (wantM != m+1 || !slices.Equal(nd, wantD) || !slices.Equal(nb, wantB)) {
			t.Errorf("%s: push made %v %v, insert %v %v", c.name, nd, nb, wantD, wantB)
		} else if !got && (!slices.Equal(nd[:m], c.nd) || !slices.Equal(nb[:m], c.nb)) {
			t.Errorf("%s: push changed the list to %v %v", c.name, nd, nb)
		}
	}
}
