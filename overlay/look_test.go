package overlay

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/knn"
	"trackink/scene"
)

// TestLinkFade: a link keeps its opacity at length 0, has half at half the fade length,
// none from the fade length on, falls monotonically in between, and is untouched with the
// fade off.
func TestLinkFade(t *testing.T) {
	for _, tc := range []struct {
		dx, dy, fade, want float32
	}{
		{0, 0, 100, 0.8}, {30, 40, 100, 0.4}, {60, 80, 100, 0}, {300, 0, 100, 0}, {300, 400, 0, 0.8},
	} {
		if got := LinkFade(0.8, tc.dx, tc.dy, tc.fade); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("length (%g, %g), fade %g: opacity %g, want %g", tc.dx, tc.dy, tc.fade, got, tc.want)
		}
	}
	prev := float32(1)
	for l := float32(0); l <= 120; l += 0.5 {
		o := LinkFade(1, l, 0, 100)
		if o > prev || o < 0 {
			t.Fatalf("at %g px: %g after %g", l, o, prev)
		}
		prev = o
	}
}

// TestBuildFadesLinksAndBlends: Build gives a link its faded opacity (Auto: over the links'
// reach, a fifth of the width by default) and the primitives the style's blend.
func TestBuildFadesLinksAndBlends(t *testing.T) {
	st := DefaultStyle()
	st.LinkFade, st.Blend, st.Labels = Auto, "screen", false
	b := newTestBuilder(t, st, 1000, 500)
	f := &scene.Frame{Index: 1, Points: []scene.Point{{ID: 1, X: 100, Y: 100}, {ID: 2, X: 200, Y: 100}, {ID: 3, X: 100, Y: 110}}}
	var p Primitives
	b.Build(&p, f, []knn.Edge{{A: 0, B: 1}, {A: 0, B: 2}})
	if p.Blend != composite.BlendScreen {
		t.Errorf("blend %s, want screen", p.Blend)
	}
	long, short := p.Lines[0].Color.A, p.Lines[1].Color.A
	if want := LinkFade(st.LinkOpacity, 100, 0, 200); long != want || !(short > long) {
		t.Errorf("a 100 px link's alpha %g (want %g: half the 200 px reach), a 10 px link's %g", long, want, short)
	}
}

// TestBoxFrom: with BoxFrom, a point whose track has no box in the frame gets a square box of
// BoxRadius around it (a BoxSize rectangle when set; growing with the track's age with
// "age"), a tracked box keeps its point box-free, and without BoxFrom nothing is added.
func TestBoxFrom(t *testing.T) {
	frame := func(i int) *scene.Frame {
		return &scene.Frame{Index: i, Points: []scene.Point{{ID: 1, X: 100, Y: 80}, {ID: 2, X: 300, Y: 200}},
			Boxes: []scene.Box{{ID: 2, X: 280, Y: 150, W: 40, H: 50}}}
	}
	grown := 16 / float32(BoxGrowFrames) // at frame 16
	for _, tc := range []struct {
		from string
		size [2]float32 // Style.BoxSize; zero: BoxRadius 20's squares
		n    int        // boxes at frame 16
		w, h float32    // the point box's at frame 16
	}{
		{"", [2]float32{}, 1, 0, 0}, {"none", [2]float32{}, 1, 0, 0}, {"radius", [2]float32{}, 2, 40, 40},
		{"age", [2]float32{}, 2, 40 * grown, 40 * grown},
		{"radius", [2]float32{60, 24.5}, 2, 60, 24.5}, {"age", [2]float32{60, 24.5}, 2, 60 * grown, 24.5 * grown},
		{"none", [2]float32{60, 24}, 1, 0, 0},
	} {
		st := DefaultStyle()
		st.BoxFrom, st.BoxSize, st.Labels = tc.from, tc.size, false
		if tc.size == [2]float32{} {
			st.BoxRadius = 20
		}
		b := newTestBuilder(t, st, 640, 360)
		var p Primitives
		for i := 1; i <= 16; i++ {
			b.Build(&p, frame(i), nil)
		}
		if len(p.Boxes) != tc.n {
			t.Fatalf("--box-from %q size %v: %d boxes, want %d", tc.from, tc.size, len(p.Boxes), tc.n)
		}
		if tc.n == 2 {
			bx := p.Boxes[1]
			if math.Abs(float64(bx.W-tc.w)) > 1e-4 || math.Abs(float64(bx.H-tc.h)) > 1e-4 || bx.X+bx.W/2 != 100 || bx.Y+bx.H/2 != 80 {
				t.Errorf("--box-from %s size %v: box %+v, want %g × %g around (100, 80)", tc.from, tc.size, bx, tc.w, tc.h)
			}
		}
	}
}

