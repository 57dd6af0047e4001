// Package knn links each tracked point of a frame to its nearest neighbours, so that trackink
// can draw a k-nearest-neighbour graph over the video, and keeps those links steady from
// frame to frame. [Options.Graph] picks another graph instead, with the same caps and
// hysteresis: every pair within a radius, the Delaunay triangulation, or the Euclidean
// minimum spanning tree (graphs.go, delaunay.go, mst.go, on the exact predicates of
// predicates.go). What follows describes the kNN graph.
//
// # Algorithm
//
// Distances are always float64(dx·dx) + float64(dy·dy) from the float32 coordinates, rounded
// the same way everywhere, and every tie is broken by track id. Each frame, [Graph.Update]:
//
//  1. orders the points by track id (their rank), so that the answer does not depend on the
//     order of the input slice, and matches the ranks with the previous frame's;
//  2. lays the points out: the grid backend counting-sorts them into cells, row by row (rows
//     about 1.25 times the typical k'-th neighbour distance, four columns per row height), and
//     a point's position is its place in that order (for brute force and FAISS, its rank).
//     Every per-point array below is indexed by position and names other points by position,
//     so a point's neighbours, and their data, lie close to it in memory;
//  3. finds, for every point, its k' = min(K, n−1) nearest other points in the order
//     (squared distance, track id), with one of three exact backends: the grid (the default,
//     below), FAISS's IndexFlatL2 with its float32 answers re-ranked and proven in float64,
//     or brute force. They return identical neighbours, ties included;
//  4. chooses k' neighbours per point with hysteresis (see [Options.Hysteresis]): it keeps
//     those it chose in the previous frame while they stay within (1+h) of its current k'-th
//     neighbour distance, and fills its free slots from its current nearest;
//  5. transposes the choices: in(j), the points that chose j, by a counting sort;
//  6. lists the links at each point j: its choices, then the choosers it did not choose (so
//     each link once at each end), less those that fail MaxDist or MaxDY (with room to spare
//     (1+h) unless drawn in the previous frame), each with its MaxDegree ranking key (its
//     squared length, ÷(1+h)² if drawn in the previous frame), and finds j's MaxDegree-th
//     link in (key, rank) order;
//  7. keeps a link when it comes no later than the MaxDegree-th link at both ends (its key is
//     the same from both), and lists each point's kept links to higher ranks;
//  8. writes the edges in rank order, each point's ordered by counting the ones before.
//
// Steps 3 (grid) to 7 are loops over positions that write only their own point's entries,
// except the counting sort of step 5, so each maps to a kernel launch with a thread per point
// for the CUDA port (step 5: an atomic count, a prefix sum and a scatter, then each in-list
// sorted, or any order: only the set in(j) matters). For frames of parallelMin points or
// more, while that has been the faster (other programs may be using the cores), steps 3, 4,
// 6, 7 and the writing of 8 are cut into fixed chunks of positions that the caller's
// goroutine and up to GOMAXPROCS−1 persistent helpers share (parallel.go);
// each chunk writes only its own positions' entries, so the links are the same for any
// number of goroutines. The state a frame keeps for the next is its ranks' positions,
// neighbours, choices and drawn links.
//
// # Why the grid search is exact
//
// A query at q first offers last frame's neighbours of its track to its list (if some are
// gone, or the track is new: the points of the smallest square block of cells around q that
// holds k' others), so that the list is full and its k'-th, (td, tr), is a bound: at least k'
// other points come at or before it in (squared distance, rank) order, so the true k' nearest
// all do too. Then every cell that the disc of radius √td (plus a margin far above the
// rounding of the cell arithmetic) reaches is scanned, and every point in it at or before
// the current bound is offered to the list, which keeps the k' first. The true k' nearest
// all lie in the scanned cells (the column and row of a coordinate round monotonically, so
// widening the range by the margin covers every point within √td), so they are all offered
// and the list ends as exactly them; a point outside the scanned cells is farther than √td
// and cannot be among them. Points already offered (q itself, the seeds) are marked, and the
// scan tests "inside the bound and not yet offered" without branches: usually only a
// neighbour that is new this frame gets through.
//
// Costs: the grid search is O(n·k) for points spread over the frame, and stays so where they
// pile up: coincident points form runs a query offers in rank order and leaves at the first
// that does not fit, and a cell holding many points (a slanted line, a pile, a short
// segment) is sorted along its spread and searched by bisection (grid.go); dense clusters
// cost about their size a query. FAISS and brute force are O(n²). Steps 4-8 are O(n·k),
// and a frame has at most n·K links, K ≤ [Options.MaxLinksPerPoint]. With the grid backend
// Update allocates nothing once its buffers have grown to the frame size.
//
// # Use
//
//	g, err := knn.New(knn.Options{K: 5, Hysteresis: knn.DefaultHysteresis}) // Backend "": the grid
//	defer g.Close()
//	for each frame {
//		edges, err := g.Update(frame.Points) // []knn.Edge{A, B}: indices into frame.Points
//	}
//
// Edge.A and Edge.B index the slice passed to Update, with pts[A].ID < pts[B].ID; edges come
// sorted by (pts[A].ID, pts[B].ID), so the same tracks give the same edges in the same order
// on every run, whatever the order of the input. The slice is reused by the next call.
// Update rejects a frame with a repeated track id or a non-finite coordinate.
// [Options.Validate] (also called by New) rejects K < 1 or above the cap on links per point,
// negative or NaN caps, a negative or infinite hysteresis and an unknown backend with a
// *field.Error naming the field
// ("knn.Options.K 0: must be at least 1"), which the command line turns into the flag's
// name. The rules the links follow, in the user's words, are in docs/links.md.
package knn

