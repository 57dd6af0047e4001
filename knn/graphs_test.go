package knn

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"trackink/scene"
)

// rankEdges turns rank pairs into sorted (lower, higher) pairs without repeats.
func rankEdges(es [][2]int32) [][2]int32 {
	out := make([][2]int32, 0, len(es))
	for _, e := range es {
		out = append(out, [2]int32{min(e[0], e[1]), max(e[0], e[1])})
	}
	slices.SortFunc(out, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return slices.Compact(out)
}

// representatives returns, by rank, the lowest rank at the same coordinates.
func representatives(xs, ys []float64) []int32 {
	rep := make([]int32, len(xs))
	for r := range xs {
		rep[r] = int32(r)
		for q := range r {
			if xs[q] == xs[r] && ys[q] == ys[r] {
				rep[r] = int32(q)
				break
			}
		}
	}
	return rep
}

// bruteDelaunay is the definition, in O(n⁴): among the distinct points (each duplicate
// linked to the lowest rank at its place), a triangle is Delaunay when no other point is in
// its circumcircle under the same symbolic perturbation; all points collinear, consecutive
// points along the line.
func bruteDelaunay(xs, ys []float64) [][2]int32 {
	rep := representatives(xs, ys)
	d := &delaunay{xs: xs, ys: ys}
	var es [][2]int32
	var reps []int32
	for r := range xs {
		if rep[r] != int32(r) {
			es = append(es, [2]int32{rep[r], int32(r)})
		} else {
			reps = append(reps, int32(r))
		}
	}
	triangles := false
	for i, a := range reps {
		for j := i + 1; j < len(reps); j++ {
			for k := j + 1; k < len(reps); k++ {
				b, c := reps[j], reps[k]
				o := orient(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c])
				if o == 0 {
					continue
				}
				triangles = true
				p, q := b, c
				if o < 0 {
					p, q = c, b
				}
				empty := true
				for _, e := range reps {
					if e == a || e == b || e == c {
						continue
					}
					s := incircle(xs[a], ys[a], xs[p], ys[p], xs[q], ys[q], xs[e], ys[e])
					if s == 0 {
						s = d.perturbed(a, p, q, e)
					}
					if s > 0 {
						empty = false
						break
					}
				}
				if empty {
					es = append(es, [2]int32{a, b}, [2]int32{b, c}, [2]int32{a, c})
				}
			}
		}
	}
	if !triangles && len(reps) > 1 {
		slices.SortFunc(reps, func(a, b int32) int { return cmp.Or(cmp.Compare(xs[a], xs[b]), cmp.Compare(ys[a], ys[b])) })
		for i := 1; i < len(reps); i++ {
			es = append(es, [2]int32{reps[i-1], reps[i]})
		}
	}
	return rankEdges(es)
}

// primMST is the minimum spanning tree of the complete graph by Prim's O(n²) algorithm,
// edges ordered by (exact squared length, lower rank, higher rank): a strict order, so the
// tree is unique and Kruskal's on the Delaunay edges must find the same.
func primMST(xs, ys []float64) [][2]int32 {
	n := len(xs)
	type cand struct {
		d2     float64
		lo, hi int32
	}
	less := func(a, b cand) bool {
		exact := cmp.Compare(a.d2, b.d2)
		if exact == 0 && a.lo != math.MaxInt32 && b.lo != math.MaxInt32 {
			exact = cmpDist2Exact(xs[a.lo], ys[a.lo], xs[a.hi], ys[a.hi], xs[b.lo], ys[b.lo], xs[b.hi], ys[b.hi])
		}
		return cmp.Or(exact, cmp.Compare(a.lo, b.lo), cmp.Compare(a.hi, b.hi)) < 0
	}
	in := make([]bool, n)
	best := make([]cand, n)
	for r := range best {
		best[r] = cand{d2: math.Inf(1), lo: math.MaxInt32}
	}
	var es [][2]int32
	cur := int32(0)
	for range n - 1 {
		in[cur] = true
		for r := range int32(n) {
			if in[r] {
				continue
			}
			c := cand{dist2(xs[cur], ys[cur], xs[r], ys[r]), min(cur, r), max(cur, r)}
			if less(c, best[r]) {
				best[r] = c
			}
		}
		next := int32(-1)
		for r := range int32(n) {
			if !in[r] && (next < 0 || less(best[r], best[next])) {
				next = r
			}
		}
		es = append(es, [2]int32{best[next].lo, best[next].hi})
		cur = next
	}
	return rankEdges(es)
}

