package knn

import (
	"math"
	"runtime"
	"slices"
)

// before reports whether neighbour (d, r) comes before (d2, r2): nearer, or as near with a
// lower rank (track id).
func before(d float64, r int32, d2 float64, r2 int32) bool {
	return d < d2 || d == d2 && r < r2
}

// insert adds neighbour (d, r) to the sorted list nd[:m], nb[:m] of capacity len(nd) and
// returns its new length; a full list drops its last entry.
func insert(nd []float64, nb []int32, m int, d float64, r int32) int {
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

// gridSearch buckets the points into square cells of about two points each and searches the
// cells around each query ring by ring, stopping once no unvisited cell can hold a point as
// near as the k-th found. Its buffers are kept between frames.
type gridSearch struct {
	cell      []int32   // rank → cell
	cellStart []int32   // cell c holds sorted positions cellStart[c]..cellStart[c+1]-1
	gx, gy    []float64 // coordinates in cell order, for locality
	gr        []int32   // ranks in cell order

	// This frame's geometry: cell (cx, cy) spans [minX+cx·cs, minX+(cx+1)·cs) × ….
	minX, minY, cs float64
	nx, ny         int
	margin         float64

	// A second goroutine, started by the first large frame, answers the queries of the
	// first half of the cells while the caller's goroutine does the rest.
	jobs chan gridJob
	done chan struct{}
}

// gridJob is the work handed to the helper goroutine: the queries of cells c0..c1-1.
type gridJob struct {
	c0, c1, k int
	nbr       []int32
	d2        []float64
}

// parallelMin is the smallest frame split between two goroutines: below it the hand-off
// costs more than it saves.
const parallelMin = 2000

func (g *gridSearch) close() error {
	if g.jobs != nil {
		close(g.jobs)
		g.jobs = nil
	}
	return nil
}

func (g *gridSearch) helper(jobs <-chan gridJob, done chan<- struct{}) {
	for j := range jobs {
		g.queries(j.c0, j.c1, j.k, j.nbr, j.d2)
		done <- struct{}{}
	}
}

func (g *gridSearch) search(xs, ys []float64, k int, nbr []int32, d2 []float64) error {
	n := len(xs)
	minX, maxX, minY, maxY := extent(xs, ys)
	w, h := maxX-minX, maxY-minY
	// About two points per cell whether the points fill an area or lie along a line; this
	// also bounds the cell count by 1.5n+1.
	cs := max(math.Sqrt(2*w*h/float64(n)), 2*max(w, h)/float64(n))
	if !(cs > 0) {
		cs = 1 // all points coincide
	}
	inv := 1 / cs
	nx, ny := int(w*inv)+1, int(h*inv)+1
	g.minX, g.minY, g.cs, g.nx, g.ny = minX, minY, cs, nx, ny
	// A point's cell comes from (x−minX)·inv but the stopping test uses minX + c·cs, and the
	// two round differently: the test keeps a margin far above their rounding error.
	g.margin = 1e-9 * (math.Abs(minX) + math.Abs(maxX) + math.Abs(minY) + math.Abs(maxY) + cs)

	g.cell = grow(g.cell, n)
	g.cellStart = grow(g.cellStart, nx*ny+1)
	clear(g.cellStart)
	for i := range xs {
		cx := min(int((xs[i]-minX)*inv), nx-1)
		cy := min(int((ys[i]-minY)*inv), ny-1)
		c := int32(cy*nx + cx)
		g.cell[i] = c
		g.cellStart[c+1]++
	}
	for c := range nx * ny {
		g.cellStart[c+1] += g.cellStart[c]
	}
	g.gx, g.gy, g.gr = grow(g.gx, n), grow(g.gy, n), grow(g.gr, n)
	for i, c := range g.cell {
		j := g.cellStart[c]
		g.gx[j], g.gy[j], g.gr[j] = xs[i], ys[i], int32(i)
		g.cellStart[c]++
	}
	copy(g.cellStart[1:], g.cellStart[:nx*ny])
	g.cellStart[0] = 0

	if n < parallelMin || runtime.GOMAXPROCS(0) < 2 {
		g.queries(0, nx*ny, k, nbr, d2)
		return nil
	}
	if g.jobs == nil {
		g.jobs, g.done = make(chan gridJob), make(chan struct{})
		go g.helper(g.jobs, g.done)
	}
	// Split the cells where the points are halved.
	mid, _ := slices.BinarySearch(g.cellStart, int32(n/2))
	g.jobs <- gridJob{0, mid, k, nbr, d2}
	g.queries(mid, nx*ny, k, nbr, d2)
	<-g.done
	return nil
}

// queries answers the queries of the points in cells c0..c1-1, in cell order so that the
// cells each one reads are mostly still in cache from the query before.
func (g *gridSearch) queries(c0, c1, k int, nbr []int32, d2 []float64) {
	for c := c0; c < c1; c++ {
		for j := g.cellStart[c]; j < g.cellStart[c+1]; j++ {
			q := int(g.gr[j])
			g.query(q, g.gx[j], g.gy[j], c%g.nx, c/g.nx, d2[q*k:(q+1)*k], nbr[q*k:(q+1)*k])
		}
	}
}

// query finds the len(nd) nearest neighbours of rank q, at (qx, qy) in cell (cx, cy).
func (g *gridSearch) query(q int, qx, qy float64, cx, cy int, nd []float64, nb []int32) {
	nx, ny, k := g.nx, g.ny, len(nd)
	m := g.scan(cy*nx+cx, cy*nx+cx, q, qx, qy, nd, nb, 0)
	for ring := 1; ; ring++ {
		x0, x1, y0, y1 := cx-ring+1, cx+ring-1, cy-ring+1, cy+ring-1 // the square visited
		if x0 <= 0 && y0 <= 0 && x1 >= nx-1 && y1 >= ny-1 {
			return // every cell
		}
		if m == k {
			// Every unvisited point lies beyond one of the square's sides that is not the
			// grid's.
			gap := math.Inf(1)
			if x0 > 0 {
				gap = min(gap, qx-(g.minX+float64(x0)*g.cs))
			}
			if x1 < nx-1 {
				gap = min(gap, g.minX+float64(x1+1)*g.cs-qx)
			}
			if y0 > 0 {
				gap = min(gap, qy-(g.minY+float64(y0)*g.cs))
			}
			if y1 < ny-1 {
				gap = min(gap, g.minY+float64(y1+1)*g.cs-qy)
			}
			// Strictly nearer: an unvisited point at exactly the k-th distance could still
			// win its tie by a lower track id.
			if gap -= g.margin; gap > 0 && nd[k-1] < gap*gap {
				return
			}
		}
		// The next ring: its top and bottom rows, then its two columns between them.
		x0, x1, y0, y1 = x0-1, x1+1, y0-1, y1+1
		xa, xb := max(x0, 0), min(x1, nx-1)
		if y0 >= 0 {
			m = g.scan(y0*nx+xa, y0*nx+xb, q, qx, qy, nd, nb, m)
		}
		if y1 < ny {
			m = g.scan(y1*nx+xa, y1*nx+xb, q, qx, qy, nd, nb, m)
		}
		for y := max(y0+1, 0); y <= min(y1-1, ny-1); y++ {
			if x0 >= 0 {
				m = g.scan(y*nx+x0, y*nx+x0, q, qx, qy, nd, nb, m)
			}
			if x1 < nx {
				m = g.scan(y*nx+x1, y*nx+x1, q, qx, qy, nd, nb, m)
			}
		}
	}
}

// scan offers the points of cells c0..c1 (consecutive in a row) to the list nd[:m], nb[:m]
// of point q and returns its new length.
func (g *gridSearch) scan(c0, c1, q int, qx, qy float64, nd []float64, nb []int32, m int) int {
	k := len(nd)
	for j := g.cellStart[c0]; j < g.cellStart[c1+1]; j++ {
		r := g.gr[j]
		if int(r) == q {
			continue
		}
		d := dist2(qx, qy, g.gx[j], g.gy[j])
		if m < k || before(d, r, nd[k-1], nb[k-1]) {
			m = insert(nd, nb, m, d, r)
		}
	}
	return m
}
