package knn

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"trackink/internal/field"
	"trackink/scene"
)

// The link graphs [Options.Graph] selects.
const (
	GraphKNN      = "knn"      // each point to its K nearest (Graph's own algorithm above)
	GraphRadius   = "radius"   // every pair within MaxDist
	GraphDelaunay = "delaunay" // the Delaunay triangulation's edges
	GraphMST      = "mst"      // the Euclidean minimum spanning tree
)

// Graphs are the link graphs, the default first.
var Graphs = []string{GraphKNN, GraphRadius, GraphDelaunay, GraphMST}

// validateGraph checks Options.Graph and what it needs of the other options.
func (o Options) validateGraph() error {
	switch {
	case o.Graph != "" && !slices.Contains(Graphs, o.Graph):
		return field.Errorf("knn.Options.Graph", o.Graph, "want one of %s", strings.Join(Graphs, ", "))
	case o.Graph == GraphRadius && o.MaxDist == 0:
		return field.Errorf("knn.Options.MaxDist", o.MaxDist, "the radius graph links every pair within it: give a positive number of pixels")
	}
	return nil
}

// OnDevice reports whether the GPU backend can build these links on the device: the kNN
// graph only (package kernels/gpu); the host builds the other graphs, and the backend draws
// them as it draws any line.
func (o Options) OnDevice() bool { return o.Graph == "" || o.Graph == GraphKNN }

// geoGraph builds the radius, Delaunay and minimum-spanning-tree graphs for [Graph.Update],
// with the caps and the hysteresis of [Options]:
//
//  1. the points, ordered by track id (ranks), are matched with the previous frame's;
//  2. the graph's candidate links: for radius, every pair within MaxDist (a grid of
//     MaxDist-sized cells), or where there are more than the cap on links per point allows,
//     the links that cap keeps, found without listing them all (radiusPairs); for Delaunay, the triangulation's edges (delaunay.go), where a
//     link drawn in the previous frame that a flip has replaced is flipped back while it is
//     within (1+h) of being Delaunay (flipBack, mst.go); for the tree, the triangulation's edges and
//     the links drawn in the previous frame, Kruskal's algorithm taking a drawn link as
//     1/(1+h) times its length (mst.go);
//  3. the caps, as for kNN: MaxDist and MaxDY with room to spare (×(1+h)) unless drawn in the
//     previous frame, and MaxDegree, a link kept when among the first MaxDegree at both ends
//     in (length, track id) order, drawn ones counting 1/(1+h) times as long; the cap on
//     links per point is that rule too, where it is the smaller; then the cap on links per
//     frame keeps the frame's shortest links, in the same order.
//
// Every step is exact (predicates.go) and breaks ties by track id, so the links depend on
// the points and the previous frame's links only, not on the order of the input.
//
// Each step costs O(n log n) or O(links), and there are O(n) Delaunay and tree candidates
// and at most n·(the cap on links per point + 1)/2 radius candidates: so a frame costs
// O(n·cap) time and memory, whatever MaxDist.
type geoGraph struct {
	opts          Options
	f2            float64 // (1+h)²
	maxD2, maxDY2 float64 // the caps as squares, +∞ when off

	perm   []int32
	ids    []int
	xs, ys []float64
	toPrev []int32 // rank → the previous frame's rank of its track, −1 if none
	toCur  []int32 // the previous frame's rank → this frame's, −1 if gone

	dt   delaunay
	cand [][2]int32 // candidate links (lower rank, higher rank)
	keep []bool
	key  []float64 // MaxDegree's and the tree's ranking key: d², ÷(1+h)² if drawn

	// The previous frame's links, by its ranks: prevIDs, and the ranks linked to rank r,
	// prevAdj[prevStart[r]:prevStart[r+1]].
	prevIDs   []int
	prevStart []int32
	prevAdj   []int32

	adjStart []int32 // the current candidates by rank, both ways: (other rank, candidate)
	adj      [][2]int32
	count    []int32
	uf       []int32     // the tree's union-find
	byKey    []keyedLink // the tree's candidates in Kruskal's order
	flips    []flip      // flipBack's candidates
	flipped  [][2]int32  // flipBack's links

	cells   []int32 // allPairs's grid
	cellPts []int32
	// pairBudget bounds the pairs allPairs compares, in units of n·(the cap on links per
	// point + 1)/2, what the cap allows (tests set 0 to make radiusPairs search).
	pairBudget int

	// radius's search: the grid of the kNN search, its layout, one query's space; a
	// point's candidates (near), the drawn links and the listed points at it (seen,
	// listed); by rank, the degree-th candidate (top).
	grid         gridSearch
	px, py       []float64
	prank, posOf []int32
	query        queryScratch
	nd           []float64
	nb           []int32
	near         []keyedLink
	seen, listed stampSet
	top          []keyedLink

	capped Capped
	out    []Edge
}

