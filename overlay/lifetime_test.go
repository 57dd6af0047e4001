package overlay

import (
	"slices"
	"testing"

	"trackink/scene"
)

// lifeFrame is a frame with a box (and its point) for each id.
func lifeFrame(n int, ids ...int) scene.Frame {
	f := scene.Frame{Index: n}
	for _, id := range ids {
		f.Boxes = append(f.Boxes, scene.Box{ID: id, X: float32(10 * id), Y: 10, W: 20, H: 40})
		f.Points = append(f.Points, scene.Point{ID: id, X: float32(10*id + 10), Y: 50})
	}
	return f
}

// drawnBox is what lifetime hands on of a box: its id and fade.
type drawnBox struct {
	id    int
	alpha float32
}

func TestLifetime(t *testing.T) {
	for _, tc := range []struct {
		name          string
		minLife, fade int
		frames        []scene.Frame // an Index of 0 is a frame with nothing tracked
		want          [][]drawnBox
	}{
		{"min-life: a track in view at the start is drawn at once, a new one from its third frame, a short one never",
			3, 0,
			[]scene.Frame{lifeFrame(1, 1), lifeFrame(2, 1, 2, 3), lifeFrame(3, 1, 2, 3), lifeFrame(4, 1, 2), lifeFrame(5, 2)},
			[][]drawnBox{{{1, 1}}, {{1, 1}}, {{1, 1}}, {{1, 1}, {2, 1}}, {{2, 1}}}},
		{"fade: in over the first frames, out after the last, empty frames counted",
			0, 3,
			[]scene.Frame{lifeFrame(1, 1), lifeFrame(2, 1, 2), lifeFrame(3, 2), {}, {}, {}, lifeFrame(7, 2)},
			[][]drawnBox{
				{{1, 1}},
				{{1, 1}, {2, 0.25}},
				{{2, 0.5}, {1, 0.75}},
				{{1, 0.5}, {2, 0.75}}, // frame 4: track 2 gone too, fading from its last frame, 3
				{{1, 0.25}, {2, 0.5}}, // frame 5
				{{2, 0.25}},           // frame 6: track 1's fade is over
				{{2, 1}},              // frame 7: track 2 back, drawn whole (it is not new)
			}},
		{"min-life and fade: the fade starts when the track is first drawn",
			2, 1,
			[]scene.Frame{lifeFrame(1), lifeFrame(2, 5), lifeFrame(3, 5), lifeFrame(4, 5)},
			[][]drawnBox{{}, {}, {{5, 0.5}}, {{5, 1}}}},
		{"fading boxes come in id order",
			0, 2,
			[]scene.Frame{lifeFrame(1, 9, 3, 7), lifeFrame(2)},
			[][]drawnBox{{{9, 1}, {3, 1}, {7, 1}}, {{3, 2.0 / 3}, {7, 2.0 / 3}, {9, 2.0 / 3}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLifetime(Style{MinLife: tc.minLife, Fade: tc.fade})
			for i, f := range tc.frames {
				out := l.apply(&f)
				var got []drawnBox
				for k, b := range out.Boxes {
					got = append(got, drawnBox{b.ID, l.fades[k].alpha})
				}
				if !slices.EqualFunc(got, tc.want[i], func(a, b drawnBox) bool { return a.id == b.id && abs32(a.alpha-b.alpha) < 1e-6 }) {
					t.Fatalf("frame %d: drew %v, want %v", i+1, got, tc.want[i])
				}
				// A track's point is drawn when its box is (fading boxes have none).
				for _, p := range out.Points {
					if !slices.ContainsFunc(out.Boxes, func(b scene.Box) bool { return b.ID == p.ID }) {
						t.Fatalf("frame %d: point of track %d drawn without its box", i+1, p.ID)
					}
				}
			}
		})
	}
	if newLifetime(Style{MinLife: 1}) != nil || newLifetime(DefaultStyle()) != nil {
		t.Error("a style with neither MinLife nor Fade has a lifetime stage")
	}
}

func abs32(v float32) float32 { return max(v, -v) }

// A fading box grows from growFrom of its size about its centre.
func TestScaleBox(t *testing.T) {
	b := scene.Box{X: 10, Y: 20, W: 40, H: 80}
	scaleBox(&b, fadeAt(0).scale)
	if b.W != 40*growFrom || b.H != 80*growFrom || b.X+b.W/2 != 30 || b.Y+b.H/2 != 60 {
		t.Errorf("scaled box %+v", b)
	}
}
