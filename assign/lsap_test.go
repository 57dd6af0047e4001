package assign

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLinearSumAssignmentTies: where several assignments cost the least,
// LinearSumAssignment returns scipy's. The hand-worked cases follow scipy's steps; the
// others are small matrices on which Solve's order of ties differs from scipy's, with the
// assignment scipy 1.10.1's linear_sum_assignment returned for them.
func TestLinearSumAssignmentTies(t *testing.T) {
	for _, c := range []struct {
		name       string
		rows, cols int
		cost       []float64
		want       []int
	}{
		// Two rows tie for one column: solved transposed, one row of two columns, scanned
		// from the last; column 0 ties with column 1 and is free, so it wins: the first row.
		{"2x1 tie", 2, 1, []float64{-0.7, -0.7}, []int{0, -1}},
		// The same one row untransposed: the first column.
		{"1x2 tie", 1, 2, []float64{-0.7, -0.7}, []int{0}},
		// Equal costs: each row takes the free column scanned last, its own.
		{"constant", 3, 3, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}, []int{0, 1, 2}},
		// From scipy.
		{"scipy 4x3 a", 4, 3, []float64{2, 0, 0, 3, 0, 2, 3, 3, -1, -1, -3, 2}, []int{-1, 1, 2, 0}},
		{"scipy 2x4", 2, 4, []float64{0, 1, 0, -3, -1, 1, -1, -2}, []int{3, 2}},
		{"scipy 4x4", 4, 4, []float64{3, -1, -3, 0, -1, 1, -3, -1, 3, 1, -3, -3, 0, 0, -2, 3}, []int{1, 2, 3, 0}},
		{"scipy 4x3 b", 4, 3, []float64{1, 2, 0, -2, 0, 1, 2, 2, 0, -1, 2, -3}, []int{-1, 0, 1, 2}},
		{"scipy 4x3 c", 4, 3, []float64{1, -2, -2, -2, -3, 2, -1, 3, 3, 1, 3, -2}, []int{1, 0, -1, 2}},
	} {
		var s Solver
		if got := s.LinearSumAssignment(slices.Clone(c.cost), c.rows, c.cols); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// TestLinearSumAssignmentLeast: on random finite matrices, ties among integer costs
// included, every element of the shorter side is matched at the least total cost.
func TestLinearSumAssignmentLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var s Solver
	for k := range 2000 {
		cost := denseCase(r, 3*k) // 3k: nothing forbidden
		rows := len(cost)
		cols := 0
		if rows > 0 {
			cols = len(cost[0])
		}
		col := s.LinearSumAssignment(slices.Concat(cost...), rows, cols)
		pairs, total := check(t, cost, col)
		wantPairs, wantTotal := bruteForce(cost)
		if pairs != min(rows, cols) || pairs != wantPairs || math.Abs(total-wantTotal) > 1e-9*(1+math.Abs(wantTotal)) {
			t.Fatalf("case %d %v: %d pairs of total %v, want %d of %v", k, cost, pairs, total, wantPairs, wantTotal)
		}
	}
}

// TestLinearSumAssignmentNotFinite: NaN and infinite costs are refused.
func TestLinearSumAssignmentNotFinite(t *testing.T) {
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("cost %v: no panic", x)
				}
			}()
			var s Solver
			s.LinearSumAssignment([]float64{0, x}, 1, 2)
		}()
	}
}