import (
	"cmp"
	"errors"
	"math"
	"runtime"
	"strings"
	"unsafe"

	"trackink/internal/field"
	"trackink/scene"
)

// Backend names accepted by [Options.Backend].
const (
	BackendGrid  = "grid"  // pure-Go uniform grid, exact; the fastest at every size measured
	BackendFAISS = "faiss" // FAISS IndexFlatL2 (exhaustive, O(n²)) plus an exact re-rank; builds with -tags faiss
	BackendBrute = "brute" // exhaustive pure-Go scan, O(n²); the reference the others are tested against

	// DefaultBackend is the backend used when Options.Backend is empty. The grid beats FAISS
	// at every size the benchmark runs (100 to 100 000 points; figures in docs/benchmarks.md).
	DefaultBackend = BackendGrid
)

// Defaults for the CLI's flags.
const (
	DefaultK          = 5
	DefaultHysteresis = 0.15

	// DefaultMaxLinksPerPoint is Options.MaxLinksPerPoint when it is 0: far more links than
	// a point can show apart, and more than any golden picture or test has at a point (the
	// spanning tree of 200 points on one spot, a star of 199 links, is held to Prim's).
	DefaultMaxLinksPerPoint = 256
	// DefaultMaxLinks is Options.MaxLinks when it is 0: a million links are 44 MB of line
	// primitives a frame; the cap on links per point alone allows as many from 7 800 points
	// (n·256/2).
	DefaultMaxLinks = 1_000_000
)

