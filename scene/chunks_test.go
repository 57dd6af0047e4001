package scene

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// motRows writes MOTChallenge rows for frames 1..frames with ids 1..ids, in frame order or,
// with byID, track by track (as MOTChallenge's own ground truth is sorted).
func motRows(frames, ids int, byID bool) string {
	var b strings.Builder
	row := func(f, id int) {
		fmt.Fprintf(&b, "%d,%d,%d,%d.5,%d,40,0.%d,-1,-1,-1\n", f, id, (id*37+f*3)%1900, (id*53+f*2)%1000, 10+id%50, 1+(f+id)%9)
	}
	if byID {
		for id := 1; id <= ids; id++ {
			for f := 1; f <= frames; f++ {
				row(f, id)
			}
		}
	} else {
		for f := 1; f <= frames; f++ {
			for id := 1; id <= ids; id++ {
				row(f, id)
			}
		}
	}
	return b.String()
}

// A file in frame order long enough to spill to disk reads to the same tracks as the same
// rows out of order, which are sorted in memory: every frame, box and point, the summary,
// Scale, and a duplicate id found on its line.
func TestSpilledTracksAreTheSame(t *testing.T) {
	const frames, ids = 600, 400 // 240 000 boxes: 7 chunks, 5 of them spilled
	spilled, err := Read(strings.NewReader(motRows(frames, ids, false)), "sorted.txt", FormatMOT, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if spilled.boxes.sp == nil {
		t.Fatal("the sorted file did not spill")
	}
	held, err := Read(strings.NewReader(motRows(frames, ids, true)), "by-id.txt", FormatMOT, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if held.boxes.sp != nil {
		t.Fatal("the file out of frame order spilled")
	}
	same := func(what string) {
		t.Helper()
		if a, b := spilled.Summary(), held.Summary(); !slices.Equal(a.Warnings, b.Warnings) || a.Boxes != b.Boxes || a.Extent != b.Extent || a.Tracks != b.Tracks {
			t.Fatalf("%s: summaries differ: %+v and %+v", what, a, b)
		}
		var fa, fb Frame
		for n := range frames + 1 {
			a, b := spilled.Frame(n, &fa), held.Frame(n, &fb)
			if (a == nil) != (b == nil) || a != nil && (!slices.Equal(a.Boxes, b.Boxes) || !slices.Equal(a.Points, b.Points)) {
				t.Fatalf("%s: frame %d differs", what, n)
			}
		}
		if err := spilled.Err(); err != nil {
			t.Fatal(err)
		}
	}
	same("read")
	spilled.Scale(0.5, 2)
	held.Scale(0.5, 2)
	same("scaled")

	dup := motRows(frames, ids, false) + fmt.Sprintf("%d,7,1,1,5,5,1,-1,-1,-1\n", frames)
	_, err = Read(strings.NewReader(dup), "dup.txt", FormatMOT, Options{})
	if want := fmt.Sprintf("dup.txt:%d:", frames*ids+1); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("a duplicate id at the end: %v, want the error at %s", err, want)
	}
}

// The memory a file in frame order takes does not grow with it: 40 times the rows, the
// same heap (before the chunks, a 200 MB file took 427 MB).
func TestLongFileReadsInFlatMemory(t *testing.T) {
	dir := t.TempDir()
	heap := func(frames int) uint64 {
		path := filepath.Join(dir, fmt.Sprintf("%d.txt", frames))
		if err := os.WriteFile(path, []byte(motRows(frames, 100, false)), 0o644); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		tr, err := Load(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		runtime.KeepAlive(tr)
		return m.HeapAlloc
	}
	small, large := heap(1000), heap(40_000) // 100 000 and 4 000 000 boxes: 3.6 MB and 144 MB held
	t.Logf("heap after reading 100 000 boxes: %.1f MB; 4 000 000: %.1f MB", float64(small)/1e6, float64(large)/1e6)
	if large > small+8<<20 {
		t.Errorf("reading 40 times the boxes took %.1f MB more heap", float64(large-small)/1e6)
	}
}

// A Collector given frames in order holds a long video's tracks in the memory of a short
// one's (before the Collector, track held every frame, 102 MB at 300 frames, 182 MB at 3 000), and
// gives them back whole.
func TestCollectorHoldsLongVideosInFlatMemory(t *testing.T) {
	heap := func(frames int) uint64 {
		runtime.GC()
		c := NewCollector()
		f := Frame{Boxes: make([]Box, 100)}
		for n := 1; n <= frames; n++ {
			f.Index = n
			for i := range f.Boxes {
				f.Boxes[i] = Box{ID: i + 1, X: float32(n % 300), Y: float32(i), W: 10, H: 20, Class: "person"}
			}
			if err := c.Add(&f); err != nil {
				t.Fatal(err)
			}
		}
		tr, err := c.Tracks()
		if err != nil {
			t.Fatal(err)
		}
		if s := tr.Summary(); s.Boxes != 100*frames || s.Frames != frames || tr.Err() != nil {
			t.Fatalf("%d frames: %d boxes in %d frames back (%v)", frames, s.Boxes, s.Frames, tr.Err())
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		runtime.KeepAlive(tr)
		return m.HeapAlloc
	}
	small, large := heap(300), heap(30_000)
	t.Logf("heap after collecting 300 frames: %.1f MB; 30 000: %.1f MB", float64(small)/1e6, float64(large)/1e6)
	if large > small+8<<20 {
		t.Errorf("100 times the frames took %.1f MB more heap", float64(large-small)/1e6)
	}
}

// A Collector refuses what a reader refuses, so that what it collects can be written and
// read back: an id twice in a frame, a coordinate or a box's far edge beyond ±1e7 px.
func TestCollectorRefusesWhatReadersRefuse(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Frame
		want string
	}{
		{"id twice", Frame{Index: 1, Boxes: []Box{{ID: 1, W: 1, H: 1}, {ID: 1, W: 1, H: 1}}}, "box 1: track 1 appears twice"},
		{"huge coordinate", Frame{Index: 1, Points: []Point{{ID: 1, X: 2e7}}}, "point 0: coordinate 2e+07 is not finite or beyond ±1e7 px"},
		{"box reaching past the limit", Frame{Index: 1, Boxes: []Box{{ID: 1, X: 1e7, W: 30.5, H: 1}}}, "box 0: the box's right edge, 1.00000305e+07, is beyond ±1e7 px"},
	} {
		err := NewCollector().Add(&tc.f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// Where no temporary file can be made ($TMPDIR missing or full), a long file is read in
// memory as before spilling was, whole and without an error.
func TestSpillFallsBackToMemory(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	tr, err := Read(strings.NewReader(motRows(600, 400, false)), "sorted.txt", FormatMOT, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.boxes.sp != nil {
		t.Fatal("spilled with no temporary directory")
	}
	if s := tr.Summary(); s.Boxes != 600*400 || tr.Err() != nil {
		t.Errorf("%d boxes (%v), want %d", s.Boxes, tr.Err(), 600*400)
	}
}
