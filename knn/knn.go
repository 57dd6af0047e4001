// Package knn links each tracked point of a frame to its nearest neighbours, so that trackink
// can draw a k-nearest-neighbour graph over the video, and keeps those links steady from
// frame to frame.
//
// # Algorithm
//
// Each frame, [Graph.Update]:
//
//  1. orders the points by track id (their "rank"), so that every tie is broken by track id
//     and the answer does not depend on the order of the input slice;
//  2. finds, for every point, its k' = min(K, n−1) nearest other points in the order
//     (squared distance, track id), with one of three exact backends: a uniform 2-D grid
//     searched ring by ring (the default), FAISS's IndexFlatL2 with its float32 answers
//     re-ranked and proven in float64, or brute force. Distances are always
//     float64(dx·dx) + float64(dy·dy) from the float32 coordinates, rounded the same way in
//     every backend, so the backends return identical neighbours, ties included;
//  3. applies hysteresis per track (see [Options.Hysteresis]): each point keeps the neighbours
//     it chose in the previous frame while they stay within (1+h) of its current k-th
//     neighbour distance, and fills its free slots from its current nearest;
//  4. links i and j when either chose the other;
//  5. applies the caps MaxDist, MaxDY and then MaxDegree, which are hard limits.
//
// Costs: the grid search is O(n·k) for points spread over the frame (O(n²) in the worst case,
// all points in one spot), and splits its queries between two goroutines from 2 000 points on;
// FAISS and brute force are O(n²). Steps 3-5 are O(n·k). With the grid backend Update
// allocates nothing once its buffers have grown to the frame size.
package knn

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"trackink/internal/field"
	"trackink/scene"
)

// Backend names accepted by [Options.Backend].
const (
	BackendGrid  = "grid"  // pure-Go uniform grid, exact; the fastest at every size measured
	BackendFAISS = "faiss" // FAISS IndexFlatL2 (exhaustive, O(n²)) plus an exact re-rank; builds with -tags faiss
	BackendBrute = "brute" // exhaustive pure-Go scan, O(n²); the reference the others are tested against

	// DefaultBackend is the backend used when Options.Backend is empty. The grid beats FAISS
	// at every size the benchmark runs (100 to 100 000 points; figures in the README).
	DefaultBackend = BackendGrid
)

// Defaults for the CLI's flags.
const (
	DefaultK          = 5
	DefaultHysteresis = 0.15
)

// Options configures a [Graph]. Zero caps are off.
type Options struct {
	// K is the number of nearest neighbours each point links to (at least 1). A frame with
	// n ≤ K points links every point to all the others.
	K int

	// MaxDY drops links whose vertical extent |y_a − y_b| exceeds it (pixels; 0 = off).
	MaxDY float64
	// MaxDist drops links longer than it (pixels; 0 = off).
	MaxDist float64
	// MaxDegree caps the number of links at each point (0 = off). The rule: after MaxDY and
	// MaxDist, every point ranks its links by length, shortest first (ties by the other
	// point's track id; with hysteresis, a link drawn in the previous frame counts as
	// 1/(1+Hysteresis) times its length); a link is kept only if it is among the first
	// MaxDegree at both of its ends. So no point ever has more than MaxDegree links, and the
	// shortest link at a point is dropped only when the other end has MaxDegree shorter ones.
	MaxDegree int

	// Hysteresis h ≥ 0 keeps links steady when points jitter (0 = off; DefaultHysteresis is
	// a good value). Each point i keeps a set of k' = min(K, n−1) chosen neighbours, by track
	// id. Let ρ(i) be the distance from i to its k'-th nearest neighbour in this frame.
	//
	//   - A neighbour that i chose in the previous frame, and that is still present, stays
	//     chosen while its distance d ≤ (1+h)·ρ(i) (compared as d² ≤ (1+h)²·ρ(i)², in float64).
	//   - The free slots are filled with i's nearest neighbours in this frame, nearest first,
	//     skipping those already kept.
	//
	// A newcomer (at distance ≤ ρ(i)) therefore displaces an old neighbour only once the old
	// one is more than (1+h) times farther, i.e. the newcomer beats it by a factor 1+h; i and
	// j are linked while either has chosen the other. A point whose track was absent from
	// the previous frame (new, or reappearing) starts from its plain k nearest, and links to
	// a vanished track are dropped. The caps use the same margin the other way round, so they
	// never blink either while staying hard limits: a link not drawn in the previous frame
	// must satisfy the caps with room to spare (d·(1+h) ≤ MaxDist, |dy|·(1+h) ≤ MaxDY, checked
	// as squares), and one that was drawn only needs d ≤ MaxDist and |dy| ≤ MaxDY.
	Hysteresis float64

	// Backend selects the neighbour search: "grid", "faiss" or "brute"; empty means
	// DefaultBackend. All three give identical answers.
	Backend string
}

