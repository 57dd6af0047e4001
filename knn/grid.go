package knn

import (
	"math"
	"slices"
)

// gridSearch is the default backend: a uniform grid of square cells, with the points
// counting-sorted by cell so that each row of cells is one contiguous run of positions. That
// order is also the Graph's layout: every per-point array of a frame is indexed by position,
// so that a point's neighbours, and their data, lie close to it in memory.
//
// A query first offers last frame's neighbours to its list, or else the points of a block of
// cells known to hold k others, so that the list's k-th is a bound on the distance of the
// k-th nearest; then it offers every other point of every cell that the disc of that radius
// reaches; see query for why that is exact.
//
// Points that pile up would make that scan quadratic: n points on one spot, n distances a
// query (20 000 points: 4.5 s a frame); a slanted line, about √(n·k) a cell; a short
// segment amid a spread, the segment. So a heavy cell (more than heavyCell points) is
// sorted along the axis its points spread most along, then the other, then by rank
// (sortHeavy): a query bisects it to the points within its bound along that axis, and
// coincident points form a run of positions in rank order (runEnd), at one distance from
// any query, whose members it offers until one does not fit and jumps past the rest
// (offerRun). Light cells stay in rank order, as when nothing piles up.
type gridSearch struct {
	cell      []int32 // rank → cell
	cellStart []int32 // cell c holds positions cellStart[c]..cellStart[c+1]-1
	runEnd    []int32 // position → the end of its run of coincident points (in a heavy cell; else one past it)
	heavyRow  []bool  // by row: whether a cell of it holds more than heavyCell points
	byX       []bool  // by cell: a heavy cell more spread across than down, sorted by x (others by y)

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

	// queryWithin's points found (up to 2k, cut to the first k when full), the k-th once
	// there were k (else +∞), and k.
	found []neighbour
	bound neighbour
	k     int

	// evals counts the squared distances the queries of this scratch computed, for the
	// tests that hold degenerate frames (coincident, collinear points) to O(n·k) work.
	evals int
}

// resize makes room for a query's k neighbours among n points.
func (s *queryScratch) resize(n, k int) {
	s.list = growOwnLines(s.list, k)
	s.found = slices.Grow(s.found[:0], 2*k)
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

// heavyCell is the number of points past which a query does not scan a cell whole but only
// its points within the query's reach along the axis they spread most along (a binary
// search: such a cell is sorted along it). Cells hold gridCellPoints·k/gridColumns points
// on average when the points fill an area, many more when they clump: a slanted line has
// about √(n·k) a cell (20 000 points: 54 distances a query in steady state, 435 for a new
// track, where a spread has 18 and 29; 13 and 26 now), a short segment or a pile all its
// points.
const heavyCell = 16

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
	g.heavyRow = grow(g.heavyRow, g.ny)
	clear(g.heavyRow)
	for i := range xs {
		row := g.row(ys[i])
		c := int32(row*g.nx + g.col(xs[i]))
		g.cell[i] = c
		if g.cellStart[c+1]++; g.cellStart[c+1] == heavyCell+1 {
			g.heavyRow[row] = true
		}
	}
	for c := range cells {
		g.cellStart[c+1] += g.cellStart[c]
	}
	for i, c := range g.cell {
		j := g.cellStart[c]
		px[j], py[j], prank[j], posOf[i] = xs[i], ys[i], int32(i), j
		g.cellStart[c]++
	}
	g.runEnd = grow(g.runEnd, n)
	for j := range g.runEnd {
		g.runEnd[j] = int32(j + 1) // runs of one; sortHeavy finds the longer
	}
	// The fill advanced each start to the next cell's start; shift back.
	copy(g.cellStart[1:], g.cellStart[:cells])
	g.cellStart[0] = 0
	g.px, g.py, g.prank = px, py, prank
	g.byX = grow(g.byX, cells)
	for r := range g.ny {
		for c := r * g.nx; g.heavyRow[r] && c < (r+1)*g.nx; c++ {
			if s, e := g.cellStart[c], g.cellStart[c+1]; e-s > heavyCell {
				g.sortHeavy(c, s, e, posOf)
			}
		}
	}
}

