package overlay

import (
	"strings"
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

// TestGradientLinksBetweenChosenColours: with LinkGradientColors a straight solid link runs
// from the first colour at its lower track id's end to the second at the higher's, whichever
// end the link search gave first; a curve (no ramp) takes their mean; the ends' own colours
// play no part.
func TestGradientLinksBetweenChosenColours(t *testing.T) {
	red, blue := scene.Color{R: 255, A: 255}, scene.Color{B: 255, A: 255}
	white, black := OptionalColor{scene.Color{R: 255, G: 255, B: 255, A: 255}, true}, OptionalColor{scene.Color{A: 255}, true}
	f := &scene.Frame{Index: 1, Points: []scene.Point{
		{ID: 7, X: 20, Y: 30, Color: red, HasColor: true},
		{ID: 3, X: 180, Y: 30, Color: blue, HasColor: true},
	}}
	for _, tc := range []struct {
		name     string
		edge     knn.Edge
		ends     [2]OptionalColor
		from, to RGBA // at the edge's first end and its second
	}{
		{"first end the higher id", knn.Edge{A: 0, B: 1}, [2]OptionalColor{white, black}, RGBA{A: 1}, RGBA{R: 1, G: 1, B: 1, A: 1}},
		{"first end the lower id", knn.Edge{A: 1, B: 0}, [2]OptionalColor{white, black}, RGBA{R: 1, G: 1, B: 1, A: 1}, RGBA{A: 1}},
		{"the ends' own colours", knn.Edge{A: 0, B: 1}, [2]OptionalColor{}, RGBA{R: 1, A: 1}, RGBA{B: 1, A: 1}},
	} {
		st := DefaultStyle()
		st.LinkGradient, st.LinkGradientColors, st.LinkOpacity, st.LinkReach = true, tc.ends, 1, 0
		st.CurveWidth = 2
		b := newTestBuilder(t, st, 200, 100)
		var p Primitives
		b.Build(&p, f, []knn.Edge{tc.edge})
		if len(p.Lines) == 0 || len(p.Curves) == 0 { // the link first, then the points' dots
			t.Fatalf("%s: %d lines, %d curves", tc.name, len(p.Lines), len(p.Curves))
		}
		if l := p.Lines[0]; !l.Gradient || l.Color != tc.from || l.Color1 != tc.to {
			t.Errorf("%s: the line runs from %+v to %+v, want %+v to %+v", tc.name, l.Color, l.Color1, tc.from, tc.to)
		}
		mean := mix(red, blue)
		if tc.ends[0].Set {
			mean = mix(tc.ends[0].C, tc.ends[1].C)
		}
		if c := p.Curves[0].Color; c != Premul(mean, 1) {
			t.Errorf("%s: the curve is %+v, want the mean %+v", tc.name, c, Premul(mean, 1))
		}
	}
	st := DefaultStyle()
	st.LinkGradient, st.LinkGradientColors[0] = true, white
	if err := st.Validate(); err == nil || !strings.Contains(err.Error(), "LinkGradientColors") {
		t.Errorf("one chosen colour: %v, want an error on LinkGradientColors", err)
	}
}
