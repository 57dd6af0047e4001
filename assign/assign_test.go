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

// forbidden returns +Inf or NaN at random: both forbid a pair.
func forbidden(r *rand.Rand) float64 {
	return []float64{math.Inf(1), math.NaN()}[r.IntN(2)]
}

// allowedCost returns an integer cost in [0, 5) for even k (many ties) and a real one,
// maybe negative, for odd k.
func allowedCost(r *rand.Rand, k int) float64 {
	if k%2 == 0 {
		return float64(r.IntN(5))
	}
	return r.NormFloat64() * 100
}

// denseCase returns a matrix of up to 6 × 6 whose pairs are forbidden at random, with none,
// a fifth or three fifths forbidden as k goes.
func denseCase(r *rand.Rand, k int) [][]float64 {
	rows, cols := r.IntN(7), r.IntN(7)
	forbid := []float64{0, 0.2, 0.6}[k%3]
	cost := make([][]float64, rows)
	for i := range cost {
		cost[i] = make([]float64, cols)
		for j := range cost[i] {
			if r.Float64() < forbid {
				cost[i][j] = forbidden(r)
			} else {
				cost[i][j] = allowedCost(r, k)
			}
		}
	}
	return cost
}

// sparseCase returns a matrix of 2 × 2 to 7 × 7 made of several components, interleaved:
// every row and column is put in one of two or three groups, or in none (no allowed pair at
// all), and only pairs within a group may be allowed: all, most or some of them as k goes,
// so that a group may split further.
func sparseCase(r *rand.Rand, k int) [][]float64 {
	rows, cols := 2+r.IntN(6), 2+r.IntN(6)
	groups := 2 + r.IntN(2)
	colGroup := make([]int, cols)
	for j := range colGroup {
		colGroup[j] = r.IntN(groups + 1) // the value groups stands for none
	}
	density := []float64{1, 0.7, 0.4}[k%3]
	cost := make([][]float64, rows)
	for i := range cost {
		g := r.IntN(groups + 1) // likewise
		cost[i] = make([]float64, cols)
		for j := range cost[i] {
			if g < groups && colGroup[j] == g && r.Float64() < density {
				cost[i][j] = allowedCost(r, k)
			} else {
				cost[i][j] = forbidden(r)
			}
		}
	}
	return cost
}

// TestMinAgainstBruteForce solves thousands of random small matrices, square and
// rectangular both ways, with integer costs (many ties), real costs, negative costs and
// forbidden pairs, dense or split into components, and compares the number of pairs and
// the total with exhaustive search.
func TestMinAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cases int
		seed  uint64
		gen   func(r *rand.Rand, k int) [][]float64
	}{
		{"dense", 3000, 1, denseCase},
		{"sparse", 3000, 3, sparseCase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tc.seed, tc.seed+1))
			// One Solver for every case, so that work space left by a larger problem is
			// exercised too.
			var s Solver
			for k := range tc.cases {
				cost := tc.gen(r, k)
				rows, cols := len(cost), 0
				if rows > 0 {
					cols = len(cost[0])
				}
				flat := make([]float64, 0, rows*cols)
				for _, row := range cost {
					flat = append(flat, row...)
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
		})
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
		// Three components, {row 0, column 0}, {rows 1 and 2, columns 2 and 3} and
		// {row 3}, and column 1 with no allowed pair: each solved on its own.
		{"components", [][]float64{
			{1, inf, inf, inf},
			{inf, inf, 5, 2},
			{inf, math.NaN(), 1, 4},
			{inf, inf, inf, inf},
		}, []int{0, 3, 2, -1}},
	} {
		if got := Min(c.cost); !slices.Equal(got, c.want) {
			t.Errorf("%s: Min(%v) = %v, want %v", c.name, c.cost, got, c.want)
		}
	}
}