// sortHeavy sorts heavy cell c (positions s..e-1) along the axis its points spread most
// along, then the other, then by rank, so that a query can narrow it by a binary search and
// coincident points lie side by side in rank order, a run; and updates posOf and runEnd.
func (g *gridSearch) sortHeavy(c int, s, e int32, posOf []int32) {
	px, py, prank := g.px[s:e], g.py[s:e], g.prank[s:e]
	g.byX[c] = spread(px) > spread(py)
	if g.byX[c] {
		sortCell(px, py, prank)
	} else {
		sortCell(py, px, prank)
	}
	for j := e - 1; j >= s; j-- {
		posOf[g.prank[j]] = j
		if j+1 < e && g.px[j+1] == g.px[j] && g.py[j+1] == g.py[j] {
			g.runEnd[j] = g.runEnd[j+1]
		}
	}
}

// spread is the sum of the squared deviations of vs from their mean: along the axis where
// it is larger a query's window holds fewer of the points, whether they lie along a line or
// a few stray points widen the cell's extent the other way.
func spread(vs []float64) float64 {
	mean := 0.0
	for _, v := range vs {
		mean += v
	}
	mean /= float64(len(vs))
	sum := 0.0
	for _, v := range vs {
		sum += (v - mean) * (v - mean)
	}
	return sum
}

// sortCell orders a cell's points by (u, v, rank), u and v their coordinates (y and x, or x
// and y), so that coincident points lie side by side in rank order. Cells hold a few points
// (gridCellPoints) unless the points clump: insertion sort, moving the three arrays
// together, and a heap sort past a few dozen points, so that a cell of n coincident points
// costs O(n log n), not n².
func sortCell(u, v []float64, prank []int32) {
	less := func(a, b int) bool {
		if u[a] != u[b] {
			return u[a] < u[b]
		}
		if v[a] != v[b] {
			return v[a] < v[b]
		}
		return prank[a] < prank[b]
	}
	swap := func(a, b int) {
		u[a], u[b] = u[b], u[a]
		v[a], v[b] = v[b], v[a]
		prank[a], prank[b] = prank[b], prank[a]
	}
	n := len(u)
	if n <= 24 {
		for i := 1; i < n; i++ {
			for j := i; j > 0 && less(j, j-1); j-- {
				swap(j, j-1)
			}
		}
		return
	}
	down := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && less(c, c+1) {
				c++
			}
			if !less(i, c) {
				return
			}
			swap(i, c)
			i = c
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i, n)
	}
	for e := n - 1; e > 0; e-- {
		swap(0, e)
		down(0, e)
	}
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
				s.evals++
			}
		}
	}
	if m < k { // a new track, or some of its neighbours are gone
		g.offerBlock(jq, nd, list, m, s)
	}
	rad := math.Sqrt(nd[k-1]) + g.margin
	g.scan(g.row(qy-rad), g.row(qy+rad), g.col(qx-rad), g.col(qx+rad), qx, qy, nd, s, nil)
	for i, t := range s.list[:k] {
		nb[i] = int32(t)
	}
}

// reach is what the radius graph's search may link a query to: the points at squared
// distance d and vertical offset dy with d·f2 ≤ maxD2 and dy²·f2 ≤ maxDY2 (the caps a new
// link must fit with room to spare, f2 = (1+h)²; maxDY2 +∞ when off), so all within dist of
// the query and within dy of it vertically.
type reach struct {
	f2, maxD2, maxDY2 float64
	dist, dy          float64
}

// fits is reach's test, computed as geoGraph.caps computes it.
func (r *reach) fits(d, dy float64) bool {
	return d*r.f2 <= r.maxD2 && float64(dy*dy)*r.f2 <= r.maxDY2
}

