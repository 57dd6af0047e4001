package overlay

import (
	"errors"
	"math"
	"slices"
	"testing"

	"trackink/curves"
	"trackink/internal/field"
	"trackink/knn"
	"trackink/scene"
)

// shapedLinks builds frame index of one link from a to b (listed in that order) in style st
// at 1000×600 and returns its primitives.
func shapedLinks(t *testing.T, st Style, a, b scene.Point, index int) Primitives {
	t.Helper()
	st.Labels, st.PointRadius, st.LinkReach = false, 0, 0
	bl := newTestBuilder(t, st, 1000, 600)
	f := scene.Frame{Index: index, Points: []scene.Point{a, b}}
	var p Primitives
	bl.Build(&p, &f, []knn.Edge{{A: 0, B: 1}})
	return p
}

// offsets samples the run of curves c at each piece's chords and returns the points'
// signed distances from the line a–b and their positions along it (0 at a, 1 at b).
func offsets(c []Curve, a, b scene.Point) (d, u []float64) {
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	l := math.Hypot(dx, dy)
	for _, k := range c {
		for j := range 17 {
			x, y := curves.Point(k.X0, k.Y0, k.X1, k.Y1, k.X2, k.Y2, float32(j)/16)
			px, py := float64(x-a.X), float64(y-a.Y)
			d = append(d, (-dy*px+dx*py)/l)
			u = append(u, (dx*px+dy*py)/(l*l))
		}
	}
	return d, u
}

// TestLinkShapeRun: a shaped link is one joined run of curves, no line, from the lower id's
// point to the other's exactly, whichever the graph lists first, in the straight link's
// width and colour, staying near the line at its ends.
func TestLinkShapeRun(t *testing.T) {
	lo, hi := scene.Point{ID: 3, X: 120.3, Y: 410.7}, scene.Point{ID: 9, X: 830.1, Y: 150.2}
	for _, shape := range []string{"wave", "s", "elastic", "spiral", "swirl"} {
		for _, ends := range [][2]scene.Point{{lo, hi}, {hi, lo}} {
			st := DefaultStyle()
			st.LinkShape, st.LineWidth = shape, 3
			p := shapedLinks(t, st, ends[0], ends[1], 17)
			straight := shapedLinks(t, DefaultStyle(), ends[0], ends[1], 17).Lines
			c := p.Curves
			if len(p.Lines) != 0 || len(c) < 4 || len(straight) != 1 {
				t.Fatalf("%s: %d lines, %d curves; straight %d lines", shape, len(p.Lines), len(c), len(straight))
			}
			if c[0].X0 != lo.X || c[0].Y0 != lo.Y || c[len(c)-1].X2 != hi.X || c[len(c)-1].Y2 != hi.Y {
				t.Errorf("%s: runs from (%g, %g) to (%g, %g), want from the lower id's point (%g, %g) to (%g, %g)",
					shape, c[0].X0, c[0].Y0, c[len(c)-1].X2, c[len(c)-1].Y2, lo.X, lo.Y, hi.X, hi.Y)
			}
			for i := range c {
				if (i > 0) != c[i].Joined || i > 0 && (c[i].X0 != c[i-1].X2 || c[i].Y0 != c[i-1].Y2) {
					t.Fatalf("%s: piece %d does not continue the one before", shape, i)
				}
				if c[i].Width != 3 || c[i].Color != straight[0].Color {
					t.Errorf("%s: piece %d width %g colour %v, want the straight link's 3, %v", shape, i, c[i].Width, c[i].Color, straight[0].Color)
				}
			}
			if ends[0] == hi && !slices.Equal(c, shapedLinks(t, st, lo, hi, 17).Curves) {
				t.Errorf("%s: the order of the ends changed the shape", shape)
			}
		}
	}
}

