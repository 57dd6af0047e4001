// Package assign solves the linear assignment problem: given a cost for every pairing of a
// row with a column, choose at most one column per row and one row per column so that as
// many pairs as possible are made and their total cost is the least. Trackers use it to
// match detections to tracks, evaluation to match ground truth to tracker output.
//
// The rows and columns are first split into the connected components of the bipartite
// graph whose edges are the allowed pairs (see below), found by union-find in one pass over
// the matrix. No allowed pair joins two components, so the most pairs and the least total
// are each component's own best put together, and each component is solved on its own: a
// crowded frame, a thousand tracks each gated to a few of thousands of detections, becomes
// many small problems instead of one large one whose search could cross the whole matrix
// for each track. A row or column with no allowed pair is left out unsearched. A dense matrix
// is seen to be one component after a row and a column's worth of pairs and is solved
// whole, as before.
//
// A component is solved by the Hungarian method in its shortest-augmenting-path form (Kuhn
// 1955, Munkres 1957; the O(n²m) formulation with row and column potentials that Jonker and
// Volgenant 1987 also build on): one row at a time is added to the matching by a Dijkstra
// search over reduced costs, the potentials keep every reduced cost non-negative, and the
// result is exact, not greedy. A rectangular component is solved with its shorter side as
// the rows, so every element of the shorter side is matched.
//
// A forbidden pair (a track too far from a detection, an overlap under the threshold) has
// cost +Inf or NaN. Forbidden pairs are never returned; among the assignments that make the
// most allowed pairs, the solver returns one of least total cost. It gets there by giving
// the forbidden pairs within a component a finite cost larger than any difference its
// allowed ones can make, so that one more allowed pair always wins, and dropping them from
// the result.
//
// LinearSumAssignment is the other solver: on a dense matrix with no forbidden pair it
// returns exactly what scipy's linear_sum_assignment returns, ties included, for scorers
// whose figures depend on which of several least-cost assignments scipy picks.
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
	a          []float64 // one component as solved: rows ≤ cols, forbidden pairs made finite
	u, v, minv []float64 // row potentials, column potentials, column slack
	p, way     []int     // p[j]: row matched to column j (1-based, 0 none); way: search tree
	used       []bool
	col        []int // the result

	// LinearSumAssignment's besides the above: each row's column, the rows its search
	// reached, the columns it has yet to reach.
	rowCol    []int
	rowSeen   []bool
	remaining []int

	// The components of the graph of allowed pairs, rows numbered 0…rows-1 and columns
	// rows…rows+cols-1: a union-find forest whose roots are each set's least member, each
	// node's component, and the rows and columns grouped by component, in ascending order
	// within one (component c's rows are rowOrder[rowStart[c]:rowStart[c+1]]).
	parent, comp       []int
	next               []int // per row, the first column join has not yet looked at
	rowOrder, rowStart []int
	colOrder, colStart []int
}

// Solve returns the assignment of least total cost for the rows × cols matrix cost, stored
// row by row (cost[i*cols+j] is the cost of pairing row i with column j): col[i] is row i's
// column, or -1 if it gets none. The returned slice belongs to the Solver and is
// overwritten by the next call. Costs may be any float64 but -Inf; +Inf and NaN forbid a
// pair (see the package documentation).
func (s *Solver) Solve(cost []float64, rows, cols int) []int {
	if !s.start(cost, rows, cols) {
		return s.col
	}
	nc := s.components(cost, rows, cols)
	for c := range nc {
		rs := s.rowOrder[s.rowStart[c]:s.rowStart[c+1]]
		cs := s.colOrder[s.colStart[c]:s.colStart[c+1]]
		// A row or column with no allowed pair is a component of its own and stays -1.
		if len(rs) > 0 && len(cs) > 0 {
			s.solveComponent(cost, cols, rs, cs)
		}
	}
	return s.col
}

// start checks that cost holds rows × cols costs, sets every row of the result to -1, and
// reports whether there is anything to solve.
func (s *Solver) start(cost []float64, rows, cols int) bool {
	if rows < 0 || cols < 0 || len(cost) != rows*cols {
		panic("assign: matrix size does not match its costs")
	}
	s.col = grow(s.col, rows)
	for i := range s.col {
		s.col[i] = -1
	}
	return rows > 0 && cols > 0
}

// components finds the connected components of the bipartite graph whose edges are the
// allowed pairs of cost, numbers them in order of their least row (then column), groups the
// rows and columns by component in s.rowOrder and s.colOrder, and returns how many there
// are.
func (s *Solver) components(cost []float64, rows, cols int) int {
	nodes := rows + cols
	s.parent = grow(s.parent, nodes)
	for k := range s.parent {
		s.parent[k] = k
	}
	s.join(cost, rows, cols)
	// Every root is its set's least member, so numbering the nodes in order meets each
	// root before the rest of its set.
	s.comp = grow(s.comp, nodes)
	nc := 0
	for k := range s.comp {
		if r := s.find(k); r == k {
			s.comp[k] = nc
			nc++
		} else {
			s.comp[k] = s.comp[r]
		}
	}
	s.rowOrder, s.rowStart = group(s.rowOrder, s.rowStart, s.comp[:rows], nc)
	s.colOrder, s.colStart = group(s.colOrder, s.colStart, s.comp[rows:], nc)
	return nc
}