// queryWithin finds the (up to) k = len(nd) nearest neighbours of the point at position jq
// that fit r, in (squared distance, rank) order: their positions in nb[:m] and squared
// distances in nd[:m]; it returns m. It scans square rings of cells around the query's cell,
// nearest first, and stops once the cells within the bound (the k-th found, or r's reach
// while fewer fit) lie in the rings scanned: so it scans about as much as a k-nearest query
// where k points fit nearby, and no more than r's reach where fewer do. It is exact for the
// reason query is: every point that fits and comes before the final bound lies within it, in
// a cell scanned while the bound was no tighter. The radius graph asks for hundreds of
// neighbours, so the points found are not kept sorted (an insert costs O(k): 70 % of the
// time) but gathered, up to 2k, and cut to the first k (a sort) when there are 2k.
func (g *gridSearch) queryWithin(jq int, s *queryScratch, nd []float64, nb []int32, r *reach) int {
	qx, qy := g.px[jq], g.py[jq]
	s.found, s.bound, s.k = s.found[:0], neighbour{math.Inf(1), math.MaxInt64}, len(nd)
	s.offered.next()
	s.offered.add(int32(jq))
	cx, cy := g.col(qx), g.row(qy)
	for ring := 0; ; ring++ {
		rad := min(r.dist, math.Sqrt(s.bound.d)) + g.margin
		x0, x1 := g.col(qx-rad), g.col(qx+rad)
		y0, y1 := g.row(qy-min(rad, r.dy+g.margin)), g.row(qy+min(rad, r.dy+g.margin))
		// The ring's block: rows cy ± ring, columns cx ± ring·gridColumns (as tall as wide).
		bx0, bx1, by0, by1 := cx-ring*gridColumns, cx+ring*gridColumns, cy-ring, cy+ring
		if ring > 0 && x0 >= bx0+gridColumns && x1 <= bx1-gridColumns && y0 > by0 && y1 < by1 {
			break // the cells within the bound all lie in the rings scanned before this one
		}
		for y := max(by0, y0); y <= min(by1, y1); y++ {
			if y == by0 || y == by1 { // the ring's top or bottom row: all of it
				g.scan(y, y, max(bx0, x0), min(bx1, x1), qx, qy, nd, s, r)
				continue
			}
			g.scan(y, y, max(bx0, x0), min(bx0+gridColumns-1, x1), qx, qy, nd, s, r)
			g.scan(y, y, max(bx1-gridColumns+1, x0), min(bx1, x1), qx, qy, nd, s, r)
		}
	}
	s.cut()
	slices.SortFunc(s.found, func(a, b neighbour) int { return b2i(b.before(a)) - b2i(a.before(b)) })
	for i, f := range s.found {
		nd[i], nb[i] = f.d, int32(f.t)
	}
	return len(s.found)
}

// countWithin counts the points other than the one at position jq that fit r: in each row
// of cells, the cells whose every point fits (the row's farthest edge and the columns'
// within r's reach by a margin) by the row's counts, the others point by point (a run of
// coincident points at once). So a point whose neighbours within MaxDist are too many to
// list costs about the rows within it and the points of two cells a row to count them.
func (g *gridSearch) countWithin(jq int, r *reach) int {
	qx, qy := g.px[jq], g.py[jq]
	rad := r.dist + g.margin
	x0, x1 := g.col(qx-rad), g.col(qx+rad)
	y0, y1 := g.row(qy-min(rad, r.dy+g.margin)), g.row(qy+min(rad, r.dy+g.margin))
	count := -1 // the query itself fits
	for y := y0; y <= y1; y++ {
		row := y * g.nx
		// The cells in0..in1 lie wholly within hw of qx across, and the row within far of
		// qy: every point in them is within hw² + far² < r's reach, and fits.
		far := max(math.Abs(g.minY+float64(y)*g.ch-qy), math.Abs(g.minY+float64(y+1)*g.ch-qy)) + g.margin
		in0, in1 := x1+1, x1
		if left := r.maxD2/r.f2*(1-1e-12) - far*far; left > 0 && far*far*r.f2 < r.maxDY2*(1-1e-12) {
			hw := math.Sqrt(left) - g.margin
			in0, in1 = max(g.col(qx-hw)+1, x0), min(g.col(qx+hw)-1, x1)
		}
		if in0 > in1 {
			in0, in1 = x1+1, x1
		} else {
			count += int(g.cellStart[row+in1+1] - g.cellStart[row+in0])
		}
		for _, span := range [2][2]int{{x0, in0 - 1}, {in1 + 1, x1}} {
			for j, end := g.cellStart[row+span[0]], g.cellStart[row+span[1]+1]; j < end; j++ {
				if d := dist2(qx, qy, g.px[j], g.py[j]); r.fits(d, qy-g.py[j]) {
					count += int(g.runEnd[j] - j)
				}
				j = g.runEnd[j] - 1
			}
		}
	}
	return count
}

// neighbour is a point found by queryWithin: its squared distance and tie key.
type neighbour struct {
	d float64
	t int64
}