// TestPointBoxesAreBoxes: a box around a point takes the box effect and the label as the
// tracks' own boxes do (once it had neither: --box-from radius --box-effect sort drew
// outlines alone).
func TestPointBoxesAreBoxes(t *testing.T) {
	frame := &scene.Frame{Index: 1, Points: []scene.Point{{ID: 1, X: 100, Y: 80}, {ID: 2, X: 300, Y: 200}},
		Boxes: []scene.Box{{ID: 2, X: 280, Y: 150, W: 40, H: 50}}}
	st := DefaultStyle()
	st.BoxFrom, st.BoxRadius, st.Labels, st.BoxEffects = "radius", 20, true, []Effect{EffectSort}
	b := newTestBuilder(t, st, 640, 360)
	var p Primitives
	b.Build(&p, frame, nil)
	if len(p.Effects) != 2 || p.Effects[1].X != 80 || p.Effects[1].Y != 60 || p.Effects[1].W != 40 || p.Effects[1].Kind != EffectSort {
		t.Errorf("effects %+v: want the tracked box's and a sort in the point box (80, 60) 40 × 40", p.Effects)
	}
	var texts []string
	for _, l := range p.Labels {
		texts = append(texts, string(l.Text))
	}
	if !slices.Equal(texts, []string{"#2", "#1"}) {
		t.Errorf("labels %q, want the tracked box's #2 and the point box's #1", texts)
	}
}

// TestTrailSmooth: smoothing a jittery straight track keeps the trail's ends where they were
// (the newest at the point) and brings the inner positions closer to the true line.
func TestTrailSmooth(t *testing.T) {
	var q []trailPoint
	for i := range 21 {
		jitter := float32(3)
		if i%2 == 1 {
			jitter = -3
		}
		q = append(q, trailPoint{x: float32(10 * i), y: 100 + jitter, frame: i + 1})
	}
	s := smoothTrail(q, 3, nil)
	if len(s) != len(q) || s[0] != q[0] || s[len(s)-1] != q[len(q)-1] {
		t.Fatalf("the ends moved: %v … %v", s[0], s[len(s)-1])
	}
	var before, after float64
	for i := 3; i < len(q)-3; i++ {
		before += math.Abs(float64(q[i].y - 100))
		after += math.Abs(float64(s[i].y - 100))
		if math.Abs(float64(s[i].x-q[i].x)) > 1e-3 {
			t.Errorf("position %d moved along the line: %g, was %g", i, s[i].x, q[i].x)
		}
	}
	if after > before/5 {
		t.Errorf("jitter %g after smoothing, %g before: want a fifth at most", after, before)
	}
	if got := smoothTrail(q, 0, nil); got[5] != q[5] {
		t.Error("smoothing 0 changed the trail")
	}
}