// TestLinkShapeAmplitude: a long wave leaves its line by the amplitude and no more; an S by
// the cubic's 3·bend·l·max t(1−t)(1−2t) = bend·l·√3/6, to one side in its first half and
// the other in its second; a wave on a short link keeps within a fifth of its wavelength.
func TestLinkShapeAmplitude(t *testing.T) {
	a, b := scene.Point{ID: 1, X: 100, Y: 300}, scene.Point{ID: 2, X: 900, Y: 300}
	for _, tc := range []struct {
		shape     string
		amp, freq float32
		a, b      scene.Point
		want      float64 // the largest offset
	}{
		{"wave", 12, 3, a, b, 12},
		{"wave", 30, 1, a, b, 30},
		{"s", 0, 3, a, b, 0.3 * 800 * math.Sqrt(3) / 6},
		// 40 px: one half-cycle (a wave 8 amplitudes long would not fit), 80 px long, so
		// at most 16 px high.
		{"wave", 20, 3, a, scene.Point{ID: 2, X: 140, Y: 300}, 16},
	} {
		st := DefaultStyle()
		st.LinkShape, st.LinkAmp, st.LinkFreq, st.LineWidth = tc.shape, tc.amp, tc.freq, 2
		d, u := offsets(shapedLinks(t, st, tc.a, tc.b, 40).Curves, tc.a, tc.b)
		top := 0.0
		for _, v := range d {
			top = max(top, math.Abs(v))
		}
		if top > tc.want*1.03+0.05 || top < tc.want*0.95 {
			t.Errorf("%s amp %g freq %g: leaves the line by %.2f px, want %.2f", tc.shape, tc.amp, tc.freq, top, tc.want)
		}
		if tc.shape == "s" {
			for i := range d {
				if (u[i] < 0.45 && d[i] < -0.05) || (u[i] > 0.55 && d[i] > 0.05) {
					t.Fatalf("s: %.2f px off the line %.2f along it: want the first half to the left, the second to the right", d[i], u[i])
				}
			}
		}
	}
}

// TestLinkShapePhase: a wave is the same for the same frame (two builders), travels from
// frame to frame, comes back after 1/LinkSpeed frames, and stands still at LinkSpeed 0; an
// S stands still.
func TestLinkShapePhase(t *testing.T) {
	a, b := scene.Point{ID: 4, X: 100, Y: 200}, scene.Point{ID: 5, X: 700, Y: 420}
	run := func(shape string, speed float32, frame int) []Curve {
		st := DefaultStyle()
		st.LinkShape, st.LinkSpeed, st.LinkAmp = shape, speed, 10
		return shapedLinks(t, st, a, b, frame).Curves
	}
	near := func(x, y []Curve) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			for _, d := range []float32{x[i].X0 - y[i].X0, x[i].Y0 - y[i].Y0, x[i].X1 - y[i].X1, x[i].Y1 - y[i].Y1, x[i].X2 - y[i].X2, x[i].Y2 - y[i].Y2} {
				if math.Abs(float64(d)) > 1e-3 {
					return false
				}
			}
		}
		return true
	}
	switch {
	case !slices.Equal(run("wave", 0.25, 7), run("wave", 0.25, 7)):
		t.Error("the same frame drew another wave")
	case near(run("wave", 0.25, 7), run("wave", 0.25, 8)):
		t.Error("the wave did not move on from frame 7 to 8")
	case !near(run("wave", 0.25, 7), run("wave", 0.25, 11)):
		t.Error("at 0.25 cycles a frame, frame 11 drew another wave than frame 7")
	case !slices.Equal(run("elastic", 0, 7), run("elastic", 0, 8)):
		t.Error("at speed 0 the wave moved")
	case !slices.Equal(run("s", 0.25, 7), run("s", 0.25, 8)):
		t.Error("the S moved")
	}
}

// TestLinkShapeDash: a dashed shape's pieces share the first's dash, whose period goes a
// whole number of times into each piece's length as the backends measure it (its chords),
// so the dashes run on across the joints; its phase is the flow's. A spiral's start and a
// swirl's hooks turn fast, where a piece's quadratic measured some per cent off the path
// until the pieces were resized by their quadratics' lengths (0.4 of a period at 5 turns).
func TestLinkShapeDash(t *testing.T) {
	for _, tc := range []struct {
		shape string
		turns float32
	}{{"wave", 1}, {"spiral", 1}, {"spiral", 5}, {"spiral", -3}, {"swirl", 1}} {
		shape := tc.shape
		st := DefaultStyle()
		st.LinkShape, st.LinkStyle, st.LineWidth, st.LinkAmp, st.LinkFlow, st.LinkTurns = shape, "dashed", 3, 14, 2, tc.turns
		c := shapedLinks(t, st, scene.Point{ID: 1, X: 50, Y: 80}, scene.Point{ID: 2, X: 910, Y: 520}, 3).Curves
		d := c[0].Dash
		if d.Period < 18*0.8 || d.Period > 18*1.25 || d.On != d.Period/2 {
			t.Fatalf("%s: dash %+v: want about the straight link's 9 on every 18", shape, d)
		}
		if want := float32(math.Mod(-6, float64(d.Period)) + float64(d.Period)); math.Abs(float64(d.Phase-want)) > 1e-4 {
			t.Errorf("%s: phase %g, want −2·3 modulo the period, %g", shape, d.Phase, want)
		}
		for i, k := range c {
			if k.Dash != d {
				t.Errorf("%s: piece %d dash %+v, want the first's %+v", shape, i, k.Dash, d)
			}
			n := curves.Chords(k.X0, k.Y0, k.X1, k.Y1, k.X2, k.Y2, curves.Tolerance)
			l := float32(0)
			for j := range n {
				l += curves.ChordLen(curves.Chord(k.X0, k.Y0, k.X1, k.Y1, k.X2, k.Y2, j, n))
			}
			if m := l / d.Period; math.Abs(float64(m-float32(math.Round(float64(m))))) > 0.05 {
				t.Errorf("%s: piece %d is %g px, %.3f periods: want a whole number", shape, i, l, m)
			}
		}
	}
}

