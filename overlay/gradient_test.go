package overlay

import (
	"testing"

	"trackink/knn"
	"trackink/scene"
	"trackink/sdf"
)

// TestGradientLinks: with LinkGradient a straight link runs from its first end's colour to
// its second's at the link's opacity; a link cut at the frame's margin (beyond its glow)
// takes the colours the whole link has at its cut ends; dashed links and element colours
// keep one colour; the glow reaches the primitives resolved for the frame's height.
func TestGradientLinks(t *testing.T) {
	red, blue := scene.Color{R: 255, A: 255}, scene.Color{B: 255, A: 255}
	f := &scene.Frame{Index: 1, Points: []scene.Point{
		{ID: 1, X: 20, Y: 30, Color: red, HasColor: true},
		{ID: 2, X: 180, Y: 30, Color: blue, HasColor: true},
		{ID: 3, X: -2000, Y: 30, Color: blue, HasColor: true},
	}}
	links := []knn.Edge{{A: 0, B: 1}, {A: 0, B: 2}}
	st := DefaultStyle()
	st.LinkGradient, st.LinkOpacity, st.LinkReach, st.Glow = true, 0.5, 0, Auto
	b := newTestBuilder(t, st, 200, 100)
	var p Primitives
	b.Build(&p, f, links)
	if len(p.Lines) < 2 {
		t.Fatalf("%d lines, want the two links first", len(p.Lines))
	}
	l := p.Lines[0]
	if !l.Gradient || l.Color != (RGBA{R: 0.5, A: 0.5}) || l.Color1 != (RGBA{B: 0.5, A: 0.5}) {
		t.Errorf("link red to blue: gradient %v from %+v to %+v", l.Gradient, l.Color, l.Color1)
	}
	// The link to x = −2000 is cut 8 px left of the frame (the margin: width 2, glow 4, and
	// 2), beyond its glow's reach: its new end lies 28 px along its 2 020, and takes the
	// colour the whole link has there.
	c := p.Lines[1]
	if k := float32(28.0 / 2020); !c.Gradient || c.Color != (RGBA{R: 0.5, A: 0.5}) || c.X1 != -8 ||
		sdf.Abs(c.Color1.B-0.5*k) > 1e-6 || sdf.Abs(c.Color1.R-0.5*(1-k)) > 1e-6 || c.Color1.A != 0.5 {
		t.Errorf("cut link to (%g, %g): from %+v to %+v", c.X1, c.Y1, c.Color, c.Color1)
	}
	if want := sdf.NewGlow(4, 0.5); p.Glow != want {
		t.Errorf("glow at 100 lines: %+v, want %+v (4 px, the floor)", p.Glow, want)
	}

	st.LinkStyle = "dashed"
	b = newTestBuilder(t, st, 200, 100)
	b.Build(&p, f, links)
	if p.Lines[0].Gradient {
		t.Errorf("a dashed link is a gradient: only solid ones are")
	}
	st.LinkStyle, st.LinkColor = "solid", OptionalColor{red, true}
	b = newTestBuilder(t, st, 200, 100)
	b.Build(&p, f, links)
	if l := p.Lines[0]; l.Gradient && l.Color != l.Color1 {
		t.Errorf("--link-color red with gradient: from %+v to %+v", l.Color, l.Color1)
	}
}
