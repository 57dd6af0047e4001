package knn

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"trackink/scene"
)

// pile makes n points of a shape that used to make the grid search quadratic: all on one
// spot, on a slanted line, on a short horizontal segment amid points spread over the frame,
// on a vertical line in whole-pixel steps (a hundred points a step); or spread over the
// frame; ids shuffled, in shuffled order.
func pile(rng *rand.Rand, shape string, n int) []scene.Point {
	pts := make([]scene.Point, n)
	for i := range pts {
		var x, y float64
		switch shape {
		case "one spot":
			x, y = 300.5, 200.25
		case "slanted line":
			x, y = float64(i)*0.05, float64(i)*0.03
		case "segment amid a spread":
			x, y = 800+rng.Float64()*10, 500
			if i%2 == 0 {
				x, y = rng.Float64()*1920, rng.Float64()*1080
			}
		case "vertical steps":
			x, y = 700, float64(rng.IntN(n/100))
		case "spread": // nothing piled: for the caps
			x, y = rng.Float64()*1920, rng.Float64()*1080
		default:
			panic(shape)
		}
		pts[i] = scene.Point{X: float32(x), Y: float32(y)}
	}
	for i, id := range rng.Perm(n) {
		pts[i].ID = id
	}
	return pts
}

var piles = []string{"one spot", "slanted line", "segment amid a spread", "vertical steps"}

// searchEvals returns the squared distances the grid's queries computed since the last
// call, summed over the Graph's workers (the kNN search) or in its radius search.
func searchEvals(g *Graph) int {
	if g.geo != nil {
		e := g.geo.query.evals
		g.geo.query.evals = 0
		return e
	}
	e := 0
	for w := range g.workers {
		e += g.workers[w].query.evals
		g.workers[w].query.evals = 0
	}
	return e
}

// TestSearchOfPilesBounded: on 20 000 points piled on one spot, on lines and on a short
// segment, the kNN grid search computes at most 10·k squared distances a point, in a frame
// of new tracks (no neighbours of the last frame to start from) and in the next: the work
// of points spread over the frame (about 6·k and 4·k), where it was n a point on one spot
// (20 000: 4.5 s a frame) and O(√n) on a line. The radius graph's search, whose list is the
// cap on links per point, stays within a few times that cap a point.
func TestSearchOfPilesBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 37))
	const n, k = 20000, 5
	for _, shape := range piles {
		pts := pile(rng, shape, n)
		g := newGraph(t, Options{K: k, Hysteresis: DefaultHysteresis})
		for f, when := range []string{"new tracks", "steady"} {
			if _, err := g.Update(pts); err != nil {
				t.Fatal(err)
			}
			e := searchEvals(g)
			t.Logf("%s, %s: %.1f distances a point", shape, when, float64(e)/n)
			if e > 10*k*n {
				t.Errorf("%s, frame %d (%s): %d distances for %d points, want at most %d", shape, f, when, e, n, 10*k*n)
			}
		}
		const perPoint = 32
		r := newGraph(t, Options{K: 1, Graph: GraphRadius, MaxDist: 1e9, MaxLinksPerPoint: perPoint, Hysteresis: DefaultHysteresis})
		for range 2 {
			if _, err := r.Update(pts); err != nil {
				t.Fatal(err)
			}
			// Two searches a point (radiusPairs), each at most eight lists' worth.
			if e := searchEvals(r); e > 2*8*(perPoint+1)*n {
				t.Errorf("%s, radius: %d distances for %d points, want at most %d", shape, e, n, 2*8*(perPoint+1)*n)
			}
		}
	}
}

// TestSearchOfPilesExact holds the grid search to the definition on smaller piles.
func TestSearchOfPilesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 38))
	for _, shape := range piles {
		for _, k := range []int{1, 5, 17} {
			checkSearch(t, pile(rng, shape, 1200), k)
		}
	}
}

