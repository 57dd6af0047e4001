package knn

import (
	"math"
	"slices"
)

// links computes the links of a frame of two points or more, loaded into cur, into g.out.
// Each step after the layout is a loop over positions that writes only the entries of its own
// position (a kernel launch with a thread per point, for the CUDA port), except the counting
// sort of the transposition; those loops run in chunks on the pool (runChunk), shared by
// the goroutines that startFrame chose.
func (g *Graph) links() error {
	c, p := &g.cur, &g.prev
	n, k := len(c.ids), c.k
	c.posOf, g.prank = grow(c.posOf, n), grow(g.prank, n)
	if g.grid != nil {
		g.px, g.py = grow(g.px, n), grow(g.py, n)
		g.grid.layout(g.xs, g.ys, k, g.px, g.py, g.prank, c.posOf)
	} else {
		g.px, g.py = g.xs, g.ys
		for r := range n {
			c.posOf[r], g.prank[r] = int32(r), int32(r)
		}
	}
	g.matchPrevious()

	g.workers = grow(g.workers, g.pool.workers)
	for w := range g.workers {
		s := &g.workers[w]
		if g.grid != nil {
			s.query.resize(n, k)
			s.nd2 = growOwnLines(s.nd2, k)
		}
		s.chosen.resize(n)
		s.drawn.resize(n)
		// A point has at most n−1 links: MaxDegree's scratch needs no more.
		m := min(g.opts.MaxDegree, n)
		s.topKey, s.topRank = growOwnLines(s.topKey, m), growOwnLines(s.topRank, m)
	}

	// The k nearest, and the hysteresis choice.
	c.nbr, c.sel = grow(c.nbr, n*k), grow(c.sel, n*k)
	if g.grid != nil {
		g.grid.seeds = seedLists{}
		if p.k > 0 {
			g.grid.seeds = seedLists{g.fromPrev, g.toCur, p.nbr, p.k}
		}
	} else {
		g.nd2 = grow(g.nd2, n*k)
		if err := g.search.search(g.px, g.py, k, c.nbr, g.nd2); err != nil {
			return err
		}
	}
	g.pool.do(g, stepNeighbours)

	// The transposition: in(j), the points that chose j, by a counting sort.
	g.inCount = grow(g.inCount, n+1)
	clear(g.inCount)
	for _, o := range c.sel {
		g.inCount[o+1]++
	}
	for j := range n {
		g.inCount[j+1] += g.inCount[j]
	}
	c.inStart = grow(c.inStart, n+1)
	copy(c.inStart, g.inCount)
	g.inSrc = grow(g.inSrc, n*k)
	for a := range n {
		for _, o := range c.sel[a*k : (a+1)*k] {
			g.inSrc[g.inCount[o]] = int32(a)
			g.inCount[o]++
		}
	}

	// adj(j) has room for j's k choices and in(j).
	size := n*k + int(c.inStart[n])
	c.adjEnd, c.adjOther, g.adjKey = grow(c.adjEnd, n), grow(c.adjOther, size), grow(g.adjKey, size)
	g.topKey, g.topRank = grow(g.topKey, n), grow(g.topRank, n)
	g.pool.do(g, stepAdjacency)
	g.upCount, g.up = grow(g.upCount, n), grow(g.up, size)
	g.pool.do(g, stepEmit)
	links := 0
	for _, u := range g.upCount {
		links += int(u)
	}
	if m := g.opts.linksPerFrame(); links > m {
		g.frameCap(m)
		g.capped.add(0, links-m)
	}

	// The edges in rank order, and each point's links to higher ranks in rank order (step
	// stepEdges): the offset of each rank's edges.
	g.edgeAt = grow(g.edgeAt, n)
	total := int32(0)
	for r, j := range c.posOf {
		g.edgeAt[r] = total
		total += g.upCount[j]
	}
	g.out = grow(g.out, int(total))
	g.pool.do(g, stepEdges)
	return nil
}

// frameCap keeps the frame's first m links in (key, lower rank, higher rank) order (key:
// MaxDegree's, computed again here, the rare case), at both ends: in adj(j), the links drawn
// for the next frame's hysteresis, and in up. It runs only in a frame with more links, on
// one goroutine: a sort of them all.
func (g *Graph) frameCap(m int) {
	c, drawn := &g.cur, &g.workers[0].drawn
	f := (1 + g.opts.Hysteresis) * (1 + g.opts.Hysteresis)
	linkAt := func(j int, x int) keyedLink {
		other, rj := c.adjOther[x], g.prank[j]
		key, ro := dist2(g.px[j], g.py[j], g.px[other], g.py[other]), g.prank[other]
		if drawn.has(other) {
			key /= f
		}
		return keyedLink{key: key, lo: min(rj, ro), hi: max(rj, ro)}
	}
	g.byKey = g.byKey[:0]
	for j := range len(c.ids) {
		g.drawnAt(j, drawn)
		for x := c.adjStart(j); x < int(c.adjEnd[j]); x++ {
			if l := linkAt(j, x); l.lo == g.prank[j] {
				g.byKey = append(g.byKey, l)
			}
		}
	}
	sortLinks(g.byKey)
	last := g.byKey[m-1]
	for j := range len(c.ids) {
		g.drawnAt(j, drawn)
		start := c.adjStart(j)
		w, u := start, start
		for x := start; x < int(c.adjEnd[j]); x++ {
			l := linkAt(j, x)
			if linkBefore(last, l) {
				continue // after the m-th
			}
			c.adjOther[w] = c.adjOther[x]
			w++
			if l.lo == g.prank[j] {
				g.up[u] = l.hi
				u++
			}
		}
		c.adjEnd[j], g.upCount[j] = int32(w), int32(u-start)
	}
}