// TestLinkShapeStraight: "straight" and "" draw the links as before: one line each, no
// curves.
func TestLinkShapeStraight(t *testing.T) {
	a, b := scene.Point{ID: 1, X: 100, Y: 300}, scene.Point{ID: 2, X: 400, Y: 200}
	old := DefaultStyle()
	old.LinkShape = ""
	want := shapedLinks(t, old, a, b, 5)
	st := DefaultStyle()
	got := shapedLinks(t, st, a, b, 5)
	if len(got.Curves) != 0 || !slices.Equal(got.Lines, want.Lines) || len(got.Lines) != 1 ||
		got.Lines[0] != (Line{X0: 100, Y0: 300, X1: 400, Y1: 200, Width: got.Lines[0].Width, Color: got.Lines[0].Color}) {
		t.Errorf("straight: %+v, %d curves; want %+v", got.Lines, len(got.Curves), want.Lines)
	}
}

// TestLinkShapeValidate: bad shape values are errors naming their field.
func TestLinkShapeValidate(t *testing.T) {
	for _, tc := range []struct {
		set   func(*Style)
		field string
	}{
		{func(s *Style) { s.LinkShape = "zigzag" }, "LinkShape"},
		{func(s *Style) { s.LinkShape, s.LinkStyle = "wave", "electric" }, "LinkShape"},
		{func(s *Style) { s.LinkShape, s.LinkStyle = "s", "sparkle" }, "LinkShape"},
		{func(s *Style) { s.LinkFreq = 0.2 }, "LinkFreq"},
		{func(s *Style) { s.LinkFreq = -1 }, "LinkFreq"},
		{func(s *Style) { s.LinkFreq = 40 }, "LinkFreq"},
		{func(s *Style) { s.LinkFreq = float32(math.NaN()) }, "LinkFreq"},
		{func(s *Style) { s.LinkSpeed = -11 }, "LinkSpeed"},
		{func(s *Style) { s.LinkSpeed = float32(math.NaN()) }, "LinkSpeed"},
		{func(s *Style) { s.LinkAmp = -2 }, "LinkAmp"},
		{func(s *Style) { s.LinkAmp = 2000 }, "LinkAmp"},
		{func(s *Style) { s.LinkTurns = 0.1 }, "LinkTurns"},
		{func(s *Style) { s.LinkTurns = -6 }, "LinkTurns"},
		{func(s *Style) { s.LinkTurns = float32(math.NaN()) }, "LinkTurns"},
		{func(s *Style) { s.LinkShape, s.LinkStyle = "spiral", "electric" }, "LinkShape"},
		{func(s *Style) { s.LinkShape, s.LinkStyle = "swirl", "sparkle" }, "LinkShape"},
	} {
		st := DefaultStyle()
		tc.set(&st)
		var fe *field.Error
		if err := st.Validate(); !errors.As(err, &fe) || fe.Field != "overlay.Style."+tc.field {
			t.Errorf("want an error naming %s, got %v", tc.field, err)
		}
	}
	st := DefaultStyle()
	st.LinkShape, st.LinkStyle = "straight", "electric"
	if err := st.Validate(); err != nil {
		t.Errorf("straight electric links: %v", err)
	}
}

