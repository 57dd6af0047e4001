package knn

import "math"

// gridSearch is the default backend: a uniform grid of square cells, with the points
// counting-sorted by cell so that each row of cells is one contiguous run of positions. That
// order is also the Graph's layout: every per-point array of a frame is indexed by position,
// so that a point's neighbours, and their data, lie close to it in memory.
//
// A query first offers last frame's neighbours to its list, or else the points of a block of
// cells known to hold k others, so that the list's k-th is a bound on the distance of the
// k-th nearest; then it offers every other point of every cell that the disc of that radius
// reaches; see query for why that is exact.
type gridSearch struct {
	cell      []int32 // rank → cell
	cellStart []int32 // cell c holds positions cellStart[c]..cellStart[c+1]-1

	// This frame's geometry: cell (cx, cy) spans [minX+cx·cw, minX+(cx+1)·cw) ×
	// [minY+cy·ch, minY+(cy+1)·ch).
	minX, minY, cw, ch, invW, invH float64
	nx, ny                         int
	// margin bounds, with a wide safety factor, the rounding of everything that compares a
	// coordinate with a cell's edge.
	margin float64

	// The layout being searched: coordinates and rank by position.
	px, py []float64
	prank  []int32

	// Last frame's neighbours, in positions; empty when there are none.
	seeds seedLists

	// search's own layout and query scratch.
	own struct {
		px, py       []float64
		prank, posOf []int32
		scratch      queryScratch
	}
}

// queryScratch is one goroutine's space for the query: the list being built, (rank,
// position) as one tie key; and the positions already offered to it.
type queryScratch struct {
	list    []int64
	offered stampSet
}

// resize makes room for a query's k neighbours among n points.
func (s *queryScratch) resize(n, k int) {
	s.list = growOwnLines(s.list, k)
	s.offered.resize(n)
}

// seedLists gives, for each position of this frame, last frame's k nearest neighbours of the
// same track: distinct, and never that track itself.
type seedLists struct {
	fromPrev, toCur []int32 // position ↔ last frame's position of the same track, −1 if none
	nbr             []int32 // k per last frame's position, in its positions
	k               int
}

// gridCellPoints is, per neighbour sought, the mean number of points in a square as tall as
// a row of cells: rows about 1.25 times as tall as the typical k-th neighbour distance, so
// that a query scans three or four rows (chosen by BenchmarkUpdate).
const gridCellPoints = 0.5

// gridColumns is the number of columns per row height: a row of cells is one run of
// positions whatever its columns, so narrow columns trim the scan to the disc's width at no
// cost per cell.
const gridColumns = 4

func (g *gridSearch) close() error { return nil }

// search answers the searcher interface: the k nearest by rank, without seeds.
func (g *gridSearch) search(xs, ys []float64, k int, nbr []int32, d2 []float64) error {
	n := len(xs)
	o := &g.own
	o.px, o.py, o.prank, o.posOf = grow(o.px, n), grow(o.py, n), grow(o.prank, n), grow(o.posOf, n)
	g.layout(xs, ys, k, o.px, o.py, o.prank, o.posOf)
	o.scratch.resize(n, k)
	g.seeds = seedLists{}
	for j, r := range o.prank {
		nb := nbr[int(r)*k : int(r+1)*k]
		g.query(j, &o.scratch, d2[int(r)*k:int(r+1)*k], nb)
		for i, p := range nb {
			nb[i] = o.prank[p]
		}
	}
	return nil
}

// layout sizes the grid for this frame's points (by rank) and counting-sorts them by cell
// into px, py and prank (by position); posOf maps ranks to positions.
func (g *gridSearch) layout(xs, ys []float64, k int, px, py []float64, prank, posOf []int32) {
	n := len(xs)
	minX, maxX, minY, maxY := extent(xs, ys)
	w, h := maxX-minX, maxY-minY
	// Rows of height cs with about gridCellPoints·k points per cs × cs square, whether the
	// points fill an area or lie along a line; this also bounds the cell count by
	// (2·gridColumns+1)·n/(gridCellPoints·k)+1.
	per := gridCellPoints * float64(k)
	cs := max(math.Sqrt(per*w*h/float64(n)), per*max(w, h)/float64(n))
	if !(cs > 0) {
		cs = 1 // all points coincide
	}
	g.minX, g.minY, g.cw, g.ch = minX, minY, cs/gridColumns, cs
	g.invW, g.invH = 1/g.cw, 1/g.ch
	g.nx, g.ny = int(w*g.invW)+1, int(h*g.invH)+1
	g.margin = 1e-9 * (math.Abs(minX) + math.Abs(maxX) + math.Abs(minY) + math.Abs(maxY) + cs)

	cells := g.nx * g.ny
	g.cell = grow(g.cell, n)
	g.cellStart = grow(g.cellStart, cells+1)
	clear(g.cellStart)
	for i := range xs {
		c := int32(g.row(ys[i])*g.nx + g.col(xs[i]))
		g.cell[i] = c
		g.cellStart[c+1]++
	}
	for c := range cells {
		g.cellStart[c+1] += g.cellStart[c]
	}
	for i, c := range g.cell {
		j := g.cellStart[c]
		px[j], py[j], prank[j], posOf[i] = xs[i], ys[i], int32(i), j
		g.cellStart[c]++
	}
	// The fill advanced each start to the next cell's start; shift back.
	copy(g.cellStart[1:], g.cellStart[:cells])
	g.cellStart[0] = 0
	g.px, g.py, g.prank = px, py, prank
}

