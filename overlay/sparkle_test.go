package overlay

import (
	"math"
	"slices"
	"testing"

	"trackink/knn"
	"trackink/scene"
)

// sparkleFrame builds frame index of two points linked, in a style with sparkle links,
// after building the frames from first on (a segment's replay), and returns its lines.
func sparkleFrame(t *testing.T, edit func(*Style), first, index int, pa, pb scene.Point) []Line {
	t.Helper()
	st := DefaultStyle()
	st.LinkStyle, st.LineWidth, st.PointRadius, st.Labels, st.LinkReach, st.LinkOpacity = "sparkle", 3, 0, false, 0, 1
	if edit != nil {
		edit(&st)
	}
	b := newTestBuilder(t, st, 640, 360)
	var p Primitives
	for n := first; n <= index; n++ {
		f := scene.Frame{Index: n, Points: []scene.Point{pa, pb}}
		b.Build(&p, &f, []knn.Edge{{A: 0, B: 1}})
	}
	return slices.Clone(p.Lines)
}

// TestSparkle: a sparkle link is soft dots (a faint wide disk under each core) along the
// link, about one per 4 stroke widths, each within 1.5 widths of it, 0.5 to 2 widths
// across; the same for either order of its ends, for a frame built alone or after others
// (segments join), new in the next frame; curved links sparkle along the curve; and no
// halo rings them.
func TestSparkle(t *testing.T) {
	a, c := scene.Point{ID: 4, X: 100, Y: 200}, scene.Point{ID: 9, X: 500, Y: 100}
	dots := sparkleFrame(t, nil, 7, 7, a, c)
	l := math.Hypot(400, 100)
	if want := 2 * int(math.Round(l/(sparkleSpacing*3))); len(dots) != want {
		t.Fatalf("%d lines, want %d (a halo and a core per dot)", len(dots), want)
	}
	for i := 0; i < len(dots); i += 2 {
		halo, core := dots[i], dots[i+1]
		if core.X0 != core.X1 || core.Y0 != core.Y1 || halo.X0 != core.X0 || halo.Y0 != core.Y0 {
			t.Fatalf("dot %d: %+v, %+v: want two disks about one centre", i/2, halo, core)
		}
		if core.Width < 1.5 || core.Width > 6 || halo.Width != sparkleHalo*core.Width || halo.Color.A >= core.Color.A {
			t.Errorf("dot %d: core %g px, halo %g px (alpha %g over %g): want 0.5..2 widths, a fainter halo %g× as wide",
				i/2, core.Width, halo.Width, halo.Color.A, core.Color.A, float32(sparkleHalo))
		}
		// Distance from the link's line.
		d := math.Abs(float64(-100*(core.X0-a.X)-400*(core.Y0-a.Y))) / l
		if d > 1.5*3+1e-3 {
			t.Errorf("dot %d at (%g, %g): %g px off the link, want at most 1.5 widths", i/2, core.X0, core.Y0, d)
		}
	}
	if got := sparkleFrame(t, nil, 7, 7, c, a); !slices.Equal(got, dots) {
		t.Error("the ends swapped draw other dots")
	}
	if got := sparkleFrame(t, nil, 1, 7, a, c); !slices.Equal(got, dots) {
		t.Error("frame 7 after frames 1 to 6 differs from frame 7 alone: segments would not join")
	}
	if got := sparkleFrame(t, nil, 8, 8, a, c); slices.Equal(got, dots) {
		t.Error("frame 8 has frame 7's dots: want new ones every frame")
	}
	// Halos (the default look's) do not reach the dots.
	if got := sparkleFrame(t, func(s *Style) { s.Halo = 2 }, 7, 7, a, c); !slices.Equal(got, dots) {
		t.Errorf("with halos: %d lines, want the %d dots alone", len(got), len(dots))
	}
	// Curved links: dots along the curve, its middle bent off the chord.
	curved := func(s *Style) { s.LineWidth, s.CurveWidth, s.Bend = 0, 3, 0.3 }
	cd := sparkleFrame(t, curved, 7, 7, a, c)
	if len(cd) == 0 {
		t.Fatal("a curved sparkle link drew nothing")
	}
	far := false
	for _, d := range cd {
		far = far || math.Abs(float64(-100*(d.X0-a.X)-400*(d.Y0-a.Y)))/l > 30
	}
	if !far {
		t.Error("curved sparkles all lie on the chord")
	}
}
