package tracker

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/detect"
	"trackink/eval"
	"trackink/internal/baseline"
	"trackink/internal/needs"
	"trackink/scene"
	"trackink/video"
)

// Beside the repository (../shared): the model, and PETS09-S2L1's published ground truth,
// whose sequence is vtest.avi frame for frame.
var (
	sharedModel = filepath.Join("..", "..", "shared", "models", detect.ModelFile)
	petsGT      = filepath.Join("..", "..", "shared", "data", "real-mot", "PETS09-S2L1", "gt.txt")
)

// network is the detector at its default operating point, keeping classes, closed when the
// test ends.
func network(t *testing.T, classes []int) *detect.Network { return networkThreads(t, classes, 0) }

// networkThreads is network running on threads threads (0: one a CPU).
func networkThreads(t *testing.T, classes []int, threads int) *detect.Network {
	t.Helper()
	needs.File(t, sharedModel, "the model is kept in ../shared/models beside the repository")
	lib, err := detect.LocateRuntime("")
	needs.Met(t, err)
	do := detect.DefaultOptions()
	do.Model, do.Runtime, do.Classes, do.Threads = sharedModel, lib, classes, threads
	n, err := detect.New(do)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	return n
}

// peopleTracker is the --detect people preset's tracker, with its network.
func peopleTracker(t *testing.T, w, h int) *Tracker {
	t.Helper()
	p, _ := LookupPreset("people")
	o := p.Options
	o.Detectors = []Detector{network(t, []int{0})}
	tr, err := New(o, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestPeopleOnPETS09 tracks people with the detector on PETS09-S2L1 (vtest.avi) and scores
// the tracks against the benchmark's ground truth: the targets, MOTA ≥ 0.70,
// IDF1 ≥ 0.65, at most 25 identity switches; and steady boxes, their width and height
// changing by at most 5 % a frame at the 95th percentile.
func TestPeopleOnPETS09(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes and detects 795 frames")
	}
	needs.File(t, vtest, "Debian's opencv-doc has it")
	needs.File(t, petsGT, "the ground truth is kept in ../shared/data beside the repository")
	var tr *Tracker
	var frames []scene.Frame
	_, err := video.Frames(context.Background(), video.Options{Input: vtest}, func(n int, s composite.Surface) error {
		if tr == nil {
			w, h := s.Size()
			tr = peopleTracker(t, w, h)
		}
		out, err := tr.Step(s)
		if err != nil {
			return err
		}
		frames = append(frames, scene.Frame{Index: n, Boxes: slices.Clone(out.Boxes)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tracks, err := scene.NewTracks(frames)
	if err != nil {
		t.Fatal(err)
	}
	gt, err := scene.Load(petsGT, scene.Options{DropIgnored: true})
	if err != nil {
		t.Fatal(err)
	}
	r := eval.Boxes(gt, tracks, 0.5)
	t.Logf("PETS09-S2L1: MOTA %.3f, IDF1 %.3f, %d switches, recall %.3f, precision %.3f, %d false positives, %d misses",
		r.MOTA(), r.IDF1(), r.IDSwitches, r.Recall(), r.Precision(), r.FalsePositives, r.Misses)
	if r.MOTA() < 0.70 || r.IDF1() < 0.65 || r.IDSwitches > 25 {
		t.Errorf("MOTA %.3f, IDF1 %.3f, %d switches; want at least 0.70, 0.65, at most 25", r.MOTA(), r.IDF1(), r.IDSwitches)
	}
	if p95 := sizeChange95(frames); p95 > 0.05 {
		t.Errorf("boxes change size by %.1f %% a frame at the 95th percentile, want at most 5 %%", 100*p95)
	} else {
		t.Logf("size change a frame, 95th percentile: %.2f %%", 100*p95)
	}
}

// TestPeopleBeatsHOG: on the first 60 frames of PETS09-S2L1, the trained network scores
// above the classical peer, OpenCV's HOG people detector, both followed by the same
// association (the people preset's); the peer in tests and bench.
func TestPeopleBeatsHOG(t *testing.T) {
	if testing.Short() {
		t.Skip("runs OpenCV's HOG detector on 60 frames")
	}
	const frames = 60
	needs.File(t, vtest, "Debian's opencv-doc has it")
	needs.File(t, petsGT, "the ground truth is kept in ../shared/data beside the repository")
	python, err := baseline.Python()
	needs.Met(t, err)
	var tr *Tracker
	var ours []scene.Frame
	_, err = video.Frames(context.Background(), video.Options{Input: vtest, End: video.Position{Frame: frames}}, func(n int, s composite.Surface) error {
		if tr == nil {
			w, h := s.Size()
			tr = peopleTracker(t, w, h)
		}
		out, err := tr.Step(s)
		ours = append(ours, scene.Frame{Index: n, Boxes: slices.Clone(out.Boxes)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	hogFile := filepath.Join(t.TempDir(), "hog.txt")
	if err := baseline.Track(python, vtest, hogFile, "hog", frames); err != nil {
		t.Fatal(err)
	}
	peer := &scripted{frames: readDetections(t, hogFile, frames)}
	p, _ := LookupPreset("people")
	o := p.Options
	o.Detectors = []Detector{peer}
	const w, h = 768, 576
	hogTracker, err := New(o, w, h)
	if err != nil {
		t.Fatal(err)
	}
	blank := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	var theirs []scene.Frame
	for n := 1; n <= frames; n++ {
		out, err := hogTracker.Step(blank)
		if err != nil {
			t.Fatal(err)
		}
		theirs = append(theirs, scene.Frame{Index: n, Boxes: slices.Clone(out.Boxes)})
	}
	gtAll, err := scene.Load(petsGT, scene.Options{DropIgnored: true})
	if err != nil {
		t.Fatal(err)
	}
	var gtFrames []scene.Frame
	for n := 1; n <= frames; n++ {
		var f scene.Frame
		if gtAll.Frame(n, &f) != nil {
			gtFrames = append(gtFrames, scene.Frame{Index: n, Boxes: slices.Clone(f.Boxes)})
		}
	}
	score := func(fs []scene.Frame) eval.Result {
		tracks, err := scene.NewTracks(fs)
		gt, gerr := scene.NewTracks(gtFrames)
		if err != nil || gerr != nil {
			t.Fatal(err, gerr)
		}
		return eval.Boxes(gt, tracks, 0.5)
	}
	a, b := score(ours), score(theirs)
	t.Logf("frames 1-%d: YOLOX-Nano MOTA %.3f IDF1 %.3f; OpenCV HOG MOTA %.3f IDF1 %.3f", frames, a.MOTA(), a.IDF1(), b.MOTA(), b.IDF1())
	if a.MOTA() <= b.MOTA() || a.IDF1() <= b.IDF1() {
		t.Errorf("the network (MOTA %.3f, IDF1 %.3f) does not beat HOG (%.3f, %.3f)", a.MOTA(), a.IDF1(), b.MOTA(), b.IDF1())
	}
}

// readDetections reads a detections file (MOTChallenge text, id -1) into one list a frame,
// frames 1 to n.
func readDetections(t *testing.T, path string, n int) [][]detect.Detection {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]detect.Detection, n)
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var f [10]float64
		fields := strings.Split(line, ",")
		if len(fields) != 10 {
			t.Fatalf("%s:%d: %q", path, i+1, line)
		}
		for k, v := range fields {
			if f[k], err = strconv.ParseFloat(v, 64); err != nil {
				t.Fatalf("%s:%d: %v", path, i+1, err)
			}
		}
		k := int(f[0]) - 1
		if k < 0 || k >= n {
			t.Fatalf("%s:%d: frame %g", path, i+1, f[0])
		}
		out[k] = append(out[k], detect.Detection{X0: float32(f[2]), Y0: float32(f[3]),
			X1: float32(f[2] + f[4]), Y1: float32(f[3] + f[5]), Score: float32(f[6])})
	}
	return out
}

// sizeChange95 is the 95th percentile of the relative change of a track's width and height
// from one frame to the next, over every track seen in consecutive frames.
func sizeChange95(frames []scene.Frame) float64 {
	prev := map[int]scene.Box{}
	var changes []float64
	last := 0
	for _, f := range frames {
		cur := map[int]scene.Box{}
		for _, b := range f.Boxes {
			if p, ok := prev[b.ID]; ok && f.Index == last+1 && p.W > 0 && p.H > 0 {
				changes = append(changes, math.Abs(float64(b.W-p.W))/float64(p.W), math.Abs(float64(b.H-p.H))/float64(p.H))
			}
			cur[b.ID] = b
		}
		prev, last = cur, f.Index
	}
	slices.Sort(changes)
	if len(changes) == 0 {
		return 0
	}
	return changes[int(0.95*float64(len(changes)-1))]
}

// scripted returns, frame after frame, the detections it was given.
type scripted struct {
	frames [][]detect.Detection
	n      int
}

func (s *scripted) Detect(dst []detect.Detection, _ *detect.Image) ([]detect.Detection, error) {
	f := s.frames[min(s.n, len(s.frames)-1)]
	s.n++
	return append(dst, f...), nil
}

// An unsure box (below StartScore) starts no track, and continues one that a sure box
// started; a sure one that appears beside a track starts its own.
func TestStartScore(t *testing.T) {
	const w, h = 320, 240
	box := func(x float32, score float32) detect.Detection {
		return detect.Detection{X0: x, Y0: 100, X1: x + 30, Y1: 180, Score: score}
	}
	for _, tc := range []struct {
		name   string
		frames [][]detect.Detection
		want   []int // boxes out in each frame
	}{
		{"unsure boxes alone start nothing",
			[][]detect.Detection{{box(10, 0.4)}, {box(12, 0.4)}, {box(14, 0.4)}, {box(16, 0.4)}},
			[]int{0, 0, 0, 0}},
		// After the first frame (nothing in it here), a track is confirmed on its second.
		{"sure boxes start a track that unsure ones continue",
			[][]detect.Detection{{}, {box(10, 0.9)}, {box(12, 0.9)}, {box(14, 0.3)}, {box(16, 0.2)}},
			[]int{0, 0, 1, 1, 1}},
		{"an unsure box far from the track does not continue it",
			[][]detect.Detection{{}, {box(10, 0.9)}, {box(12, 0.9)}, {box(60, 0.3)}, {box(62, 0.3)}},
			[]int{0, 0, 1, 0, 0}},
		// What is in view when tracking begins has no history to doubt it by: a sure box of
		// the first frame is a track at once (ByteTrack's rule), an unsure one is not.
		{"the first frame's sure boxes are tracks at once",
			[][]detect.Detection{{box(10, 0.9), box(200, 0.4)}, {box(12, 0.9), box(202, 0.4)}},
			[]int{1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions(Objects)
			o.Detectors = []Detector{&scripted{frames: tc.frames}}
			tr, err := New(o, w, h)
			if err != nil {
				t.Fatal(err)
			}
			f := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
				StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
			for i, want := range tc.want {
				out, err := tr.Step(f)
				if err != nil {
					t.Fatal(err)
				}
				if len(out.Boxes) != want {
					t.Fatalf("frame %d: %d boxes, want %d", i+1, len(out.Boxes), want)
				}
				for _, b := range out.Boxes {
					if b.Class != "person" || !b.HasScore {
						t.Fatalf("frame %d: box %+v has no class or score", i+1, b)
					}
				}
			}
		})
	}
}