// runChunk runs chunk of step on behalf of worker (the index of its scratch space).
func (g *Graph) runChunk(step, chunk, worker int) {
	c, s := &g.cur, &g.workers[worker]
	j0, j1 := g.pool.span(chunk, len(c.ids))
	k := c.k
	switch step {
	case stepNeighbours:
		for j := j0; j < j1; j++ {
			if g.grid != nil {
				g.grid.query(j, &s.query, s.nd2, c.nbr[j*k:(j+1)*k])
				g.choose(j, s.nd2[k-1])
			} else {
				g.choose(j, g.nd2[j*k+k-1])
			}
		}
	case stepAdjacency:
		for j := j0; j < j1; j++ {
			g.adjacency(j, s)
		}
	case stepEmit:
		for j := j0; j < j1; j++ {
			g.emit(j)
		}
	case stepEdges:
		g.edges(j0, j1)
	}
}

// edges writes the edges of the points at positions j0..j1-1 into out, each point's from
// its rank's offset, ordered by counting the ones before (there are usually only a few; a
// point that many others chose, sorted: counting is quadratic, 20 000 coincident points
// took a second). Points are visited by position, so that their links are read in the
// order emit wrote them. (Visited by rank, a point's links were usually a cache miss: 5 %
// slower at 100 000 points.)
func (g *Graph) edges(j0, j1 int) {
	c := &g.cur
	for j := j0; j < j1; j++ {
		r := g.prank[j]
		start := c.adjStart(j)
		up, e, a := g.up[start:start+int(g.upCount[j])], int(g.edgeAt[r]), g.perm[r]
		if len(up) > manyLinks {
			slices.Sort(up)
			for i, o := range up {
				g.out[e+i] = Edge{A: a, B: g.perm[o]}
			}
			continue
		}
		for _, o := range up {
			before := 0
			for _, o2 := range up {
				before += b2i(o2 < o)
			}
			g.out[e+before] = Edge{A: a, B: g.perm[o]}
		}
	}
}

// manyLinks is the number of links at a point past which edges sorts them.
const manyLinks = 32

// choose applies the hysteresis rule of Options.Hysteresis to the point at position j, whose
// k-th nearest neighbour is at squared distance rho2, writing its k chosen neighbours into
// sel. Without hysteresis they are its k nearest.
func (g *Graph) choose(j int, rho2 float64) {
	c, p := &g.cur, &g.prev
	k := c.k
	out, nbr := c.sel[j*k:(j+1)*k], c.nbr[j*k:(j+1)*k]
	m := 0
	if pj := g.fromPrev[j]; g.opts.Hysteresis > 0 && pj >= 0 {
		lim := (1 + g.opts.Hysteresis) * (1 + g.opts.Hysteresis) * rho2
		// At most k are kept: the previous selection holds at most K points, and when
		// k = n−1 < K there are only k other points.
		// Kept if still among the k nearest, or else within the tolerance: one test, since
		// each of the k nearest is within rho2 ≤ lim (lim rounds (1+h)²·rho2, (1+h)² ≥ 1,
		// and rounding is monotonic).
		px, py, toCur := g.px, g.py, g.toCur
		xj, yj := px[j], py[j]
		for _, q := range p.sel[int(pj)*p.k : int(pj+1)*p.k] {
			o := toCur[q]
			if o >= 0 && dist2(xj, yj, px[o], py[o]) <= lim {
				out[m] = o
				m++
			}
		}
	}
	if m == k {
		return // all of the previous selection kept: the usual case
	}
	kept := m
	for _, o := range nbr {
		if m == k {
			break
		}
		if !holds(out[:kept], o) {
			out[m] = o
			m++
		}
	}
}

