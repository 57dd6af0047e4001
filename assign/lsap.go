package assign

import "math"

// LinearSumAssignment returns the assignment that scipy.optimize.linear_sum_assignment
// returns for the rows × cols matrix cost, stored row by row: every element of the shorter
// side is given a partner, the total cost is the least, and where several assignments cost
// the same it is scipy's, pair for pair. Scorers built on scipy (TrackEval) count identity
// switches and fragmentations from the pairs scipy picks, so reproducing their figures
// takes its order of ties, not just some least-cost assignment. col[i] is row i's column,
// or -1 when there are more rows than columns and row i is left over. Every cost must be
// finite (there is no forbidden pair: see Solve for that); the returned slice belongs to
// the Solver and is overwritten by the next call.
//
// The method is scipy's (as of 1.9; earlier releases first subtracted the least cost from
// every cost, which can round apart costs that tie here): the shortest augmenting
// path algorithm as Crouse describes it ("On implementing 2D rectangular assignment
// algorithms", IEEE TAES 2016), run on the transpose when rows outnumber columns. The ties
// come out as scipy's because each step is taken in its order and with its arithmetic:
// rows are added in index order; each search scans the columns not yet reached in a list
// that starts in descending order and loses a column by moving the list's last entry into
// its place; among columns of equal reduced cost the first scanned wins unless a later
// one is still free, and the last such free one wins; the reduced costs and potentials are
// summed in the same order, so that equal costs stay exactly equal.
func (s *Solver) LinearSumAssignment(cost []float64, rows, cols int) []int {
	if !s.start(cost, rows, cols) {
		return s.col
	}
	// Every row of the problem as solved must find a column: n ≤ m.
	transpose := rows > cols
	n, m := rows, cols
	if transpose {
		n, m = cols, rows
	}
	s.a = grow(s.a, n*m)
	for i := range rows {
		for j, x := range cost[i*cols : (i+1)*cols] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				panic("assign: LinearSumAssignment needs finite costs")
			}
			if transpose {
				s.a[j*m+i] = x
			} else {
				s.a[i*m+j] = x
			}
		}
	}
	// u, v: row and column potentials; minv: the search's shortest path cost to each
	// column; p: the row holding each column, way: the row a column was reached from;
	// rowCol: the column holding each row; used, rowSeen: the columns and rows the last
	// search reached.
	s.u, s.v, s.minv = grow(s.u, n), grow(s.v, m), grow(s.minv, m)
	s.p, s.way, s.rowCol = grow(s.p, m), grow(s.way, m), grow(s.rowCol, n)
	s.used, s.rowSeen, s.remaining = grow(s.used, m), grow(s.rowSeen, n), grow(s.remaining, m)
	clear(s.u)
	clear(s.v)
	for j := range s.p {
		s.p[j] = -1
	}
	for i := range s.rowCol {
		s.rowCol[i] = -1
	}
	u, v, spc, rowCol := s.u, s.v, s.minv, s.rowCol
	for cur := range n {
		sink, minVal := s.shortestPath(n, m, cur)
		// Potentials first, with the columns each row held before this augmentation.
		u[cur] += minVal
		for i, seen := range s.rowSeen[:n] {
			if seen && i != cur {
				u[i] += minVal - spc[rowCol[i]]
			}
		}
		for j, reached := range s.used[:m] {
			if reached {
				v[j] -= minVal - spc[j]
			}
		}
		for j := sink; ; {
			i := s.way[j]
			s.p[j] = i
			rowCol[i], j = j, rowCol[i]
			if i == cur {
				break
			}
		}
	}
	for i, j := range rowCol {
		if transpose {
			s.col[j] = i
		} else {
			s.col[i] = j
		}
	}
	return s.col
}

// shortestPath searches s.a (n × m) from row i for the free column at the least reduced
// cost, in scipy's order (see LinearSumAssignment), and returns it with its path cost.
func (s *Solver) shortestPath(n, m, i int) (sink int, minVal float64) {
	a, u, v, spc, p, remaining := s.a, s.u, s.v, s.minv, s.p, s.remaining
	// Descending, so that a matrix of equal costs comes out as the identity.
	for k := range remaining {
		remaining[k] = m - 1 - k
	}
	clear(s.rowSeen[:n])
	clear(s.used[:m])
	for j := range spc {
		spc[j] = math.Inf(1)
	}
	left := m
	for {
		s.rowSeen[i] = true
		index, lowest := -1, math.Inf(1)
		row := a[i*m : (i+1)*m]
		for k, j := range remaining[:left] {
			if r := minVal + row[j] - u[i] - v[j]; r < spc[j] {
				s.way[j], spc[j] = i, r
			}
			if spc[j] < lowest || spc[j] == lowest && p[j] == -1 {
				index, lowest = k, spc[j]
			}
		}
		if index < 0 {
			panic("assign: costs too large to sum")
		}
		minVal = lowest
		j := remaining[index]
		s.used[j] = true
		left--
		remaining[index] = remaining[left]
		if p[j] == -1 {
			return j, minVal
		}
		i = p[j]
	}
}