func newGeoGraph(o Options) *geoGraph {
	h := o.Hysteresis
	g := &geoGraph{opts: o, f2: (1 + h) * (1 + h), maxD2: math.Inf(1), maxDY2: math.Inf(1), pairBudget: 1}
	if o.MaxDist > 0 {
		g.maxD2 = o.MaxDist * o.MaxDist
	}
	if o.MaxDY > 0 {
		g.maxDY2 = o.MaxDY * o.MaxDY
	}
	return g
}

func (g *geoGraph) update(pts []scene.Point) ([]Edge, error) {
	var err error
	if g.perm, err = Order(pts, g.perm); err != nil {
		return nil, err
	}
	n := len(pts)
	g.ids, g.xs, g.ys = grow(g.ids, n), grow(g.xs, n), grow(g.ys, n)
	for r, i := range g.perm {
		p := &pts[i]
		g.ids[r], g.xs[r], g.ys[r] = p.ID, float64(p.X), float64(p.Y)
	}
	g.matchPrevious()
	g.cand = g.cand[:0]
	radiusDropped := 0 // by the cap on links per point, which radiusPairs applies
	if n >= 2 {
		switch g.opts.Graph {
		case GraphRadius:
			radiusDropped = g.radiusPairs()
		case GraphDelaunay:
			g.dt.triangulate(g.xs, g.ys)
			if g.opts.Hysteresis > 0 {
				g.flipBack()
			}
			g.dt.collectEdges()
			g.cand = append(append(g.cand, g.dt.edges...), g.flipped...)
		case GraphMST:
			g.dt.triangulate(g.xs, g.ys)
			g.dt.collectEdges()
			g.spanningTree()
		}
	}
	g.caps(radiusDropped)
	g.emit()
	return g.out, nil
}

// Capped counts the links the caps on links per point and per frame dropped over a Graph's
// frames so far ([Graph.Capped]); zero while neither has dropped one.
type Capped struct {
	// Frames is the number of frames in which a cap dropped links.
	Frames int
	// PerPoint is the number of links the cap on links per point dropped (where MaxDegree,
	// off or larger, would have kept them).
	PerPoint int
	// PerFrame is the number of links the cap on links per frame dropped.
	PerFrame int
}

// add counts one frame's cuts.
func (c *Capped) add(perPoint, perFrame int) {
	if perPoint+perFrame > 0 {
		c.Frames++
		c.PerPoint += perPoint
		c.PerFrame += perFrame
	}
}

// degree returns the cap of MaxDegree's rule for the graphs other than kNN: MaxDegree, or
// the cap on links per point where MaxDegree is off or larger (byPoint: then what the rule
// drops is the cap's doing, which Capped counts).
func (o Options) degree() (m int, byPoint bool) {
	if p := o.linksPerPoint(); o.MaxDegree == 0 || o.MaxDegree > p {
		return p, true
	}
	return o.MaxDegree, false
}

// matchPrevious maps each rank to the previous frame's rank of its track and back, by merging
// the two id-sorted lists.
func (g *geoGraph) matchPrevious() {
	g.toPrev, g.toCur = grow(g.toPrev, len(g.ids)), grow(g.toCur, len(g.prevIDs))
	for pr := range g.toCur {
		g.toCur[pr] = -1
	}
	pr := 0
	for r, id := range g.ids {
		for pr < len(g.prevIDs) && g.prevIDs[pr] < id {
			pr++
		}
		g.toPrev[r] = -1
		if pr < len(g.prevIDs) && g.prevIDs[pr] == id {
			g.toPrev[r], g.toCur[pr] = int32(pr), int32(r)
		}
	}
}

