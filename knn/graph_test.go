package knn

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"trackink/internal/field"
	"trackink/scene"
)

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		o     Options
		field string // "" = valid
	}{
		{Options{K: 5}, ""},
		{Options{K: 1, MaxDY: 10, MaxDist: 20, MaxDegree: 3, Hysteresis: 0.2, Backend: "brute"}, ""},
		{Options{K: 0}, "knn.Options.K"},
		{Options{K: -2}, "knn.Options.K"},
		{Options{K: 5, MaxDY: -1}, "knn.Options.MaxDY"},
		{Options{K: 5, MaxDY: math.NaN()}, "knn.Options.MaxDY"},
		{Options{K: 5, MaxDist: -0.5}, "knn.Options.MaxDist"},
		{Options{K: 5, MaxDegree: -1}, "knn.Options.MaxDegree"},
		{Options{K: 2, MaxDegree: 8, MaxLinksPerPoint: 8}, ""},
		{Options{K: 2, MaxDegree: 9, MaxLinksPerPoint: 8}, "knn.Options.MaxDegree"},
		{Options{K: 5, MaxDegree: DefaultMaxLinksPerPoint + 1}, "knn.Options.MaxDegree"},
		{Options{K: 5, MaxDegree: 99999999999999, Graph: GraphMST}, "knn.Options.MaxDegree"},
		{Options{K: 5, Hysteresis: -0.1}, "knn.Options.Hysteresis"},
		{Options{K: 5, Hysteresis: math.Inf(1)}, "knn.Options.Hysteresis"},
		{Options{K: 5, Backend: "kdtree"}, "knn.Options.Backend"},
	} {
		err := c.o.Validate()
		_, newErr := New(c.o)
		var fe *field.Error
		switch {
		case c.field == "" && (err != nil || newErr != nil):
			t.Errorf("%+v: unexpected error %v / %v", c.o, err, newErr)
		case c.field != "" && (!errors.As(err, &fe) || fe.Field != c.field || newErr == nil):
			t.Errorf("%+v: got %v / %v, want an error naming %s", c.o, err, newErr, c.field)
		}
	}
}

// TestFAISSOnlyWhenBuilt: the faiss backend is accepted exactly in builds that have it, and
// otherwise refused with a message that says how to get it.
func TestFAISSOnlyWhenBuilt(t *testing.T) {
	err := Options{K: 5, Backend: BackendFAISS}.Validate()
	built := slices.Contains(Backends(), BackendFAISS)
	if built != (err == nil) {
		t.Fatalf("faiss built %v, Validate: %v", built, err)
	}
	if !built && !strings.Contains(err.Error(), "-tags faiss") {
		t.Errorf("without FAISS: %v, want the build tag named", err)
	}
}

