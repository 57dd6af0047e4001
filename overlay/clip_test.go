package overlay

import (
	"math"
	"testing"
)

// Links are cut to the frame and a margin in float64 (a link to a point near ±1e7 px
// once came out as scattered dots): a link within the margin keeps its exact
// coordinates; a cut one keeps its direction, ends on the margin, and a dashed one keeps its
// dashes where they were (its start moves by whole periods).
func TestClipLine(t *testing.T) {
	const w, h = 640, 480
	for _, tc := range []struct {
		name string
		l    Line
		keep bool
	}{
		{"inside", Line{X0: 10, Y0: 20, X1: 600, Y1: 400, Width: 4}, true},
		{"far diagonal", Line{X0: -9999980, Y0: -9999970, X1: 9999970, Y1: 9999920, Width: 4}, true},
		{"far dashed", Line{X0: -9999980, Y0: -9999970, X1: 9999970, Y1: 9999920, Width: 4, Dash: Dash{On: 8, Period: 16}}, true},
		{"one end far", Line{X0: 100, Y0: 100, X1: 9999990, Y1: 300, Width: 2}, true},
		{"wholly outside", Line{X0: -9999980, Y0: -500, X1: -100, Y1: -9999970, Width: 4}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := clipLine(tc.l, w, h, 0)
			if ok != tc.keep {
				t.Fatalf("kept %v, want %v", ok, tc.keep)
			}
			if !ok {
				return
			}
			m := clipMargin(tc.l.Width, tc.l.Dash, 0)
			if tc.name == "inside" && got != tc.l {
				t.Errorf("an inside line changed: %+v", got)
			}
			if !inRect(float64(got.X1), float64(got.Y1), w, h, m+0.01) {
				t.Errorf("end (%v, %v) beyond the margin %v", got.X1, got.Y1, m)
			}
			// The new ends lie on the old line, and the start by whole dash periods.
			x0, y0, x1, y1 := float64(tc.l.X0), float64(tc.l.Y0), float64(tc.l.X1), float64(tc.l.Y1)
			length := math.Hypot(x1-x0, y1-y0)
			for _, p := range [][2]float32{{got.X0, got.Y0}, {got.X1, got.Y1}} {
				if d := math.Abs((x1-x0)*(float64(p[1])-y0)-(y1-y0)*(float64(p[0])-x0)) / length; d > 0.01 {
					t.Errorf("(%v, %v) is %.3f px off the line", p[0], p[1], d)
				}
			}
			if per := float64(tc.l.Dash.Period); per > 0 {
				moved := math.Hypot(float64(got.X0)-x0, float64(got.Y0)-y0) / per
				if math.Abs(moved-math.Round(moved)) > 0.01 {
					t.Errorf("the start moved %.3f periods", moved)
				}
				if inRect(float64(got.X0), float64(got.Y0), w, h, m-per-0.01) {
					t.Errorf("the dashed start (%v, %v) is within sight", got.X0, got.Y0)
				}
			}
		})
	}
}

// A curve is cut to the span between its first and last points near the frame: the piece
// follows the original curve and ends on the margin; a curve within the margin is kept as
// it is, one wholly outside dropped.
func TestClipCurve(t *testing.T) {
	const w, h = 640, 480
	inside := Curve{X0: 10, Y0: 20, X1: 300, Y1: 0, X2: 600, Y2: 400, Width: 3}
	if got, ok := clipCurve(inside, w, h, 0); !ok || got != inside {
		t.Errorf("an inside curve: %+v, %v", got, ok)
	}
	if _, ok := clipCurve(Curve{X0: -9999980, Y0: -500, X1: -9999980, Y1: -9999970, X2: -100, Y2: -9999970, Width: 3}, w, h, 0); ok {
		t.Error("a curve wholly outside was kept")
	}
	far := Curve{X0: -9999980, Y0: 200, X1: 320, Y1: 300, X2: 9999970, Y2: 240, Width: 3}
	got, ok := clipCurve(far, w, h, 0)
	if !ok {
		t.Fatal("a curve through the frame was dropped")
	}
	m := clipMargin(far.Width, far.Dash, 0)
	p := [3][2]float64{{float64(far.X0), float64(far.Y0)}, {float64(far.X1), float64(far.Y1)}, {float64(far.X2), float64(far.Y2)}}
	q := [3][2]float64{{float64(got.X0), float64(got.Y0)}, {float64(got.X1), float64(got.Y1)}, {float64(got.X2), float64(got.Y2)}}
	if !inRect(q[0][0], q[0][1], w, h, m+0.01) || !inRect(q[2][0], q[2][1], w, h, m+0.01) {
		t.Errorf("the piece's ends %v %v lie beyond the margin %v", q[0], q[2], m)
	}
	// Every point of the piece lies on the original curve: on it, y at the piece's x.
	for i := range 11 {
		x, y := bezier(q, float64(i)/10)
		// The original's x is monotonic here: find its t by bisection.
		lo, hi := 0.0, 1.0
		for range 100 {
			if mid := (lo + hi) / 2; func() bool { px, _ := bezier(p, mid); return px < x }() {
				lo = mid
			} else {
				hi = mid
			}
		}
		if _, py := bezier(p, lo); math.Abs(py-y) > 0.05 {
			t.Errorf("the piece at x %.2f is at y %.3f, the curve at %.3f", x, y, py)
		}
	}
}