// drawn reports whether the link between ranks a and b was drawn in the previous frame
// (always false without hysteresis, which is all it is for).
func (g *geoGraph) drawn(a, b int32) bool {
	pa, pb := g.toPrev[a], g.toPrev[b]
	if g.opts.Hysteresis == 0 || pa < 0 || pb < 0 {
		return false
	}
	links := g.prevAdj[g.prevStart[pa]:g.prevStart[pa+1]]
	if len(links) <= 16 { // the usual few: a scan is faster
		return slices.Contains(links, pb)
	}
	_, found := slices.BinarySearch(links, pb) // emit sorted them; up to the cap on links per point
	return found
}

// link returns the squared length of the link between ranks a and b, its vertical extent
// squared, and its ranking key.
func (g *geoGraph) link(a, b int32) (d2, dy2, key float64, wasDrawn bool) {
	d2 = dist2(g.xs[a], g.ys[a], g.xs[b], g.ys[b])
	dy := g.ys[a] - g.ys[b]
	wasDrawn = g.drawn(a, b)
	key = d2
	if wasDrawn {
		key = d2 / g.f2
	}
	return d2, float64(dy * dy), key, wasDrawn
}

// radiusPairs lists the radius graph's candidates: every pair within MaxDist where there
// are few (allPairs), for caps to keep under its rules; else, where there are more than the
// cap of MaxDegree's rule allows (degree: MaxDegree, or the cap on links per point), the
// links that rule keeps, without listing every pair (3 000 points within 10⁹ px: 4.5 million
// pairs, 1.5 GB). Then a point's candidates are its nearest points that a new link may join
// (within MaxDist and MaxDY with room to spare: reach), found by the kNN grid's search, as
// many as the rule keeps and one more; and its links drawn in the previous frame that fit
// the caps without the room. That is enough: a new link the rule keeps is among the first
// `degree` at both ends, so among each end's nearest that fit; and at a point with more
// candidates than `degree`, its `degree`-th candidate is its `degree`-th link among all
// pairs (the nearest and the drawn come first). So a link is kept when it comes no later
// than the `degree`-th candidate at both ends.
//
// Two passes over the points: the first finds each one's `degree`-th candidate, the second
// searches again and keeps the links; the kept links are the candidates caps goes on with.
// A frame costs O(n·degree) time and O(n) memory beside the kept links. It returns how many
// links the rule dropped there: the pairs that fit, counted at each point whose search
// stopped at its cap by whole cells where they all fit (countWithin), less those kept.
func (g *geoGraph) radiusPairs() (dropped int) {
	n := len(g.xs)
	if g.allPairs(g.pairBudget * n * (g.opts.linksPerPoint() + 1) / 2) {
		return 0
	}
	d, _ := g.opts.degree()
	g.cand = g.cand[:0]
	k := min(d+1, n-1)
	// Cells sized for the links a point may have: k, or fewer where MaxDist reaches fewer
	// (as many as a uniform spread of the points puts within it).
	minX, maxX, minY, maxY := extent(g.xs, g.ys)
	layoutK := k
	if within := float64(n) * math.Pi * g.maxD2 / ((maxX - minX) * (maxY - minY)); within < float64(k) {
		layoutK = max(1, int(within))
	}
	g.px, g.py, g.prank, g.posOf = grow(g.px, n), grow(g.py, n), grow(g.prank, n), grow(g.posOf, n)
	g.grid.layout(g.xs, g.ys, layoutK, g.px, g.py, g.prank, g.posOf)
	g.query.resize(n, k)
	g.nd, g.nb = grow(g.nd, k), grow(g.nb, k)
	g.seen.resize(n)
	g.listed.resize(n)
	r := reach{f2: g.f2, maxD2: g.maxD2, maxDY2: g.maxDY2, dist: g.opts.MaxDist, dy: math.Inf(1)}
	if g.opts.MaxDY > 0 {
		r.dy = g.opts.MaxDY
	}
	g.top = grow(g.top, n)
	pairs := 0 // twice the pairs that fit, and the drawn links that fit without the room
	for j := range n {
		m, drawnOnly := g.candidates(j, &r)
		if m == k {
			m = g.grid.countWithin(j, &r)
		}
		pairs += m + drawnOnly
		g.top[g.prank[j]] = keyedLink{key: math.Inf(1), lo: math.MaxInt32, hi: math.MaxInt32}
		if len(g.near) > d {
			g.top[g.prank[j]] = g.near[d-1]
		}
	}
	for j := range n {
		a := g.prank[j]
		g.candidates(j, &r)
		for _, c := range g.near {
			if b := c.hi; a < b && !linkBefore(g.top[a], c) && !linkBefore(g.top[b], keyedLink{key: c.key, hi: a}) {
				g.cand = append(g.cand, [2]int32{a, b})
			}
		}
	}
	return pairs/2 - len(g.cand)
}

