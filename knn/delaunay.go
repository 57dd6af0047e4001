package knn

import (
	"cmp"
	"slices"
)

// delaunay is the Delaunay triangulation of a frame's points, built incrementally (Bowyer–
// Watson with ghost triangles for the outside of the hull) on the exact predicates of
// predicates.go, in a spatial (Hilbert curve) order so that each point is found by a short
// walk from the last. Vertices are ranks (track-id order), and ties are broken by them:
//
//   - four cocircular points: the lifted in-circle test is perturbed symbolically (Edelsbrunner
//     and Mücke's simulation of simplicity: point of rank r lifted by ε^(r+1)), so that
//     exactly one of the possible triangulations is the answer, whatever the insertion
//     order: the regular triangulation of the perturbed lifts, which is a Delaunay
//     triangulation of the points;
//   - duplicates (equal coordinates): the one of lowest rank is triangulated, and each other
//     is linked to it alone;
//   - all points collinear: no triangles; each point is linked to the next along the line.
//
// So the edge set is a function of the points and their ranks only, and every edge of the
// Euclidean minimum spanning tree (ties by rank) is among them (mst.go).
type delaunay struct {
	xs, ys []float64 // by rank

	// Triangles: vertices tv[3t:3t+3] counter-clockwise by orient, ghost (the vertex at
	// infinity) −1; tn[3t+i] is the triangle across the edge opposite tv[3t+i].
	tv, tn []int32
	vtri   []int32 // by rank: a triangle with that vertex (−1 for a duplicate)
	rep    []int32 // by rank: the rank triangulated at its place (itself unless a duplicate)

	order []uint64 // the insertion order: Hilbert key << 32 | rank
	mark  stampSet // by triangle: in the cavity being dug
	stack []int32
	// The cavity's triangles and its boundary: edge (u, v) with the triangle outside it and
	// the outside triangle's index of that edge.
	cavity   []int32
	boundary []cavityEdge
	startAt  []int32 // by vertex + 1 (ghost at 0): the new triangle whose edge starts there
	endAt    []int32

	edges [][2]int32 // the edges as (lower rank, higher rank)
	gone  []bool     // by triangle edge (3t+i): flipped away (geoGraph.flipBack)
}

type cavityEdge struct{ u, v, out, outEdge int32 }

const ghost int32 = -1

// triangulate computes the triangulation of the points xs, ys (by rank); collectEdges then
// lists its edges (for collinear points, triangulate lists them).
func (d *delaunay) triangulate(xs, ys []float64) {
	n := len(xs)
	d.xs, d.ys = xs, ys
	d.tv, d.tn, d.edges, d.gone = d.tv[:0], d.tn[:0], d.edges[:0], d.gone[:0]
	d.vtri, d.rep = grow(d.vtri, n), grow(d.rep, n)
	for r := range n {
		d.vtri[r], d.rep[r] = -1, int32(r)
	}
	if n < 2 {
		return
	}
	d.spatialOrder()
	a := int32(d.order[0])
	b, c := int32(-1), int32(-1)
	for _, o := range d.order[1:] {
		r := int32(o)
		switch {
		case b < 0 && (xs[r] != xs[a] || ys[r] != ys[a]):
			b = r
		case b >= 0 && orient(xs[a], ys[a], xs[b], ys[b], xs[r], ys[r]) != 0:
			c = r
		}
		if c >= 0 {
			break
		}
	}
	if c < 0 {
		d.collinear()
		return
	}
	if orient(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]) < 0 {
		b, c = c, b
	}
	d.first(a, b, c)
	last := int32(0)
	for _, o := range d.order {
		if r := int32(o); r != a && r != b && r != c {
			last = d.insert(r, last)
		}
	}
}

// spatialOrder sorts the ranks along a Hilbert curve over the points' bounding box (ties,
// duplicates among them, by rank): consecutive points are close, so each walk is short.
func (d *delaunay) spatialOrder() {
	xs, ys := d.xs, d.ys
	minX, maxX, minY, maxY := extent(xs, ys)
	span := max(maxX-minX, maxY-minY)
	scale := 0.0
	if span > 0 {
		scale = 65535 / span
	}
	d.order = grow(d.order, len(xs))
	for r := range xs {
		hx, hy := uint32((xs[r]-minX)*scale), uint32((ys[r]-minY)*scale)
		d.order[r] = uint64(hilbert(min(hx, 65535), min(hy, 65535)))<<32 | uint64(r)
	}
	slices.Sort(d.order)
}

