package knn

import "math"

// The steps of Update that the pool runs in chunks of positions. Each writes only
// its own positions' entries, except the two transposition steps, which split the positions
// into two fixed halves instead.
const (
	stepNeighbours = iota // the grid's query, then the hysteresis choice of each point
	stepCountIn           // per half: how many of its points chose each point
	stepScatterIn         // per half: in(j), the points that chose j
	stepAdjacency         // adj(j): choices and choosers, MaxDist, MaxDY, j's MaxDegree-th link
	stepEmit              // the links kept at both ends; j's links to higher ranks
)

func (g *Graph) runChunk(step, chunk, worker int) {
	c := &g.cur
	j0, j1 := g.pool.span(chunk, len(c.ids))
	switch step {
	case stepNeighbours:
		k := c.k
		for j := j0; j < j1; j++ {
			if g.grid != nil {
				nd := g.nearD2[worker]
				g.grid.query(j, worker, nd, c.nbr[j*k:(j+1)*k])
				g.choose(j, nd[k-1])
			} else {
				g.choose(j, g.nd2[j*k+k-1])
			}
		}
	case stepCountIn:
		g.countIn(chunk)
	case stepScatterIn:
		g.scatterIn(chunk)
	case stepAdjacency:
		for j := j0; j < j1; j++ {
			g.adjacency(j, worker)
		}
	case stepEmit:
		for j := j0; j < j1; j++ {
			g.emit(j)
		}
	}
}

// links computes the links of a frame of two points or more, loaded into cur, into g.out.
func (g *Graph) links() error {
	c, p := &g.cur, &g.prev
	n, k := len(c.ids), c.k
	chunks := g.pool.chunksOf(n)
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

	c.nbr, c.sel = grow(c.nbr, n*k), grow(c.sel, n*k)
	if g.grid != nil {
		for w := range g.nearD2 {
			g.nearD2[w] = grow(g.nearD2[w], k)
		}
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
	g.pool.do(g, stepNeighbours, chunks, n)

	for h := range g.inCount {
		g.inCount[h] = grow(g.inCount[h], n)
	}
	g.pool.do(g, stepCountIn, 2, n)
	// in(j) holds the first half's choosers of j, then the second half's.
	c.inStart = grow(c.inStart, n+1)
	next := int32(0)
	for j := range n {
		a, b := g.inCount[0][j], g.inCount[1][j]
		c.inStart[j] = next
		g.inCount[0][j], g.inCount[1][j] = next, next+a
		next += a + b
	}
	c.inStart[n] = next
	g.inSrc = grow(g.inSrc, n*k)
	g.pool.do(g, stepScatterIn, 2, n)

	// adj(j) has room for j's k choices and in(j).
	size := n*k + int(next)
	c.adjEnd, c.adjOther, g.adjKey = grow(c.adjEnd, n), grow(c.adjOther, size), grow(g.adjKey, size)
	g.topKey, g.topRank = grow(g.topKey, n), grow(g.topRank, n)
	for w := range g.drawn {
		g.chosen[w].resize(n)
		g.drawn[w].resize(n)
		g.workerTopKey[w] = grow(g.workerTopKey[w], g.opts.MaxDegree)
		g.workerTopRank[w] = grow(g.workerTopRank[w], g.opts.MaxDegree)
	}
	g.pool.do(g, stepAdjacency, chunks, n)

	g.upCount, g.up = grow(g.upCount, n), grow(g.up, size)
	g.pool.do(g, stepEmit, chunks, n)
	// The edges in rank order, and each point's links to higher ranks in rank order: an
	// edge's place among them is the number that come before it (there are only a few).
	total := 0
	for _, m := range g.upCount {
		total += int(m)
	}
	g.out = grow(g.out, total)
	e := 0
	for r, j := range c.posOf {
		start := c.adjStart(int(j))
		up := g.up[start : start+int(g.upCount[j])]
		for _, o := range up {
			before := 0
			for _, o2 := range up {
				before += b2i(o2 < o)
			}
			g.out[e+before] = Edge{A: g.perm[r], B: g.perm[o]}
		}
		e += len(up)
	}
	return nil
}

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
		for _, q := range p.sel[int(pj)*p.k : int(pj+1)*p.k] {
			// Kept if still among the k nearest, or else within the tolerance.
			if o := g.toCur[q]; o >= 0 && (holds(nbr, o) || g.dist2(j, o) <= lim) {
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

// dist2 is the squared distance between the points at positions i and j.
func (g *Graph) dist2(i int, j int32) float64 { return dist2(g.px[i], g.py[i], g.px[j], g.py[j]) }

// half returns the positions of half h (0 or 1) of the frame.
func (g *Graph) half(h int) (lo, hi int) {
	n := len(g.cur.ids)
	return h * n / 2, (h + 1) * n / 2
}

// countIn counts, for each point, how many points of half h chose it.
func (g *Graph) countIn(h int) {
	cnt := g.inCount[h]
	clear(cnt)
	lo, hi := g.half(h)
	for _, o := range g.cur.sel[lo*g.cur.k : hi*g.cur.k] {
		cnt[o]++
	}
}

// scatterIn writes the choices of half h's points into the in-lists of the points chosen.
func (g *Graph) scatterIn(h int) {
	sel, k, next, inSrc := g.cur.sel, g.cur.k, g.inCount[h], g.inSrc
	lo, hi := g.half(h)
	for a := lo; a < hi; a++ {
		for _, o := range sel[a*k : (a+1)*k] {
			inSrc[next[o]] = int32(a)
			next[o]++
		}
	}
}

// adjacency writes adj(j): j's choices, then in(j) (so each link once), less the links
// MaxDist and MaxDY drop, with MaxDegree's ranking key; and j's MaxDegree-th link in (key,
// other end's rank) order. worker selects the scratch space. The loops over links have no
// data-dependent branches: each entry is written, and kept by advancing the write position
// or not.
func (g *Graph) adjacency(j, worker int) {
	c, p, o := &g.cur, &g.prev, &g.opts
	f := (1 + o.Hysteresis) * (1 + o.Hysteresis)
	// Indexed by whether the link was drawn in the previous frame.
	margin := [2]float64{f, 1} // a new link must fit the caps with room to spare
	keyDiv := [2]float64{1, f} // a drawn one ranks as if 1/(1+h) times as long
	chosen, drawn := &g.chosen[worker], &g.drawn[worker]
	chosen.next()
	drawn.next()
	sel := c.sel[j*c.k : (j+1)*c.k]
	for _, x := range sel {
		chosen.add(x)
	}
	if pj := g.fromPrev[j]; o.Hysteresis > 0 && pj >= 0 {
		for _, q := range p.adjOther[p.adjStart(int(pj)):p.adjEnd[pj]] {
			if other := g.toCur[q]; other >= 0 {
				drawn.add(other)
			}
		}
	}
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
		tk, tr := g.workerTopKey[worker], g.workerTopRank[worker]
		for x := start; x < w; x++ {
			insert(tk, tr, min(x-start, m), adjKey[x], g.prank[adjOther[x]])
		}
		g.topKey[j], g.topRank[j] = tk[m-1], tr[m-1]
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
func (s *stampSet) resize(n int) { s.at = grow(s.at, n) }

// next empties the set.
func (s *stampSet) next() {
	if s.stamp++; s.stamp == 0 { // wrapped: forget every older stamp
		clear(s.at)
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