func TestUpdateRejectsBadFrames(t *testing.T) {
	g, _ := New(Options{K: 2})
	defer g.Close()
	if _, err := g.Update([]scene.Point{{ID: 1}, {ID: 2, X: 1}, {ID: 1, X: 2}}); err == nil {
		t.Error("repeated track id accepted")
	}
	if _, err := g.Update([]scene.Point{{ID: 1}, {ID: 2, X: float32(math.NaN())}}); err == nil {
		t.Error("NaN coordinate accepted")
	}
	for _, n := range []int{0, 1} {
		es, err := g.Update(make([]scene.Point, n))
		if err != nil || len(es) != 0 {
			t.Errorf("%d points: %v, %v", n, es, err)
		}
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Update([]scene.Point{{ID: 1}, {ID: 2}}); err == nil {
		t.Error("Update after Close succeeded")
	}
	if err := g.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// refGraph is the documented rule written as directly as possible, by track id, with maps:
// the reference the Graph is checked against.
type refGraph struct {
	o       Options
	prevSel map[int][]int
	drawn   map[[2]int]bool
}

func (rg *refGraph) update(pts []scene.Point) [][2]int {
	h := rg.o.Hysteresis
	f := (1 + h) * (1 + h)
	at := map[int]scene.Point{}
	for _, p := range pts {
		at[p.ID] = p
	}
	d2 := func(a, b int) float64 {
		pa, pb := at[a], at[b]
		return dist2(float64(pa.X), float64(pa.Y), float64(pb.X), float64(pb.Y))
	}
	sel := map[int][]int{}
	cand := map[[2]int]bool{}
	k := min(rg.o.K, len(pts)-1)
	for _, p := range pts {
		var others []int
		for _, q := range pts {
			if q.ID != p.ID {
				others = append(others, q.ID)
			}
		}
		slices.SortFunc(others, func(a, b int) int { return cmp.Or(cmp.Compare(d2(p.ID, a), d2(p.ID, b)), cmp.Compare(a, b)) })
		var s []int
		if h > 0 {
			for _, j := range rg.prevSel[p.ID] {
				if _, ok := at[j]; ok && d2(p.ID, j) <= f*d2(p.ID, others[k-1]) {
					s = append(s, j)
				}
			}
		}
		for _, j := range others {
			if len(s) < k && !slices.Contains(s, j) {
				s = append(s, j)
			}
		}
		sel[p.ID] = s
		for _, j := range s {
			cand[[2]int{min(p.ID, j), max(p.ID, j)}] = true
		}
	}
	var kept [][2]int
	for e := range cand {
		margin := 1.0
		if h > 0 && !rg.drawn[e] {
			margin = f
		}
		dy := float64(at[e[0]].Y) - float64(at[e[1]].Y)
		if rg.o.MaxDist > 0 && d2(e[0], e[1])*margin > rg.o.MaxDist*rg.o.MaxDist ||
			rg.o.MaxDY > 0 && dy*dy*margin > rg.o.MaxDY*rg.o.MaxDY {
			continue
		}
		kept = append(kept, e)
	}
	if md := rg.o.MaxDegree; md > 0 {
		key := func(e [2]int) float64 {
			if h > 0 && rg.drawn[e] {
				return d2(e[0], e[1]) / f
			}
			return d2(e[0], e[1])
		}
		top := map[[2]int]int{}
		for _, p := range pts {
			var inc [][2]int
			for _, e := range kept {
				if e[0] == p.ID || e[1] == p.ID {
					inc = append(inc, e)
				}
			}
			other := func(e [2]int) int { return e[0] + e[1] - p.ID }
			slices.SortFunc(inc, func(a, b [2]int) int { return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(other(a), other(b))) })
			for _, e := range inc[:min(md, len(inc))] {
				top[e]++
			}
		}
		kept = slices.DeleteFunc(kept, func(e [2]int) bool { return top[e] != 2 })
	}
	slices.SortFunc(kept, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	rg.prevSel, rg.drawn = sel, map[[2]int]bool{}
	for _, e := range kept {
		rg.drawn[e] = true
	}
	return kept
}

// TestGraphMatchesReference drives Graph and refGraph through random sequences of frames
// (tracks moving, jittering, vanishing, reappearing, input order shuffled) under several
// option sets, every backend, and a fresh seed.
func TestGraphMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 1))
	optSets := []Options{
		{K: 3},
		{K: 4, Hysteresis: 0.15},
		{K: 5, Hysteresis: 0.3, MaxDist: 120, MaxDY: 60},
		{K: 6, Hysteresis: 0.15, MaxDegree: 3},
		{K: 2, MaxDegree: 1, MaxDist: 200},
		{K: 8, Hysteresis: 0.1, MaxDegree: 4, MaxDY: 80, MaxDist: 150},
	}
	for _, o := range optSets {
		for _, b := range backends {
			o.Backend = b
			g, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			rg := &refGraph{o: o}
			shape := shapes[rng.IntN(len(shapes))]
			pts := genPoints(rng, shape, 5+rng.IntN(120))
			for frame := range 25 {
				cur := make([]scene.Point, 0, len(pts))
				for _, p := range pts {
					if rng.IntN(12) == 0 {
						continue // this track skips this frame
					}
					if shape != "duplicates" && shape != "lattice" {
						p.X += float32(rng.Float64()*4 - 2 + float64(frame))
						p.Y += float32(rng.Float64()*4 - 2)
					}
					cur = append(cur, p)
				}
				rng.Shuffle(len(cur), func(i, j int) { cur[i], cur[j] = cur[j], cur[i] })
				es, err := g.Update(cur)
				if err != nil {
					t.Fatal(err)
				}
				got, want := idEdges(t, cur, es), rg.update(cur)
				if !slices.Equal(got, want) {
					t.Fatalf("%+v, %s, frame %d: got %v\nwant %v", o, shape, frame, got, want)
				}
				if o.MaxDegree > 0 {
					deg := map[int]int{}
					for _, e := range got {
						deg[e[0]]++
						deg[e[1]]++
					}
					for id, d := range deg {
						if d > o.MaxDegree {
							t.Fatalf("track %d has %d links", id, d)
						}
					}
				}
			}
			g.Close()
		}
	}
}

