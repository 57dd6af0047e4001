package job

import (
	"strings"
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

// The warning of items wholly outside names the first by its own file's id and that file
// where several are drawn together (the merged id is in no file).
func TestOffFrameNamesTheTrackOfItsFile(t *testing.T) {
	two := []string{"a.txt", "data/edge.txt"}
	for _, tc := range []struct {
		name    string
		box     scene.Box
		sources []string
		want    string
	}{
		{"one file", scene.Box{ID: 4}, nil, "(first: frame 5, track 4)"},
		{"one file, named", scene.Box{ID: 4}, []string{"edge.txt"}, "(first: frame 5, track 4)"},
		{"the second of two", scene.Box{ID: scene.MergedID(4, 1, 2), Source: 1}, two, "(first: frame 5, track 4 of data/edge.txt)"},
		{"the first of two", scene.Box{ID: scene.MergedID(4, 0, 2), Source: 0}, two, "(first: frame 5, track 4 of a.txt)"},
		{"untracked", scene.Box{ID: scene.NoID, Source: 1}, two, "(first: frame 5, an untracked item)"},
	} {
		var o offFrame
		tc.box.X, tc.box.Y, tc.box.W, tc.box.H = -100, 10, 20, 20
		o.check(&scene.Frame{Index: 5, Boxes: []scene.Box{tc.box}}, 64, 48)
		if got := o.warning(64, 48, tc.sources); !strings.HasSuffix(got, tc.want) {
			t.Errorf("%s: %q, want it to end %q", tc.name, got, tc.want)
		}
	}
}
