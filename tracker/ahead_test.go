package tracker

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"trackink/detect"
	"trackink/internal/synthclip"
	"trackink/scene"
)

// brightBoxes is a Detector that finds the bright regions of the analysis planes: what it
// finds depends on the frame alone, as a network's boxes do, so detectors on several
// frames at once must give what one gives frame after frame. It takes longer on some
// frames than others, so that detections finish out of order; with fails, it fails on
// a frame whose first luma sample is 255.
type brightBoxes struct {
	mask  []byte
	lab   labeller
	fails bool
}

func (d *brightBoxes) Detect(dst []detect.Detection, im *detect.Image) ([]detect.Detection, error) {
	d.mask = grow(d.mask, im.W*im.H)
	binarize(d.mask, im.Y, 128, false)
	var sum int
	for _, c := range d.lab.components(d.mask, im.W, im.H) {
		dst = append(dst, detect.Detection{X0: float32(c.x0), Y0: float32(c.y0), X1: float32(c.x1), Y1: float32(c.y1), Score: 0.9})
		sum += int(c.x0)
	}
	time.Sleep(time.Duration(sum%3) * time.Millisecond)
	if d.fails && im.Y[0] == 255 {
		return dst, errors.New("the detector failed")
	}
	return dst, nil
}

// TestPushGivesWhatStepGives: with 1 to 4 detectors, the frames pushed and flushed are
// tracked as one detector steps through them, frame for frame, and the detectors'
// goroutines end with Close.
func TestPushGivesWhatStepGives(t *testing.T) {
	frames := clipFrames(t, synthclip.Options{Kind: synthclip.Bright, Width: 640, Height: 360, Frames: 60, Seed: 3}, 60)
	track := func(detectors int, push bool) []string {
		o := DefaultOptions(Objects)
		for range detectors {
			o.Detectors = append(o.Detectors, &brightBoxes{})
		}
		before := runtime.NumGoroutine()
		tr, err := New(o, 640, 360)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		keep := func(f *scene.Frame, err error) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprint(f.Boxes))
		}
		for _, f := range frames {
			if !push {
				keep(tr.Step(f))
				continue
			}
			out, err := tr.Push(f)
			if out != nil || err != nil {
				keep(out, err)
			}
		}
		for tr.Pending() > 0 {
			keep(tr.Next())
		}
		tr.Close()
		if n := goroutinesBackTo(before); n > before {
			t.Errorf("%d detectors: %d goroutines after Close, %d before New", detectors, n, before)
		}
		return got
	}
	want := track(1, false)
	if len(want) != len(frames) || want[len(want)-1] == "[]" {
		t.Fatalf("%d frames tracked, the last with %s; want %d, the last with boxes", len(want), want[len(want)-1], len(frames))
	}
	for _, n := range []int{1, 2, 3, 4} {
		got := track(n, true)
		if len(got) != len(want) {
			t.Fatalf("%d detectors: %d frames tracked, want %d", n, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d detectors, frame %d: %s, want %s", n, i+1, got[i], want[i])
			}
		}
	}
}

// goroutinesBackTo waits up to 2 s for the goroutines to be n or fewer, and returns how many
// there are.
func goroutinesBackTo(n int) int {
	for deadline := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > n && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	return runtime.NumGoroutine()
}

// TestCloseUnusedDetectors: a tracker with 4 detectors closed before some of them were
// given a frame (a video shorter than the detectors, an error at its start), maybe before
// their goroutines have started: every goroutine ends (under -race, Close and a goroutine
// starting do not race).
func TestCloseUnusedDetectors(t *testing.T) {
	frames := clipFrames(t, synthclip.Options{Kind: synthclip.Bright, Width: 640, Height: 360, Frames: 2, Seed: 3}, 2)
	for pushed := range 3 {
		before := runtime.NumGoroutine()
		for range 20 {
			o := DefaultOptions(Objects)
			for range 4 {
				o.Detectors = append(o.Detectors, &brightBoxes{})
			}
			tr, err := New(o, 640, 360)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range frames[:pushed] {
				if _, err := tr.Push(f); err != nil {
					t.Fatal(err)
				}
			}
			tr.Close()
		}
		if n := goroutinesBackTo(before); n > before {
			t.Errorf("%d frames pushed: %d goroutines after 20 trackers closed, %d before", pushed, n, before)
		}
	}
}

// TestPushErrors: a detection's error comes back with its frame, and the tracker can be
// closed after it; a Step with frames still pushed, an Ahead with every detector busy and a
// Next with none are refused.
func TestPushErrors(t *testing.T) {
	frames := clipFrames(t, synthclip.Options{Kind: synthclip.Bright, Width: 320, Height: 180, Frames: 8, Seed: 3}, 8)
	frames[4].Y[0] = 255 // brightBoxes fails on it
	o := DefaultOptions(Objects)
	o.Detectors = []Detector{&brightBoxes{fails: true}, &brightBoxes{fails: true}, &brightBoxes{fails: true}}
	tr, err := New(o, 320, 180)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var returned int
	for i, f := range frames {
		out, err := tr.Push(f)
		if err != nil {
			// Frame 5 comes back from the push of frame 8: three detectors.
			if i != 7 || returned != 4 || !strings.Contains(err.Error(), "the detector failed") {
				t.Fatalf("push %d (frames returned %d): %v", i+1, returned, err)
			}
			break
		}
		if out != nil {
			returned++
		}
		if i == 1 {
			if _, err := tr.Step(f); err == nil || !strings.Contains(err.Error(), "not to Next") {
				t.Fatalf("Step with frames pushed: %v", err)
			}
		}
		if i == 2 {
			if err := tr.Ahead(f); err == nil || !strings.Contains(err.Error(), "Next first") {
				t.Fatalf("Ahead with every detector busy: %v", err)
			}
		}
	}
	if returned != 4 {
		t.Fatalf("%d frames returned before the error, want 4", returned)
	}
	for tr.Pending() > 0 {
		if _, err := tr.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tr.Next(); err == nil {
		t.Fatal("Next with nothing handed to Ahead: no error")
	}
}