// Validate reports the first invalid option as a *field.Error.
func (o Options) Validate() error {
	switch {
	case o.K < 1:
		return field.Errorf("knn.Options.K", o.K, "must be at least 1")
	case !(o.MaxDY >= 0):
		return field.Errorf("knn.Options.MaxDY", o.MaxDY, "must be 0 (off) or a positive number of pixels")
	case !(o.MaxDist >= 0):
		return field.Errorf("knn.Options.MaxDist", o.MaxDist, "must be 0 (off) or a positive number of pixels")
	case o.MaxDegree < 0:
		return field.Errorf("knn.Options.MaxDegree", o.MaxDegree, "must be 0 (off) or a positive number of links")
	case !(o.Hysteresis >= 0) || math.IsInf(o.Hysteresis, 1):
		return field.Errorf("knn.Options.Hysteresis", o.Hysteresis, "must be 0 (off) or a positive finite fraction")
	}
	if _, ok := searchers[o.Backend]; ok || o.Backend == "" {
		return nil
	}
	if o.Backend == BackendFAISS {
		return field.Errorf("knn.Options.Backend", o.Backend, "this binary was built without FAISS (go build -tags faiss)")
	}
	return field.Errorf("knn.Options.Backend", o.Backend, "want one of %s", strings.Join(Backends(), ", "))
}

// searchers makes each search backend built into this binary; faiss.go adds FAISS in
// builds with the faiss tag, so that the default build needs no FAISS library (the grid is
// faster at every size measured: README "Links").
var searchers = map[string]func() (searcher, error){
	BackendGrid:  func() (searcher, error) { return &gridSearch{}, nil },
	BackendBrute: func() (searcher, error) { return bruteSearch{}, nil },
}

// Backends returns the search backends built into this binary: grid and brute always,
// faiss in builds with the faiss tag.
func Backends() []string {
	var have []string
	for _, b := range []string{BackendGrid, BackendFAISS, BackendBrute} {
		if _, ok := searchers[b]; ok {
			have = append(have, b)
		}
	}
	return have
}

// Edge links two points of the frame passed to [Graph.Update]: A and B index that slice, and
// pts[A].ID < pts[B].ID. Update returns edges sorted by (pts[A].ID, pts[B].ID), so the same
// tracks give the same edges in the same order whatever the order of the input slice.
type Edge struct{ A, B int32 }

// searcher finds, for each point q of xs, ys (points in rank order), its k < len(xs) nearest
// other points in (squared distance, rank) order: ranks in nbr[q*k:(q+1)*k], squared distances
// (dist2) in d2[q*k:(q+1)*k].
type searcher interface {
	search(xs, ys []float64, k int, nbr []int32, d2 []float64) error
	close() error
}

// Graph builds the links frame after frame. It is not safe for concurrent use.
type Graph struct {
	opts   Options
	search searcher
	closed bool

	// This frame, by rank (position in track id order).
	perm   []int32   // rank → index into the caller's slice
	ids    []int     // rank → track id
	xs, ys []float64 // rank → coordinates
	nbr    []int32   // k' nearest per rank
	nd2    []float64 // their squared distances
	sel    []int32   // chosen neighbours per rank (hysteresis); k' per rank
	selD2  []float64 // their squared distances
	stamp  []int32   // rank → 1+rank of the point whose selection holds it (dedup)

	// Candidate links (a < b ranks), sorted by (a, b).
	bucketStart []int32
	bucket      []link
	ea, eb      []int32
	ed2         []float64
	drawn       []bool // the link was drawn in the previous frame

	// MaxDegree.
	incStart []int32
	inc      []incident // the links at each rank
	marks    []uint8

	// Previous frame, for hysteresis.
	prevIDs            []int
	prevSel            []int32 // previous ranks
	prevSelK           int
	prevOutA, prevOutB []int // track ids of the links drawn, sorted
	outA, outB         []int
	cur2prev, prev2cur []int32

	out []Edge
}

// New validates opts and returns a Graph with its search backend ready. Close it: it frees the
// FAISS index, and the grid's helper goroutine.
func New(opts Options) (*Graph, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Backend == "" {
		opts.Backend = DefaultBackend
	}
	search, err := searchers[opts.Backend]()
	if err != nil {
		return nil, err
	}
	return &Graph{opts: opts, search: search}, nil
}

