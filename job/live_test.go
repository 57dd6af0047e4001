package job

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/detect"
	"trackink/scene"
	"trackink/tracker"
)

// MOTChallenge text has no class column: writing several classes to it says so, and how to
// keep them; one class (--detect people) is what the file is of, and nothing is said.
func TestLiveSaysClassesLost(t *testing.T) {
	box := func(class string) scene.Box { return scene.Box{ID: 1, X: 1, Y: 1, W: 5, H: 9, Class: class} }
	for _, tc := range []struct {
		classes []string
		note    bool
	}{
		{[]string{"person", "person"}, false},
		{[]string{"person", "car"}, true},
	} {
		l := &Live{}
		for i, c := range tc.classes {
			if err := l.add(&scene.Frame{Index: i + 1, Boxes: []scene.Box{box(c)}}); err != nil {
				t.Fatal(err)
			}
		}
		var out strings.Builder
		if err := l.Write(&out, scene.FormatMOT); err != nil {
			t.Fatal(err)
		}
		if got := len(l.lost) == 1 && strings.Contains(l.lost[0], ".jsonl"); got != tc.note {
			t.Errorf("classes %v: notes %q, want a note: %v", tc.classes, l.lost, tc.note)
		}
	}
}

// oneBox is a detector that finds one box, wherever the frame is.
type oneBox struct{}

func (oneBox) Detect(dst []detect.Detection, _ *detect.Image) ([]detect.Detection, error) {
	return append(dst, detect.Detection{X0: 10, Y0: 10, X1: 30, Y1: 50, Score: 0.9}), nil
}

