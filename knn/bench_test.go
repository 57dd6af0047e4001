package knn

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"trackink/scene"
)

// BenchmarkUpdate times Update per frame on smoothly moving points with benchOptions(5, …),
// after two frames that size the buffers and start the hysteresis (so allocs/op is the
// steady state's). FAISS and brute force stop at 5 000 points here (one frame of 100 000
// takes tens of seconds); RunBenchmark covers them at every size.
func BenchmarkUpdate(b *testing.B) {
	for _, backend := range backends {
		for _, n := range DefaultBenchSizes {
			if backend != BackendGrid && n > 5000 {
				continue
			}
			b.Run(fmt.Sprintf("%s/n=%d", backend, n), func(b *testing.B) {
				benchMovingUpdates(b, n, backend, func(*Graph) {})
			})
		}
	}
}

// benchMovingUpdates times Update per frame of a movingScene of n points with
// benchOptions(5, backend) on a Graph that setup has adjusted.
func benchMovingUpdates(b *testing.B, n int, backend string, setup func(*Graph)) {
	sc := newMovingScene(n)
	g, err := New(benchOptions(5, backend))
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	setup(g)
	f := 0
	for ; f < 2; f++ {
		if _, err := g.Update(sc.frame(f)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		pts := sc.frame(f)
		f++
		b.StartTimer()
		if _, err := g.Update(pts); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRunBenchmark(t *testing.T) {
	var buf bytes.Buffer
	if err := RunBenchmark(&buf, BenchSpec{Sizes: []int{50, 300}, K: 3, JSON: true}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		K       int
		Results []BenchResult
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("%v in %s", err, buf.String())
	}
	// A row per size and search backend, then one per other graph.
	nr := len(Backends()) + len(Graphs) - 1
	if out.K != 3 || len(out.Results) != 2*nr {
		t.Fatalf("unexpected output %s", buf.String())
	}
	for i, r := range out.Results {
		if r.Skipped != "" || r.Frames < 3 || r.MedianMS <= 0 || r.Links == 0 {
			t.Errorf("bad row %+v", r)
		}
		if i%nr >= len(Backends()) && r.Backend != Graphs[1+i%nr-len(Backends())] {
			t.Errorf("row %d is %s, want the graph %s", i, r.Backend, Graphs[1+i%nr-len(Backends())])
		}
	}
	defer func(l int) { exhaustiveBenchLimit = l }(exhaustiveBenchLimit)
	exhaustiveBenchLimit = 100
	buf.Reset()
	if err := RunBenchmark(&buf, BenchSpec{Sizes: []int{50, 300}, K: 3}); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + buf.String())
	// A title and a header line, a row per size and backend or graph, the graphs' note;
	// at 300 points the O(n²) backends are skipped.
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3+2*nr || !strings.HasPrefix(lines[2+2*nr], "radius, delaunay, mst:") {
		t.Fatalf("unexpected table:\n%s", buf.String())
	}
	for i, l := range lines[2 : 2+2*nr] {
		exhaustive := strings.HasPrefix(strings.TrimSpace(l), BackendBrute) || strings.HasPrefix(strings.TrimSpace(l), BackendFAISS)
		if strings.Contains(l, "skipped") != (i >= nr && exhaustive) {
			t.Errorf("unexpected row %q in:\n%s", l, buf.String())
		}
	}
}

// TestRunBenchmarkRows: naming search backends times those alone (in Backends' order),
// without the other graphs' rows, beside the extra link builders, which are checked against
// the first kNN row whichever it is (against the grid's links only, brute alone failed as a
// disagreement); a backend not built in is refused naming it.
func TestRunBenchmarkRows(t *testing.T) {
	grid := gridLinker("probe", 0, nil)
	all := append(Backends(), Graphs[1:]...)
	for _, tt := range []struct {
		searches []string
		extra    []BenchLinker
		want     []string // the rows at each size
		err      string
	}{
		{nil, nil, all, ""},
		{[]string{BackendGrid}, nil, []string{BackendGrid}, ""},
		{[]string{BackendBrute}, []BenchLinker{grid}, []string{BackendBrute, "probe"}, ""},
		{[]string{BackendBrute, BackendGrid}, []BenchLinker{grid}, []string{BackendGrid, BackendBrute, "probe"}, ""},
		{[]string{"kd"}, nil, nil, `"kd": want one of`},
	} {
		var buf bytes.Buffer
		err := RunBenchmark(&buf, BenchSpec{Sizes: []int{50, 300}, K: 3, Frames: 3, Searches: tt.searches, JSON: true, Extra: tt.extra})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: %v, want an error saying %q", tt.searches, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tt.searches, err)
			continue
		}
		var out struct{ Results []BenchResult }
		if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
			t.Fatalf("%v in %s", err, buf.String())
		}
		var got []string
		for _, r := range out.Results {
			if r.Points == 50 {
				got = append(got, r.Backend)
			}
		}
		if !slices.Equal(got, tt.want) || len(out.Results) != 2*len(tt.want) {
			t.Errorf("%v: rows %v (%d in all), want %v at each of 2 sizes", tt.searches, got, len(out.Results), tt.want)
		}
		// The table names the other graphs in its note only when it has their rows.
		buf.Reset()
		if err := RunBenchmark(&buf, BenchSpec{Sizes: []int{50}, K: 3, Frames: 3, Searches: tt.searches, Extra: tt.extra}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(buf.String(), "radius, delaunay, mst:") != (tt.searches == nil) {
			t.Errorf("%v: table\n%s", tt.searches, buf.String())
		}
	}
}

// TestRunBenchmarkStreams: each row of the table is written as soon as it is measured, so
// a long run shows its progress: when a size's last row starts, the rows before it, of
// this size and the last, are out (it printed nothing until every row was done).
func TestRunBenchmarkStreams(t *testing.T) {
	var buf bytes.Buffer
	var seen []string // the output when each probe row started
	probe := gridLinker("probe", 0, func() { seen = append(seen, buf.String()) })
	if err := RunBenchmark(&buf, BenchSpec{Sizes: []int{50, 300}, K: 3, Frames: 3, Searches: []string{BackendGrid}, Extra: []BenchLinker{probe}}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Fatalf("probe started %d times, want 2", len(seen))
	}
	for _, tt := range []struct {
		at   int
		want []string
	}{
		{0, []string{"knn: Update", "median ms", "grid      50"}},
		{1, []string{"grid      50", "probe      50", "grid     300"}},
	} {
		for _, w := range tt.want {
			if !strings.Contains(seen[tt.at], w) {
				t.Errorf("probe row %d started after output\n%s\nwant it to hold %q", tt.at, seen[tt.at], w)
			}
		}
	}
	t.Log("\n" + buf.String())
}

// clockLinker is a Graph as a Linker whose frames take the time cost says (frame i
// cost[i], the last cost repeating) on the clock benchOne reads.
type clockLinker struct {
	graphLinker
	now  *time.Time
	cost []time.Duration
	n    int
}

func (c *clockLinker) Update(pts []scene.Point) error {
	*c.now = c.now.Add(c.cost[min(c.n, len(c.cost)-1)])
	c.n++
	return c.graphLinker.Update(pts)
}

// TestBenchFrames: a row times up to --frames frames (50 when not told) but stops once it
// has 3 frames and a second of them, so that a slow row cannot take minutes with --frames
// 200 (at 100 000 points the Delaunay and tree rows take 0.14 s a frame here: 28 s each);
// a first frame over a second counts, others do not.
func TestBenchFrames(t *testing.T) {
	defer func(now func() time.Time) { benchNow = now }(benchNow)
	ms := time.Millisecond
	for _, tt := range []struct {
		frames int
		cost   []time.Duration // the first frame's, then each other's
		want   int
	}{
		{200, []time.Duration{ms}, 200},
		{0, []time.Duration{ms}, 50},
		{200, []time.Duration{400 * ms}, 3},
		{200, []time.Duration{100 * ms}, 10},
		{2, []time.Duration{400 * ms}, 2},
		{200, []time.Duration{2000 * ms, 400 * ms}, 3}, // the first frame and two more
		{200, []time.Duration{500 * ms, 300 * ms}, 4},  // the first frame not counted
	} {
		var now time.Time
		benchNow = func() time.Time { return now }
		row := BenchLinker{Name: "clock", New: func(o Options) (Linker, error) {
			g, err := New(o)
			return &clockLinker{graphLinker: graphLinker{Graph: g}, now: &now, cost: tt.cost}, err
		}}
		res, _, err := benchOne(newMovingScene(60), 60, 3, tt.frames, row)
		if err != nil {
			t.Fatal(err)
		}
		if res.Frames != tt.want {
			t.Errorf("--frames %d, frames of %v: timed %d frames, want %d", tt.frames, tt.cost, res.Frames, tt.want)
		}
	}
}

// TestRadiusNote: the radius graph's reach at each size reads as a list, each figure with
// its unit and size (they ran together: "181.7 at 100 57.4 at 1000").
func TestRadiusNote(t *testing.T) {
	for _, tt := range []struct {
		sizes []int
		want  string
	}{
		{[]int{100}, "181.7 px at 100 points"},
		{[]int{100, 1000, 100000}, "181.7 px at 100 points, 57.4 px at 1000 points, 5.7 px at 100000 points"},
	} {
		if got := radiusNote(tt.sizes, 5); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.sizes, got, tt.want)
		}
	}
}