// bruteRadius is every pair within radius.
func bruteRadius(xs, ys []float64, radius float64) [][2]int32 {
	var es [][2]int32
	for a := range xs {
		for b := a + 1; b < len(xs); b++ {
			if dist2(xs[a], ys[a], xs[b], ys[b]) <= radius*radius {
				es = append(es, [2]int32{int32(a), int32(b)})
			}
		}
	}
	return rankEdges(es)
}

// graphRanks runs one frame of graph on pts (no caps, no hysteresis) and returns the links
// as rank pairs, checking Update's documented edge order on the way.
func graphRanks(t testing.TB, o Options, pts []scene.Point) [][2]int32 {
	t.Helper()
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	es, err := g.Update(pts)
	if err != nil {
		t.Fatal(err)
	}
	return edgeRanks(t, pts, es)
}

// edgeRanks turns Update's edges into rank pairs, checking their documented order on the way.
func edgeRanks(t testing.TB, pts []scene.Point, es []Edge) [][2]int32 {
	t.Helper()
	ids := make([]int, len(pts))
	for i, p := range pts {
		ids[i] = p.ID
	}
	slices.Sort(ids)
	var out [][2]int32
	for i, e := range es {
		a, b := pts[e.A].ID, pts[e.B].ID
		ra, _ := slices.BinarySearch(ids, a)
		rb, _ := slices.BinarySearch(ids, b)
		if a >= b || i > 0 && cmp.Or(cmp.Compare(out[i-1][0], int32(ra)), cmp.Compare(out[i-1][1], int32(rb))) >= 0 {
			t.Fatalf("edge %d (ids %d, %d) out of order", i, a, b)
		}
		out = append(out, [2]int32{int32(ra), int32(rb)})
	}
	return out
}

// degenerate point sets the graphs must get exactly right, beside knntest's shapes.
func degenerate(rng *rand.Rand, shape string, n int) []scene.Point {
	pts := make([]scene.Point, n)
	for i := range pts {
		var x, y float64
		switch shape {
		case "grid": // every 2×2 block of cells cocircular, many points on one row or column
			x, y = float64(i%5)*10, float64(i/5)*10
		case "grid-duplicates":
			x, y = float64(rng.IntN(4))*7, float64(rng.IntN(4))*7
		case "circle": // on one circle up to float32 rounding, and exactly at 0°, 90°, …
			a := float64(rng.IntN(16)) * math.Pi / 8
			x, y = 100+50*math.Cos(a), 100+50*math.Sin(a)
		case "square-circle": // integer points on the circle of radius 5: all cocircular
			c := [][2]float64{{5, 0}, {4, 3}, {3, 4}, {0, 5}, {-3, 4}, {-4, 3}, {-5, 0}, {-4, -3}, {-3, -4}, {0, -5}, {3, -4}, {4, -3}}
			p := c[rng.IntN(len(c))]
			x, y = p[0], p[1]
		case "line-and-point": // collinear but for one point
			x, y = float64(i)*3, 0
			if i == n-1 {
				x, y = 7, 4
			}
		case "two-lines":
			x, y = float64(rng.IntN(8)), float64(rng.IntN(2))*5
		case "all-same":
			x, y = 3.25, -1.5
		case "huge": // float32's range: the float filters overflow, exact arithmetic decides
			x, y = float64(rng.IntN(5)-2)*1e37, float64(rng.IntN(5)-2)*1e37
			if i%3 == 0 {
				x, y = float64(rng.IntN(3))*1e-30, float64(rng.IntN(3))*1e-30
			}
		}
		pts[i] = scene.Point{X: float32(x), Y: float32(y)}
	}
	ids := rng.Perm(3 * n)
	for i := range pts {
		pts[i].ID = ids[i] - n
	}
	return pts
}