// Options configures a [Graph]. Zero caps are off, but for the caps on links per point and
// per frame, which are always on: zero is their default.
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
	// It may not exceed the cap on links per point (MaxLinksPerPoint).
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

	// MaxLinksPerPoint bounds the links at a point, so that a frame costs at most about
	// n·MaxLinksPerPoint whatever its points (0 means DefaultMaxLinksPerPoint). For the
	// radius, Delaunay and spanning-tree graphs it is MaxDegree's rule, and applies where it
	// is smaller than MaxDegree (or MaxDegree is off): a link is kept only if it is among the
	// first MaxLinksPerPoint at both ends, shortest first, ties by track id. The radius graph's
	// search looks no further than that at each point, so every pair within MaxDist is never
	// listed. For kNN, K may not exceed it: each point makes its K links (one that many points
	// choose has more), at most n·K a frame.
	MaxLinksPerPoint int
	// MaxLinks bounds the links of a frame (0 means DefaultMaxLinks): past it, the frame keeps
	// its MaxLinks shortest, in (length, lower track id, higher track id) order (with
	// hysteresis a link drawn in the previous frame counting as 1/(1+h) times as long, as
	// for MaxDegree).
	MaxLinks int

	// Backend selects the neighbour search: "grid", "faiss" or "brute"; empty means
	// DefaultBackend. All three give identical answers.
	Backend string

	// Graph is the link graph, one of Graphs: "knn" (or empty), the K nearest as above;
	// "radius", "delaunay" or "mst", which graphs.go builds with the same caps and
	// hysteresis (K and Backend do not apply to them).
	Graph string
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
	case o.MaxLinksPerPoint < 0:
		return field.Errorf("knn.Options.MaxLinksPerPoint", o.MaxLinksPerPoint, "must be a positive number of links (0: the default, %d)", DefaultMaxLinksPerPoint)
	case o.MaxLinks < 0:
		return field.Errorf("knn.Options.MaxLinks", o.MaxLinks, "must be a positive number of links (0: the default, %d)", DefaultMaxLinks)
	case (o.Graph == "" || o.Graph == GraphKNN) && o.K > o.linksPerPoint():
		return field.Errorf("knn.Options.K", o.K, "more neighbours than the %d links a point may have (the cap on links per point)", o.linksPerPoint())
	case o.MaxDegree > o.linksPerPoint():
		// Past the cap it could only matter to a kNN point that hundreds of others choose,
		// and its scratch space grows with it: a huge value would not fit in memory.
		return field.Errorf("knn.Options.MaxDegree", o.MaxDegree, "more links than the %d a point may have (the cap on links per point)", o.linksPerPoint())
	}
	if err := o.validateGraph(); err != nil {
		return err
	}
	if _, ok := searchers[o.Backend]; ok || o.Backend == "" {
		return nil
	}
	if o.Backend == BackendFAISS {
		return field.Errorf("knn.Options.Backend", o.Backend, "this binary was built without FAISS (go build -tags faiss)")
	}
	return field.Errorf("knn.Options.Backend", o.Backend, "want one of %s", strings.Join(Backends(), ", "))
}

// linksPerPoint is the cap on links per point: MaxLinksPerPoint, or its default.
func (o Options) linksPerPoint() int { return cmp.Or(o.MaxLinksPerPoint, DefaultMaxLinksPerPoint) }

// linksPerFrame is the cap on links per frame: MaxLinks, or its default.
func (o Options) linksPerFrame() int { return cmp.Or(o.MaxLinks, DefaultMaxLinks) }

