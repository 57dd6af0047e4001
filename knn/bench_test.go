package knn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
	if err := RunBenchmark(&buf, []int{50, 300}, 3, 0, true); err != nil {
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
	if err := RunBenchmark(&buf, []int{50, 300}, 3, 0, false); err != nil {
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
