package tracker

import (
	"slices"
	"testing"

	"trackink/composite"
	"trackink/detect"
)

// A detector's box over two tracked people (Objects) is held as their merge only while it
// could be theirs, and not for longer than Grace: a larger box (a bus passing in front of
// them, or a box of their class that their boxes fill little of) is another object, which
// gets an id of its own, while the people are lost behind it: their ids go on if they are
// seen again within Grace, and end otherwise.
func TestBoxOverTwoTracks(t *testing.T) {
	const (
		w, h  = 640, 360
		bus   = 5 // COCO's bus
		cover = 30
	)
	grace := DefaultOptions(Objects).Grace
	// Two people walking right, 1 px a frame; frames counted from 1.
	person := func(n int, x float32) detect.Detection {
		x += float32(n)
		return detect.Detection{X0: x, Y0: 140, X1: x + 30, Y1: 220, Score: 0.9}
	}
	// A box passing over them from frame 11 to 10+cover, 2 px a frame: 250 × 150 px, of
	// which each person's 30 × 80 box is a sixteenth, though over half its height.
	big := func(n int, class int) detect.Detection {
		x := 200 + 2*float32(n-11)
		return detect.Detection{X0: x, Y0: 100, X1: x + 250, Y1: 250, Class: class, Score: 0.9}
	}
	// Their two boxes as one, as a detector may see two people side by side.
	group := func(n int) detect.Detection {
		a, b := person(n, 280), person(n, 330)
		return detect.Detection{X0: a.X0, Y0: a.Y0, X1: b.X1, Y1: b.Y1, Score: 0.9}
	}
	// A box of their class between them, over the inner 18 px of each (six tenths of it) and
	// twice their height: each is over a quarter of it, but together they cover a third.
	between := func(n int) detect.Detection {
		a, b := person(n, 280), person(n, 330)
		return detect.Detection{X0: a.X1 - 18, Y0: 100, X1: b.X0 + 18, Y1: 260, Score: 0.9}
	}
	const frames = 10 + cover + 10
	// peopleGone checks that from frame 11 on the people's ids are drawn neither under the
	// box nor after it: lost behind it and not seen again within grace, they end.
	peopleGone := func(t *testing.T, ids [][]int) {
		t.Helper()
		for n := 11; n <= frames; n++ {
			if slices.Contains(ids[n], 1) || slices.Contains(ids[n], 2) {
				t.Errorf("frame %d: ids %v; the people's ids 1 and 2 are drawn under the box, or go on after %d frames unseen", n, ids[n], grace)
			}
		}
	}
	for _, tc := range []struct {
		name string
		// what the detector finds in frame n while the box is there (n from 11 to 10+cover)
		covered func(n int) []detect.Detection
		// whether the people are found, each on its own, after the box has gone
		after bool
		check func(t *testing.T, ids [][]int)
	}{
		{"a bus over them for longer than grace: their ids end", func(n int) []detect.Detection {
			return []detect.Detection{big(n, bus)}
		}, true, func(t *testing.T, ids [][]int) {
			busID := ownID(t, ids, 12, 10+cover)
			for n := 11; n <= frames; n++ {
				if slices.Contains(ids[n], 1) || slices.Contains(ids[n], 2) {
					t.Errorf("frame %d: ids %v; the people's ids 1 and 2 are drawn behind the bus, or go on after %d frames unseen", n, ids[n], grace)
				}
			}
			if n := 10 + cover + 2; len(ids[n]) != 2 || slices.Contains(ids[n], busID) {
				t.Errorf("frame %d, the bus gone: ids %v, want the two people's new ids", n, ids[n])
			}
		}},
		{"a bus over them, and they are seen again within grace: their ids go on", func(n int) []detect.Detection {
			if n < 10+grace {
				return []detect.Detection{big(n, bus)}
			}
			return []detect.Detection{big(n, bus), person(n, 280), person(n, 330)}
		}, true, func(t *testing.T, ids [][]int) {
			busID := ownID(t, ids, 12, 10+cover)
			for n := 11; n <= frames; n++ {
				hidden := n < 10+grace
				if want := !hidden; slices.Contains(ids[n], 1) != want || slices.Contains(ids[n], 2) != want {
					t.Errorf("frame %d: ids %v; want the people's ids 1 and 2 drawn: %v", n, ids[n], want)
				}
				if n > 10+cover && slices.Contains(ids[n], busID) {
					t.Errorf("frame %d: ids %v; the bus's id %d is drawn after it has gone", n, ids[n], busID)
				}
			}
		}},
		{"a larger box of their class over them for longer than grace", func(n int) []detect.Detection {
			return []detect.Detection{big(n, 0)}
		}, true, func(t *testing.T, ids [][]int) {
			ownID(t, ids, 12, 10+cover)
			peopleGone(t, ids)
		}},
		{"a box of their class between them, which they fill a third of", func(n int) []detect.Detection {
			return []detect.Detection{between(n)}
		}, true, func(t *testing.T, ids [][]int) {
			ownID(t, ids, 12, 10+cover)
			peopleGone(t, ids)
		}},
		{"their two boxes seen as one for longer than grace: held for grace frames", func(n int) []detect.Detection {
			return []detect.Detection{group(n)}
		}, false, func(t *testing.T, ids [][]int) {
			for n := 11; n <= 10+cover; n++ {
				both := n <= 10+grace
				if got := slices.Contains(ids[n], 1) && slices.Contains(ids[n], 2); got != both || !both && len(ids[n]) != 1 {
					t.Errorf("frame %d: ids %v; want ids 1 and 2 held (drawn) for the first %d frames of the merge, then one id only", n, ids[n], grace)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := make([][]detect.Detection, frames)
			for n := 1; n <= frames; n++ {
				switch {
				case n <= 10 || n > 10+cover && tc.after:
					script[n-1] = []detect.Detection{person(n, 280), person(n, 330)}
				case n <= 10+cover:
					script[n-1] = tc.covered(n)
				}
			}
			ids := scriptedIDs(t, w, h, script)
			if !slices.Equal(ids[10], []int{1, 2}) {
				t.Fatalf("frame 10: ids %v, want the two people's 1 and 2", ids[10])
			}
			tc.check(t, ids)
		})
	}
}

// scriptedIDs tracks len(script) blank w × h frames in Objects mode, the detector finding in
// frame n what script[n-1] says, and returns the ids drawn in each frame (ids[n], from 1).
func scriptedIDs(t *testing.T, w, h int, script [][]detect.Detection) [][]int {
	t.Helper()
	o := DefaultOptions(Objects)
	o.Detectors = []Detector{&scripted{frames: script}}
	tr, err := New(o, w, h)
	if err != nil {
		t.Fatal(err)
	}
	f := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	ids := make([][]int, len(script)+1)
	for n := 1; n <= len(script); n++ {
		out, err := tr.Step(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range out.Boxes {
			ids[n] = append(ids[n], b.ID)
		}
	}
	return ids
}

// ownID checks that from frame first to last the big box is drawn with an id of its own,
// the same throughout and neither of the people's (1, 2), and returns it.
func ownID(t *testing.T, ids [][]int, first, last int) int {
	t.Helper()
	id := 0
	for n := first; n <= last; n++ {
		var others []int
		for _, i := range ids[n] {
			if i != 1 && i != 2 {
				others = append(others, i)
			}
		}
		if len(others) != 1 || id != 0 && others[0] != id {
			t.Errorf("frame %d: ids %v; want the big box drawn with an id of its own, the same throughout", n, ids[n])
			continue
		}
		id = others[0]
	}
	return id
}

// A box of another class continues a track only where it overlaps the track's prediction as
// the track's own box would (Objects): a car taken for a truck in one frame keeps its id,
// while a truck beside it, overlapping it less, does not take the car's.
func TestClassMisread(t *testing.T) {
	const (
		w, h       = 640, 360
		car, truck = 2, 7 // COCO's
	)
	at := func(n int, x float32, class int) detect.Detection {
		x += 2 * float32(n)
		return detect.Detection{X0: x, Y0: 150, X1: x + 80, Y1: 200, Class: class, Score: 0.9}
	}
	script := make([][]detect.Detection, 12)
	for n := 1; n <= len(script); n++ {
		switch {
		case n == 6:
			script[n-1] = []detect.Detection{at(n, 100, truck)} // the car, misread
		case n >= 9:
			script[n-1] = []detect.Detection{at(n, 130, truck)} // a truck, half over where the car was
		default:
			script[n-1] = []detect.Detection{at(n, 100, car)}
		}
	}
	all := scriptedIDs(t, w, h, script)
	for n := 1; n <= len(script); n++ {
		ids := all[n]
		want := []int{1}
		switch {
		case n == 9:
			want = nil // a new object, not yet confirmed (the car of frame 1, the first frame
			// tracked, is confirmed at once)
		case n > 9:
			want = []int{2}
		}
		if !slices.Equal(ids, want) {
			t.Errorf("frame %d: ids %v, want %v", n, ids, want)
		}
	}
}