// col is the column of the cells holding x, clamped to the grid. It is monotonic in x (each
// operation rounds monotonically), which the query's bounds rely on.
func (g *gridSearch) col(x float64) int { return cellIndex((x-g.minX)*g.invW, g.nx) }

// row is col for y.
func (g *gridSearch) row(y float64) int { return cellIndex((y-g.minY)*g.invH, g.ny) }

func cellIndex(t float64, n int) int {
	switch {
	case t < 1: // also −∞ and anything left of the grid
		return 0
	case t >= float64(n-1): // also +∞
		return n - 1
	}
	return int(t)
}

// query finds the k = len(nd) nearest neighbours of the point at position jq in (squared
// distance, rank) order, and writes their positions into nb; s is the calling goroutine's
// scratch, sized by resize. It reads only the layout and the seeds, so queries may run
// concurrently, each with its own s.
//
// It is exact because of the bound (td, tr), the list's k-th once last frame's neighbours (or
// a block of cells) have been offered: at least k other points come at or before it in that
// order, so the true k nearest all do too, and every point at squared distance ≤ td lies in a
// cell the scan visits (the cell ranges are widened by margin, and the tests that choose them
// round monotonically). Every visited point at or before the bound is offered to the list,
// which keeps the k first, so it ends as the true k nearest; a point not visited is farther
// than td and cannot be among them.
func (g *gridSearch) query(jq int, s *queryScratch, nd []float64, nb []int32) {
	qx, qy := g.px[jq], g.py[jq]
	k, list, offered := len(nd), s.list, &s.offered
	offered.next()
	offered.add(int32(jq))
	// Last frame's neighbours first: usually they are still the k nearest, their order has
	// barely changed (so most are pushed, without a call to insert), and the k-th of them is
	// a tight bound.
	m := 0
	if sd := &g.seeds; sd.k > 0 && sd.fromPrev[jq] >= 0 {
		p := int(sd.fromPrev[jq])
		for _, pp := range sd.nbr[p*sd.k : (p+1)*sd.k] {
			if c := sd.toCur[pp]; c >= 0 {
				d, t := dist2(qx, qy, g.px[c], g.py[c]), tie(g.prank[c], c)
				if push(nd, list, m, d, t) {
					m++
				} else {
					m = insert(nd, list, m, d, t)
				}
				offered.add(c)
			}
		}
	}
	if m < k { // a new track, or some of its neighbours are gone
		m = g.offerBlock(qx, qy, nd, list, m, offered)
	}
	td, tr := nd[k-1], list[k-1]
	rad := math.Sqrt(td) + g.margin
	x0, x1 := g.col(qx-rad), g.col(qx+rad)
	y0, y1 := g.row(qy-rad), g.row(qy+rad)
	cellStart, px, py, seen := g.cellStart, g.px, g.py, offered.at
	for base := y0 * g.nx; base <= y1*g.nx; base += g.nx {
		for j, end := cellStart[base+x0], cellStart[base+x1+1]; j < end; j++ {
			d := dist2(qx, qy, px[j], py[j])
			// Without branches: whether a point is inside the bound is a coin toss, while
			// one inside that is not yet in the list is rare.
			if b2i(d <= td)&b2i(seen[j] != offered.stamp) != 0 {
				if t := tie(g.prank[j], j); d < td || t <= tr {
					if m = insert(nd, list, m, d, t); m == k {
						td, tr = nd[k-1], list[k-1]
					}
				}
			}
		}
	}
	for i, t := range list[:k] {
		nb[i] = int32(t)
	}
}

// tie is the grid list's tie key of the point of rank r at position j.
func tie(r, j int32) int64 { return int64(r)<<32 | int64(j) }

// b2i is 1 for true and 0 for false; the compiler makes it a flag move, not a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// offerBlock offers the points of the smallest square block of cells around (qx, qy) that
// holds k other points to the list nd[:m], list[:m] (those not offered yet), and returns its
// new length, k.
func (g *gridSearch) offerBlock(qx, qy float64, nd []float64, list []int64, m int, offered *stampSet) int {
	k := len(nd)
	cx, cy := g.col(qx), g.row(qy)
	for ring := 1; ; ring++ {
		cols := ring * gridColumns
		x0, x1, y0, y1 := max(cx-cols, 0), min(cx+cols, g.nx-1), max(cy-ring, 0), min(cy+ring, g.ny-1)
		count := 0
		for y := y0; y <= y1; y++ {
			count += int(g.cellStart[y*g.nx+x1+1] - g.cellStart[y*g.nx+x0])
		}
		if count <= k { // the query is one of them
			continue
		}
		for y := y0; y <= y1; y++ {
			for j := g.cellStart[y*g.nx+x0]; j < g.cellStart[y*g.nx+x1+1]; j++ {
				if !offered.has(j) {
					offered.add(j)
					m = insert(nd, list, m, dist2(qx, qy, g.px[j], g.py[j]), tie(g.prank[j], j))
				}
			}
		}
		return m
	}
}