// before reports whether a comes before b: nearer, or as near with a lower rank.
func (a neighbour) before(b neighbour) bool { return before(a.d, a.t, b.d, b.t) }

// cut keeps queryWithin's first k points found, in no order, and makes the k-th the bound;
// it leaves fewer as they are.
func (s *queryScratch) cut() {
	if len(s.found) <= s.k {
		return
	}
	selectFirst(s.found, s.k)
	s.found = s.found[:s.k]
	s.bound = s.found[0]
	for _, f := range s.found[1:] {
		if s.bound.before(f) {
			s.bound = f
		}
	}
}

// selectFirst moves the first k of ns (in neighbour order) to ns[:k], in O(len(ns)) on
// average (Hoare's selection, the pivot a median of three).
func selectFirst(ns []neighbour, k int) {
	lo, hi := 0, len(ns)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if ns[mid].before(ns[lo]) {
			ns[mid], ns[lo] = ns[lo], ns[mid]
		}
		if ns[hi].before(ns[lo]) {
			ns[hi], ns[lo] = ns[lo], ns[hi]
		}
		if ns[hi].before(ns[mid]) {
			ns[hi], ns[mid] = ns[mid], ns[hi]
		}
		p := ns[mid]
		i, j := lo, hi
		for i <= j {
			for ns[i].before(p) {
				i++
			}
			for p.before(ns[j]) {
				j--
			}
			if i <= j {
				ns[i], ns[j] = ns[j], ns[i]
				i++
				j--
			}
		}
		// ns[lo..j] ≤ p ≤ ns[i..hi], and the elements between equal p.
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// scan offers the points of rows y0..y1, cells x0..x1 of each, to the query at (qx, qy):
// for a k-nearest query (r nil), to its full list nd, s.list, each inside the list's bound;
// for queryWithin, to s.found, each that fits r and comes before s.bound; a run of
// coincident points whole: its members not offered yet, in rank order, up to the first
// that does not fit. A row without heavy cells is one run of positions; in one with, a
// heavy cell is scanned only within the bound along its axis (by bisection: it is sorted
// along it). One call for all the rows of a k-nearest query: a call a row cost 3 % of
// Update.
func (g *gridSearch) scan(y0, y1, x0, x1 int, qx, qy float64, nd []float64, s *queryScratch, r *reach) {
	k, offered, px, py := len(nd), &s.offered, g.px, g.py
	seen, stamp, evals := offered.at, offered.stamp, 0
	for y := y0; y <= y1 && x0 <= x1; y++ {
		for c, last := y*g.nx+x0, y*g.nx+x1; c <= last; c++ {
			j, end := g.cellStart[c], g.cellStart[c+1]
			switch {
			case !g.heavyRow[y]:
				end, c = g.cellStart[last+1], last // the whole row at once
			case end-j > heavyCell:
				j, end = g.narrow(c, qx, qy, nd, s, r)
			}
			evals += int(end - j)
			if r == nil { // a k-nearest query: the list is full
				td := nd[k-1]
				for ; j < end; j++ {
					d := dist2(qx, qy, px[j], py[j])
					// Without branches: whether a point is inside the bound is a coin toss,
					// while one inside that is not yet in the list is rare.
					if b2i(d <= td)&b2i(seen[j] != stamp) != 0 {
						_, run := g.offerRun(j, d, nd, s.list, k, offered)
						evals -= int(run - j - 1) // the rest of the run: no distance computed
						j, td = run-1, nd[k-1]
					}
				}
				continue
			}
			evals -= g.offerFitting(j, end, qx, qy, s, r)
		}
	}
	s.evals += evals
}

// offerFitting is scan's loop over positions j..end-1 for queryWithin; it returns how
// many of them it skipped, the rest of a run, without computing their distance.
func (g *gridSearch) offerFitting(j, end int32, qx, qy float64, s *queryScratch, r *reach) (skipped int) {
	offered, px, py := &s.offered, g.px, g.py
	for ; j < end; j++ {
		d := dist2(qx, qy, px[j], py[j])
		if d <= s.bound.d && r.fits(d, qy-py[j]) && !offered.has(j) {
			first, run := j, g.runEnd[j]
			for ; j < run; j++ {
				if offered.has(j) {
					continue
				}
				t := tie(g.prank[j], j)
				if !before(d, t, s.bound.d, s.bound.t) {
					break
				}
				s.found = append(s.found, neighbour{d, t})
				offered.add(j)
				if len(s.found) == 2*s.k {
					s.cut()
				}
			}
			skipped += int(run - first - 1)
			j = run - 1
		}
	}
	return skipped
}

// narrow returns the positions of heavy cell c within the query's bound along the cell's
// axis: the list's k-th for a k-nearest query; for queryWithin, its bound or r's reach,
// once the points next to the query's place along the axis have made a bound where it had
// none.
func (g *gridSearch) narrow(c int, qx, qy float64, nd []float64, s *queryScratch, r *reach) (int32, int32) {
	if r == nil {
		return g.within(c, qx, qy, math.Sqrt(nd[len(nd)-1])+g.margin)
	}
	if s.bound.d == math.Inf(1) {
		// No bound yet: first the k points on each side of the query's place along the cell,
		// whose k-th nearest bounds the window.
		j, end := g.cellStart[c], g.cellStart[c+1]
		at, _ := g.within(c, qx, qy, 0)
		k := int32(s.k)
		a, b := max(j, at-k), min(end, at+k)
		s.evals += int(b-a) - g.offerFitting(a, b, qx, qy, s, r)
		s.cut()
	}
	return g.within(c, qx, qy, min(math.Sqrt(s.bound.d), r.dist, r.dy)+g.margin)
}

// within returns the positions of heavy cell c whose coordinate along the cell's order (x
// or y) lies within rad of the query's.
func (g *gridSearch) within(c int, qx, qy, rad float64) (int32, int32) {
	j, end := g.cellStart[c], g.cellStart[c+1]
	u, q := g.py[j:end], qy
	if g.byX[c] {
		u, q = g.px[j:end], qx
	}
	lo, _ := slices.BinarySearch(u, q-rad)
	hi, _ := slices.BinarySearchFunc(u[lo:], q+rad, func(v, t float64) int { return 2*b2i(v > t) - 1 }) // the first past
	return j + int32(lo), j + int32(lo+hi)
}

// offerRun offers to the list nd[:m], list[:m] the points of the run of coincident points
// at position j on, at squared distance d from the query, that are not offered yet: in rank
// order, until one does not fit a full list (does not come before its last). Those after it
// in the run, as far and of higher ranks, would not fit either. It marks the points it puts
// in the list as offered, and returns the list's new length and the end of the run.
func (g *gridSearch) offerRun(j int32, d float64, nd []float64, list []int64, m int, offered *stampSet) (int, int32) {
	k, end := len(nd), g.runEnd[j]
	for ; j < end; j++ {
		if offered.has(j) {
			continue
		}
		t := tie(g.prank[j], j)
		if m == k && !before(d, t, nd[k-1], list[k-1]) {
			break
		}
		m = insert(nd, list, m, d, t)
		offered.add(j)
	}
	return m, end
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

// offerBlock offers to the list nd[:m], list[:m] points near the one at position jq, so
// that it holds k, and returns its new length, k. Any k points bound the k-th nearest; near
// ones bound it tightly. In a heavy cell, those next to jq in the cell's order (by y);
// else, or if some of those were offered already, the points of the smallest square block
// of cells around jq that holds k others (those not offered yet, a run of coincident points
// as offerRun does).
func (g *gridSearch) offerBlock(jq int, nd []float64, list []int64, m int, s *queryScratch) int {
	k, offered := len(nd), &s.offered
	qx, qy := g.px[jq], g.py[jq]
	cx, cy := g.col(qx), g.row(qy)
	if c := cy*g.nx + cx; g.cellStart[c+1]-g.cellStart[c] > int32(max(k, heavyCell)) {
		lo := min(max(int32(jq-k/2), g.cellStart[c]), g.cellStart[c+1]-int32(k)-1)
		for j := lo; j <= lo+int32(k); j++ {
			if !offered.has(j) {
				m = insert(nd, list, m, dist2(qx, qy, g.px[j], g.py[j]), tie(g.prank[j], j))
				offered.add(j)
				s.evals++
			}
		}
		if m == k {
			return m
		}
	}
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
					var run int32
					m, run = g.offerRun(j, dist2(qx, qy, g.px[j], g.py[j]), nd, list, m, offered)
					s.evals++
					j = run - 1
				}
			}
		}
		return m
	}
}