var degenerateShapes = []string{"grid", "grid-duplicates", "circle", "square-circle", "line-and-point", "two-lines", "all-same", "huge"}

// pointSets are the sets every graph is checked on: knntest's shapes and the degenerate ones.
func pointSets(rng *rand.Rand, sizes []int) (names []string, sets [][]scene.Point) {
	for _, n := range sizes {
		for _, s := range shapes {
			names, sets = append(names, fmt.Sprintf("%s/%d", s, n)), append(sets, genPoints(rng, s, n))
		}
		for _, s := range degenerateShapes {
			names, sets = append(names, fmt.Sprintf("%s/%d", s, n)), append(sets, degenerate(rng, s, n))
		}
	}
	return names, sets
}

// TestGraphsMatchBruteForce holds each graph to its definition computed the slow way, on
// random and degenerate sets: Delaunay to the O(n⁴) empty-circle test, the tree to Prim's
// algorithm on all pairs, radius to all pairs.
func TestGraphsMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 26))
	names, sets := pointSets(rng, []int{1, 2, 3, 4, 5, 9, 17, 40})
	for i, pts := range sets {
		xs, ys := byRank(pts)
		for _, c := range []struct {
			graph string
			want  [][2]int32
		}{
			{GraphDelaunay, bruteDelaunay(xs, ys)},
			{GraphMST, primMST(xs, ys)},
			{GraphRadius, bruteRadius(xs, ys, 25)},
		} {
			got := graphRanks(t, Options{K: 1, Graph: c.graph, MaxDist: map[bool]float64{true: 25}[c.graph == GraphRadius]}, pts)
			if !slices.Equal(got, c.want) {
				t.Errorf("%s, %s: got %d links %v, want %d %v", names[i], c.graph, len(got), got, len(c.want), c.want)
			}
		}
	}
}

// TestDelaunayEmptyCircles checks the triangulation itself on larger sets, without the
// perturbation: no point lies strictly inside a triangle's circumcircle, the triangles cover
// the hull (their areas add up to a fan of the hull's), and the MST matches Prim's.
func TestDelaunayEmptyCircles(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 27))
	names, sets := pointSets(rng, []int{200})
	for i, pts := range sets {
		xs, ys := byRank(pts)
		var d delaunay
		d.triangulate(xs, ys)
		d.collectEdges()
		area := 0.0
		for tr := range int32(len(d.tv) / 3) {
			if d.ghostTri(tr) {
				continue
			}
			a, b, c := d.tv[3*tr], d.tv[3*tr+1], d.tv[3*tr+2]
			if orient(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]) <= 0 {
				t.Fatalf("%s: triangle %d is not counter-clockwise", names[i], tr)
			}
			area += ((xs[b]-xs[a])*(ys[c]-ys[a]) - (ys[b]-ys[a])*(xs[c]-xs[a])) / 2
			for e := range xs {
				if incircle(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c], xs[e], ys[e]) > 0 {
					t.Fatalf("%s: point %d inside the circumcircle of triangle %d, %d, %d", names[i], e, a, b, c)
				}
			}
		}
		if hull := hullArea(xs, ys); math.Abs(area-hull) > 1e-9*max(1, hull) {
			t.Errorf("%s: triangles cover %g, the hull %g", names[i], area, hull)
		}
		if got, want := graphRanks(t, Options{K: 1, Graph: GraphMST}, pts), primMST(xs, ys); !slices.Equal(got, want) {
			t.Errorf("%s: the tree differs from Prim's", names[i])
		}
	}
}