// Close frees the backend's resources (the FAISS index, the grid's helper goroutine). Update
// fails after Close; closing twice is harmless.
func (g *Graph) Close() error {
	if g.closed {
		return nil
	}
	g.closed = true
	return g.search.close()
}

// dist2 is the squared distance every backend and every rule uses. The conversions stop the
// compiler from fusing a multiply-add (the spec allows it), which would round differently.
// extent returns the bounding box of the points (at least one).
func extent(xs, ys []float64) (minX, maxX, minY, maxY float64) {
	minX, maxX, minY, maxY = xs[0], xs[0], ys[0], ys[0]
	for i := range xs {
		minX, maxX = min(minX, xs[i]), max(maxX, xs[i])
		minY, maxY = min(minY, ys[i]), max(maxY, ys[i])
	}
	return minX, maxX, minY, maxY
}

func dist2(x1, y1, x2, y2 float64) float64 {
	dx, dy := x1-x2, y1-y2
	return float64(dx*dx) + float64(dy*dy)
}

// grow returns s with length n, reusing its storage when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// Update computes the links of one frame from its points (track ids unique). The returned
// slice is valid until the next call. Links and hysteresis follow the track ids, so the points
// may come in any order.
func (g *Graph) Update(pts []scene.Point) ([]Edge, error) {
	if g.closed {
		return nil, errors.New("knn: Update after Close")
	}
	if len(pts) > math.MaxInt32 {
		return nil, fmt.Errorf("knn: %d points is more than a frame can hold", len(pts))
	}
	if err := g.load(pts); err != nil {
		return nil, err
	}
	n := len(pts)
	g.out, g.outA, g.outB = g.out[:0], g.outA[:0], g.outB[:0]
	if n < 2 {
		g.remember(0)
		return g.out, nil
	}
	k := min(g.opts.K, n-1)
	g.nbr = grow(g.nbr, n*k)
	g.nd2 = grow(g.nd2, n*k)
	if err := g.search.search(g.xs, g.ys, k, g.nbr, g.nd2); err != nil {
		return nil, err
	}
	sel, selD2 := g.nbr, g.nd2
	if g.opts.Hysteresis > 0 {
		g.matchPrevious()
		g.choose(k)
		sel, selD2 = g.sel, g.selD2
	}
	g.candidates(sel, selD2, k)
	g.caps()
	g.remember(k)
	return g.out, nil
}

// load orders the points by track id into perm, ids, xs and ys, and rejects what would make
// the answer ill-defined: a repeated track id or a coordinate that is not finite.
func (g *Graph) load(pts []scene.Point) error {
	n := len(pts)
	g.perm = grow(g.perm, n)
	sorted := true
	for i := range pts {
		g.perm[i] = int32(i)
		if i > 0 && pts[i].ID <= pts[i-1].ID {
			sorted = false
		}
	}
	// Trackers usually emit points in id order: then the sort is skipped.
	if !sorted {
		slices.SortFunc(g.perm, func(a, b int32) int { return cmp.Compare(pts[a].ID, pts[b].ID) })
	}
	g.ids = grow(g.ids, n)
	g.xs = grow(g.xs, n)
	g.ys = grow(g.ys, n)
	for r, i := range g.perm {
		p := &pts[i]
		x, y := float64(p.X), float64(p.Y)
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			return fmt.Errorf("knn: point %d (track %d) has a non-finite coordinate (%g, %g)", i, p.ID, p.X, p.Y)
		}
		if r > 0 && p.ID == g.ids[r-1] {
			return fmt.Errorf("knn: track id %d appears twice in the frame", p.ID)
		}
		g.ids[r], g.xs[r], g.ys[r] = p.ID, x, y
	}
	return nil
}

// matchPrevious maps this frame's ranks to the previous frame's and back by merging the two
// id-sorted lists (−1: absent from the other frame).
func (g *Graph) matchPrevious() {
	n, pn := len(g.ids), len(g.prevIDs)
	g.cur2prev = grow(g.cur2prev, n)
	g.prev2cur = grow(g.prev2cur, pn)
	p := 0
	for r, id := range g.ids {
		for p < pn && g.prevIDs[p] < id {
			g.prev2cur[p] = -1
			p++
		}
		if p < pn && g.prevIDs[p] == id {
			g.cur2prev[r] = int32(p)
			g.prev2cur[p] = int32(r)
			p++
		} else {
			g.cur2prev[r] = -1
		}
	}
	for ; p < pn; p++ {
		g.prev2cur[p] = -1
	}
}