// line builds a frame from (id, x, y) triples.
func line(ps ...[3]float32) []scene.Point {
	out := make([]scene.Point, len(ps))
	for i, p := range ps {
		out[i] = scene.Point{ID: int(p[0]), X: p[1], Y: p[2]}
	}
	return out
}

// links returns the frame's links as track id pairs.
func links(t *testing.T, g *Graph, pts []scene.Point) [][2]int {
	t.Helper()
	es, err := g.Update(pts)
	if err != nil {
		t.Fatal(err)
	}
	return idEdges(t, pts, es)
}

func has(es [][2]int, a, b int) bool { return slices.Contains(es, [2]int{a, b}) }

// twoSuitors is a frame where track 0 (at the origin) chooses between track 1 at x1 and
// track 2 at −x2; 1 and 2 each have a close partner (3 and 4) so that only 0's choice is at
// stake with K = 1.
func twoSuitors(x1, x2 float32) []scene.Point {
	return line([3]float32{0, 0, 0}, [3]float32{1, x1, 0}, [3]float32{2, -x2, 0},
		[3]float32{3, x1, 1}, [3]float32{4, -x2, 1})
}

func TestHysteresisKeepsOldNeighbourWithinTolerance(t *testing.T) {
	for _, h := range []float64{0, 0.15} {
		g, _ := New(Options{K: 1, Hysteresis: h})
		if es := links(t, g, twoSuitors(10, 10.5)); !has(es, 0, 1) || has(es, 0, 2) {
			t.Fatalf("h=%g frame 1: %v", h, es)
		}
		// 1 is now farther than 2, but 11 ≤ 1.15·10.5: kept with hysteresis only.
		es := links(t, g, twoSuitors(11, 10.5))
		if h > 0 && (!has(es, 0, 1) || has(es, 0, 2)) || h == 0 && (has(es, 0, 1) || !has(es, 0, 2)) {
			t.Fatalf("h=%g frame 2: %v", h, es)
		}
		// 12.1 > 1.15·10.5 = 12.075: the newcomer has beaten it by the margin.
		if es := links(t, g, twoSuitors(12.1, 10.5)); has(es, 0, 1) || !has(es, 0, 2) {
			t.Fatalf("h=%g frame 3: %v", h, es)
		}
		g.Close()
	}
}

func TestHysteresisVanishedTracksStartFresh(t *testing.T) {
	g, _ := New(Options{K: 1, Hysteresis: 0.15})
	defer g.Close()
	links(t, g, twoSuitors(10, 10.5)) // 0 chooses 1
	// Track 0 vanishes for a frame; on return it starts from its plain nearest (2), though
	// 1 would still be within tolerance of its old choice.
	frame := twoSuitors(11, 10.5)
	links(t, g, frame[1:])
	if es := links(t, g, frame); has(es, 0, 1) || !has(es, 0, 2) {
		t.Fatalf("returning track kept a stale link: %v", es)
	}
	// Now 0 has chosen 2; tracks 2 and 4 vanish and return: 0 chose 1 meanwhile and keeps it.
	links(t, g, twoSuitors(11, 10.5)[:2])
	if es := links(t, g, twoSuitors(11, 10.5)); !has(es, 0, 1) || has(es, 0, 2) {
		t.Fatalf("link to a returning track: %v", es)
	}
}