// TestElectric: an electric link is a joined run of straight pieces from one point to the
// other whose corners meet exactly, whose shape depends on the two ids (in either order) and
// the frame only, changes from frame to frame, and stays within its amplitude of the line.
func TestElectric(t *testing.T) {
	a, b := scene.Point{ID: 7, X: 100, Y: 100}, scene.Point{ID: 3, X: 300, Y: 160}
	arc := func(pa, pb scene.Point, frame int) []Curve {
		var p Primitives
		addElectric(&p, &pa, &pb, frame, 2, RGBA{A: 1})
		return p.Curves
	}
	c := arc(a, b, 5)
	if len(c) < 2 {
		t.Fatalf("%d pieces", len(c))
	}
	if c[0].X0 != b.X || c[0].Y0 != b.Y || c[len(c)-1].X2 != a.X || c[len(c)-1].Y2 != a.Y {
		t.Errorf("the arc runs from (%g, %g) to (%g, %g): want from the lower id's point to the other's", c[0].X0, c[0].Y0, c[len(c)-1].X2, c[len(c)-1].Y2)
	}
	l := math.Hypot(200, 60)
	amp := math.Min(0.15*l, 8)
	for i := range c {
		if (i > 0) != c[i].Joined || i > 0 && (c[i].X0 != c[i-1].X2 || c[i].Y0 != c[i-1].Y2) {
			t.Fatalf("piece %d does not continue the one before: %+v after %+v", i, c[i], c[i-1])
		}
		// Distance of the corner from the line a–b.
		d := math.Abs(float64((c[i].X2-b.X)*(a.Y-b.Y)-(c[i].Y2-b.Y)*(a.X-b.X))) / l
		if d > amp+1e-3 {
			t.Errorf("corner %d is %g px off the line, amplitude %g", i, d, amp)
		}
	}
	same := func(x, y []Curve) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	switch {
	case !same(c, arc(a, b, 5)) || !same(c, arc(b, a, 5)):
		t.Error("the same ids and frame drew a different arc")
	case same(c, arc(a, b, 6)):
		t.Error("the next frame drew the same arc")
	case same(c, arc(a, scene.Point{ID: 8, X: 300, Y: 160}, 5)):
		t.Error("another pair of ids drew the same arc")
	}
}

// TestPointStyles: each point style is built of the primitives its comment names, reaching
// about r from the point (a diamond 1.3·r), and an unknown style does not validate.
func TestPointStyles(t *testing.T) {
	for _, tc := range []struct {
		style                string
		boxes, lines, curves int
		reach                float32 // the farthest a piece's end or a box's edge lies from the point
	}{
		{"", 0, 1, 0, 0}, {"dot", 0, 1, 0, 0}, {"ring", 1, 0, 0, 8}, {"square", 1, 0, 0, 8},
		{"plus", 0, 0, 2, 8}, {"cross", 0, 0, 2, 8}, {"diamond", 0, 0, 4, 10.4},
	} {
		var p Primitives
		p.AddPoint(tc.style, 50, 60, 8, RGBA{A: 1})
		if len(p.Boxes) != tc.boxes || len(p.Lines) != tc.lines || len(p.Curves) != tc.curves {
			t.Errorf("%q: %d boxes, %d lines, %d curves", tc.style, len(p.Boxes), len(p.Lines), len(p.Curves))
			continue
		}
		var reach float32
		for i, c := range p.Curves {
			if c.Joined != (i > 0) || c.Width != 4 {
				t.Errorf("%q: piece %d %+v: want one joined run 4 px wide", tc.style, i, c)
			}
			reach = max(reach, float32(math.Hypot(float64(c.X0-50), float64(c.Y0-60))), float32(math.Hypot(float64(c.X2-50), float64(c.Y2-60))))
		}
		for _, b := range p.Boxes {
			reach = max(reach, b.W/2+b.Stroke/2)
			if b.X+b.W/2 != 50 || b.Y+b.H/2 != 60 {
				t.Errorf("%q: box %+v is not centred on the point", tc.style, b)
			}
		}
		if math.Abs(float64(reach-tc.reach)) > 1e-3 {
			t.Errorf("%q reaches %g from the point, want %g", tc.style, reach, tc.reach)
		}
	}
	st := DefaultStyle()
	st.PointStyle = "star"
	if err := st.Validate(); err == nil {
		t.Error("point style star was accepted")
	}
}