// allPairs lists every pair within MaxDist: the points are counted into square cells of
// side MaxDist, and each is compared with the points of its own cell and the next ones. It
// gives up, and reports false, past budget pairs compared: a frame with more pairs than
// that has points with more than the cap on links per point, and radiusPairs searches
// without listing them all. (Where the cap bites nowhere, as usual, that is the faster way:
// 0.2 ms a frame at 1 000 points, where the search takes 0.75.)
func (g *geoGraph) allPairs(budget int) bool {
	xs, ys, side := g.xs, g.ys, g.opts.MaxDist
	minX, maxX, minY, maxY := extent(xs, ys)
	// Cells no smaller than the frame's n-th part, so that a tiny MaxDist over a large
	// extent does not make more cells than points: exactness only needs side ≥ MaxDist.
	n := len(xs)
	side = max(side, math.Sqrt((maxX-minX)*(maxY-minY)/float64(n)))
	cols := int(min((maxX-minX)/side, float64(n))) + 1
	rows := int(min((maxY-minY)/side, float64(n))) + 1
	cellOf := func(r int) int { // clamped as floats: a huge quotient would not convert
		c := int(min((xs[r]-minX)/side, float64(cols-1)))
		w := int(min((ys[r]-minY)/side, float64(rows-1)))
		return w*cols + c
	}
	g.cells = grow(g.cells, rows*cols+1)
	clear(g.cells)
	for r := range n {
		g.cells[cellOf(r)+1]++
	}
	for c := range rows * cols {
		g.cells[c+1] += g.cells[c]
	}
	g.cellPts, g.count = grow(g.cellPts, n), grow(g.count, rows*cols)
	copy(g.count, g.cells)
	for r := range n {
		c := cellOf(r)
		g.cellPts[g.count[c]] = int32(r)
		g.count[c]++
	}
	// A pair a, b within MaxDist lies in the same or in neighbouring cells (the cell
	// arithmetic rounds monotonically, and a cell is at least MaxDist wide): each cell is
	// paired with itself and the four neighbours after it, so each pair is met once.
	for w := range rows {
		for c := range cols {
			in := g.cellPts[g.cells[w*cols+c]:g.cells[w*cols+c+1]]
			for k, a := range in {
				if budget = g.pairsWithin(a, in[k+1:], budget); budget < 0 {
					return false
				}
			}
			for _, nb := range [...][2]int{{0, 1}, {1, -1}, {1, 0}, {1, 1}} {
				w2, c2 := w+nb[0], c+nb[1]
				if w2 >= rows || c2 < 0 || c2 >= cols {
					continue
				}
				other := g.cellPts[g.cells[w2*cols+c2]:g.cells[w2*cols+c2+1]]
				for _, a := range in {
					if budget = g.pairsWithin(a, other, budget); budget < 0 {
						return false
					}
				}
			}
		}
	}
	return true
}