// samples is the run of curves c sampled 16 times a piece, in order.
func samples(c []Curve) (x, y []float64) {
	for _, k := range c {
		for j := range 16 {
			px, py := curves.Point(k.X0, k.Y0, k.X1, k.Y1, k.X2, k.Y2, float32(j)/16)
			x, y = append(x, float64(px)), append(y, float64(py))
		}
	}
	k := c[len(c)-1]
	return append(x, float64(k.X2)), append(y, float64(k.Y2))
}

// TestLinkShapeSpiral: a spiral winds LinkTurns turns round the lower id's point (counted
// from where it leaves it), the other way round with negative turns, and ends on the other
// point whatever the turns, fractional ones too (the pack's misses it unless they are
// whole); its distance from its centre grows all the way.
func TestLinkShapeSpiral(t *testing.T) {
	lo, hi := scene.Point{ID: 2, X: 500, Y: 300}, scene.Point{ID: 7, X: 800, Y: 420}
	for _, turns := range []float32{1, 2.5, -1.5, 0.25, 0} {
		st := DefaultStyle()
		st.LinkShape, st.LinkTurns, st.LineWidth = "spiral", turns, 2
		c := shapedLinks(t, st, hi, lo, 9).Curves
		if e := c[len(c)-1]; e.X2 != hi.X || e.Y2 != hi.Y {
			t.Errorf("turns %g: ends at (%g, %g), want (%g, %g)", turns, e.X2, e.Y2, hi.X, hi.Y)
		}
		want := float64(turns)
		if turns == 0 {
			want = 1
		}
		x, y := samples(c)
		wound, prev, r := 0.0, math.NaN(), 0.0
		for i := range x {
			dx, dy := x[i]-float64(lo.X), y[i]-float64(lo.Y)
			d := math.Hypot(dx, dy)
			if d < r-0.5 {
				t.Fatalf("turns %g: comes back in to %.1f px of its centre after %.1f", turns, d, r)
			}
			r = max(r, d)
			if d < 1 {
				continue
			}
			a := math.Atan2(dy, dx)
			if !math.IsNaN(prev) {
				wound += math.Remainder(a-prev, 2*math.Pi)
			}
			prev = a
		}
		// Screen y runs down: positive turns run clockwise on screen, as screen angles grow.
		if got := wound / (2 * math.Pi); math.Abs(got-want) > 0.03*math.Abs(want)+0.01 { // less the first px
			t.Errorf("turns %g: winds %.3f turns round the lower id's point, want %g", turns, got, want)
		}
	}
}

// TestLinkShapeSwirl: a swirl's heading swings past square to the line, so it runs back on
// itself in places (a wave never does), stays within its loops' reach of the line, ends on
// the other point in every frame, and travels: the same frame draws the same swirl, the
// next another.
func TestLinkShapeSwirl(t *testing.T) {
	a, b := scene.Point{ID: 1, X: 100, Y: 300}, scene.Point{ID: 4, X: 700, Y: 300}
	run := func(shape string, frame int) []Curve {
		st := DefaultStyle()
		st.LinkShape, st.LinkAmp, st.LineWidth = shape, 10, 2
		return shapedLinks(t, st, a, b, frame).Curves
	}
	back := func(c []Curve) bool {
		x, _ := samples(c)
		for i := 1; i < len(x); i++ {
			if x[i] < x[i-1]-0.1 {
				return true
			}
		}
		return false
	}
	for frame := range 5 {
		c := run("swirl", frame)
		if e := c[len(c)-1]; e.X2 != b.X || e.Y2 != b.Y {
			t.Errorf("frame %d: ends at (%g, %g), want (%g, %g)", frame, e.X2, e.Y2, b.X, b.Y)
		}
		if !back(c) {
			t.Errorf("frame %d: the swirl never runs back", frame)
		}
		// Three cycles of 200 px: its loops reach some 0.6 of a cycle from the line.
		_, y := samples(c)
		top := 0.0
		for _, v := range y {
			top = max(top, math.Abs(v-300))
		}
		if top < 40 || top > 200 {
			t.Errorf("frame %d: leaves the line by %.1f px, want loops of some 120", frame, top)
		}
	}
	if back(run("wave", 3)) {
		t.Error("the wave ran back: the test cannot tell a swirl")
	}
	if !slices.Equal(run("swirl", 6), run("swirl", 6)) || slices.Equal(run("swirl", 6), run("swirl", 7)) {
		t.Error("want the same swirl for the same frame and another for the next")
	}
}