// A Live with several detectors takes one frame ahead a detector but one, tracks the frames
// handed ahead in order, and refuses to track another than the oldest; with one detector,
// or in a mode without one, it takes none ahead.
func TestLiveAhead(t *testing.T) {
	const w, h = 64, 64
	pic := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	objects := func(n int) tracker.Options {
		o := tracker.DefaultOptions(tracker.Objects)
		for range n {
			o.Detectors = append(o.Detectors, oneBox{})
		}
		return o
	}
	for _, tc := range []struct {
		o     tracker.Options
		ahead int
	}{{objects(3), 2}, {objects(1), 0}, {tracker.DefaultOptions(tracker.Motion), 0}} {
		if got := NewLive(tc.o, scene.BottomCenter, false, nil).AheadFrames(); got != tc.ahead {
			t.Errorf("%s, %d detectors: %d frames ahead, want %d", tc.o.Mode, len(tc.o.Detectors), got, tc.ahead)
		}
	}
	l := NewLive(objects(3), scene.BottomCenter, true, nil)
	defer l.Close()
	for n := 1; n <= 3; n++ {
		if err := l.Ahead(n, pic); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Frame(2, pic); err == nil || !strings.Contains(err.Error(), "handed frame 1 ahead, and asked for frame 2") {
		t.Errorf("frame 2 before frame 1: %v", err)
	}
	for n := 1; n <= 3; n++ {
		f, err := l.Frame(n, pic)
		if err != nil {
			t.Fatal(err)
		}
		if f == nil || f.Index != n || len(f.Boxes) != 1 {
			t.Errorf("frame %d: %+v, want its box (the first frame's confirmed at once)", n, f)
		}
	}
}

// failsOn is a Detector that finds one box, and fails on the frames whose luma is bad.
type failsOn struct{ bad byte }

func (d failsOn) Detect(dst []detect.Detection, im *detect.Image) ([]detect.Detection, error) {
	if im.Y[0] == d.bad {
		return dst, errors.New("the detector failed")
	}
	return oneBox{}.Detect(dst, im)
}

// A detection's error names the frame it failed on, though with several detectors it
// surfaces frames later (while a later frame is pushed) or after the last (flush): track
// (Live.Track) reports the frame to look at.
func TestLivePushNamesTheFailedFrame(t *testing.T) {
	const w, h, frames = 64, 64, 12
	for _, tc := range []struct {
		detectors, bad int
		want           string
	}{
		{3, 5, "detecting frame 5: the detector failed"},   // surfaces as frame 8 is pushed
		{3, 11, "detecting frame 11: the detector failed"}, // in flush
		{1, 5, "the detector failed"},                      // at once; the video names frame 5
	} {
		o := tracker.DefaultOptions(tracker.Objects)
		for range tc.detectors {
			o.Detectors = append(o.Detectors, failsOn{bad: byte(10 * tc.bad)})
		}
		l := NewLive(o, scene.BottomCenter, true, nil)
		err := func() error {
			for n := 1; n <= frames; n++ {
				pic := &composite.YUV420P{Y: bytes.Repeat([]byte{byte(10 * n)}, w*h), U: make([]byte, w*h/4),
					V: make([]byte, w*h/4), StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
				if err := l.push(n, pic); err != nil {
					return err
				}
			}
			return l.flush()
		}()
		l.Close()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%d detectors failing on frame %d: %v, want %q", tc.detectors, tc.bad, err, tc.want)
		}
	}
}

// blinking is a detector that finds its box in every other frame, the first included: never
// two frames in a row.
type blinking struct{ calls *int }

func (b blinking) Detect(dst []detect.Detection, im *detect.Image) ([]detect.Detection, error) {
	if *b.calls++; *b.calls%2 == 1 { // none in the first frame, whose boxes are tracks at once
		return dst, nil
	}
	return oneBox{}.Detect(dst, im)
}

// late is a detector that finds oneBox's box from its second frame on.
type late struct{ calls *int }

func (l late) Detect(dst []detect.Detection, im *detect.Image) ([]detect.Detection, error) {
	if *l.calls++; *l.calls == 1 {
		return dst, nil
	}
	return oneBox{}.Detect(dst, im)
}

// noBox is a detector that finds nothing.
type noBox struct{}

func (noBox) Detect(dst []detect.Detection, _ *detect.Image) ([]detect.Detection, error) {
	return dst, nil
}

// tinyBox is a detector that finds one box of a pixel.
type tinyBox struct{}

func (tinyBox) Detect(dst []detect.Detection, _ *detect.Image) ([]detect.Detection, error) {
	return append(dst, detect.Detection{X0: 10, Y0: 10, X1: 11, Y1: 11, Score: 0.9}), nil
}

// When the tracker tracked nothing, the hint names --confirm where it is the cause: a clip
// shorter than it, or boxes found that no track confirmed (it once advised a lower
// --min-score for a 1-frame clip whose person the detector had found); else what finds
// more, among what the mode reads and the user has not already pushed to its end (it once
// offered motion to --detect motion, a higher --sensitivity at 1, a lower --threshold that
// was automatic, other --classes to people, and blamed --confirm for boxes --min-area
// dropped).
func TestLiveNothingHint(t *testing.T) {
	const w, h = 64, 64
	pic := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	for _, tc := range []struct {
		name      string
		mode      string
		det       tracker.Detector
		set       func(*tracker.Options)
		asked     Asked
		frames    int
		want, not []string
	}{
		{"a clip shorter than --confirm", tracker.Objects, late{new(int)}, func(o *tracker.Options) { o.Confirm = 3 }, Asked{}, 2,
			[]string{"seen in --confirm 3 frames in a row, more than the 2 frames tracked: try --confirm 2"}, nil},
		{"a box never in two frames in a row", tracker.Objects, blinking{new(int)}, nil, Asked{}, 6,
			[]string{"the detector found 3 boxes of --start-score 0.6 or more, but none was seen in --confirm 2 frames in a row"}, nil},
		{"nothing found", tracker.Objects, noBox{}, nil, Asked{}, 6, []string{"try a lower --min-score", "--detect motion"}, []string{"--classes"}},
		{"boxes under --min-area", tracker.Objects, tinyBox{}, nil, Asked{}, 6, []string{"a lower --min-area"}, []string{"--confirm"}},
		{"people", tracker.Objects, noBox{}, nil, Asked{Preset: "people"}, 6, []string{"--detect objects for other things"}, []string{"--classes"}},
		{"objects of some classes", tracker.Objects, noBox{}, nil, Asked{Preset: "objects", Classes: true}, 6, []string{"other --classes"}, nil},
		{"motion", tracker.Motion, nil, nil, Asked{Preset: "motion"}, 6, []string{"a higher --sensitivity", "--detect people for people"}, []string{"motion for"}},
		{"bright at the most sensitive", tracker.Bright, nil, func(o *tracker.Options) { o.Sensitivity = 1 }, Asked{}, 6,
			[]string{"a lower --min-area", "--threshold LEVEL (the 8-bit luma above which a pixel counts as bright)"}, []string{"--sensitivity"}},
		{"dark", tracker.Dark, nil, nil, Asked{}, 6, []string{"a higher --sensitivity", "--threshold LEVEL (the 8-bit luma below which a pixel counts as dark)"}, nil},
		{"bright by a threshold", tracker.Bright, nil, func(o *tracker.Options) { o.Threshold = 200 }, Asked{}, 6, []string{"a lower --threshold"}, []string{"--sensitivity"}},
		{"points", tracker.Points, nil, nil, Asked{}, 6, []string{"try a higher --sensitivity, or another --detect"}, []string{"--threshold", "--min-area"}},
	} {
		o := tracker.DefaultOptions(tc.mode)
		if tc.det != nil {
			o.Detectors = []tracker.Detector{tc.det}
		}
		if tc.set != nil {
			tc.set(&o)
		}
		l := NewLive(o, scene.BottomCenter, false, nil)
		l.Asked = tc.asked
		for n := 1; n <= tc.frames; n++ {
			if _, err := l.Frame(n, pic); err != nil {
				t.Fatal(err)
			}
		}
		l.Close()
		if l.Tracked() != 0 {
			t.Fatalf("%s: %d frames tracked, want none", tc.name, l.Tracked())
		}
		got := l.NothingHint(tc.frames)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: hint %q, want %q", tc.name, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: hint %q says %q", tc.name, got, n)
			}
		}
	}
}