// pairsWithin adds the links from a to the points of others within MaxDist, and returns
// budget less the pairs compared.
func (g *geoGraph) pairsWithin(a int32, others []int32, budget int) int {
	xa, ya := g.xs[a], g.ys[a]
	for _, b := range others {
		if dist2(xa, ya, g.xs[b], g.ys[b]) <= g.maxD2 {
			g.cand = append(g.cand, [2]int32{min(a, b), max(a, b)})
		}
	}
	return budget - len(others)
}

// candidates lists in near the radius graph's candidates at the point of position j (rank
// a), in (key, rank) order as keyedLinks {key, hi: the other end's rank, drawn}: its search's
// nearest that fit r (a new link's caps), and its links drawn in the previous frame that fit
// the caps without the room to spare. It returns how many the search found, and how many
// drawn links fit only without the room.
func (g *geoGraph) candidates(j int, r *reach) (found, drawnOnly int) {
	a := g.prank[j]
	found = g.grid.queryWithin(j, &g.query, g.nd, g.nb, r)
	g.seen.next() // the drawn links at a
	g.listed.next()
	pa := g.toPrev[a]
	drawn := g.opts.Hysteresis > 0 && pa >= 0
	if drawn {
		for _, po := range g.prevAdj[g.prevStart[pa]:g.prevStart[pa+1]] {
			if b := g.toCur[po]; b >= 0 {
				g.seen.add(b)
			}
		}
	}
	g.near = g.near[:0]
	for i, p := range g.nb[:found] {
		b := g.prank[p]
		g.listed.add(b)
		c := keyedLink{key: g.nd[i], hi: b, drawn: g.seen.has(b)}
		if c.drawn {
			c.key /= g.f2
		}
		g.near = append(g.near, c)
	}
	if drawn {
		for _, po := range g.prevAdj[g.prevStart[pa]:g.prevStart[pa+1]] {
			b := g.toCur[po]
			if b < 0 || g.listed.has(b) {
				continue
			}
			if d2, dy2, key, _ := g.link(a, b); d2 <= g.maxD2 && dy2 <= g.maxDY2 {
				g.near = append(g.near, keyedLink{key: key, hi: b, drawn: true})
				drawnOnly += b2i(!(d2*g.f2 <= g.maxD2 && dy2*g.f2 <= g.maxDY2))
			}
		}
	}
	slices.SortFunc(g.near, compareLinks)
	return found, drawnOnly
}

// caps keeps the candidates that pass MaxDist and MaxDY (with room to spare unless drawn),
// MaxDegree's rule (with the cap on links per point) and the cap on links per frame, and
// counts what the caps dropped, with radiusDropped (radiusPairs's).
func (g *geoGraph) caps(radiusDropped int) {
	w := 0
	g.key = g.key[:0]
	for _, e := range g.cand {
		d2, dy2, key, wasDrawn := g.link(e[0], e[1])
		m := g.f2
		if wasDrawn {
			m = 1
		}
		if d2*m <= g.maxD2 && dy2*m <= g.maxDY2 {
			g.cand[w] = e
			g.key = append(g.key, key)
			w++
		}
	}
	g.cand = g.cand[:w]
	perPoint := g.maxDegree()
	if _, byPoint := g.opts.degree(); byPoint {
		perPoint += radiusDropped
	}
	perFrame := g.frameCap()
	g.capped.add(perPoint, perFrame)
}

// adjacency lists the candidates at each rank: (other rank, candidate index) in
// adj[adjStart[r]:adjStart[r+1]].
func (g *geoGraph) adjacency() {
	n := len(g.ids)
	g.adjStart = grow(g.adjStart, n+1)
	clear(g.adjStart)
	for _, e := range g.cand {
		g.adjStart[e[0]+1]++
		g.adjStart[e[1]+1]++
	}
	for r := range n {
		g.adjStart[r+1] += g.adjStart[r]
	}
	g.count = grow(g.count, n)
	copy(g.count, g.adjStart)
	g.adj = grow(g.adj, 2*len(g.cand))
	for i, e := range g.cand {
		g.adj[g.count[e[0]]] = [2]int32{e[1], int32(i)}
		g.count[e[0]]++
		g.adj[g.count[e[1]]] = [2]int32{e[0], int32(i)}
		g.count[e[1]]++
	}
}