// TestSolverReuseAllocatesNothing holds the tracker's promise: solving again with a Solver
// that has seen a problem as large allocates nothing, whether the problem is one component
// or many.
func TestSolverReuseAllocatesNothing(t *testing.T) {
	for _, tc := range []struct {
		name       string
		rows, cols int
		cost       []float64
	}{
		{"dense", 30, 40, uniformCosts(3, 30*40)},
		// 19 components read as 30 × 300, one read as 300 × 30.
		{"sparse", 30, 300, sparseCosts(3, 30, 300, 300, 0.2)},
	} {
		var s Solver
		// Both readings first: their largest components differ.
		s.Solve(tc.cost, tc.rows, tc.cols)
		s.Solve(tc.cost, tc.cols, tc.rows)
		if n := testing.AllocsPerRun(10, func() {
			s.Solve(tc.cost, tc.cols, tc.rows)
			s.Solve(tc.cost, tc.rows, tc.cols)
		}); n != 0 {
			t.Errorf("%s: Solve allocates %v times per run once grown", tc.name, n)
		}
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

// TestNegInfPanics checks that -Inf is refused wherever it lies, in a dense matrix or in
// one component of a sparse one.
func TestNegInfPanics(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name string
		cost [][]float64
	}{
		{"dense", [][]float64{{1, 2}, {3, -inf}}},
		{"component", [][]float64{{1, inf, inf}, {inf, inf, -inf}, {inf, inf, inf}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic on -Inf", tc.name)
				}
			}()
			Min(tc.cost)
		}()
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
		// Two components, one of them huge: each is scaled on its own.
		{[][]float64{{-1.7e308, 1.7e308, math.Inf(1)}, {1.7e308, -1.7e308, math.NaN()}, {math.Inf(1), math.Inf(1), 0.5}}, []int{0, 1, 2}},
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

// sparseCosts returns a rows × cols matrix laid out as a crowded frame's: row i (a track)
// may only take a few of the first near columns (detections), those close to its own
// place on a line, as a tracker's gate leaves a track only the detections close to it.
// Each cell of a window of 15 columns is allowed with chance 1/3, so about 5 a row.
// Neighbouring rows' windows overlap: spread over all the columns (near = cols ≫ rows) the
// components hold a few rows; packed into near = rows columns they chain into one large
// component. A share lost of the rows (tracks whose object has gone) may take nothing.
func sparseCosts(seed uint64, rows, cols, near int, lost float64) []float64 {
	r := rand.New(rand.NewPCG(seed, seed+1))
	cost := make([]float64, rows*cols)
	for k := range cost {
		cost[k] = math.Inf(1)
	}
	for i := range rows {
		if r.Float64() < lost {
			continue
		}
		mid := i * near / rows
		for j := max(mid-7, 0); j < min(mid+8, near); j++ {
			if r.IntN(3) == 0 {
				cost[i*cols+j] = r.Float64()
			}
		}
	}
	return cost
}

// BenchmarkSolve100 is a dense problem: one component, solved as a whole.
func BenchmarkSolve100(b *testing.B) {
	cost := uniformCosts(5, 100*100)
	var s Solver
	for b.Loop() {
		s.Solve(cost, 100, 100)
	}
}

// BenchmarkSolveSparse is a crowded frame: 1000 tracks, 9000 detections, each track gated
// to about 5 of them. In "spread" the tracks' detections lie among all 9000: hundreds of
// small components. In "lost" they are the first 1000 and a fifth of the tracks have
// none: one component of about 800 × 1000, without the lost tracks and the 8000 other
// detections, across which the one dense search went for every lost track.
func BenchmarkSolveSparse(b *testing.B) {
	for _, bc := range []struct {
		name string
		near int
		lost float64
	}{
		{"spread", 9000, 0},
		{"lost", 1000, 0.2},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cost := sparseCosts(7, 1000, 9000, bc.near, bc.lost)
			var s Solver
			for b.Loop() {
				s.Solve(cost, 1000, 9000)
			}
		})
	}
}
