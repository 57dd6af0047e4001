package knn

import (
	"cmp"
	"math"
	"slices"
)

// spanningTree sets the candidates to the minimum spanning tree of the Delaunay edges and the links drawn in the previous frame, by Kruskal's algorithm in
// (key, lower rank, higher rank) order, the key being the squared length, ÷(1+h)² for a
// drawn link (equal keys compared by their exact lengths first). Without hysteresis that is the Euclidean minimum spanning tree, exactly: with
// ties broken by rank, every edge of the tree has no other point in the closed disc on it
// as diameter (each such point would close a cycle of shorter edges), so it is an edge of
// every Delaunay triangulation. With hysteresis a drawn link stays until a path of links
// more than (1+h) times shorter than it joins its ends.
func (g *geoGraph) spanningTree() {
	g.cand = append(g.cand, g.dt.edges...)
	if g.opts.Hysteresis > 0 && len(g.prevIDs) > 0 {
		for pr := range len(g.prevIDs) {
			for _, po := range g.prevAdj[g.prevStart[pr]:g.prevStart[pr+1]] {
				if po <= int32(pr) {
					continue
				}
				a, b := g.toCur[pr], g.toCur[po]
				if a >= 0 && b >= 0 {
					// Ranks keep the id order: a < b. A link that is also a Delaunay edge
					// comes twice: Kruskal's algorithm drops the second.
					g.cand = append(g.cand, [2]int32{a, b})
				}
			}
		}
	}
	g.byKey = g.byKey[:0]
	for _, e := range g.cand {
		_, _, key, wasDrawn := g.link(e[0], e[1])
		g.byKey = append(g.byKey, keyedLink{key, e[0], e[1], wasDrawn})
	}
	xs, ys := g.xs, g.ys
	slices.SortFunc(g.byKey, func(a, b keyedLink) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		// Rounding never reverses two squared lengths but can make them equal: compared
		// exactly, so that the order is the true lengths' and the tree stays within the
		// triangulation. (Keys of a drawn and an undrawn link are not lengths alike.)
		if a.lo == b.lo && a.hi == b.hi {
			return 0 // a drawn Delaunay edge, listed twice
		}
		if a.drawn == b.drawn && !(dist2Exact(xs[a.lo], ys[a.lo], xs[a.hi], ys[a.hi]) && dist2Exact(xs[b.lo], ys[b.lo], xs[b.hi], ys[b.hi])) {
			if c := cmpDist2Exact(xs[a.lo], ys[a.lo], xs[a.hi], ys[a.hi], xs[b.lo], ys[b.lo], xs[b.hi], ys[b.hi]); c != 0 {
				return c
			}
		}
		if a.lo != b.lo {
			return cmp.Compare(a.lo, b.lo)
		}
		return cmp.Compare(a.hi, b.hi)
	})
	n := len(g.ids)
	g.uf = grow(g.uf, n)
	for r := range g.uf {
		g.uf[r] = -1 // a root of size 1
	}
	tree := g.adj[:0] // reused as the tree's edges
	for _, l := range g.byKey {
		e := [2]int32{l.lo, l.hi}
		ra, rb := g.root(e[0]), g.root(e[1])
		if ra == rb {
			continue
		}
		if g.uf[ra] > g.uf[rb] { // union by size: the larger (more negative) is the root
			ra, rb = rb, ra
		}
		g.uf[ra] += g.uf[rb]
		g.uf[rb] = ra
		tree = append(tree, e)
		if len(tree) == n-1 {
			break
		}
	}
	g.cand = append(g.cand[:0], tree...)
	g.adj = tree[:0]
}

// keyedLink is a candidate link of the tree with its key.
type keyedLink struct {
	key    float64
	lo, hi int32
	drawn  bool // in the previous frame
}

// root finds the root of r's set in the union-find, halving the paths on the way.
func (g *geoGraph) root(r int32) int32 {
	for g.uf[r] >= 0 {
		if p := g.uf[r]; g.uf[p] >= 0 {
			g.uf[r] = g.uf[p]
		}
		r = g.uf[r]
	}
	return r
}

