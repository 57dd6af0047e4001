package knn

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"time"

	"trackink/scene"
)

// DefaultBenchSizes are the point counts RunBenchmark times when given none.
var DefaultBenchSizes = []int{100, 1000, 5000, 100000}

// exhaustiveBenchLimit is the largest point count the benchmark runs the O(n²) backends
// (brute force and FAISS's flat index) on: at 100 000 points FAISS took 44 s a frame here,
// and brute force longer. A variable so that a test can reach the skip.
var exhaustiveBenchLimit = 20000

// benchOptions are the options RunBenchmark times: hysteresis and every cap on, so that each
// stage of Update is in the figure.
func benchOptions(k int, backend string) Options {
	return Options{K: k, Hysteresis: DefaultHysteresis, MaxDegree: k + 1, MaxDist: 200, MaxDY: 150, Backend: backend}
}

// movingScene is n points spread over a 1920×1080 frame, each circling its own centre at
// about 1 px per frame, so that successive frames are what a tracker would report.
type movingScene struct {
	cx, cy, r, phase, w []float64
	pts                 []scene.Point
}

func newMovingScene(n int) *movingScene {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	s := &movingScene{pts: make([]scene.Point, n)}
	for i := range n {
		r := 10 + rng.Float64()*30
		s.cx = append(s.cx, rng.Float64()*1920)
		s.cy = append(s.cy, rng.Float64()*1080)
		s.r = append(s.r, r)
		s.phase = append(s.phase, rng.Float64()*2*math.Pi)
		s.w = append(s.w, (0.5+rng.Float64())/r) // 0.5 to 1.5 px per frame
		s.pts[i].ID = i + 1
	}
	return s
}

// frame returns the points at frame f, in a slice reused by the next call.
func (s *movingScene) frame(f int) []scene.Point {
	for i := range s.pts {
		a := s.phase[i] + s.w[i]*float64(f)
		s.pts[i].X = float32(s.cx[i] + s.r[i]*math.Cos(a))
		s.pts[i].Y = float32(s.cy[i] + s.r[i]*math.Sin(a))
	}
	return s.pts
}

// Linker computes a frame's links the way Graph.Update does, in steps: Update computes them
// (and keeps what the next frame's hysteresis needs), Edges returns them as Update's edges.
// RunBenchmark times a Graph behind this interface, and so other link builders beside it:
// the GPU backend's link update (package kernels/gpu), whose edges stay on the device
// unless asked for.
type Linker interface {
	Update(pts []scene.Point) error
	Edges() ([]Edge, error)
	Close() error
}

// BenchLinker is a link builder outside this package for RunBenchmark to time, in rows of
// its own beside the search backends.
type BenchLinker struct {
	Name string // the rows' backend
	Note string // what its figures are, printed with the table (for example: emulated)
	// New starts the builder with the benchmark's options.
	New func(Options) (Linker, error)
}

// graphRows are RunBenchmark's rows of the graphs other than kNN at n points, each named by
// its graph. The radius graph's MaxDist is the radius within which a point of the moving
// scene has k others on average, √(k·1920·1080/(π·n)), so that its rows link about as many
// pairs as kNN's (at the benchmark's 200 px, 100 000 points would make 6 000 pairs a point).
func graphRows(n, k int) []BenchLinker {
	var rows []BenchLinker
	for _, graph := range Graphs[1:] {
		rows = append(rows, BenchLinker{Name: graph, New: func(o Options) (Linker, error) {
			o.Graph = graph
			if graph == GraphRadius {
				o.MaxDist = benchRadius(n, k)
			}
			g, err := New(o)
			return &graphLinker{Graph: g}, err
		}})
	}
	return rows
}

// benchRadius is the radius graph's MaxDist in RunBenchmark's rows of n points.
func benchRadius(n, k int) float64 {
	return math.Round(math.Sqrt(float64(k)*1920*1080/(math.Pi*float64(n)))*10) / 10
}