// hilbert returns the index of cell (x, y) along the Hilbert curve over 2¹⁶ × 2¹⁶ cells.
func hilbert(x, y uint32) uint32 {
	const side = 1 << 16
	var h uint32
	for s := uint32(side / 2); s > 0; s >>= 1 {
		rx, ry := b2u(x&s != 0), b2u(y&s != 0)
		h += s * s * ((3 * rx) ^ ry)
		if ry == 0 {
			if rx == 1 {
				x, y = side-1-x, side-1-y
			}
			x, y = y, x
		}
	}
	return h
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// collinear links points that all lie on one line, each to the next along it.
func (d *delaunay) collinear() {
	xs, ys := d.xs, d.ys
	ranks := make([]int32, len(xs))
	for r := range ranks {
		ranks[r] = int32(r)
	}
	slices.SortFunc(ranks, func(a, b int32) int {
		return cmp.Or(cmp.Compare(xs[a], xs[b]), cmp.Compare(ys[a], ys[b]), cmp.Compare(a, b))
	})
	prev := ranks[0]
	for _, r := range ranks[1:] {
		if xs[r] == xs[prev] && ys[r] == ys[prev] {
			d.rep[r] = prev
			d.edges = append(d.edges, [2]int32{min(r, prev), max(r, prev)})
			continue
		}
		d.edges = append(d.edges, [2]int32{min(r, prev), max(r, prev)})
		prev = r
	}
}

// first makes the triangle a, b, c (counter-clockwise) and the three ghosts around it.
func (d *delaunay) first(a, b, c int32) {
	d.tv = append(d.tv, a, b, c, b, a, ghost, c, b, ghost, a, c, ghost)
	d.tn = append(d.tn, 2, 3, 1, 3, 2, 0, 1, 3, 0, 2, 1, 0)
	d.vtri[a], d.vtri[b], d.vtri[c] = 0, 0, 0
	d.mark.at = grow(d.mark.at, 4)
	clear(d.mark.at)
	d.mark.stamp = 0
}

// insert adds point p, walking from triangle start, and returns a new triangle to start the
// next walk from.
func (d *delaunay) insert(p, start int32) int32 {
	t := d.locate(p, start)
	tv := d.tv[3*t : 3*t+3]
	px, py := d.xs[p], d.ys[p]
	if tv[2] != ghost {
		for _, v := range tv {
			if d.xs[v] == px && d.ys[v] == py {
				d.rep[p] = v // a duplicate: the lowest rank at the place came first
				return t
			}
		}
	}
	d.mark.next()
	d.cavity, d.boundary = append(d.cavity[:0], t), d.boundary[:0]
	d.mark.add(t)
	d.stack = append(d.stack[:0], t)
	for len(d.stack) > 0 {
		c := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		for i := range int32(3) {
			o := d.tn[3*c+i]
			if d.mark.has(o) {
				continue
			}
			if d.inCircle(o, p) {
				d.mark.add(o)
				d.cavity = append(d.cavity, o)
				d.stack = append(d.stack, o)
				continue
			}
			oe := int32(0)
			for d.tn[3*o+oe] != c {
				oe++
			}
			d.boundary = append(d.boundary, cavityEdge{d.tv[3*c+(i+1)%3], d.tv[3*c+(i+2)%3], o, oe})
		}
	}
	// One new triangle (u, v, p) per boundary edge, in the cavity's slots first.
	nv := len(d.xs) + 1
	d.startAt, d.endAt = grow(d.startAt, nv), grow(d.endAt, nv)
	for k, e := range d.boundary {
		var t int32
		if k < len(d.cavity) {
			t = d.cavity[k]
		} else {
			t = int32(len(d.tv) / 3)
			d.tv, d.tn = append(d.tv, 0, 0, 0), append(d.tn, 0, 0, 0)
			d.mark.at = append(d.mark.at, 0)
		}
		d.tv[3*t], d.tv[3*t+1], d.tv[3*t+2] = e.u, e.v, p
		d.tn[3*t+2], d.tn[3*e.out+e.outEdge] = e.out, t
		d.startAt[e.u+1], d.endAt[e.v+1] = t, t
	}
	last := int32(-1)
	for _, e := range d.boundary {
		t := d.startAt[e.u+1]
		d.tn[3*t] = d.startAt[e.v+1] // across (v, p)
		d.tn[3*t+1] = d.endAt[e.u+1] // across (p, u)
		for _, v := range [...]int32{e.u, e.v} {
			if v != ghost {
				d.vtri[v] = t
			}
		}
		switch ghost {
		case e.u: // (ghost, v, p) → (v, p, ghost): the ghost always last
			d.rotate(t, 1)
		case e.v:
			d.rotate(t, 2)
		default:
			last = t
		}
	}
	d.vtri[p] = last
	return last
}

// rotate turns triangle t's vertices (and neighbours) by k places to the left.
func (d *delaunay) rotate(t, k int32) {
	v, n := d.tv[3*t:3*t+3], d.tn[3*t:3*t+3]
	v[0], v[1], v[2] = v[k], v[(k+1)%3], v[(k+2)%3]
	n[0], n[1], n[2] = n[k], n[(k+1)%3], n[(k+2)%3]
}

// ghostTri reports whether triangle t is a ghost (its vertex at infinity is always last).
func (d *delaunay) ghostTri(t int32) bool { return d.tv[3*t+2] == ghost }

// inCircle reports whether p lies in triangle t's circumcircle, perturbed (see delaunay):
// for a ghost, the open half-plane beyond its hull edge and the open edge itself.
func (d *delaunay) inCircle(t, p int32) bool {
	xs, ys := d.xs, d.ys
	a, b, c := d.tv[3*t], d.tv[3*t+1], d.tv[3*t+2]
	if c == ghost {
		switch orient(xs[a], ys[a], xs[b], ys[b], xs[p], ys[p]) {
		case 1:
			return true
		case -1:
			return false
		}
		return between(xs[a], xs[b], xs[p]) || between(ys[a], ys[b], ys[p])
	}
	if s := incircle(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c], xs[p], ys[p]); s != 0 {
		return s > 0
	}
	return d.perturbed(a, b, c, p) > 0
}

