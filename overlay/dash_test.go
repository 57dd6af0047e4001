package overlay

import (
	"math"

	"testing"

	"trackink/knn"
	"trackink/scene"
)

// TestDashSized: Style.Dash sets the dashes and gaps as seen, round caps included (a dash
// at least a dot), and a dotted stroke's gap; 0,0 is DashFor's pattern, tied to the width.
func TestDashSized(t *testing.T) {
	for _, tc := range []struct {
		style       string
		w, len, gap float32
		want        Dash
	}{
		{"dashed", 2, 0, 0, DashFor("dashed", 2)},
		{"dotted", 3, 0, 0, DashFor("dotted", 3)},
		{"dashed", 0.5, 0, 0, DashFor("dashed", 0.5)},
		{"dashed", 2, 20, 10, Dash{On: 18, Period: 30}}, // 18 + two 1 px caps: 20; gap 30 − 20
		{"dashed", 4, 3, 6, Dash{On: 0, Period: 10}},    // shorter than the width: a dot, gaps kept
		{"dashed", 0.5, 5, 5, Dash{On: 4, Period: 10}},  // drawn at least 1 px wide
		{"dotted", 2, 20, 10, Dash{On: 0, Period: 12}},  // a dot has no length: 10 px between dots
		{"dotted", 2, 0, 4, Dash{On: 0, Period: 6}},
		{"solid", 2, 20, 10, Dash{}},
		{"corners", 2, 20, 10, Dash{}},
		{"electric", 2, 20, 10, Dash{}},
	} {
		if got := DashSized(tc.style, tc.w, tc.len, tc.gap); got != tc.want {
			t.Errorf("%s at %g px, --dash %g,%g: %+v, want %+v", tc.style, tc.w, tc.len, tc.gap, got, tc.want)
		}
	}
}

// TestDashStyle: Style.Dash reaches the boxes', lines' and curves' patterns, each for its
// own width, and its range is checked.
func TestDashStyle(t *testing.T) {
	st := DefaultStyle()
	st.BoxStyle, st.LinkStyle, st.Labels = "dotted", "dashed", false
	st.LineWidth, st.CurveWidth, st.BoxStroke, st.PointRadius = 2, 4, 3, 0
	st.Dash = [2]float32{16, 8}
	b := newTestBuilder(t, st, 400, 300)
	f := scene.Frame{Index: 1, Boxes: []scene.Box{{ID: 1, X: 10, Y: 10, W: 50, H: 40}},
		Points: []scene.Point{{ID: 1, X: 100, Y: 150}, {ID: 2, X: 200, Y: 150}}}
	var p Primitives
	b.Build(&p, &f, []knn.Edge{{A: 0, B: 1}})
	if len(p.Boxes) != 1 || len(p.Lines) != 1 || len(p.Curves) != 1 {
		t.Fatalf("%d boxes, %d lines, %d curves, want one each", len(p.Boxes), len(p.Lines), len(p.Curves))
	}
	for _, c := range []struct {
		what      string
		got, want Dash
	}{
		{"box (dotted, 3 px)", p.Boxes[0].Dash, Dash{On: 0, Period: 11}},
		{"line (dashed, 2 px)", p.Lines[0].Dash, Dash{On: 14, Period: 24}},
		{"curve (dashed, 4 px)", p.Curves[0].Dash, Dash{On: 12, Period: 24}},
	} {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.what, c.got, c.want)
		}
	}
	for _, d := range [][2]float32{{-1, 4}, {4, -1}, {4, 0}, {MaxDash + 1, 4}, {4, float32(math.NaN())}} {
		st.Dash = d
		if err := st.Validate(); err == nil {
			t.Errorf("Dash %v: valid", d)
		}
	}
	for _, d := range [][2]float32{{0, 0}, {0, 4}, {12, 6}} {
		st.Dash = d
		if err := st.Validate(); err != nil {
			t.Errorf("Dash %v: %v", d, err)
		}
	}
}