// capsReference applies the caps to all the links of a frame, the slow way (no
// hysteresis): the MaxDegree rule with the cap on links per point (a link kept when among
// the first `degree` at both ends in (squared length, other end's rank) order), then the
// cap on links per frame (the first MaxLinks in (squared length, lower rank, higher rank)
// order). It returns the links and how many each cap dropped.
func capsReference(o Options, xs, ys []float64, all [][2]int32) (kept [][2]int32, perPoint, perFrame int) {
	d2 := func(e [2]int32) float64 { return dist2(xs[e[0]], ys[e[0]], xs[e[1]], ys[e[1]]) }
	byLength := func(a, b [2]int32) int {
		return cmp.Or(cmp.Compare(d2(a), d2(b)), cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	}
	m, byPoint := o.degree()
	if o.Graph == "" || o.Graph == GraphKNN {
		m, byPoint = math.MaxInt, false
	}
	at := map[int32][][2]int32{}
	for _, e := range all {
		at[e[0]], at[e[1]] = append(at[e[0]], e), append(at[e[1]], e)
	}
	first := func(r int32, e [2]int32) bool {
		ls := at[r]
		other := func(l [2]int32) int32 { return l[0] + l[1] - r }
		slices.SortFunc(ls, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(d2(a), d2(b)), cmp.Compare(other(a), other(b))) })
		return slices.Index(ls, e) < m
	}
	for _, e := range all {
		if first(e[0], e) && first(e[1], e) {
			kept = append(kept, e)
		} else if byPoint {
			perPoint++
		}
	}
	slices.SortFunc(kept, byLength)
	if len(kept) > o.linksPerFrame() {
		perFrame = len(kept) - o.linksPerFrame()
		kept = kept[:o.linksPerFrame()]
	}
	return rankEdges(kept), perPoint, perFrame
}

// TestCapsMatchDefinition holds every graph under small caps on links per point and per
// frame to the caps applied to its uncapped links (each graph's definition, computed the
// slow way), on random and degenerate sets, and Capped to the links they dropped.
func TestCapsMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 39))
	names, sets := pointSets(rng, []int{9, 17, 40})
	for i, pts := range sets {
		xs, ys := byRank(pts)
		for _, c := range []struct {
			graph string
			all   func() [][2]int32
		}{
			{GraphKNN, func() [][2]int32 {
				return graphRanks(t, Options{K: min(3, max(1, len(pts)-1)), MaxLinks: math.MaxInt32}, pts)
			}},
			{GraphRadius, func() [][2]int32 { return bruteRadius(xs, ys, 25) }},
			{GraphDelaunay, func() [][2]int32 { return bruteDelaunay(xs, ys) }},
			{GraphMST, func() [][2]int32 { return primMST(xs, ys) }},
		} {
			all := c.all()
			for _, caps := range [][2]int{{1, 1000}, {2, 5}, {3, 1000}, {5, 12}, {DefaultMaxLinksPerPoint, 1}} {
				o := Options{K: 1, Graph: c.graph, MaxLinksPerPoint: caps[0], MaxLinks: caps[1]}
				switch c.graph {
				case GraphKNN:
					o.K, o.MaxLinksPerPoint = min(3, max(1, len(pts)-1)), max(3, caps[0])
				case GraphRadius:
					o.MaxDist = 25
				}
				want, perPoint, perFrame := capsReference(o, xs, ys, all)
				for _, search := range []bool{false, true} { // the radius graph's two ways
					g := newGraph(t, o)
					if search && g.geo != nil {
						g.geo.pairBudget = 0
					}
					es, err := g.Update(pts)
					if err != nil {
						t.Fatal(err)
					}
					got := edgeRanks(t, pts, es)
					if !slices.Equal(got, want) {
						t.Fatalf("%s, %s, caps %v, search %v: got %d links %v, want %d %v", names[i], c.graph, caps, search, len(got), got, len(want), want)
					}
					if cp := g.Capped(); cp.PerPoint != perPoint || cp.PerFrame != perFrame || (cp.Frames == 1) != (perPoint+perFrame > 0) {
						t.Errorf("%s, %s, caps %v, search %v: Capped %+v, want %d per point and %d per frame", names[i], c.graph, caps, search, cp, perPoint, perFrame)
					}
				}
			}
		}
	}
}

// allPairsRadius is the radius graph with every pair within MaxDist as candidates, then
// caps (hysteresis and every cap included), on the same geoGraph steps, however many pairs
// there are: the bounded search must give the same links frame after frame.
type allPairsRadius struct{ g *geoGraph }

func (r *allPairsRadius) update(t *testing.T, pts []scene.Point) []Edge {
	g := r.g
	var err error
	if g.perm, err = Order(pts, g.perm); err != nil {
		t.Fatal(err)
	}
	n := len(pts)
	g.ids, g.xs, g.ys = grow(g.ids, n), grow(g.xs, n), grow(g.ys, n)
	for rk, i := range g.perm {
		g.ids[rk], g.xs[rk], g.ys[rk] = pts[i].ID, float64(pts[i].X), float64(pts[i].Y)
	}
	g.matchPrevious()
	g.cand = g.cand[:0]
	for a := range int32(n) {
		for b := a + 1; b < int32(n); b++ {
			if dist2(g.xs[a], g.ys[a], g.xs[b], g.ys[b]) <= g.maxD2 {
				g.cand = append(g.cand, [2]int32{a, b})
			}
		}
	}
	g.caps(0)
	g.emit()
	return g.out
}

