package knn

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"trackink/internal/knntest"
	"trackink/scene"
)

// The point-set shapes and their generator, shared with the GPU backend's tests.
var (
	shapes    = knntest.Shapes
	genPoints = knntest.Points
)

// seed returns a fresh seed and logs it so that a failure can be replayed.
func seed(t testing.TB) uint64 {
	s := uint64(time.Now().UnixNano())
	t.Logf("seed %d", s)
	return s
}

// byRank returns the coordinates of pts in track id order, as the searchers see them.
func byRank(pts []scene.Point) (xs, ys []float64) {
	s := slices.Clone(pts)
	slices.SortFunc(s, func(a, b scene.Point) int { return cmp.Compare(a.ID, b.ID) })
	for _, p := range s {
		xs = append(xs, float64(p.X))
		ys = append(ys, float64(p.Y))
	}
	return xs, ys
}

// naiveKNN is the definition: sort all other points by (dist2, rank), take k.
func naiveKNN(xs, ys []float64, k int) (nbr []int32, d2 []float64) {
	for q := range xs {
		var others []int32
		for r := range xs {
			if r != q {
				others = append(others, int32(r))
			}
		}
		d := func(r int32) float64 { return dist2(xs[q], ys[q], xs[r], ys[r]) }
		slices.SortFunc(others, func(a, b int32) int {
			if c := cmp.Compare(d(a), d(b)); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		for _, r := range others[:k] {
			nbr = append(nbr, r)
			d2 = append(d2, d(r))
		}
	}
	return nbr, d2
}

// newSearcher builds the named backend.
func newSearcher(t testing.TB, name string) searcher {
	t.Helper()
	g, err := New(Options{K: 1, Backend: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g.search
}

// newGraph makes a Graph that is closed at the end of the test.
func newGraph(t testing.TB, o Options) *Graph {
	t.Helper()
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// backends are the search backends of this build (FAISS with -tags faiss).
var backends = Backends()

// checkSearch runs every backend on pts and compares with naiveKNN, neighbours, order and
// distances alike.
func checkSearch(t *testing.T, pts []scene.Point, k int) {
	t.Helper()
	xs, ys := byRank(pts)
	want, wantD := naiveKNN(xs, ys, k)
	for _, b := range backends {
		s := newSearcher(t, b)
		nbr := make([]int32, len(xs)*k)
		d2 := make([]float64, len(xs)*k)
		if err := s.search(xs, ys, k, nbr, d2); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !slices.Equal(nbr, want) || !slices.Equal(d2, wantD) {
			i := 0
			for i < len(nbr) && nbr[i] == want[i] {
				i++
			}
			t.Fatalf("%s, n=%d k=%d: first difference at query %d: got %v, want %v",
				b, len(xs), k, i/k, nbr[i/k*k:i/k*k+k], want[i/k*k:i/k*k+k])
		}
	}
}

// idEdges turns edges into sorted track-id pairs, checking the documented order on the way.
func idEdges(t *testing.T, pts []scene.Point, es []Edge) [][2]int {
	t.Helper()
	var out [][2]int
	for i, e := range es {
		a, b := pts[e.A].ID, pts[e.B].ID
		if a >= b {
			t.Fatalf("edge %d: ids %d, %d not increasing", i, a, b)
		}
		p := [2]int{a, b}
		if len(out) > 0 && cmp.Or(cmp.Compare(out[len(out)-1][0], a), cmp.Compare(out[len(out)-1][1], b)) >= 0 {
			t.Fatalf("edge %d %v does not come after %v", i, p, out[len(out)-1])
		}
		out = append(out, p)
	}
	return out
}