// hullArea is the area of the convex hull (monotone chain).
func hullArea(xs, ys []float64) float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Or(cmp.Compare(xs[a], xs[b]), cmp.Compare(ys[a], ys[b])) })
	var h []int
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, i := range idx {
			for len(h) >= start+2 && orient(xs[h[len(h)-2]], ys[h[len(h)-2]], xs[h[len(h)-1]], ys[h[len(h)-1]], xs[i], ys[i]) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, i)
		}
		h = h[:len(h)-1]
		slices.Reverse(idx)
	}
	area := 0.0
	for k := range h {
		a, b := h[k], h[(k+1)%len(h)]
		area += (xs[a]*ys[b] - xs[b]*ys[a]) / 2
	}
	return area
}

// TestPredicatesExact compares the filtered predicates with exact rational arithmetic on
// random, nearly collinear and nearly cocircular float32 inputs.
func TestPredicatesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 28))
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	det := func(a, b, c, d *big.Rat) *big.Rat { // a·d − b·c
		return new(big.Rat).Sub(new(big.Rat).Mul(a, d), new(big.Rat).Mul(b, c))
	}
	f32 := func(v float64) float64 { return float64(float32(v)) }
	for i := range 20000 {
		var p [8]float64
		base := rng.Float64() * 1000
		for k := range p {
			switch i % 3 {
			case 0:
				p[k] = f32(rng.Float64() * 1000)
			case 1: // nearly on a line or circle: a few ulps off
				p[k] = f32(base + float64(k%2)*float64(rng.IntN(3)))
			case 2:
				p[k] = f32(float64(rng.IntN(5)) * 0.125)
			}
		}
		ax, ay, bx, by, cx, cy, dx, dy := p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]
		o := det(new(big.Rat).Sub(rat(ax), rat(cx)), new(big.Rat).Sub(rat(ay), rat(cy)),
			new(big.Rat).Sub(rat(bx), rat(cx)), new(big.Rat).Sub(rat(by), rat(cy)))
		if got := orient(ax, ay, bx, by, cx, cy); got != o.Sign() {
			t.Fatalf("orient%v = %d, want %d", p[:6], got, o.Sign())
		}
		sq := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(new(big.Rat).Mul(x, x), new(big.Rat).Mul(y, y)) }
		d := func(v, w float64) *big.Rat { return new(big.Rat).Sub(rat(v), rat(w)) }
		adx, ady, bdx, bdy, cdx, cdy := d(ax, dx), d(ay, dy), d(bx, dx), d(by, dy), d(cx, dx), d(cy, dy)
		ic := new(big.Rat).Mul(sq(adx, ady), det(bdx, bdy, cdx, cdy))
		ic.Add(ic, new(big.Rat).Mul(sq(bdx, bdy), det(cdx, cdy, adx, ady)))
		ic.Add(ic, new(big.Rat).Mul(sq(cdx, cdy), det(adx, ady, bdx, bdy)))
		if got := incircle(ax, ay, bx, by, cx, cy, dx, dy); got != ic.Sign() {
			t.Fatalf("incircle%v = %d, want %d", p, got, ic.Sign())
		}
		// dist2Exact says exact only when it is.
		ab := sq(d(ax, bx), d(ay, by))
		if dist2Exact(ax, ay, bx, by) && ab.Cmp(new(big.Rat).SetFloat64(dist2(ax, ay, bx, by))) != 0 {
			t.Fatalf("dist2%v is not exact", p[:4])
		}
	}
}