// TestRunBenchmarkChecksSkippedSizes: at a size where every search named is skipped (brute
// force above its limit), the extra rows are checked against the grid's first frame: a
// builder that agrees passes and one that does not fails (before, the first extra row
// became the reference and nothing was checked).
func TestRunBenchmarkChecksSkippedSizes(t *testing.T) {
	defer func(l int) { exhaustiveBenchLimit = l }(exhaustiveBenchLimit)
	exhaustiveBenchLimit = 100
	for _, tt := range []struct {
		extra BenchLinker
		err   string
	}{
		{gridLinker("agrees", 3, nil), ""},
		{gridLinker("other-k", 4, nil), "other-k and the grid (its first frame) disagree on the links of 300 points"},
	} {
		var buf bytes.Buffer
		err := RunBenchmark(&buf, BenchSpec{Sizes: []int{300}, K: 3, Frames: 3, Searches: []string{BackendBrute}, JSON: true,
			Extra: []BenchLinker{tt.extra}})
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: %v, want %q", tt.extra.Name, err, tt.err)
		}
	}
}

// gridLinker is an extra row named name that builds the grid's links, with k neighbours (0:
// the benchmark's), calling made (when not nil) each time the row starts.
func gridLinker(name string, k int, made func()) BenchLinker {
	return BenchLinker{Name: name, New: func(o Options) (Linker, error) {
		if made != nil {
			made()
		}
		o.Backend, o.K = BackendGrid, cmp.Or(k, o.K)
		g, err := New(o)
		return &graphLinker{Graph: g}, err
	}}
}