// searchers makes each search backend built into this binary; faiss.go adds FAISS in
// builds with the faiss tag, so that the default build needs no FAISS library (the grid is
// faster at every size measured: docs/benchmarks.md).
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
	grid   *gridSearch // the search when it is the grid: it lays the points out and seeds itself
	closed bool

	// The caps as squares, +∞ when off.
	maxD2, maxDY2 float64

	// What the next frame needs of this one, and of the previous one; swapped at the end of
	// each Update.
	cur, prev frame

	// This frame, by rank: the caller's index, the coordinates.
	perm   []int32
	xs, ys []float64
	// The layout: the grid's cell order, or rank order for the other backends. Every array
	// below is indexed by position, and names points by position.
	prank  []int32 // position → rank
	px, py []float64

	fromPrev, toCur []int32 // position ↔ the previous frame's of the same track, −1 if none

	// The squared distances of cur.nbr from brute force and FAISS (the grid's stay in its
	// workers' scratch, one point's at a time).
	nd2 []float64

	// The transposition of the choices: where the next chooser of each point goes; and
	// in(j) = inSrc[cur.inStart[j]:cur.inStart[j+1]], the points that chose j.
	inCount []int32
	inSrc   []int32

	adjKey []float64 // MaxDegree's key of each link of cur.adjOther

	// The MaxDegree-th link at j in (key, other end's rank) order: a link at j is among the
	// first MaxDegree there when it does not come after it. (+∞, MaxInt32) when j has at
	// most MaxDegree links or there is no MaxDegree.
	topKey  []float64
	topRank []int32

	// The ranks that j links to above its own, in no order, from cur.adjStart(j) on.
	upCount []int32
	up      []int32
	edgeAt  []int32 // by rank: where its edges start in out

	// The goroutines that share the steps of large frames (parallel.go), and the scratch
	// space of each, indexed by worker.
	pool    *pool
	cleanup runtime.Cleanup // stops the helpers of a Graph dropped without Close
	workers []workerScratch

	out []Edge

	byKey  []keyedLink // the frame's links, when there are more than MaxLinks
	capped Capped

	geo *geoGraph // the graph when it is not kNN
}

// Capped returns what the caps on links per point and per frame have dropped so far.
func (g *Graph) Capped() Capped {
	if g.geo != nil {
		return g.geo.capped
	}
	return g.capped
}

// workerScratch is one goroutine's space for the point it is working on.
type workerScratch struct {
	query queryScratch
	nd2   []float64 // the grid's squared distances of its k nearest

	// Its choices, its links drawn in the previous frame, and its first MaxDegree links
	// (adjacency).
	chosen, drawn stampSet
	topKey        []float64
	topRank       []int32

	_ [cacheLine]byte // keeps two workers' stamps off one cache line
}

// frame is what the next frame's search and hysteresis need of this one, by position.
type frame struct {
	ids   []int   // rank → track id
	posOf []int32 // rank → position
	k     int     // neighbours per point: min(K, n−1)
	nbr   []int32 // k nearest per position, in (squared distance, rank) order
	sel   []int32 // k chosen neighbours per position (hysteresis)

	// in(j), the points that chose j, are Graph.inSrc[inStart[j]:inStart[j+1]]. adj(j) =
	// adjOther[adjStart(j):adjEnd[j]], adjStart(j) = j·k + inStart[j]: the links at j, once
	// adjacency has run those that pass MaxDist and MaxDY (its choices, then the choosers
	// it did not choose), once emit has, those drawn.
	inStart  []int32
	adjEnd   []int32
	adjOther []int32
}

// adjStart is the first position of adj(j).
func (f *frame) adjStart(j int) int { return j*f.k + int(f.inStart[j]) }

// New validates opts and returns a Graph with its search backend ready. Close it: it frees the
// FAISS index and the helper goroutines.
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
	g := &Graph{opts: opts, search: search, maxD2: math.Inf(1), maxDY2: math.Inf(1)}
	if opts.MaxDist > 0 {
		g.maxD2 = opts.MaxDist * opts.MaxDist
	}
	if opts.MaxDY > 0 {
		g.maxDY2 = opts.MaxDY * opts.MaxDY
	}
	g.grid, _ = search.(*gridSearch)
	if !opts.OnDevice() {
		g.geo = newGeoGraph(opts)
	}
	g.pool = &pool{minItems: parallelMin, chunkSize: defaultChunkSize}
	// A Graph dropped without Close still stops its helpers: they refer to the pool, which
	// refers to the Graph only during a step.
	g.cleanup = runtime.AddCleanup(g, (*pool).close, g.pool)
	return g, nil
}

// Close frees the backend's resources (the FAISS index) and stops the helper goroutines.
// Update fails after Close; closing twice is harmless.
func (g *Graph) Close() error {
	if g.closed {
		return nil
	}
	g.closed = true
	g.cleanup.Stop()
	g.pool.close()
	return g.search.close()
}