// choose applies the hysteresis rule of Options.Hysteresis, writing k chosen neighbours per
// rank into sel.
func (g *Graph) choose(k int) {
	n := len(g.ids)
	g.sel = grow(g.sel, n*k)
	g.selD2 = grow(g.selD2, n*k)
	g.stamp = grow(g.stamp, n)
	clear(g.stamp)
	f := (1 + g.opts.Hysteresis) * (1 + g.opts.Hysteresis)
	for r := range n {
		out, outD2 := g.sel[r*k:(r+1)*k], g.selD2[r*k:(r+1)*k]
		nbr, nd2 := g.nbr[r*k:(r+1)*k], g.nd2[r*k:(r+1)*k]
		m := 0
		if p := g.cur2prev[r]; p >= 0 {
			lim := f * nd2[k-1]
			// At most k are kept: the previous selection holds at most K points, and when
			// k = n−1 < K there are only k other points.
			for _, q := range g.prevSel[int(p)*g.prevSelK : (int(p)+1)*g.prevSelK] {
				c := g.prev2cur[q]
				if c < 0 {
					continue
				}
				// Usually still among the k nearest, whose distances are at hand.
				j := slices.Index(nbr, c)
				d := 0.0
				if j >= 0 {
					d = nd2[j]
				} else if d = dist2(g.xs[r], g.ys[r], g.xs[c], g.ys[c]); d > lim {
					continue
				}
				out[m], outD2[m] = c, d
				m++
				g.stamp[c] = int32(r) + 1
			}
		}
		for j, c := range nbr {
			if m == k {
				break
			}
			if g.stamp[c] != int32(r)+1 {
				out[m], outD2[m] = c, nd2[j]
				m++
			}
		}
	}
}

// link is a candidate link as bucketed under its lower rank: the other end and the squared
// length.
type link struct {
	b  int32
	d2 float64
}

// candidates turns the per-rank selections (k each, with squared distances selD2) into
// undirected links (a < b), sorted by (a, b) and without duplicates, with their squared
// lengths; and marks those drawn in the previous frame.
func (g *Graph) candidates(sel []int32, selD2 []float64, k int) {
	n := len(g.ids)
	// Bucket each link under its lower rank (a counting sort), then sort and dedup buckets.
	g.bucketStart = grow(g.bucketStart, n+1)
	clear(g.bucketStart)
	for r := range n {
		for _, c := range sel[r*k : (r+1)*k] {
			g.bucketStart[min(int32(r), c)+1]++
		}
	}
	for r := range n {
		g.bucketStart[r+1] += g.bucketStart[r]
	}
	g.bucket = grow(g.bucket, n*k)
	for r := range n {
		for j, c := range sel[r*k : (r+1)*k] {
			a, b := min(int32(r), c), max(int32(r), c)
			g.bucket[g.bucketStart[a]] = link{b, selD2[r*k+j]}
			g.bucketStart[a]++
		}
	}
	// The fill advanced each start to the next bucket's start; shift back.
	copy(g.bucketStart[1:], g.bucketStart[:n])
	g.bucketStart[0] = 0

	g.ea, g.eb, g.ed2, g.drawn = g.ea[:0], g.eb[:0], g.ed2[:0], g.drawn[:0]
	hyst := g.opts.Hysteresis > 0
	p := 0 // into prevOut, which is sorted by ids as the candidates are
	for a := range n {
		bs := g.bucket[g.bucketStart[a]:g.bucketStart[a+1]]
		insertionSort(bs, func(x, y link) bool { return x.b < y.b })
		for i, l := range bs {
			b := l.b
			if i > 0 && b == bs[i-1].b {
				continue
			}
			g.ea = append(g.ea, int32(a))
			g.eb = append(g.eb, b)
			g.ed2 = append(g.ed2, l.d2)
			was := false
			if hyst {
				ia, ib := g.ids[a], g.ids[b]
				for p < len(g.prevOutA) && (g.prevOutA[p] < ia || g.prevOutA[p] == ia && g.prevOutB[p] < ib) {
					p++
				}
				was = p < len(g.prevOutA) && g.prevOutA[p] == ia && g.prevOutB[p] == ib
			}
			g.drawn = append(g.drawn, was)
		}
	}
}

