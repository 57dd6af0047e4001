// Package assign solves the linear assignment problem: given a cost for every pairing of a
// row with a column, choose at most one column per row and one row per column so that as
// many pairs as possible are made and their total cost is the least. Trackers use it to
// match detections to tracks, evaluation to match ground truth to tracker output.
//
// The solver is the Hungarian method in its shortest-augmenting-path form (Kuhn 1955,
// Munkres 1957; the O(n²m) formulation with row and column potentials that Jonker and
// Volgenant 1987 also build on): one row at a time is added to the matching by a Dijkstra
// search over reduced costs, the potentials keep every reduced cost non-negative, and the
// result is exact, not greedy. A rectangular matrix is solved with the shorter side as the
// rows, so every element of the shorter side is matched.
//
// A forbidden pair (a track too far from a detection, an overlap under the threshold) has
// cost +Inf or NaN. Forbidden pairs are never returned; among the assignments that make the
// most allowed pairs, the solver returns one of least total cost. It gets there by giving
// forbidden pairs a finite cost larger than any difference the allowed ones can make, so
// that one more allowed pair always wins, and dropping them from the result.
//
// A Solver keeps its work space between calls, so a tracker that solves one problem a frame
// allocates nothing once the space has grown to its largest problem.
package assign

import "math"

// Min returns the assignment of least total cost for the matrix cost (one row slice per
// row, all of the same length): col[i] is the column given to row i, or -1 if row i gets
// none (a forbidden pair, or more rows than columns). It allocates its result and work
// space; see Solver for the allocation-free form.
func Min(cost [][]float64) []int {
	rows := len(cost)
	if rows == 0 {
		return []int{}
	}
	cols := len(cost[0])
	flat := make([]float64, 0, rows*cols)
	for _, r := range cost {
		if len(r) != cols {
			panic("assign: rows of different lengths")
		}
		flat = append(flat, r...)
	}
	var s Solver
	return append([]int(nil), s.Solve(flat, rows, cols)...)
}

// Solver solves assignment problems, reusing its work space. The zero value is ready to
// use; a Solver is not safe for use by several goroutines at once.
type Solver struct {
	a          []float64 // the problem as solved: rows ≤ cols, forbidden pairs made finite
	u, v, minv []float64 // row potentials, column potentials, column slack
	p, way     []int     // p[j]: row matched to column j (1-based, 0 none); way: search tree
	used       []bool
	col        []int // the result
}

// Solve returns the assignment of least total cost for the rows × cols matrix cost, stored
// row by row (cost[i*cols+j] is the cost of pairing row i with column j): col[i] is row i's
// column, or -1 if it gets none. The returned slice belongs to the Solver and is
// overwritten by the next call. Costs may be any float64 but -Inf; +Inf and NaN forbid a
// pair (see the package documentation).
func (s *Solver) Solve(cost []float64, rows, cols int) []int {
	if rows < 0 || cols < 0 || len(cost) != rows*cols {
		panic("assign: matrix size does not match its costs")
	}
	s.col = grow(s.col, rows)
	for i := range s.col {
		s.col[i] = -1
	}
	if rows == 0 || cols == 0 {
		return s.col
	}
	// The search adds rows one at a time and must find a free column for each, so it runs
	// on the shorter side: n ≤ m.
	transpose := rows > cols
	n, m := rows, cols
	if transpose {
		n, m = cols, rows
	}
	s.a = grow(s.a, n*m)
	big, scale := forbiddenCost(cost, n)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			c := cost[i*cols+j]
			if transpose {
				c = cost[j*cols+i]
			}
			if math.IsInf(c, -1) {
				panic("assign: cost -Inf")
			}
			if math.IsNaN(c) || math.IsInf(c, 1) {
				c = big
			} else {
				c *= scale
			}
			s.a[i*m+j] = c
		}
	}
	s.solve(n, m)
	for j := 1; j <= m; j++ {
		i := s.p[j] - 1
		if i < 0 || s.a[i*m+j-1] == big {
			continue
		}
		if transpose {
			s.col[j-1] = i
		} else {
			s.col[i] = j - 1
		}
	}
	return s.col
}

// forbiddenCost returns the cost that stands for a forbidden pair in a problem of n pairs:
// more than the largest difference between two sums of n allowed costs, so that an
// assignment with one forbidden pair fewer always costs less. It is 0 when no pair is
// allowed, which leaves every pair forbidden and the result empty. Costs so large that it,
// or the potentials' sums of it, would overflow (1e308 in a problem of a few pairs: the
// search then looped for ever on an infinite slack) are to be solved times scale, a power of
// two, which keeps every comparison as it was; else scale is 1.
func forbiddenCost(cost []float64, n int) (big, scale float64) {
	maxAbs, any := 0.0, false
	for _, c := range cost {
		if !math.IsNaN(c) && !math.IsInf(c, 0) {
			maxAbs, any = math.Max(maxAbs, math.Abs(c)), true
		}
	}
	if !any {
		return 0, 1
	}
	scale = 1
	if limit := 1e300 / (4 * float64(n+1) * float64(n+1)); maxAbs > limit {
		_, e := math.Frexp(maxAbs / limit)
		scale = math.Ldexp(1, -e)
		maxAbs *= scale
	}
	return 2 * (maxAbs + 1) * float64(n+1), scale
}

// solve runs the shortest-augmenting-path Hungarian method on s.a, n × m with n ≤ m,
// leaving in s.p the row matched to each column (1-based, index 0 is the search's root).
func (s *Solver) solve(n, m int) {
	s.u = grow(s.u, n+1)
	s.v = grow(s.v, m+1)
	s.minv = grow(s.minv, m+1)
	s.p = grow(s.p, m+1)
	s.way = grow(s.way, m+1)
	s.used = grow(s.used, m+1)
	clear(s.u)
	clear(s.v)
	clear(s.p)
	u, v, minv, p, way, used, a := s.u, s.v, s.minv, s.p, s.way, s.used, s.a
	for i := 1; i <= n; i++ {
		// Grow a shortest-path tree from row i over reduced costs a - u - v until it
		// reaches a free column, then flip the matching along the path.
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta, j1 := math.Inf(1), 0
			row := a[(i0-1)*m:]
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				if cur := row[j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= m; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