func TestCapsHysteresis(t *testing.T) {
	pair := func(d float32) []scene.Point { return line([3]float32{7, 0, 0}, [3]float32{9, d, 0}) }
	g, _ := New(Options{K: 1, MaxDist: 100, Hysteresis: 0.15})
	defer g.Close()
	for _, step := range []struct {
		d    float32
		want bool
	}{
		{95, false}, // new link: 95·1.15 > 100
		{85, true},  // 85·1.15 ≤ 100
		{99, true},  // drawn last frame: only ≤ 100 needed
		{101, false},
		{95, false}, // new again
	} {
		if got := len(links(t, g, pair(step.d))) == 1; got != step.want {
			t.Fatalf("distance %g: linked %v, want %v", step.d, got, step.want)
		}
	}
	// MaxDY the same way, on the vertical extent.
	g2, _ := New(Options{K: 1, MaxDY: 50, Hysteresis: 0.15})
	defer g2.Close()
	tilt := func(dy float32) []scene.Point { return line([3]float32{7, 0, 0}, [3]float32{9, 200, dy}) }
	for _, step := range []struct {
		dy   float32
		want bool
	}{{-48, false}, {40, true}, {-49, true}, {51, false}} {
		if got := len(links(t, g2, tilt(step.dy))) == 1; got != step.want {
			t.Fatalf("dy %g: linked %v, want %v", step.dy, got, step.want)
		}
	}
}

// TestInputOrderIrrelevant: shuffling a frame's points gives the same links by track id.
func TestInputOrderIrrelevant(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 2))
	pts := genPoints(rng, "uniform", 300)
	o := Options{K: 4, Hysteresis: 0.15, MaxDegree: 5}
	g1, _ := New(o)
	g2, _ := New(o)
	defer g1.Close()
	defer g2.Close()
	for range 5 {
		for i := range pts {
			pts[i].X += float32(rng.Float64()*6 - 3)
		}
		shuf := slices.Clone(pts)
		rng.Shuffle(len(shuf), func(i, j int) { shuf[i], shuf[j] = shuf[j], shuf[i] })
		if a, b := links(t, g1, pts), links(t, g2, shuf); !slices.Equal(a, b) {
			t.Fatal("links depend on input order")
		}
	}
}

// TestGridUpdateAllocationFree: once its buffers fit the frame, Update allocates nothing.
func TestGridUpdateAllocationFree(t *testing.T) {
	withProcs(t, func(t *testing.T, _ int) {
		rng := rand.New(rand.NewPCG(5, 6))
		pts := genPoints(rng, "uniform", 3000)
		g, _ := New(Options{K: 5, Hysteresis: 0.15, MaxDegree: 4, MaxDist: 150, MaxDY: 100})
		defer g.Close()
		step := func() {
			for i := range pts {
				pts[i].X += float32(rng.Float64()*2 - 1)
				pts[i].Y += float32(rng.Float64()*2 - 1)
			}
			if _, err := g.Update(pts); err != nil {
				t.Fatal(err)
			}
		}
		for range 5 {
			step()
		}
		if a := testing.AllocsPerRun(20, step); a != 0 {
			t.Errorf("Update allocates %.1f times per frame", a)
		}
	})
}

// TestDegreeCapHubs: points piled on one spot make hubs with hundreds of links, which the
// degree cap sorts another way.
func TestDegreeCapHubs(t *testing.T) {
	pts := make([]scene.Point, 300)
	for i := range pts {
		pts[i] = scene.Point{ID: 1000 - 3*i, X: 5, Y: float32(i % 2)}
	}
	o := Options{K: 4, MaxDegree: 3, Hysteresis: 0.15}
	g, _ := New(o)
	defer g.Close()
	rg := &refGraph{o: o}
	for range 2 {
		if got, want := links(t, g, pts), rg.update(pts); !slices.Equal(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	}
}

// TestRejectedFrameChangesNothing: a frame that Update rejects leaves the links of the next
// frames, hysteresis included, as if it had not been passed.
func TestRejectedFrameChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 6))
	o := Options{K: 4, Hysteresis: 0.15, MaxDegree: 4, MaxDist: 150}
	pts := genPoints(rng, "uniform", 400)
	frames := make([][]scene.Point, 6)
	for f := range frames {
		for i := range pts {
			pts[i].X += float32(rng.Float64()*4 - 2)
			pts[i].Y += float32(rng.Float64()*4 - 2)
		}
		frames[f] = slices.Clone(pts)
	}
	for _, c := range []struct {
		name string
		bad  func([]scene.Point)
	}{
		{"repeated id", func(p []scene.Point) { p[7].ID = p[3].ID }},
		{"NaN", func(p []scene.Point) { p[5].Y = float32(math.NaN()) }},
	} {
		clean, dirty := newGraph(t, o), newGraph(t, o)
		for f, fr := range frames {
			if f == 3 {
				bad := slices.Clone(fr)
				c.bad(bad)
				if _, err := dirty.Update(bad); err == nil {
					t.Fatalf("%s: accepted", c.name)
				}
			}
			a, b := links(t, clean, fr), links(t, dirty, fr)
			if !slices.Equal(a, b) {
				t.Fatalf("%s, frame %d: %d links after the rejected frame, %d without it", c.name, f, len(b), len(a))
			}
		}
	}
}