// maxDegree keeps the candidates among the first `degree` (MaxDegree, or the cap on links
// per point) at both ends in (key, other end's rank) order, and returns how many it dropped
// by the cap on links per point.
func (g *geoGraph) maxDegree() (perPoint int) {
	m, byPoint := g.opts.degree()
	n := len(g.ids)
	if min(n-1, len(g.cand)) <= m || byPoint && g.mostLinks() <= m {
		return 0 // no point has more (the cap on links per point seldom bites: a count first)
	}
	g.adjacency()
	g.keep = grow(g.keep, len(g.cand))
	for i := range g.keep {
		g.keep[i] = true
	}
	for r := range len(g.ids) {
		links := g.adj[g.adjStart[r]:g.adjStart[r+1]]
		if len(links) <= m {
			continue
		}
		slices.SortFunc(links, func(a, b [2]int32) int {
			if ka, kb := g.key[a[1]], g.key[b[1]]; ka != kb {
				return cmp.Compare(ka, kb)
			}
			return cmp.Compare(a[0], b[0])
		})
		for _, l := range links[m:] {
			g.keep[l[1]] = false
		}
	}
	w := 0
	for i, e := range g.cand {
		if g.keep[i] {
			g.cand[w], g.key[w] = e, g.key[i]
			w++
		}
	}
	if byPoint {
		perPoint = len(g.cand) - w
	}
	g.cand, g.key = g.cand[:w], g.key[:w]
	return perPoint
}

// mostLinks returns the most candidates at one point.
func (g *geoGraph) mostLinks() int {
	g.count = grow(g.count, len(g.ids))
	clear(g.count)
	most := int32(0)
	for _, e := range g.cand {
		g.count[e[0]]++
		g.count[e[1]]++
		most = max(most, g.count[e[0]], g.count[e[1]])
	}
	return int(most)
}

// frameCap keeps the frame's first MaxLinks candidates in (key, lower rank, higher rank)
// order, and returns how many it dropped.
func (g *geoGraph) frameCap() int {
	m := g.opts.linksPerFrame()
	if len(g.cand) <= m {
		return 0
	}
	g.byKey = g.byKey[:0]
	for i, e := range g.cand {
		g.byKey = append(g.byKey, keyedLink{key: g.key[i], lo: e[0], hi: e[1]})
	}
	sortLinks(g.byKey)
	for i, l := range g.byKey[:m] {
		g.cand[i], g.key[i] = [2]int32{l.lo, l.hi}, l.key
	}
	dropped := len(g.cand) - m
	g.cand, g.key = g.cand[:m], g.key[:m]
	return dropped
}

// sortLinks sorts links by (key, lower rank, higher rank): the order in which the cap on
// links per frame keeps them.
func sortLinks(ls []keyedLink) { slices.SortFunc(ls, compareLinks) }

func compareLinks(a, b keyedLink) int {
	return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.lo, b.lo), cmp.Compare(a.hi, b.hi))
}

// linkBefore reports whether a comes before b in sortLinks's order.
func linkBefore(a, b keyedLink) bool { return compareLinks(a, b) < 0 }

// emit writes the kept links as edges sorted by track ids, and keeps them, by rank, for the
// next frame's hysteresis.
func (g *geoGraph) emit() {
	n := len(g.ids)
	// Each rank's links (a counting sort), sorted: the edge order.
	g.adjacency()
	g.prevStart = append(g.prevStart[:0], g.adjStart...)
	g.prevAdj = grow(g.prevAdj, len(g.adj))
	for i, l := range g.adj {
		g.prevAdj[i] = l[0]
	}
	g.out = g.out[:0]
	for r := range n {
		links := g.prevAdj[g.prevStart[r]:g.prevStart[r+1]]
		slices.Sort(links)
		for _, o := range links {
			if o > int32(r) {
				g.out = append(g.out, Edge{A: g.perm[r], B: g.perm[o]})
			}
		}
	}
	g.prevIDs = append(g.prevIDs[:0], g.ids...)
}