// TestRadiusSearchMatchesAllPairs: with hysteresis, MaxDY and the caps biting, the radius
// graph's bounded search gives, frame after frame of jitter, the links that every pair
// within MaxDist gives under the same rules, and counts the links the cap on links per
// point dropped as those do.
func TestRadiusSearchMatchesAllPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 40))
	frames := jitterScene(rng, 30, 1, 3)
	for _, o := range []Options{
		{MaxDist: 200, MaxLinksPerPoint: 3},
		{MaxDist: 400, MaxLinksPerPoint: 6, MaxDY: 60},
		{MaxDist: 150, MaxLinksPerPoint: 4, MaxDegree: 2},
		{MaxDist: 300, MaxLinksPerPoint: 8, MaxLinks: 150},
		{MaxDist: 1e9, MaxLinksPerPoint: 5},
	} {
		o.K, o.Graph, o.Hysteresis = 1, GraphRadius, 0.3
		g := newGraph(t, o)
		g.geo.pairBudget = 0 // never every pair: the search
		ref := &allPairsRadius{newGeoGraph(o)}
		for f, pts := range frames {
			es, err := g.Update(pts)
			if err != nil {
				t.Fatal(err)
			}
			got, want := idEdges(t, pts, es), idEdges(t, pts, ref.update(t, pts))
			if !slices.Equal(got, want) {
				t.Fatalf("%+v, frame %d: the search gives %d links, every pair %d", o, f, len(got), len(want))
			}
		}
		if got, want := g.Capped(), ref.g.capped; got != want {
			t.Errorf("%+v: Capped %+v, every pair %+v", o, got, want)
		}
	}
}

// TestCapsBoundLinks: 20 000 points on one spot, 3 000 spread with a radius that holds them
// all, 20 000 on a slanted line: every graph draws at most the cap on links per point at
// each point (kNN: each point links to its k) and the cap on links per frame in all, and
// Capped counts every link it dropped; for the radius graph that is every pair within
// MaxDist less those kept (all pairs of 20 000 points: 2·10⁸, which took 24 GB to list).
func TestCapsBoundLinks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 41))
	spread := pile(rng, "spread", 3000)
	for _, c := range []struct {
		name string
		pts  []scene.Point
		o    Options
		// pairs is the number of pairs within MaxDist for the radius graph
		pairs int
	}{
		{"radius, one spot", pile(rng, "one spot", 20000), Options{Graph: GraphRadius, MaxDist: 10}, 20000 * 19999 / 2},
		{"radius, one spot, small caps", pile(rng, "one spot", 20000), Options{Graph: GraphRadius, MaxDist: 10, MaxLinksPerPoint: 7, MaxLinks: 20}, 20000 * 19999 / 2},
		{"radius, spread", spread, Options{Graph: GraphRadius, MaxDist: 1e9}, 3000 * 2999 / 2},
		{"radius, spread, frame cap", spread, Options{Graph: GraphRadius, MaxDist: 1e9, MaxLinks: 10000}, 3000 * 2999 / 2},
		{"radius, slanted line", pile(rng, "slanted line", 20000), Options{Graph: GraphRadius, MaxDist: 1e9, MaxLinksPerPoint: 16}, 20000 * 19999 / 2},
		{"knn, one spot", pile(rng, "one spot", 20000), Options{K: 5, MaxLinks: 50000}, 0},
		{"delaunay, one spot", pile(rng, "one spot", 20000), Options{Graph: GraphDelaunay, MaxLinksPerPoint: 10}, 0},
		{"mst, one spot", pile(rng, "one spot", 20000), Options{Graph: GraphMST}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.K, o.Hysteresis = max(o.K, 1), DefaultHysteresis
			g := newGraph(t, o)
			n := len(c.pts)
			perPoint, perFrame := o.linksPerPoint(), o.linksPerFrame()
			for f := range 2 {
				es, err := g.Update(c.pts)
				if err != nil {
					t.Fatal(err)
				}
				degree := map[int32]int{}
				for _, e := range es {
					degree[e.A]++
					degree[e.B]++
				}
				maxDegree := 0
				for _, d := range degree {
					maxDegree = max(maxDegree, d)
				}
				t.Logf("frame %d: %d links, at most %d at a point; %+v", f, len(es), maxDegree, g.Capped())
				if len(es) > perFrame || len(es) > n*perPoint/2 {
					t.Errorf("frame %d: %d links for %d points, caps %d a point and %d a frame", f, len(es), n, perPoint, perFrame)
				}
				if o.Graph != GraphKNN && o.Graph != "" && maxDegree > perPoint {
					t.Errorf("frame %d: a point has %d links, the cap is %d", f, maxDegree, perPoint)
				}
				cp := g.Capped()
				if c.pairs > 0 && cp.PerPoint+cp.PerFrame != (f+1)*(c.pairs-len(es)) {
					t.Errorf("frame %d: Capped %+v, want %d dropped a frame (%d pairs, %d kept)", f, cp, c.pairs-len(es), c.pairs, len(es))
				}
				if cp.Frames != f+1 {
					t.Errorf("frame %d: Capped %+v: the caps bite every frame", f, cp)
				}
			}
		})
	}
}