// extent returns the bounding box of the points (at least one).
func extent(xs, ys []float64) (minX, maxX, minY, maxY float64) {
	minX, maxX, minY, maxY = xs[0], xs[0], ys[0], ys[0]
	for i := range xs {
		minX, maxX = min(minX, xs[i]), max(maxX, xs[i])
		minY, maxY = min(minY, ys[i]), max(maxY, ys[i])
	}
	return minX, maxX, minY, maxY
}

// dist2 is the squared distance every backend and every rule uses. The conversions stop the
// compiler from fusing a multiply-add (the spec allows it), which would round differently.
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

// cacheLine is the size of a cache line on the machines trackink runs on (x86-64, arm64),
// or a multiple of it.
const cacheLine = 64

// growOwnLines is grow for one goroutine's scratch space: new storage has a cache line of
// padding on each side, so that no other goroutine's data shares its lines. (Two workers'
// k-element neighbour lists, small allocations side by side, shared a line: every insert of
// one evicted the other's, and the neighbour step ran 1.15× as fast on two cores as on one,
// where it now runs 1.8× as fast.)
func growOwnLines[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	var t T
	pad, room := (cacheLine+int(unsafe.Sizeof(t))-1)/int(unsafe.Sizeof(t)), n+n/4
	return make([]T, room+2*pad)[pad : pad+n : pad+room]
}

// Update computes the links of one frame from its points (track ids unique). The returned
// slice is valid until the next call. Links and hysteresis follow the track ids, so the points
// may come in any order.
func (g *Graph) Update(pts []scene.Point) (edges []Edge, err error) {
	if g.closed {
		return nil, errors.New("knn: Update after Close")
	}
	if g.geo != nil {
		return g.geo.update(pts)
	}
	n := len(pts)
	// First: the helpers wake while the points load. A frame after one without links
	// (the first) is not a usual frame's time.
	g.pool.startFrame(n, g.prev.k > 0)
	defer func() { g.pool.endFrame(n, err == nil) }()
	if err := g.load(pts); err != nil {
		return nil, err
	}
	c := &g.cur
	c.k = max(min(g.opts.K, n-1), 0)
	g.out = g.out[:0]
	if n >= 2 {
		if err := g.links(); err != nil {
			return nil, err
		}
	}
	g.cur, g.prev = g.prev, g.cur
	return g.out, nil
}

// load orders the points by track id (Order) into perm, the frame's ids, and xs and ys, and
// rejects what would make the answer ill-defined: a repeated track id or a coordinate that
// is not finite. The previous frame's state is left as it was, so a rejected frame changes
// nothing.
func (g *Graph) load(pts []scene.Point) error {
	var err error
	if g.perm, err = Order(pts, g.perm); err != nil {
		return err
	}
	n := len(pts)
	c := &g.cur
	c.ids, g.xs, g.ys = grow(c.ids, n), grow(g.xs, n), grow(g.ys, n)
	for r, i := range g.perm {
		p := &pts[i]
		c.ids[r], g.xs[r], g.ys[r] = p.ID, float64(p.X), float64(p.Y)
	}
	return nil
}

// matchPrevious maps this frame's positions to the previous frame's and back (−1 where the
// track is absent from the other frame, or the previous frame had no links), by merging the
// two id-sorted lists of tracks.
func (g *Graph) matchPrevious() {
	c, p := &g.cur, &g.prev
	n, pn := len(c.ids), len(p.ids)
	g.fromPrev, g.toCur = grow(g.fromPrev, n), grow(g.toCur, pn)
	for i := range g.toCur {
		g.toCur[i] = -1
	}
	pr := 0
	for r, id := range c.ids {
		j := c.posOf[r]
		g.fromPrev[j] = -1
		for pr < pn && p.ids[pr] < id {
			pr++
		}
		if pr < pn && p.ids[pr] == id && p.k > 0 {
			g.fromPrev[j], g.toCur[p.posOf[pr]] = p.posOf[pr], j
		}
	}
}