// insertionSort sorts s by less: the lists sorted here hold about 2k links, too few for
// anything cleverer to pay.
func insertionSort[T any](s []T, less func(x, y T) bool) {
	for i := 1; i < len(s); i++ {
		v := s[i]
		j := i
		for ; j > 0 && less(v, s[j-1]); j-- {
			s[j] = s[j-1]
		}
		s[j] = v
	}
}

// caps applies MaxDist and MaxDY, then MaxDegree, to the candidates and writes g.out.
func (g *Graph) caps() {
	f := (1 + g.opts.Hysteresis) * (1 + g.opts.Hysteresis)
	maxD2 := g.opts.MaxDist * g.opts.MaxDist
	maxDY2 := g.opts.MaxDY * g.opts.MaxDY
	// Compact the candidates that pass the distance caps.
	m := 0
	for e := range g.ea {
		a, b := g.ea[e], g.eb[e]
		margin := 1.0
		if !g.drawn[e] {
			margin = f // f = 1 without hysteresis
		}
		if g.opts.MaxDist > 0 && g.ed2[e]*margin > maxD2 {
			continue
		}
		if dy := g.ys[a] - g.ys[b]; g.opts.MaxDY > 0 && dy*dy*margin > maxDY2 {
			continue
		}
		g.ea[m], g.eb[m], g.ed2[m], g.drawn[m] = a, b, g.ed2[e], g.drawn[e]
		m++
	}
	g.ea, g.eb, g.ed2, g.drawn = g.ea[:m], g.eb[:m], g.ed2[:m], g.drawn[:m]
	if g.opts.MaxDegree > 0 {
		g.degreeCap(f)
	}
	for e := range g.ea {
		if g.opts.MaxDegree > 0 && g.marks[e] != 2 {
			continue
		}
		g.out = append(g.out, Edge{A: g.perm[g.ea[e]], B: g.perm[g.eb[e]]})
		if g.opts.Hysteresis > 0 {
			g.outA = append(g.outA, g.ids[g.ea[e]])
			g.outB = append(g.outB, g.ids[g.eb[e]])
		}
	}
}

// incident is a link as seen from one end: its ranking key, the other end's rank (the
// tie-break) and its index.
type incident struct {
	key   float64
	other int32
	e     int32
}

// degreeCap marks each candidate once for every end at which it ranks among the MaxDegree
// shortest links (drawn links count as 1/(1+h) times their length); links marked twice stay.
func (g *Graph) degreeCap(f float64) {
	n := len(g.ids)
	ne := len(g.ea)
	g.marks = grow(g.marks, ne)
	clear(g.marks)
	g.incStart = grow(g.incStart, n+1)
	clear(g.incStart)
	for e := range ne {
		g.incStart[g.ea[e]+1]++
		g.incStart[g.eb[e]+1]++
	}
	for r := range n {
		g.incStart[r+1] += g.incStart[r]
	}
	g.inc = grow(g.inc, 2*ne)
	for e := range ne {
		a, b := g.ea[e], g.eb[e]
		key := g.ed2[e]
		if g.drawn[e] {
			key /= f // squared lengths: f = (1+h)²
		}
		g.inc[g.incStart[a]] = incident{key, b, int32(e)}
		g.incStart[a]++
		g.inc[g.incStart[b]] = incident{key, a, int32(e)}
		g.incStart[b]++
	}
	copy(g.incStart[1:], g.incStart[:n])
	g.incStart[0] = 0
	for r := range n {
		es := g.inc[g.incStart[r]:g.incStart[r+1]]
		if len(es) > g.opts.MaxDegree {
			less := func(x, y incident) bool { return x.key < y.key || x.key == y.key && x.other < y.other }
			if len(es) <= 32 {
				insertionSort(es, less)
			} else { // a hub: duplicated or clustered points
				slices.SortFunc(es, func(x, y incident) int {
					return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.other, y.other))
				})
			}
			es = es[:g.opts.MaxDegree]
		}
		for _, l := range es {
			g.marks[l.e]++
		}
	}
}

// remember keeps this frame's selection and drawn links, by track id, for the next frame's
// hysteresis.
func (g *Graph) remember(k int) {
	if g.opts.Hysteresis == 0 {
		return
	}
	g.prevOutA, g.outA = g.outA, g.prevOutA
	g.prevOutB, g.outB = g.outB, g.prevOutB
	g.prevIDs, g.ids = g.ids, g.prevIDs
	g.prevSelK = k
	if k == 0 {
		g.prevSel = g.prevSel[:0]
		return
	}
	g.prevSel, g.sel = g.sel, g.prevSel
}
