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
//     MaxDist-sized cells); for Delaunay, the triangulation's edges (delaunay.go), where a
//     link drawn in the previous frame that a flip has replaced is flipped back while it is
//     within (1+h) of being Delaunay (flipBack, mst.go); for the tree, the triangulation's edges and
//     the links drawn in the previous frame, Kruskal's algorithm taking a drawn link as
//     1/(1+h) times its length (mst.go);
//  3. the caps, as for kNN: MaxDist and MaxDY with room to spare (×(1+h)) unless drawn in the
//     previous frame, and MaxDegree, a link kept when among the first MaxDegree at both ends
//     in (length, track id) order, drawn ones counting 1/(1+h) times as long.
//
// Every step is exact (predicates.go) and breaks ties by track id, so the links depend on
// the points and the previous frame's links only, not on the order of the input.
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
	cells    []int32     // radius's grid
	cellPts  []int32
	out      []Edge
}

func newGeoGraph(o Options) *geoGraph {
	h := o.Hysteresis
	g := &geoGraph{opts: o, f2: (1 + h) * (1 + h), maxD2: math.Inf(1), maxDY2: math.Inf(1)}
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
	if n >= 2 {
		switch g.opts.Graph {
		case GraphRadius:
			g.radiusPairs()
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
	g.caps()
	g.emit()
	return g.out, nil
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
	return slices.Contains(g.prevAdj[g.prevStart[pa]:g.prevStart[pa+1]], pb)
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

// radiusPairs lists every pair within MaxDist: the points are counted into square cells of
// side MaxDist, and each is compared with the points of its own cell and the next ones.
func (g *geoGraph) radiusPairs() {
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
				g.pairsWithin(a, in[k+1:])
			}
			for _, nb := range [...][2]int{{0, 1}, {1, -1}, {1, 0}, {1, 1}} {
				w2, c2 := w+nb[0], c+nb[1]
				if w2 >= rows || c2 < 0 || c2 >= cols {
					continue
				}
				other := g.cellPts[g.cells[w2*cols+c2]:g.cells[w2*cols+c2+1]]
				for _, a := range in {
					g.pairsWithin(a, other)
				}
			}
		}
	}
}

// pairsWithin adds the links from a to the points of others within MaxDist.
func (g *geoGraph) pairsWithin(a int32, others []int32) {
	xa, ya := g.xs[a], g.ys[a]
	for _, b := range others {
		if dist2(xa, ya, g.xs[b], g.ys[b]) <= g.maxD2 {
			g.cand = append(g.cand, [2]int32{min(a, b), max(a, b)})
		}
	}
}

// caps keeps the candidates that pass MaxDist and MaxDY (with room to spare unless drawn)
// and MaxDegree.
func (g *geoGraph) caps() {
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
	if g.opts.MaxDegree > 0 {
		g.maxDegree()
	}
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

// maxDegree keeps the candidates among the first MaxDegree at both ends in (key, other
// end's rank) order.
func (g *geoGraph) maxDegree() {
	g.adjacency()
	m := g.opts.MaxDegree
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
			g.cand[w] = e
			w++
		}
	}
	g.cand = g.cand[:w]
}

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
