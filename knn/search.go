package knn

// tieKey is what breaks a tie between equal distances: a rank (track id order), or, in the
// grid's lists, a rank in the high 32 bits and a position in the low ones, which order the
// same way since ranks are unique.
type tieKey interface{ int32 | int64 }

// before reports whether neighbour (d, r) comes before (d2, r2): nearer, or as near with a
// lower rank (track id).
func before[K tieKey](d float64, r K, d2 float64, r2 K) bool {
	return d < d2 || d == d2 && r < r2
}

// insert adds neighbour (d, r) to the sorted list nd[:m], nb[:m] of capacity len(nd) and
// returns its new length; a full list drops its last entry.
func insert[K tieKey](nd []float64, nb []K, m int, d float64, r K) int {
	k := len(nd)
	if m == k {
		if !before(d, r, nd[k-1], nb[k-1]) {
			return m
		}
		m--
	}
	j := m
	for ; j > 0 && before(d, r, nd[j-1], nb[j-1]); j-- {
		nd[j], nb[j] = nd[j-1], nb[j-1]
	}
	nd[j], nb[j] = d, r
	return m + 1
}

// push is insert's cheapest case, small enough to inline where a call per neighbour would
// cost more than the work: if (d, r) comes after the last of nd[:m], nb[:m] and the list has
// room, it appends it and reports true; otherwise it changes nothing and reports false.
func push[K tieKey](nd []float64, nb []K, m int, d float64, r K) bool {
	if m < len(nd) && (m == 0 || before(nd[m-1], nb[m-1], d, r)) {
		nd[m], nb[m] = d, r
		return true
	}
	return false
}

// bruteSearch compares every pair: O(n²), the reference for the other backends.
type bruteSearch struct{}

func (bruteSearch) search(xs, ys []float64, k int, nbr []int32, d2 []float64) error {
	for q := range xs {
		scanAll(xs, ys, q, nbr[q*k:(q+1)*k], d2[q*k:(q+1)*k])
	}
	return nil
}

func (bruteSearch) close() error { return nil }

// scanAll finds the len(nb) nearest neighbours of point q by looking at every point.
func scanAll(xs, ys []float64, q int, nb []int32, nd []float64) {
	m := 0
	qx, qy := xs[q], ys[q]
	for r := range xs {
		if r != q {
			m = insert(nd, nb, m, dist2(qx, qy, xs[r], ys[r]), int32(r))
		}
	}
}
