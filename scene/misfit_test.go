package scene

import "testing"

// Tracks that fit the picture are no misfit; tracks whose boxes are centred outside it (more
// than one in twenty) are, with how far they reach and the common size that holds them.
func TestMisfit(t *testing.T) {
	frames := func(x, w float32) []Frame {
		var fs []Frame
		for i := range 10 {
			fs = append(fs, Frame{Index: i + 1, Boxes: []Box{{ID: 1, X: x, Y: 100, W: w, H: 200}, {ID: 2, X: 10, Y: 10, W: 20, H: 40}}})
		}
		return fs
	}
	for _, tc := range []struct {
		name         string
		frames       []Frame
		misfit       bool
		reachW       int
		madeW, madeH int
	}{
		{"fits", frames(600, 100), false, 0, 0, 0},
		{"made at 1080p", frames(1500, 80), true, 1580, 1920, 1080},
		{"beyond every common size", frames(9000, 100), true, 9100, 0, 0},
	} {
		tr, err := NewTracks(tc.frames)
		if err != nil {
			t.Fatal(err)
		}
		m, misfit := tr.Misfit(1280, 720)
		if misfit != tc.misfit || m.ReachW != tc.reachW || m.MadeW != tc.madeW || m.MadeH != tc.madeH {
			t.Errorf("%s: %+v (misfit %v), want misfit %v, reach %d, made at %dx%d", tc.name, m, misfit, tc.misfit, tc.reachW, tc.madeW, tc.madeH)
		}
	}
}