// TestCapsValidated: a negative cap, and more neighbours than a point may have links, are
// refused naming the field; zero means the default.
func TestCapsValidated(t *testing.T) {
	for _, c := range []struct {
		o     Options
		field string
	}{
		{Options{K: 5, MaxLinksPerPoint: -1}, "knn.Options.MaxLinksPerPoint"},
		{Options{K: 5, MaxLinks: -1}, "knn.Options.MaxLinks"},
		{Options{K: DefaultMaxLinksPerPoint + 1}, "knn.Options.K"},
		{Options{K: 9, MaxLinksPerPoint: 8}, "knn.Options.K"},
		{Options{K: 9, MaxLinksPerPoint: 8, Graph: GraphMST}, ""},
		{Options{K: 8, MaxLinksPerPoint: 8, MaxLinks: 1}, ""},
		{Options{K: DefaultMaxLinksPerPoint}, ""},
	} {
		err := c.o.Validate()
		if c.field == "" && err != nil || c.field != "" && (err == nil || !strings.HasPrefix(err.Error(), c.field)) {
			t.Errorf("%+v: %v, want an error naming %q", c.o, err, c.field)
		}
	}
	if o := (Options{}); o.linksPerPoint() != DefaultMaxLinksPerPoint || o.linksPerFrame() != DefaultMaxLinks {
		t.Errorf("zero caps are %d and %d, want the defaults", o.linksPerPoint(), o.linksPerFrame())
	}
}

// BenchmarkPiles times Update on a frame of points piled up (each graph, the default caps),
// the cases that once broke it: kNN on 20 000 points on one spot took 7 s a frame, the radius
// graph on 3 000 points within 10⁹ px 37 s and 1.5 GB, on 20 000 on one spot within 10 px
// more than 24 GB (here 5 000, which the old code could finish).
func BenchmarkPiles(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 43))
	spread := pile(rng, "spread", 3000)
	for _, c := range []struct {
		graph, shape string
		pts          []scene.Point
		maxDist      float64
	}{
		{GraphKNN, "one spot", pile(rng, "one spot", 20000), 0},
		{GraphKNN, "slanted line", pile(rng, "slanted line", 20000), 0},
		{GraphKNN, "segment amid a spread", pile(rng, "segment amid a spread", 20000), 0},
		{GraphKNN, "vertical steps", pile(rng, "vertical steps", 20000), 0},
		{GraphRadius, "spread", spread, 1e9},
		{GraphRadius, "one spot", pile(rng, "one spot", 5000), 10},
		{GraphDelaunay, "one spot", pile(rng, "one spot", 20000), 0},
		{GraphMST, "one spot", pile(rng, "one spot", 20000), 0},
	} {
		b.Run(fmt.Sprintf("%s/%s/n=%d", c.graph, c.shape, len(c.pts)), func(b *testing.B) {
			g, err := New(Options{K: 5, Graph: c.graph, MaxDist: c.maxDist, Hysteresis: DefaultHysteresis})
			if err != nil {
				b.Fatal(err)
			}
			defer g.Close()
			links := 0
			for b.Loop() {
				es, err := g.Update(c.pts)
				if err != nil {
					b.Fatal(err)
				}
				links = len(es)
			}
			b.ReportMetric(float64(links), "links")
		})
	}
}