// graphLinker is a Graph as a Linker.
type graphLinker struct {
	*Graph
	edges []Edge
}

func (g *graphLinker) Update(pts []scene.Point) (err error) {
	g.edges, err = g.Graph.Update(pts)
	return err
}

func (g *graphLinker) Edges() ([]Edge, error) { return g.edges, nil }

// BenchResult is one row of RunBenchmark's output.
type BenchResult struct {
	Backend  string  `json:"backend"`
	Points   int     `json:"points"`
	Frames   int     `json:"frames,omitempty"`    // frames timed
	MedianMS float64 `json:"median_ms,omitempty"` // median time of Update over the timed frames
	MinMS    float64 `json:"min_ms,omitempty"`
	Links    int     `json:"links,omitempty"`   // links in the first frame
	Skipped  string  `json:"skipped,omitempty"` // why the row was not run
	Note     string  `json:"note,omitempty"`    // what the figure is, when not the host's own time
}

// BenchSpec says what RunBenchmark times.
type BenchSpec struct {
	Sizes []int // point counts; DefaultBenchSizes if empty
	K     int   // neighbours
	// Frames is the most frames a row times; 0: defaultBenchFrames. A row stops sooner
	// once it has timed 3 frames and benchRowBudget of them.
	Frames int
	// Searches are the kNN search backends timed, in Backends' order whatever the order
	// here; empty: every one built in, and the other graphs' rows after them (which no
	// search backend builds). Naming some is for timing those alone beside Extra.
	Searches []string
	JSON     bool          // one JSON object at the end instead of a table row by row
	Extra    []BenchLinker // other link builders (the device's kNN), timed after the host's rows
}