// TestGraphEdgeCases runs short scripted sequences through every backend and the reference:
// the cases where a shortcut in Update could go wrong. Each frame is (id, x, y) triples.
func TestGraphEdgeCases(t *testing.T) {
	p := func(id int, x, y float32) [3]float32 { return [3]float32{float32(id), x, y} }
	lattice := func(side int, jitter float32) []scene.Point {
		var ps [][3]float32
		for i := range side * side {
			ps = append(ps, p(i+1, float32(i%side)*8+jitter*float32(i%3), float32(i/side)*8))
		}
		return line(ps...)
	}
	same := func(ids ...int) []scene.Point {
		var ps [][3]float32
		for _, id := range ids {
			ps = append(ps, p(id, 3, 3))
		}
		return line(ps...)
	}
	for _, c := range []struct {
		name   string
		o      Options
		frames [][]scene.Point
	}{
		{"fewer points than K", Options{K: 5, Hysteresis: 0.15, MaxDegree: 2}, [][]scene.Point{
			line(p(1, 0, 0), p(2, 5, 0)),
			line(p(1, 0, 0), p(2, 5, 0), p(3, 9, 1)),
			line(p(2, 5, 0), p(3, 9, 1)),
		}},
		{"duplicate positions", Options{K: 3, Hysteresis: 0.15, MaxDegree: 2}, [][]scene.Point{
			same(4, 9, 1, 7, 2, 8, 3), same(4, 9, 1, 7, 2, 8, 3), same(9, 1, 7, 5, 8),
		}},
		{"ties on a lattice", Options{K: 4, Hysteresis: 0.15, MaxDegree: 5, MaxDist: 9}, [][]scene.Point{
			lattice(5, 0), lattice(5, 0.5), lattice(5, 0), lattice(4, 0),
		}},
		{"tracks entering and leaving", Options{K: 2, Hysteresis: 0.3, MaxDY: 4}, [][]scene.Point{
			line(p(1, 0, 0), p(2, 10, 0), p(3, 20, 3)),
			line(p(1, 0, 0), p(3, 20, 3), p(4, 9, 1), p(5, 30, 0)),
			line(p(2, 10, 0), p(3, 20, 3), p(4, 9, 1)),
			line(p(1, 0, 0), p(2, 10, 0), p(3, 20, 3), p(4, 9, 1), p(5, 30, 0)),
		}},
		// Track 10's old neighbour 11 ends exactly at the tolerance, (1+h)·ρ with ρ = 1 (the
		// newcomer 12), and then just past it; 11 and 12 choose partners of their own, so
		// 10's choice alone decides (checked below).
		{"old neighbour at the tolerance", Options{K: 1, Hysteresis: 0.5}, [][]scene.Point{
			line(p(10, 0, 0), p(11, 1, 0), p(13, 1, 0.9), p(14, -1, 0.8)),
			line(p(10, 0, 0), p(11, 1.5, 0), p(12, -1, 0), p(13, 1.5, 0.9), p(14, -1, 0.8)),
			line(p(10, 0, 0), p(11, 1.5625, 0), p(12, -1, 0), p(13, 1.5625, 0.9), p(14, -1, 0.8)),
		}},
	} {
		for _, b := range backends {
			o := c.o
			o.Backend = b
			g, rg := newGraph(t, o), &refGraph{o: o}
			for f, fr := range c.frames {
				got, want := links(t, g, fr), rg.update(fr)
				if !slices.Equal(got, want) {
					t.Fatalf("%s, %s, frame %d: got %v, want %v", c.name, b, f, got, want)
				}
				if c.name == "old neighbour at the tolerance" && f > 0 && has(got, 10, 11) != (f == 1) {
					t.Fatalf("%s, %s, frame %d: links %v", c.name, b, f, got)
				}
			}
		}
	}
}