// TestGraphsIgnoreInputOrder: the same tracks in another order give the same links, and
// so do they where the caps on links per point and per frame decide which are kept.
func TestGraphsIgnoreInputOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 29))
	names, sets := pointSets(rng, []int{30})
	for i, pts := range sets {
		for _, o := range []Options{{K: 1, MaxDist: 40}, {K: 3, MaxDist: 80, MaxLinksPerPoint: 3, MaxLinks: 20}} {
			for _, graph := range Graphs[1:] {
				o.Graph = graph
				want := graphRanks(t, o, pts)
				shuffled := slices.Clone(pts)
				rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
				if got := graphRanks(t, o, shuffled); !slices.Equal(got, want) {
					t.Errorf("%s, %s %+v: links change with the input order", names[i], graph, o)
				}
			}
		}
	}
}

// TestGraphCaps: no link beyond MaxDist or MaxDY, no point with more than MaxDegree links,
// and each kept link among the MaxDegree shortest at both ends.
func TestGraphCaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 30))
	for _, graph := range Graphs[1:] {
		for _, o := range []Options{
			{MaxDist: 60},
			{MaxDist: 200, MaxDY: 30},
			{MaxDist: 90, MaxDegree: 2},
			{MaxDist: 500, MaxDegree: 1, MaxDY: 100},
		} {
			o.K, o.Graph = 1, graph
			pts := genPoints(rng, "uniform", 300)
			for i := range pts {
				pts[i].X, pts[i].Y = pts[i].X/3, pts[i].Y/3
			}
			xs, ys := byRank(pts)
			all := graphRanks(t, Options{K: 1, Graph: graph, MaxDist: o.MaxDist}, pts)
			got := graphRanks(t, o, pts)
			degree := map[int32]int{}
			for _, e := range got {
				if d := math.Sqrt(dist2(xs[e[0]], ys[e[0]], xs[e[1]], ys[e[1]])); d > o.MaxDist {
					t.Fatalf("%s %+v: link %v is %g long", graph, o, e, d)
				}
				if dy := math.Abs(ys[e[0]] - ys[e[1]]); o.MaxDY > 0 && dy > o.MaxDY {
					t.Fatalf("%s %+v: link %v spans %g vertically", graph, o, e, dy)
				}
				degree[e[0]]++
				degree[e[1]]++
			}
			for r, d := range degree {
				if o.MaxDegree > 0 && d > o.MaxDegree {
					t.Fatalf("%s %+v: point %d has %d links", graph, o, r, d)
				}
			}
			if o.MaxDY == 0 && o.MaxDegree == 0 && !slices.Equal(got, all) {
				t.Fatalf("%s %+v: MaxDist alone changed the links", graph, o)
			}
			if len(got) == 0 {
				t.Fatalf("%s %+v: no links at all", graph, o)
			}
		}
	}
}

// TestGraphOptionsRejected: a bad graph name, and radius without its radius.
func TestGraphOptionsRejected(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{K: 1, Graph: "voronoi"}, "knn.Options.Graph"},
		{Options{K: 1, Graph: GraphRadius}, "knn.Options.MaxDist"},
	} {
		if _, err := New(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %s", c.o, err, c.want)
		}
	}
}

// TestGraphHysteresisCutsChurn counts the links added and removed per frame on jittering
// points, with and without hysteresis, for each graph: hysteresis must at least halve it.
func TestGraphHysteresisCutsChurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 31))
	frames := jitterScene(rng, 60, 0, 2)
	for _, o := range []Options{
		{Graph: GraphRadius, MaxDist: 150},
		{Graph: GraphDelaunay, MaxDist: 150},
		{Graph: GraphDelaunay}, // the flips alone
		{Graph: GraphMST},
	} {
		o.K = 1
		graph := fmt.Sprintf("%s, max-dist %g", o.Graph, o.MaxDist)
		off := edgeChurn(t, o, frames)
		o.Hysteresis = DefaultHysteresis
		on := edgeChurn(t, o, frames)
		t.Logf("%s: %.2f link changes per frame without hysteresis, %.2f with", graph, off, on)
		if !(on <= off/2) || off == 0 {
			t.Errorf("%s: %.2f changes per frame with hysteresis, %.2f without: want at most half", graph, on, off)
		}
	}
}