// adjacency writes adj(j): j's choices, then its choosers that it did not choose (so each
// link once), less the links MaxDist and MaxDY drop, with MaxDegree's ranking key; and j's
// MaxDegree-th link in (key, other end's rank) order; s is the calling goroutine's scratch.
// The loops over links have no data-dependent branches: each entry is written, and kept by
// advancing the write position or not.
func (g *Graph) adjacency(j int, s *workerScratch) {
	c, o := &g.cur, &g.opts
	f := (1 + o.Hysteresis) * (1 + o.Hysteresis)
	// Indexed by whether the link was drawn in the previous frame.
	margin := [2]float64{f, 1} // a new link must fit the caps with room to spare
	keyDiv := [2]float64{1, f} // a drawn one ranks as if 1/(1+h) times as long
	chosen, drawn := &s.chosen, &s.drawn
	chosen.next()
	sel := c.sel[j*c.k : (j+1)*c.k]
	for _, x := range sel {
		chosen.add(x)
	}
	g.drawnAt(j, drawn)
	px, py, adjOther, adjKey, maxD2, maxDY2 := g.px, g.py, c.adjOther, g.adjKey, g.maxD2, g.maxDY2
	xj, yj := px[j], py[j]
	add := func(w int, other int32) int {
		wasDrawn := b2i(drawn.has(other))
		m := margin[wasDrawn]
		d, dy := dist2(xj, yj, px[other], py[other]), yj-py[other]
		adjOther[w], adjKey[w] = other, d/keyDiv[wasDrawn]
		return w + b2i(d*m <= maxD2)&b2i(dy*dy*m <= maxDY2)
	}
	start := c.adjStart(j)
	w := start
	for _, other := range sel {
		w = add(w, other)
	}
	// The choosers that j did not choose, moved to the front of in(j).
	in := g.inSrc[c.inStart[j]:c.inStart[j+1]]
	oneWay := 0
	for _, other := range in {
		in[oneWay] = other
		oneWay += b2i(!chosen.has(other))
	}
	for _, other := range in[:oneWay] {
		w = add(w, other)
	}
	c.adjEnd[j] = int32(w)
	// The MaxDegree-th link in (key, rank) order, by the nearest-neighbour list's insert;
	// links up to it are among the first MaxDegree at j.
	g.topKey[j], g.topRank[j] = math.Inf(1), math.MaxInt32
	if m := o.MaxDegree; m > 0 && w-start > m {
		tk, tr := s.topKey, s.topRank
		for x := start; x < w; x++ {
			insert(tk, tr, min(x-start, m), adjKey[x], g.prank[adjOther[x]])
		}
		g.topKey[j], g.topRank[j] = tk[m-1], tr[m-1]
	}
}

// drawnAt makes drawn the set of the points (by position) that j was linked to in the
// previous frame: empty without hysteresis, which is all it is for.
func (g *Graph) drawnAt(j int, drawn *stampSet) {
	p := &g.prev
	drawn.next()
	if pj := g.fromPrev[j]; g.opts.Hysteresis > 0 && pj >= 0 {
		for _, q := range p.adjOther[p.adjStart(int(pj)):p.adjEnd[pj]] {
			if other := g.toCur[q]; other >= 0 {
				drawn.add(other)
			}
		}
	}
}

// emit keeps in adj(j) the links kept at both ends (a link's key is the same from both, so
// each end's MaxDegree-th link decides), and lists the ranks of those to higher ranks in up
// from adjStart(j) on.
func (g *Graph) emit(j int) {
	c := &g.cur
	adjOther, adjKey, up, prank, topKey, topRank := c.adjOther, g.adjKey, g.up, g.prank, g.topKey, g.topRank
	tk, tr, rj := topKey[j], topRank[j], prank[j]
	start, end := c.adjStart(j), int(c.adjEnd[j])
	w, u := start, start
	for x := start; x < end; x++ {
		other, key := adjOther[x], adjKey[x]
		ro := prank[other]
		kept := b2i(!before(tk, tr, key, ro)) & b2i(!before(topKey[other], topRank[other], key, rj))
		adjOther[w], up[u] = other, ro
		w += kept
		u += kept & b2i(ro > rj)
	}
	c.adjEnd[j] = int32(w)
	g.upCount[j] = int32(u - start)
}

// stampSet is a set of positions that empties in O(1): its members hold the current stamp.
type stampSet struct {
	at    []uint32
	stamp uint32
}

// resize makes room for members 0..n-1. Entries kept from before hold older stamps.
func (s *stampSet) resize(n int) { s.at = growOwnLines(s.at, n) }

// next empties the set.
func (s *stampSet) next() {
	if s.stamp++; s.stamp == 0 { // wrapped: forget every older stamp, past len too (resize reslices)
		clear(s.at[:cap(s.at)])
		s.stamp = 1
	}
}

func (s *stampSet) add(i int32)      { s.at[i] = s.stamp }
func (s *stampSet) has(i int32) bool { return s.at[i] == s.stamp }

// holds reports whether s holds v, looking at every element: for the few neighbours of a point
// that is faster than stopping at the first match, whose place is unpredictable.
func holds(s []int32, v int32) bool {
	found := 0
	for _, x := range s {
		found |= b2i(x == v)
	}
	return found != 0
}
