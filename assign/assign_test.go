package assign

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// bruteForce tries every assignment of the shorter side into the longer and returns the
// largest number of allowed pairs and the least total cost among assignments making that
// many.
func bruteForce(cost [][]float64) (pairs int, total float64) {
	rows := len(cost)
	cols := 0
	if rows > 0 {
		cols = len(cost[0])
	}
	total = math.Inf(1)
	allowed := func(c float64) bool { return !math.IsNaN(c) && !math.IsInf(c, 1) }
	usedCol := make([]bool, cols)
	var walk func(i, n int, sum float64)
	walk = func(i, n int, sum float64) {
		if i == rows {
			if n > pairs || (n == pairs && sum < total) {
				pairs, total = n, sum
			}
			return
		}
		walk(i+1, n, sum) // row i unassigned
		for j := 0; j < cols; j++ {
			if !usedCol[j] && allowed(cost[i][j]) {
				usedCol[j] = true
				walk(i+1, n+1, sum+cost[i][j])
				usedCol[j] = false
			}
		}
	}
	walk(0, 0, 0)
	if pairs == 0 {
		total = 0
	}
	return pairs, total
}

// check verifies that col is a valid assignment of cost using only allowed pairs and returns
// its number of pairs and total cost.
func check(t *testing.T, cost [][]float64, col []int) (int, float64) {
	t.Helper()
	if len(col) != len(cost) {
		t.Fatalf("result has %d rows, want %d", len(col), len(cost))
	}
	seen := map[int]bool{}
	pairs, total := 0, 0.0
	for i, j := range col {
		if j == -1 {
			continue
		}
		if j < 0 || j >= len(cost[i]) || seen[j] {
			t.Fatalf("row %d: column %d invalid or taken twice (%v)", i, j, col)
		}
		c := cost[i][j]
		if math.IsNaN(c) || math.IsInf(c, 1) {
			t.Fatalf("row %d given forbidden column %d", i, j)
		}
		seen[j] = true
		pairs++
		total += c
	}
	return pairs, total
}

// TestMinAgainstBruteForce solves 3000 random matrices of up to 6 × 6, square and
// rectangular both ways, with integer costs (many ties), real costs, negative costs and
// forbidden pairs, and compares the number of pairs and the total with exhaustive search.
func TestMinAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s Solver
	for k := 0; k < 3000; k++ {
		rows, cols := r.IntN(7), r.IntN(7)
		cost := make([][]float64, rows)
		flat := make([]float64, 0, rows*cols)
		forbid := []float64{0, 0.2, 0.6}[k%3]
		for i := range cost {
			cost[i] = make([]float64, cols)
			for j := range cost[i] {
				switch {
				case r.Float64() < forbid:
					cost[i][j] = []float64{math.Inf(1), math.NaN()}[r.IntN(2)]
				case k%2 == 0:
					cost[i][j] = float64(r.IntN(5)) // ties
				default:
					cost[i][j] = r.NormFloat64() * 100
				}
			}
			flat = append(flat, cost[i]...)
		}
		wantPairs, wantTotal := bruteForce(cost)
		for name, col := range map[string][]int{"Min": Min(cost), "Solver": slices.Clone(s.Solve(flat, rows, cols))} {
			pairs, total := check(t, cost, col)
			if pairs != wantPairs || math.Abs(total-wantTotal) > 1e-9*(1+math.Abs(wantTotal)) {
				t.Fatalf("%s case %d %v: %d pairs costing %g, want %d costing %g (got %v)",
					name, k, cost, pairs, total, wantPairs, wantTotal, col)
			}
		}
	}
}

// TestMinHandWorked checks small problems whose answers are worked out by hand.
func TestMinHandWorked(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name string
		cost [][]float64
		want []int
	}{
		{"empty", nil, []int{}},
		{"no columns", [][]float64{{}, {}}, []int{-1, -1}},
		// Greedy takes row 0's cheapest (1, column 0) and leaves row 1 with 100: 101.
		// Crossing costs 2 + 3 = 5.
		{"greedy loses", [][]float64{{1, 2}, {3, 100}}, []int{1, 0}},
		// Of the six permutations, (0→1, 1→0, 2→2) costs 1 + 2 + 2 = 5; the others cost
		// 6 (0→0 1→1 2→2: 4+0+2; 0→2 1→1 2→0: 3+0+3), 7, 9 and 11.
		{"3x3", [][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}, []int{1, 0, 2}},
		// More rows than columns: only the column's cheapest row gets it.
		{"tall", [][]float64{{5}, {1}, {3}}, []int{-1, 0, -1}},
		// More columns than rows.
		{"wide", [][]float64{{5, 1, 3}}, []int{1}},
		// Forbidden pairs: row 0 may only take column 0, so row 1 must take column 1 even
		// though column 0 is cheaper for it: two pairs beat one cheap pair.
		{"forbidden", [][]float64{{10, inf}, {0, 9}}, []int{0, 1}},
		// Everything forbidden: nothing assigned.
		{"all forbidden", [][]float64{{inf, math.NaN()}}, []int{-1}},
		// A row with no allowed column stays unassigned; the other takes its best.
		{"lone row", [][]float64{{inf, inf}, {4, 2}}, []int{-1, 1}},
	} {
		if got := Min(c.cost); !slices.Equal(got, c.want) {
			t.Errorf("%s: Min(%v) = %v, want %v", c.name, c.cost, got, c.want)
		}
	}
}

// TestSolverReuseAllocatesNothing holds the tracker's promise: solving again with a Solver
// that has seen a problem as large allocates nothing.
func TestSolverReuseAllocatesNothing(t *testing.T) {
	cost := uniformCosts(3, 30*40)
	var s Solver
	s.Solve(cost, 30, 40)
	if n := testing.AllocsPerRun(10, func() { s.Solve(cost, 40, 30); s.Solve(cost, 30, 40) }); n != 0 {
		t.Errorf("Solve allocates %v times per run once grown", n)
	}
}

// uniformCosts returns n costs uniform in [0, 1) from the seed.
func uniformCosts(seed uint64, n int) []float64 {
	r := rand.New(rand.NewPCG(seed, seed+1))
	cost := make([]float64, n)
	for i := range cost {
		cost[i] = r.Float64()
	}
	return cost
}

func BenchmarkSolve100(b *testing.B) {
	cost := uniformCosts(5, 100*100)
	var s Solver
	for b.Loop() {
		s.Solve(cost, 100, 100)
	}
}

// Costs near the largest float64 are solved as any others (the forbidden cost once
// overflowed to +Inf and the search never returned).
func TestHugeCosts(t *testing.T) {
	for _, tc := range []struct {
		cost [][]float64
		want []int
	}{
		{[][]float64{{1e308, math.Inf(1)}, {math.Inf(1), math.Inf(1)}}, []int{0, -1}},
		{[][]float64{{1e308, 1e307}, {1e307, 1e308}}, []int{1, 0}},
		{[][]float64{{-1.7e308, 1.7e308}, {1.7e308, -1.7e308}}, []int{0, 1}},
	} {
		done := make(chan []int, 1)
		go func() { done <- Min(tc.cost) }()
		select {
		case got := <-done:
			if !slices.Equal(got, tc.want) {
				t.Errorf("%v: %v, want %v", tc.cost, got, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: no answer in 10 s", tc.cost)
		}
	}
}