// RunBenchmark times Graph.Update (search, hysteresis and caps) on smoothly moving points
// for each size and each search backend, with k neighbours and benchOptions. Each row is
// the median over its frames: the first frame, which sizes the buffers and has no
// hysteresis state yet, is not timed unless it took over a second (one more slow frame
// would add little); then frames until spec.Frames (or defaultBenchFrames), or sooner once
// at least 3 frames and benchRowBudget of them are timed, so that a slow row (Delaunay at
// 100 000 points: 0.14 s a frame) cannot hold the benchmark for minutes.
// Brute force and FAISS are skipped above 20 000 points. The other graphs (radius within
// the options' MaxDist, Delaunay, the tree; built on the host) follow, unless spec.Searches
// names backends, then the extra link builders (the device's kNN) are timed the same way.
// It also checks that every kNN row agrees with the first kNN row on the first frame's
// links (or, where every search named was skipped, with the grid's). It writes a table, each row as soon as it is measured (a long run shows its
// progress; it printed nothing until the end), or with spec.JSON one JSON object
// {"k":…,"gomaxprocs":…,"results":[BenchResult…]} at the end.
func RunBenchmark(w io.Writer, spec BenchSpec) error {
	sizes, k, extra := spec.Sizes, spec.K, spec.Extra
	if len(sizes) == 0 {
		sizes = DefaultBenchSizes
	}
	if err := benchOptions(k, "").Validate(); err != nil {
		return err
	}
	for _, n := range sizes {
		if n < 2 {
			return fmt.Errorf("knn benchmark: %d points is too few to link", n)
		}
	}
	searches := Backends()
	if len(spec.Searches) > 0 {
		searches = slices.DeleteFunc(slices.Clone(searches), func(b string) bool { return !slices.Contains(spec.Searches, b) })
		for _, b := range spec.Searches {
			if !slices.Contains(searches, b) {
				if err := benchOptions(k, b).Validate(); err != nil {
					return err // says why: unknown, or not built in
				}
				return fmt.Errorf("knn benchmark: no search backend %q", b)
			}
		}
	}
	otherGraphs := len(spec.Searches) == 0
	var names []string
	names = append(names, searches...)
	if otherGraphs {
		names = append(names, Graphs[1:]...)
	}
	for _, e := range extra {
		names = append(names, e.Name)
	}
	tab := newBenchTable(names, sizes)
	if !spec.JSON {
		fmt.Fprintf(w, "knn: Update on moving points, k=%d, %s, GOMAXPROCS=%d\n", k, describe(benchOptions(k, "")), runtime.GOMAXPROCS(0))
		if _, err := io.WriteString(w, tab.header()); err != nil {
			return err
		}
	}
	var results []BenchResult
	for _, n := range sizes {
		sc := newMovingScene(n)
		var rows []BenchLinker
		for _, b := range searches {
			rows = append(rows, BenchLinker{Name: b, New: func(o Options) (Linker, error) {
				g, err := New(o)
				return &graphLinker{Graph: g}, err
			}})
		}
		if otherGraphs {
			rows = append(rows, graphRows(n, k)...)
		}
		rows = append(rows, extra...)
		var refHash uint64
		ref := "" // the first kNN row, which the others must agree with
		for _, row := range rows {
			b := row.Name
			var res BenchResult
			if (b == BackendFAISS || b == BackendBrute) && n > exhaustiveBenchLimit {
				res = BenchResult{Backend: b, Points: n,
					Skipped: fmt.Sprintf("O(n²): not run above %d points", exhaustiveBenchLimit)}
			} else {
				var h uint64
				var err error
				if res, h, err = benchOne(sc, n, k, spec.Frames, row); err != nil {
					return err
				}
				switch {
				case slices.Contains(Graphs, b): // another graph: other links
				case ref == "" && slices.Contains(searches, b):
					ref, refHash = b, h
				default:
					if ref == "" {
						// Every search named was skipped at this size: the grid's links on the
						// first frame, the one search never skipped, are the reference.
						if refHash, err = gridFirstFrame(sc, k); err != nil {
							return err
						}
						ref = "the grid (its first frame)"
					}
					if h != refHash {
						return fmt.Errorf("knn benchmark: %s and %s disagree on the links of %d points", b, ref, n)
					}
				}
			}
			results = append(results, res)
			if !spec.JSON {
				if _, err := io.WriteString(w, tab.row(res)); err != nil {
					return err
				}
			}
		}
	}
	if spec.JSON {
		enc := json.NewEncoder(w)
		return enc.Encode(struct {
			K          int           `json:"k"`
			GOMAXPROCS int           `json:"gomaxprocs"`
			Options    string        `json:"options"`
			Results    []BenchResult `json:"results"`
		}{k, runtime.GOMAXPROCS(0), describe(benchOptions(k, "")), results})
	}
	if otherGraphs {
		fmt.Fprintf(w, "radius, delaunay, mst: the other link graphs, built on the host (the device builds kNN only); radius within √(k·1920·1080/(π·n)): %s\n", radiusNote(sizes, k))
	}
	for _, e := range extra {
		if e.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", e.Name, e.Note)
		}
	}
	return nil
}

// benchTable lays out RunBenchmark's table a row at a time: the columns' widths are fixed
// before the first row from what the rows can hold, since a row is printed as soon as it
// is measured (a tabwriter would hold every row until the end).
type benchTable struct{ name, points int }

func newBenchTable(names []string, sizes []int) benchTable {
	t := benchTable{name: len("backend"), points: len("points")}
	for _, s := range names {
		t.name = max(t.name, len(s))
	}
	for _, n := range sizes {
		t.points = max(t.points, len(fmt.Sprint(n)))
	}
	return t
}

func (t benchTable) header() string {
	return fmt.Sprintf("%*s  %*s  %6s  %10s  %10s  %8s\n", t.name, "backend", t.points, "points", "frames", "median ms", "min ms", "links")
}