// between reports whether v lies strictly between a and b.
func between(a, b, v float64) bool { return min(a, b) < v && v < max(a, b) }

// perturbed is the sign of the in-circle determinant of a, b, c, d (orient(a, b, c) > 0) when
// it is 0, with the lift of rank r raised by ε^(r+1): the determinant is linear in the lifts,
// so its sign is that of the first non-zero cofactor in rank order. d's cofactor,
// −orient(a, b, c), is never 0.
func (d *delaunay) perturbed(a, b, c, p int32) int {
	xs, ys := d.xs, d.ys
	o := func(i, j, k int32) int { return orient(xs[i], ys[i], xs[j], ys[j], xs[k], ys[k]) }
	pts := [4]int32{a, b, c, p}
	slices.Sort(pts[:])
	for _, v := range pts {
		var s int
		switch v {
		case a:
			s = o(b, c, p)
		case b:
			s = -o(a, c, p)
		case c:
			s = o(a, b, p)
		default:
			s = -o(a, b, c)
		}
		if s != 0 {
			return s
		}
	}
	return 0 // unreachable for a real triangle
}

// locate returns a triangle that holds p (a real one, its closure) or, for p outside the hull,
// a ghost whose hull edge p lies strictly beyond, by a visibility walk from start: exact
// predicates and a Delaunay (regular) triangulation make it terminate.
func (d *delaunay) locate(p, start int32) int32 {
	xs, ys := d.xs, d.ys
	px, py := xs[p], ys[p]
	t := start
	if d.ghostTri(t) {
		t = d.tn[3*t+2]
	}
	for turn := int32(0); ; turn++ {
		moved := false
		for k := range int32(3) {
			i := (k + turn) % 3
			a, b := d.tv[3*t+(i+1)%3], d.tv[3*t+(i+2)%3]
			if orient(xs[a], ys[a], xs[b], ys[b], px, py) < 0 {
				t = d.tn[3*t+i]
				moved = true
				break
			}
		}
		if !moved || d.ghostTri(t) {
			return t
		}
	}
}

// collectEdges lists the triangulation's edges, each once, but those flipped away (gone),
// and each duplicate's link to its representative.
func (d *delaunay) collectEdges() {
	nt := int32(len(d.tv) / 3)
	if nt == 0 {
		return // fewer than two points, or collinear: triangulate listed the edges
	}
	for t := range nt {
		if d.ghostTri(t) {
			continue
		}
		for i := range int32(3) {
			o := d.tn[3*t+i]
			if (d.ghostTri(o) || t < o) && (len(d.gone) == 0 || !d.gone[3*t+i]) {
				u, v := d.tv[3*t+(i+1)%3], d.tv[3*t+(i+2)%3]
				d.edges = append(d.edges, [2]int32{min(u, v), max(u, v)})
			}
		}
	}
	for r, rep := range d.rep {
		if rep != int32(r) {
			d.edges = append(d.edges, [2]int32{min(rep, int32(r)), max(rep, int32(r))})
		}
	}
}
