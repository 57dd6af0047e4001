package overlay

import (
	"testing"

	"trackink/knn"
	"trackink/scene"
)

// TestLinkVariety: with BendAway every curve's control point lies on the side of its link
// away from the points' centroid, whichever end comes first; with LinkPulse a link's width
// follows 1 + A·sin over the period, the same for either order of its ends, and differs
// between links.
func TestLinkVariety(t *testing.T) {
	st := DefaultStyle()
	st.LineWidth, st.CurveWidth, st.Bend, st.BendAway, st.Labels, st.PointRadius = 2, 2, 0.3, true, false, 0
	st.LinkPulse, st.LinkPulsePeriod = 0.5, 10
	b := newTestBuilder(t, st, 400, 300)
	// A ring of points around (200, 150), linked round it both ways.
	f := scene.Frame{Index: 3, Points: []scene.Point{{ID: 1, X: 100, Y: 150}, {ID: 2, X: 200, Y: 50}, {ID: 3, X: 300, Y: 150}, {ID: 4, X: 200, Y: 250}}}
	links := []knn.Edge{{A: 0, B: 1}, {A: 2, B: 1}, {A: 2, B: 3}, {A: 0, B: 3}}
	var p Primitives
	b.Build(&p, &f, links)
	if len(p.Curves) != 4 || len(p.Lines) != 4 {
		t.Fatalf("%d curves, %d lines, want 4 each", len(p.Curves), len(p.Lines))
	}
	for i, c := range p.Curves {
		mx, my := (c.X0+c.X2)/2, (c.Y0+c.Y2)/2
		// Outward: the control point farther from the centre than the chord's midpoint.
		if d2 := func(x, y float32) float32 { return (x-200)*(x-200) + (y-150)*(y-150) }; d2(c.X1, c.Y1) <= d2(mx, my) {
			t.Errorf("curve %d bends toward the centre: control (%g, %g), midpoint (%g, %g)", i, c.X1, c.Y1, mx, my)
		}
		if c.Width != p.Lines[i].Width {
			t.Errorf("link %d: curve %g px, line %g px: want one pulse", i, c.Width, p.Lines[i].Width)
		}
	}
	widths := map[float32]bool{}
	for _, l := range p.Lines {
		if l.Width < 1 || l.Width > 3 {
			t.Errorf("width %g outside 2·(1 ± 0.5)", l.Width)
		}
		widths[l.Width] = true
	}
	if len(widths) < 3 {
		t.Errorf("widths %v: want the links out of step", widths)
	}
	// Flow: the phase moves back by LinkFlow a frame, modulo the period; solid links have none.
	b.style.LinkFlow = 1.5
	d := Dash{On: 2, Period: 8}
	for _, c := range []struct {
		index int
		want  float32
	}{{0, 0}, {1, 6.5}, {2, 5}, {6, 7}, {16, 0}} {
		if got := b.flowDash(d, c.index).Phase; got != c.want {
			t.Errorf("flow at frame %d: phase %g, want %g", c.index, got, c.want)
		}
	}
	if b.flowDash(Dash{}, 3) != (Dash{}) {
		t.Error("a solid stroke took a phase")
	}
	a, c := scene.Point{ID: 7}, scene.Point{ID: 9}
	if b.pulse(&a, &c, 5) != b.pulse(&c, &a, 5) || b.pulse(&a, &c, 5) != b.pulse(&a, &c, 15) {
		t.Error("the pulse depends on the ends' order, or is not periodic")
	}
}
