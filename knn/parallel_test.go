package knn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"trackink/scene"
)

// withProcs runs f with GOMAXPROCS set to each of 1, 2 and 4.
func withProcs(t *testing.T, f func(t *testing.T, procs int)) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		t.Run(fmt.Sprintf("procs=%d", procs), func(t *testing.T) { f(t, procs) })
	}
}

// moveFrame returns the next frame of pts: each track jitters (drifting right), and one in
// twelve skips the frame; the order is shuffled.
func moveFrame(rng *rand.Rand, pts []scene.Point, shape string, frame int) []scene.Point {
	cur := make([]scene.Point, 0, len(pts))
	for _, p := range pts {
		if rng.IntN(12) == 0 {
			continue
		}
		if shape != "duplicates" && shape != "lattice" {
			p.X += float32(rng.Float64()*4 - 2 + float64(frame))
			p.Y += float32(rng.Float64()*4 - 2)
		}
		cur = append(cur, p)
	}
	rng.Shuffle(len(cur), func(i, j int) { cur[i], cur[j] = cur[j], cur[i] })
	return cur
}

// TestWorkersMatchReference: every frame shared in chunks of three points, on 1, 2 or 4
// goroutines, gives the reference's links.
func TestWorkersMatchReference(t *testing.T) {
	withProcs(t, func(t *testing.T, procs int) {
		rng := rand.New(rand.NewPCG(seed(t), uint64(procs)))
		for i, shape := range shapes {
			o := []Options{
				{K: 4, Hysteresis: 0.15},
				{K: 6, Hysteresis: 0.15, MaxDegree: 3, MaxDist: 150, MaxDY: 80},
			}[i%2]
			for _, b := range backends {
				o.Backend = b
				g, rg := newGraph(t, o), &refGraph{o: o}
				g.pool.minItems, g.pool.chunkSize = 0, 3
				g.pool.choice.interval = math.MaxInt // every frame shared
				pts := genPoints(rng, shape, 20+rng.IntN(120))
				for frame := range 8 {
					cur := moveFrame(rng, pts, shape, frame)
					got, want := links(t, g, cur), rg.update(cur)
					if !slices.Equal(got, want) {
						t.Fatalf("%+v, %s, frame %d: got %v\nwant %v", o, shape, frame, got, want)
					}
				}
			}
		}
	})
}

// TestWorkersLargeFramesMatchBrute: frames above parallelMin, shared as in production, give
// the links of brute force on one goroutine, edge for edge.
func TestWorkersLargeFramesMatchBrute(t *testing.T) {
	withProcs(t, func(t *testing.T, procs int) {
		rng := rand.New(rand.NewPCG(seed(t), uint64(procs)))
		for _, shape := range []string{"uniform", "clustered", "lattice"} {
			o := Options{K: 5, Hysteresis: 0.15, MaxDegree: 4, MaxDist: 150, MaxDY: 100}
			grid := newGraph(t, o)
			o.Backend = BackendBrute
			brute := newGraph(t, o)
			brute.pool.minItems = math.MaxInt
			pts := genPoints(rng, shape, parallelMin+rng.IntN(1000))
			for frame := range 3 {
				cur := moveFrame(rng, pts, shape, frame)
				got, want := links(t, grid, cur), links(t, brute, cur)
				if !slices.Equal(got, want) {
					t.Fatalf("%s, %d points, frame %d: %d links, brute force %d", shape, len(cur), frame, len(got), len(want))
				}
			}
		}
	})
}

// TestWorkerScratchOwnLines: no cache line holds the scratch space of two goroutines (the
// workers' small neighbour lists, allocated side by side, once shared lines and made the
// neighbour step of two goroutines barely faster than one's).
func TestWorkerScratchOwnLines(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	g := newGraph(t, Options{K: 5, Hysteresis: 0.15, MaxDegree: 6})
	g.pool.choice.interval = math.MaxInt // every frame shared
	pts := genPoints(rand.New(rand.NewPCG(7, 9)), "uniform", 3000)
	for range 2 {
		if _, err := g.Update(pts); err != nil {
			t.Fatal(err)
		}
	}
	if len(g.workers) != 4 {
		t.Fatalf("%d workers, want 4", len(g.workers))
	}
	owner := map[uintptr]int{} // cache line → worker
	claim := func(w int, name string, r memory) {
		for line := r.start / cacheLine; line <= (r.start+r.size-1)/cacheLine; line++ {
			if o, ok := owner[line]; ok && o != w {
				t.Errorf("worker %d's %s shares a cache line with worker %d's scratch", w, name, o)
				return
			}
			owner[line] = w
		}
	}
	for w := range g.workers {
		s := &g.workers[w]
		claim(w, "fields", memory{uintptr(unsafe.Pointer(s)), unsafe.Sizeof(*s) - cacheLine}) // less the padding at its end
		claim(w, "query list", storage(s.query.list))
		claim(w, "offered set", storage(s.query.offered.at))
		claim(w, "distances", storage(s.nd2))
		claim(w, "chosen set", storage(s.chosen.at))
		claim(w, "drawn set", storage(s.drawn.at))
		claim(w, "MaxDegree keys", storage(s.topKey))
		claim(w, "MaxDegree ranks", storage(s.topRank))
	}
}