func (t benchTable) row(r BenchResult) string {
	if r.Skipped != "" {
		return fmt.Sprintf("%*s  %*d  %6s  %10s  %10s  %8s  skipped: %s\n", t.name, r.Backend, t.points, r.Points, "-", "-", "-", "-", r.Skipped)
	}
	return fmt.Sprintf("%*s  %*d  %6d  %10.3f  %10.3f  %8d\n", t.name, r.Backend, t.points, r.Points, r.Frames, r.MedianMS, r.MinMS, r.Links)
}

// radiusNote lists the radius graph's reach at each size: "181.7 px at 100 points, 57.4 px
// at 1000 points" (the figures ran together without the commas and units).
func radiusNote(sizes []int, k int) string {
	parts := make([]string, len(sizes))
	for i, n := range sizes {
		parts[i] = fmt.Sprintf("%g px at %d points", benchRadius(n, k), n)
	}
	return strings.Join(parts, ", ")
}

func describe(o Options) string {
	return fmt.Sprintf("hysteresis %g, max-degree %d, max-dist %g, max-dy %g", o.Hysteresis, o.MaxDegree, o.MaxDist, o.MaxDY)
}

// defaultBenchFrames is the most frames RunBenchmark times per row when not told how many.
const defaultBenchFrames = 50

// benchRowBudget is the time after which a row stops, once it has timed 3 frames, however
// many frames it was given: about a second a row keeps a whole run within a lease of a
// GPU machine.
const benchRowBudget = time.Second

// benchNow is benchOne's clock; a test's link builder advances one of its own.
var benchNow = time.Now

// edgesHash is a hash of links es, in their order: rows that build the same links give the
// same hash.
func edgesHash(es []Edge) uint64 {
	h := fnv.New64a()
	for _, e := range es {
		fmt.Fprintf(h, "%d-%d,", e.A, e.B)
	}
	return h.Sum64()
}

// gridFirstFrame is edgesHash of the grid's links on sc's first frame: the reference for a
// size at which every search named was skipped.
func gridFirstFrame(sc *movingScene, k int) (uint64, error) {
	g, err := New(benchOptions(k, BackendGrid))
	if err != nil {
		return 0, err
	}
	defer g.Close()
	es, err := g.Update(sc.frame(0))
	if err != nil {
		return 0, err
	}
	return edgesHash(es), nil
}

// benchOne times one link builder at one size, up to frames frames as RunBenchmark says,
// and returns a hash of the first frame's links (edgesHash).
func benchOne(sc *movingScene, n, k, frames int, row BenchLinker) (BenchResult, uint64, error) {
	res := BenchResult{Backend: row.Name, Points: n, Note: row.Note}
	o := benchOptions(k, row.Name)
	if !slices.Contains(Backends(), row.Name) {
		o.Backend = "" // a builder of its own: the search backend does not apply
	}
	g, err := row.New(o)
	if err != nil {
		return res, 0, err
	}
	defer g.Close()
	var times []float64
	start := benchNow()
	err = g.Update(sc.frame(0))
	first := benchNow().Sub(start)
	if err != nil {
		return res, 0, err
	}
	es, err := g.Edges()
	if err != nil {
		return res, 0, err
	}
	res.Links = len(es)
	hash := edgesHash(es)
	var total time.Duration
	if first > time.Second {
		times = append(times, first.Seconds()*1e3)
		total = first
	}
	limit := cmp.Or(frames, defaultBenchFrames)
	for f := 1; len(times) < limit && (len(times) < 3 || total < benchRowBudget); f++ {
		pts := sc.frame(f)
		start := benchNow()
		if err := g.Update(pts); err != nil {
			return res, 0, err
		}
		d := benchNow().Sub(start)
		total += d
		times = append(times, d.Seconds()*1e3)
	}
	slices.Sort(times)
	res.Frames = len(times)
	// Microseconds are the timer's useful resolution here.
	us := func(ms float64) float64 { return math.Round(ms*1e3) / 1e3 }
	res.MedianMS = us((times[(len(times)-1)/2] + times[len(times)/2]) / 2)
	res.MinMS = us(times[0])
	return res, hash, nil
}
