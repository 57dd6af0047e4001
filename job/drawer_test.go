package job

import (
	"testing"

	"trackink/scene"
)

// TestOffFrameTestsBoxes: a box whose bottom edge is a pixel or two below the picture is
// visible, and its anchor point with it; a box or a point of its own wholly outside counts.
func TestOffFrameTestsBoxes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame scene.Frame
		items int
	}{
		{"bottom edge 2 px below", scene.Frame{Index: 1, Boxes: []scene.Box{{ID: 1, X: 100, Y: 1000, W: 40, H: 82}},
			Points: []scene.Point{{ID: 1, X: 120, Y: 1082}}}, 0},
		{"box wholly below", scene.Frame{Index: 1, Boxes: []scene.Box{{ID: 1, X: 100, Y: 1090, W: 40, H: 80}},
			Points: []scene.Point{{ID: 1, X: 120, Y: 1170}}}, 1},
		{"a point of its own outside", scene.Frame{Index: 1, Points: []scene.Point{{ID: 7, X: -5, Y: 10}}}, 1},
	} {
		var o offFrame
		o.check(&tc.frame, 1920, 1080)
		if o.items != tc.items {
			t.Errorf("%s: %d items outside, want %d", tc.name, o.items, tc.items)
		}
	}
}