// memory is a range of addresses: size bytes from start.
type memory struct{ start, size uintptr }

// storage returns the memory of s's storage, up to its capacity.
func storage[T any](s []T) memory {
	s = s[:cap(s)]
	return memory{uintptr(unsafe.Pointer(&s[0])), uintptr(len(s)) * unsafe.Sizeof(s[0])}
}

// TestHelpersStop: the helper goroutines that a large frame started stop at Close, or when
// the Graph is dropped without Close and collected.
func TestHelpersStop(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	pts := genPoints(rand.New(rand.NewPCG(7, 8)), "uniform", 3000)
	for _, closed := range []bool{true, false} {
		t.Run(fmt.Sprintf("closed=%v", closed), func(t *testing.T) {
			before := settledGoroutines()
			func() {
				g, err := New(Options{K: 5, Hysteresis: 0.15})
				if err != nil {
					t.Fatal(err)
				}
				for range 2 {
					if _, err := g.Update(pts); err != nil {
						t.Fatal(err)
					}
				}
				if n := runtime.NumGoroutine(); n != before+3 {
					t.Errorf("%d goroutines while updating, want %d + 3 helpers", n, before)
				}
				if closed {
					if err := g.Close(); err != nil {
						t.Fatal(err)
					}
				}
			}()
			n := runtime.NumGoroutine()
			for deadline := time.Now().Add(2 * time.Second); n != before && time.Now().Before(deadline); n = runtime.NumGoroutine() {
				runtime.GC()                 // the dropped Graph's cleanup runs after a collection
				time.Sleep(time.Millisecond) // an exiting helper is counted until it is gone
			}
			if n != before {
				t.Errorf("%d goroutines after, want %d", n, before)
			}
		})
	}
}

// settledGoroutines returns the number of goroutines once collections have stopped changing
// it: helpers of Graphs that earlier tests dropped exit when their cleanup runs.
func settledGoroutines() int {
	n := -1
	for range 100 {
		runtime.GC()
		time.Sleep(time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			break
		}
		n = m
	}
	return n
}

// BenchmarkSharedSteps times Update with its steps on one goroutine and shared (split), at
// the sizes around parallelMin, which it chose.
func BenchmarkSharedSteps(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 5000} {
		for _, split := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/split=%v", n, split), func(b *testing.B) {
				benchMovingUpdates(b, n, BackendGrid, func(g *Graph) {
					g.pool.minItems = math.MaxInt
					if split {
						g.pool.minItems, g.pool.choice.interval = 0, math.MaxInt
					}
				})
			})
		}
	}
}

// TestShareChoice: frames keep to the mode that is faster per point, trying the other for 8
// frames after 16, then half as often after each try it loses; a try that wins switches.
func TestShareChoice(t *testing.T) {
	const sharedFaster, aloneFaster = 1.0, 3.0 // ns per point when shared; alone is 2
	tests := []struct {
		name   string
		frames int
		shared func(frame int) float64
		alone  []int // the frames run alone (from 1)
	}{
		{"sharing faster", 150, func(int) float64 { return sharedFaster },
			append(span(16, 23), append(span(55, 62), span(126, 133)...)...)},
		{"one goroutine faster", 150, func(int) float64 { return aloneFaster },
			append(span(16, 38), append(span(47, 77), span(86, 148)...)...)},
		{"other programs start using the second core at frame 40: the try at frame 126 sees it", 150,
			func(f int) float64 {
				if f < 40 {
					return sharedFaster
				}
				return aloneFaster
			},
			append(span(16, 23), append(span(55, 62), span(126, 148)...)...)},
		{"a shared frame in eight takes twenty times as long", 150,
			func(f int) float64 {
				if f%8 == 0 {
					return 20
				}
				return sharedFaster
			},
			append(span(16, 38), append(span(47, 77), span(86, 148)...)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c shareChoice
			var alone []int
			for f := 1; f <= tt.frames; f++ {
				shared := c.share()
				cost := 2.0
				if shared {
					cost = tt.shared(f)
				} else {
					alone = append(alone, f)
				}
				c.record(cost)
			}
			if !slices.Equal(alone, tt.alone) {
				t.Errorf("alone at frames %v\nwant %v", alone, tt.alone)
			}
		})
	}
}

// TestFirstFrameNotTimed: a Graph's first frame, several times a usual frame's time, is
// not counted by the share choice; the frames after it are.
func TestFirstFrameNotTimed(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	g := newGraph(t, Options{K: 5, Hysteresis: 0.15})
	pts := genPoints(rand.New(rand.NewPCG(7, 10)), "uniform", 2*parallelMin)
	for frame, counted := range []int{0, 1, 2} {
		if _, err := g.Update(pts); err != nil {
			t.Fatal(err)
		}
		if c := g.pool.choice; c.keptN != counted || c.tryLeft != 0 {
			t.Fatalf("after frame %d: %d frames counted (%+v), want %d", frame, c.keptN, c, counted)
		}
		if frame == 0 && g.pool.workers != 2 {
			t.Errorf("the first frame ran on %d goroutines, want the kept mode's 2", g.pool.workers)
		}
	}
}

// span returns lo, lo+1, ..., hi.
func span(lo, hi int) []int {
	var s []int
	for f := lo; f <= hi; f++ {
		s = append(s, f)
	}
	return s
}