// TestShapedPoints: --point-stroke sets the outline width of every outlined shape, keeping
// its outer edge where it was; --point-fill-opacity fills rings, squares and diamonds; with
// both Auto a point is AddPoint's (today's), byte for byte.
func TestShapedPoints(t *testing.T) {
	c := RGBA{R: 0.5, A: 0.5}
	for _, tc := range []struct {
		style        string
		stroke, fill float32
		want         Primitives // Boxes and the widths and colours of Curves are compared
	}{
		{"ring", Auto, Auto, Primitives{Boxes: []Box{{X: 44, Y: 54, W: 12, H: 12, Radius: 6, Stroke: 4, StrokeColor: c}}}},
		{"ring", 2, 0.5, Primitives{Boxes: []Box{{X: 43, Y: 53, W: 14, H: 14, Radius: 7, Stroke: 2, StrokeColor: c, Fill: c.Scale(0.5)}}}},
		{"ring", 0, 1, Primitives{Boxes: []Box{{X: 42, Y: 52, W: 16, H: 16, Radius: 8, StrokeColor: c, Fill: c}}}},
		{"square", Auto, Auto, Primitives{Boxes: []Box{{X: 42, Y: 52, W: 16, H: 16, Fill: c}}}},
		{"square", 2, Auto, Primitives{Boxes: []Box{{X: 42, Y: 52, W: 16, H: 16, Fill: c}}}},
		{"square", 2, 0.25, Primitives{Boxes: []Box{{X: 43, Y: 53, W: 14, H: 14, Stroke: 2, StrokeColor: c, Fill: c.Scale(0.25)}}}},
		{"square", Auto, 0, Primitives{Boxes: []Box{{X: 44, Y: 54, W: 12, H: 12, Stroke: 4, StrokeColor: c}}}},
		{"plus", Auto, Auto, Primitives{Curves: []Curve{{Width: 4, Color: c}, {Width: 4, Color: c}}}},
		{"cross", 1.5, 0.5, Primitives{Curves: []Curve{{Width: 1.5, Color: c}, {Width: 1.5, Color: c}}}},
		{"plus", 0, Auto, Primitives{}},
		{"diamond", 3, Auto, Primitives{Curves: []Curve{{Width: 3, Color: c}, {Width: 3, Color: c}, {Width: 3, Color: c}, {Width: 3, Color: c}}}},
		{"dot", 3, 0.5, Primitives{Lines: []Line{{X0: 50, Y0: 60, X1: 50, Y1: 60, Width: 16, Color: c}}}},
	} {
		var p Primitives
		p.AddShapedPoint(tc.style, 50, 60, 8, tc.stroke, tc.fill, c)
		if tc.stroke == Auto && tc.fill == Auto {
			var old Primitives
			old.AddPoint(tc.style, 50, 60, 8, c)
			if !reflect.DeepEqual(p, old) {
				t.Errorf("%s with Auto stroke and fill is not AddPoint's", tc.style)
			}
		}
		var widths []Curve
		for _, cv := range p.Curves {
			widths = append(widths, Curve{Width: cv.Width, Color: cv.Color})
		}
		if !reflect.DeepEqual(p.Boxes, tc.want.Boxes) || !reflect.DeepEqual(widths, tc.want.Curves) || !reflect.DeepEqual(p.Lines, tc.want.Lines) {
			t.Errorf("%s stroke %g fill %g: boxes %+v, curves %+v, lines %+v; want %+v", tc.style, tc.stroke, tc.fill, p.Boxes, widths, p.Lines, tc.want)
		}
	}
	// A filled diamond: a run of the fill's colour first, then the outline's own run.
	var p Primitives
	p.AddShapedPoint("diamond", 50, 60, 8, 2, 0.5, c)
	n := len(p.Curves)
	if n < 9 || p.Curves[0].Joined || p.Curves[0].Color != c.Scale(0.5) || p.Curves[n-4].Joined || p.Curves[n-4].Color != c || p.Curves[n-4].Width != 2 {
		t.Errorf("a filled diamond: %d pieces, first %+v, outline's first %+v", n, p.Curves[0], p.Curves[max(n-4, 0)])
	}
	for _, tc := range []struct {
		stroke, fill float32
		field        string
	}{{-2, Auto, "PointStroke"}, {1001, Auto, "PointStroke"}, {Auto, 1.5, "PointFillOpacity"}, {Auto, -0.5, "PointFillOpacity"}} {
		st := DefaultStyle()
		st.PointStroke, st.PointFillOpacity = tc.stroke, tc.fill
		if err := st.Validate(); err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("stroke %g fill %g: %v, want an error on %s", tc.stroke, tc.fill, err, tc.field)
		}
	}
}
