package tracker

import (
	"slices"
	"testing"

	"trackink/scene"
)

// A frame as MOTChallenge text holds it: boxes as they are, and in the Points mode each point
// a PointSize box centred on it; in the box modes the points boxes yield are not repeated.
func TestMOTBoxes(t *testing.T) {
	box := scene.Box{ID: 1, X: 10, Y: 20, W: 30, H: 40, Class: "person"}
	f := &scene.Frame{Index: 3, Boxes: []scene.Box{box}, Points: []scene.Point{{ID: 7, X: 50, Y: 60}}}
	for _, tc := range []struct {
		mode string
		want []scene.Box
	}{
		{Objects, []scene.Box{box}},
		{Motion, []scene.Box{box}},
		{Points, []scene.Box{box, {ID: 7, X: 47, Y: 57, W: 6, H: 6}}},
	} {
		o := DefaultOptions(tc.mode)
		o.PointSize = 6
		if got := o.MOTBoxes(nil, f); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.mode, got, tc.want)
		}
	}
}