// flipBack keeps a Delaunay link drawn in the previous frame that a flip has replaced, while
// it is within (1+h) of being Delaunay. If a–b was drawn and a and b are the apexes of the
// two triangles on an edge c–d of the convex quadrilateral a c b d, then c–d is flipped back
// to a–b when b lies inside the circle through a, c, d by less than the factor 1+h
// (R ≤ (1+h)·|Ob|, O and R that circle's centre and radius), and a likewise in the circle
// through b, c, d. A triangle flips back once at most (flips in track-id order), so the
// links stay a triangulation: no two cross. It runs before collectEdges, which leaves out
// the edges flipped away; the links flipped back are in g.flipped.
func (g *geoGraph) flipBack() {
	dt := &g.dt
	g.flips, g.flipped = g.flips[:0], g.flipped[:0]
	if len(g.prevIDs) == 0 || len(dt.tv) == 0 {
		return
	}
	// Every interior edge once, from its lower-numbered triangle: its two apexes.
	nt := int32(len(dt.tv) / 3)
	for t := range nt {
		if dt.ghostTri(t) {
			continue
		}
		for i := range int32(3) {
			o := dt.tn[3*t+i]
			if o < t || dt.ghostTri(o) {
				continue
			}
			j := int32(0)
			for dt.tn[3*o+j] != t {
				j++
			}
			a, b := dt.tv[3*t+i], dt.tv[3*o+j]
			if g.drawn(a, b) {
				g.flips = append(g.flips, flip{min(a, b), max(a, b), t, o, i, j})
			}
		}
	}
	slices.SortFunc(g.flips, func(x, y flip) int {
		if x.lo != y.lo {
			return cmp.Compare(x.lo, y.lo)
		}
		return cmp.Compare(x.hi, y.hi)
	})
	f := 1 + g.opts.Hysteresis
	dt.mark.next() // marks the triangles flipped back
	dt.gone = grow(dt.gone, len(dt.tv))
	clear(dt.gone)
	for _, fl := range g.flips {
		t, o := fl.t, fl.o
		c, d := dt.tv[3*t+(fl.i+1)%3], dt.tv[3*t+(fl.i+2)%3]
		if dt.mark.has(t) || dt.mark.has(o) || !g.nearlyDelaunay(fl.lo, fl.hi, c, d, f) {
			continue
		}
		dt.mark.add(t)
		dt.mark.add(o)
		dt.gone[3*t+fl.i], dt.gone[3*o+fl.j] = true, true
		g.flipped = append(g.flipped, [2]int32{fl.lo, fl.hi})
	}
}

// flip is a drawn link a candidate for flipBack: the ranks lo < hi of the apexes of
// triangles t and o, across their edges t.i and o.j.
type flip struct{ lo, hi, t, o, i, j int32 }

// nearlyDelaunay is flipBack's test for a–b across c–d.
func (g *geoGraph) nearlyDelaunay(a, b, c, d int32, f float64) bool {
	xs, ys := g.xs, g.ys
	if orient(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c])*orient(xs[a], ys[a], xs[b], ys[b], xs[d], ys[d]) >= 0 {
		return false // not convex: a–b would leave the two triangles
	}
	within := func(p, q, r, s int32) bool {
		ox, oy, r2, ok := circumcircle(xs[p], ys[p], xs[q], ys[q], xs[r], ys[r])
		return ok && r2 <= f*f*dist2(ox, oy, xs[s], ys[s])
	}
	return within(a, c, d, b) && within(b, c, d, a)
}

// circumcircle returns the centre and squared radius of the circle through three points.
func circumcircle(ax, ay, bx, by, cx, cy float64) (ox, oy, r2 float64, ok bool) {
	bx, by, cx, cy = bx-ax, by-ay, cx-ax, cy-ay
	den := 2 * (float64(bx*cy) - float64(by*cx))
	if den == 0 {
		return 0, 0, 0, false
	}
	b2, c2 := float64(bx*bx)+float64(by*by), float64(cx*cx)+float64(cy*cy)
	ux := (float64(cy*b2) - float64(by*c2)) / den
	uy := (float64(bx*c2) - float64(cx*b2)) / den
	if math.IsInf(ux, 0) || math.IsInf(uy, 0) {
		return 0, 0, 0, false
	}
	return ax + ux, ay + uy, float64(ux*ux) + float64(uy*uy), true
}