// join unites in s.parent every row with the columns it may take. It looks at row 0 in
// full, then at each other row up to its first allowed pair, and only then at the rest:
// a dense matrix is one set after m + n - 1 pairs, where the scan stops, so the split
// costs it next to nothing.
func (s *Solver) join(cost []float64, rows, cols int) {
	sets := rows + cols
	// unite joins row i and column j's sets and reports whether everything is one set.
	unite := func(i, j int) bool {
		a, b := s.find(i), s.find(rows+j)
		if a != b {
			s.parent[max(a, b)] = min(a, b)
			sets--
		}
		return sets == 1
	}
	s.next = grow(s.next, rows)
	for i := range rows {
		row := cost[i*cols : (i+1)*cols]
		j := 0
		for j < cols {
			c := row[j]
			j++
			if allowed(c) {
				if unite(i, j-1) {
					return
				}
				if i > 0 {
					break
				}
			}
		}
		s.next[i] = j
	}
	for i := 1; i < rows; i++ {
		row := cost[i*cols : (i+1)*cols]
		for j := s.next[i]; j < cols; j++ {
			if allowed(row[j]) && unite(i, j) {
				return
			}
		}
	}
}

// allowed reports whether a pair of cost c may be made: c is neither +Inf nor NaN, one
// comparison, as join makes it for every cell. -Inf counts as allowed, so that it lies in a
// component and is refused there.
func allowed(c float64) bool {
	return c < math.Inf(1)
}

// find returns the root of k's set in s.parent, halving the path on the way. Roots are
// linked under the lesser, so parent[k] ≤ k throughout and a set's root is its least member.
func (s *Solver) find(k int) int {
	parent := s.parent
	for parent[k] != k {
		parent[k] = parent[parent[k]]
		k = parent[k]
	}
	return k
}

// group sorts the indices 0…len(comp)-1 by comp[k] < nc into order, ascending within a
// component (a counting sort), and sets start so that component c's indices are
// order[start[c]:start[c+1]].
func group(order, start, comp []int, nc int) ([]int, []int) {
	order = grow(order, len(comp))
	start = grow(start, nc+1)
	clear(start)
	for _, c := range comp {
		start[c]++
	}
	for c := 1; c < nc; c++ {
		start[c] += start[c-1]
	}
	start[nc] = len(comp)
	// start[c] is the end of component c; placing from the last index back leaves it at
	// the start, and each component in ascending order.
	for k := len(comp) - 1; k >= 0; k-- {
		c := comp[k]
		start[c]--
		order[start[c]] = k
	}
	return order, start
}

// solveComponent solves the sub-matrix of cost (cols columns a row) made of the rows rs and
// the columns cs, and writes its pairs into s.col.
func (s *Solver) solveComponent(cost []float64, cols int, rs, cs []int) {
	// The search adds rows one at a time and must find a free column for each, so it runs
	// on the shorter side: n ≤ m.
	transpose := len(rs) > len(cs)
	n, m := len(rs), len(cs)
	if transpose {
		n, m = m, n
	}
	s.a = grow(s.a, n*m)
	a := s.a
	maxAbs := 0.0
	for i, r := range rs {
		row := cost[r*cols:]
		for j, c := range cs {
			x := row[c]
			if math.IsInf(x, -1) {
				panic("assign: cost -Inf")
			}
			if allowed(x) {
				maxAbs = max(maxAbs, math.Abs(x))
			}
			if transpose {
				a[j*m+i] = x
			} else {
				a[i*m+j] = x
			}
		}
	}
	big, scale := forbiddenCost(maxAbs, n)
	for k, x := range a {
		if allowed(x) {
			a[k] = x * scale
		} else {
			a[k] = big
		}
	}
	s.solve(n, m)
	for j := 1; j <= m; j++ {
		i := s.p[j] - 1
		if i < 0 || a[i*m+j-1] == big {
			continue
		}
		if transpose {
			s.col[rs[j-1]] = cs[i]
		} else {
			s.col[rs[i]] = cs[j-1]
		}
	}
}

// forbiddenCost returns the cost that stands for a forbidden pair in a problem of n pairs
// whose allowed costs are at most maxAbs in magnitude: more than the largest difference
// between two sums of n allowed costs, so that an assignment with one forbidden pair fewer
// always costs less. Costs so large that it, or the potentials' sums of it, would overflow
// (1e308 in a problem of a few pairs: the search then looped for ever on an infinite slack)
// are to be solved times scale, a power of two, which keeps every comparison as it was;
// else scale is 1.
func forbiddenCost(maxAbs float64, n int) (big, scale float64) {
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