// FuzzGraphs builds each graph of up to 40 points on a small integer lattice (so that
// duplicates, collinear and cocircular points are common) and holds it to the brute-force
// references.
func FuzzGraphs(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 0, 1, 1, 1, 2, 2})
	f.Add([]byte{3, 3, 3, 3, 1, 1})
	f.Add([]byte{0, 0, 1, 1, 2, 2, 3, 3, 4, 4})
	f.Fuzz(func(t *testing.T, b []byte) {
		var pts []scene.Point
		for i := 0; i+1 < len(b) && len(pts) < 40; i += 2 {
			pts = append(pts, scene.Point{ID: len(pts) * 7 % 41, X: float32(b[i] % 9), Y: float32(b[i+1] % 9)})
		}
		xs, ys := byRank(pts)
		if got, want := graphRanks(t, Options{K: 1, Graph: GraphDelaunay}, pts), bruteDelaunay(xs, ys); !slices.Equal(got, want) {
			t.Fatalf("delaunay: got %v, want %v", got, want)
		}
		if got, want := graphRanks(t, Options{K: 1, Graph: GraphMST}, pts), primMST(xs, ys); !slices.Equal(got, want) {
			t.Fatalf("mst: got %v, want %v", got, want)
		}
		if got, want := graphRanks(t, Options{K: 1, Graph: GraphRadius, MaxDist: 3}, pts), bruteRadius(xs, ys, 3); !slices.Equal(got, want) {
			t.Fatalf("radius: got %v, want %v", got, want)
		}
	})
}

// TestDelaunayHysteresisStaysPlanar: with links flipped back, no two links of a frame cross
// (a triangulation's edges meet at their ends only), frame after frame of jitter.
func TestDelaunayHysteresisStaysPlanar(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 32))
	g := newGraph(t, Options{K: 1, Graph: GraphDelaunay, Hysteresis: 0.3})
	flipped := 0
	for f, pts := range jitterScene(rng, 40, 0, 3) {
		es, err := g.Update(pts)
		if err != nil {
			t.Fatal(err)
		}
		flipped += len(g.geo.flipped)
		for i, e := range es {
			for _, o := range es[i+1:] {
				p, q, r, s := pts[e.A], pts[e.B], pts[o.A], pts[o.B]
				if p.ID == r.ID || p.ID == s.ID || q.ID == r.ID || q.ID == s.ID {
					continue
				}
				x := func(a, b, c scene.Point) int {
					return orient(float64(a.X), float64(a.Y), float64(b.X), float64(b.Y), float64(c.X), float64(c.Y))
				}
				if x(p, q, r)*x(p, q, s) < 0 && x(r, s, p)*x(r, s, q) < 0 {
					t.Fatalf("frame %d: links %d–%d and %d–%d cross", f, p.ID, q.ID, r.ID, s.ID)
				}
			}
		}
	}
	if flipped == 0 {
		t.Fatal("no link was ever flipped back: the test tests nothing")
	}
	t.Logf("%d links flipped back over 40 frames", flipped)
}

// TestGraphsAllocateNothing: once its buffers have grown, a frame of moving points costs
// each graph no allocation (with hysteresis and every cap on).
func TestGraphsAllocateNothing(t *testing.T) {
	sc := newMovingScene(2000)
	for _, graph := range Graphs[1:] {
		o := benchOptions(5, "")
		o.Graph, o.MaxDist = graph, 60
		g := newGraph(t, o)
		f := 0
		next := func() {
			if _, err := g.Update(sc.frame(f)); err != nil {
				t.Fatal(err)
			}
			f++
		}
		for range 5 {
			next()
		}
		if a := testing.AllocsPerRun(10, next); a != 0 {
			t.Errorf("%s: %g allocations a frame", graph, a)
		}
	}
}
