package overlay_test

import (
	"errors"
	"testing"

	"trackink/composite"
	"trackink/internal/field"
	"trackink/knn"
	"trackink/overlay"
	"trackink/render"
	"trackink/scene"
)

// TestDrawerAllocatesNothingInSteadyState, in the default look with trails, box effects,
// the camera look and particles,
// and with every drawing option of look.go on (link fade, smoothed trails, boxes from
// points, add).
func TestDrawerAllocatesNothingInSteadyState(t *testing.T) {
	st := overlay.DefaultStyle()
	st.Trail = 20
	st.BoxEffects = []overlay.Effect{overlay.EffectInvert, overlay.EffectPixelate}
	cctv, _ := overlay.Preset("cctv")
	st.Camera = cctv.Camera              // the camera stage and its stamp
	st.Particles, st.ParticleLife = 2, 4 // steady within the warm-up
	st.Echo = 3                          // the echo stage and its kept tiles
	drawerAllocations(t, st)
	st.LinkFade, st.TrailSmooth, st.BoxFrom, st.Blend = overlay.Auto, 3, "age", "add"
	drawerAllocations(t, st)
	st.Glow, st.LinkGradient = 12, true // every stroke glowing, gradient links
	drawerAllocations(t, st)
}

func drawerAllocations(t *testing.T, st overlay.Style) {
	const w, h = 3840, 2160
	tr := scene.Seed(w, h, 40)
	for i := range tr { // points without boxes, for BoxFrom
		tr[i].Boxes = tr[i].Boxes[:len(tr[i].Boxes)/2]
	}
	d, err := overlay.New(overlay.Options{Style: st, Links: knn.Options{K: 5, Hysteresis: knn.DefaultHysteresis},
		Backend: overlay.BackendOptions{Workers: 2, Timed: true}, NewBackend: render.NewBackend})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fr := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	n := 0
	frame := func() {
		if err := d.Draw(fr, &tr[n]); err != nil {
			t.Fatal(err)
		}
		n++
	}
	for range 10 {
		frame()
	}
	if allocs := testing.AllocsPerRun(20, frame); allocs != 0 {
		t.Errorf("%v allocations per frame, want 0", allocs)
	}
	if n, err := d.Links(); n == 0 || err != nil {
		t.Errorf("%d links drawn (%v)", n, err)
	}
	tm := d.Timings()
	for _, s := range overlay.Stages() {
		if tm[s] <= 0 {
			t.Errorf("timed drawer: stage %s took %v", s, tm[s])
		}
	}
}

// TestOptionsNameTheField: every invalid option is reported as a *field.Error naming the
// field, which the command line maps to its flag.
func TestOptionsNameTheField(t *testing.T) {
	valid := func() overlay.Options {
		return overlay.Options{Style: overlay.DefaultStyle(), Links: knn.Options{K: 5}, NewBackend: render.NewBackend}
	}
	for _, tc := range []struct {
		field string
		edit  func(o *overlay.Options)
	}{
		{"overlay.Style.LineWidth", func(o *overlay.Options) { o.Style.LineWidth = -3 }},
		{"overlay.Style.FillOpacity", func(o *overlay.Options) { o.Style.FillOpacity = 1.5 }},
		{"overlay.Style.Trail", func(o *overlay.Options) { o.Style.Trail = 1 }},
		{"overlay.Style.Bend", func(o *overlay.Options) { o.Style.Bend = 11 }},
		{"overlay.Style.LabelSize", func(o *overlay.Options) { o.Style.LabelSize = 3 }},
		{"overlay.BackendOptions.Workers", func(o *overlay.Options) { o.Backend.Workers = -1 }},
		{"overlay.BackendOptions.Workers", func(o *overlay.Options) { o.Backend.Workers = overlay.MaxWorkers + 1 }},
		{"knn.Options.K", func(o *overlay.Options) { o.Links.K = 0 }},
	} {
		o := valid()
		tc.edit(&o)
		var fe *field.Error
		if err := o.Validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: Validate() = %v, want a field error naming it", tc.field, err)
		}
		if _, err := overlay.New(o); err == nil {
			t.Errorf("%s: New accepted the invalid options", tc.field)
		}
	}
	o := valid()
	if err := o.Validate(); err != nil {
		t.Errorf("the default options: %v", err)
	}
}

// TestForHeightScalesTheAutoSizes: sizes left at Auto follow the frame's height, sizes given
// stay as given, and curves left at Auto follow a given line width.
func TestForHeightScalesTheAutoSizes(t *testing.T) {
	seed, _ := overlay.Preset("seed")
	st := seed.ForHeight(2160)
	if st.PointRadius != 5 || st.LineWidth != 2 || st.CurveWidth != 2 || st.BoxStroke != 3 || st.TrailWidth != 3 || st.LabelSize != 40 {
		t.Errorf("at 2160 lines: %+v", st)
	}
	st = seed.ForHeight(540)
	if st.PointRadius != 1.5 || st.LineWidth != 1 || st.BoxStroke != 1 || st.LabelSize != 10 {
		t.Errorf("at 540 lines: %+v", st)
	}
	// A scan 28 000 px tall: the labels at their largest size, not past it (then refused).
	if st := seed.ForHeight(28000); st.LabelSize != overlay.MaxFontSize || st.Validate() != nil {
		t.Errorf("at 28000 lines: label size %d (%v), want %d", st.LabelSize, st.Validate(), overlay.MaxFontSize)
	}
	seed.LineWidth = 4
	if st := seed.ForHeight(1080); st.LineWidth != 4 || st.CurveWidth != 4 {
		t.Errorf("--line-width 4 at 1080 lines: line %g, curve %g; want 4 and 4", st.LineWidth, st.CurveWidth)
	}
	if st := overlay.DefaultStyle().ForHeight(1080); st.CurveWidth != 0 || st.LineWidth != 2 {
		t.Errorf("the default look at 1080 lines: line %g, curve %g; want straight 2 px links only", st.LineWidth, st.CurveWidth)
	}
}

// TestLinkReach: the default look drops links longer than a fifth of the frame's width
// (LinkReach, when no MaxDist is given), so it never links people across the frame; with
// LinkReach 0, or a MaxDist, that is what rules.
func TestLinkReach(t *testing.T) {
	const w, h = 1000, 400
	f := &scene.Frame{Index: 1, Points: []scene.Point{{ID: 1, X: 100, Y: 100}, {ID: 2, X: 150, Y: 120}, {ID: 3, X: 900, Y: 100}}}
	for _, tc := range []struct {
		reach   float32
		maxDist float64
		links   int
	}{{0.2, 0, 1}, {0, 0, 3}, {0.2, 2000, 3}, {0.9, 0, 3}} {
		st := overlay.DefaultStyle()
		st.LinkReach = tc.reach
		if n := drawnLinks(t, st, knn.Options{K: 2, MaxDist: tc.maxDist}, f, w, h); n != tc.links {
			t.Errorf("reach %g, max-dist %g: %d links, want %d", tc.reach, tc.maxDist, n, tc.links)
		}
	}
}

// TestLinkFadeOverTheReach: --link-fade -1 (Auto) fades links over their reach, which is
// --max-dist when that is given (not the default look's fifth of the width): a link of 300
// px within a max-dist of 2000 is drawn, nearly whole, at its midpoint.
func TestLinkFadeOverTheReach(t *testing.T) {
	const w, h = 1000, 400
	f := &scene.Frame{Index: 1, Points: []scene.Point{{ID: 1, X: 100, Y: 100}, {ID: 2, X: 400, Y: 100}}}
	for _, tc := range []struct {
		maxDist float64
		reach   float32
		alpha   [2]byte // the least and most alpha at the link's midpoint, 0..255
	}{
		{2000, 0.2, [2]byte{120, 160}}, // 0.6 opacity · (1 − smoothstep(0.15)) ≈ 0.56
		{0, 0.5, [2]byte{20, 80}},      // over 500 px: 0.6 · (1 − smoothstep(0.6)) ≈ 0.21
		{0, 0.2, [2]byte{0, 0}},        // beyond the reach: dropped
	} {
		st := overlay.DefaultStyle()
		st.LinkFade, st.LinkReach, st.PointRadius, st.Labels = overlay.Auto, tc.reach, 0, false
		d, err := overlay.New(overlay.Options{Style: st, Links: knn.Options{K: 1, MaxDist: tc.maxDist}, NewBackend: render.NewBackend})
		if err != nil {
			t.Fatal(err)
		}
		fr := &composite.RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
		if err := d.Draw(fr, f); err != nil {
			t.Fatal(err)
		}
		d.Close()
		if a := fr.Pix[100*fr.Stride+4*250+3]; a < tc.alpha[0] || a > tc.alpha[1] {
			t.Errorf("max-dist %g, reach %g: alpha %d at the link's midpoint, want %d..%d", tc.maxDist, tc.reach, a, tc.alpha[0], tc.alpha[1])
		}
	}
}

// drawnLinks draws frame f on a w × h frame through a Drawer in style st with link options
// lo, and returns how many links it drew.
func drawnLinks(t *testing.T, st overlay.Style, lo knn.Options, f *scene.Frame, w, h int) int {
	t.Helper()
	d, err := overlay.New(overlay.Options{Style: st, Links: lo, NewBackend: render.NewBackend})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fr := &composite.RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
	if err := d.Draw(fr, f); err != nil {
		t.Fatal(err)
	}
	n, err := d.Links()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLookLinkGraph: a look's link graph (Style.LinkGraph) is searched when the link
// options name none, and the options' own wins when they do; plexus's is Delaunay.
func TestLookLinkGraph(t *testing.T) {
	const w, h = 1000, 400
	f := &scene.Frame{Index: 1, Points: []scene.Point{{ID: 1, X: 100, Y: 100}, {ID: 2, X: 150, Y: 100}, {ID: 3, X: 200, Y: 101}, {ID: 4, X: 250, Y: 100}}}
	for _, tc := range []struct {
		look, option string
		links        int
	}{{"", "", 6}, {"mst", "", 3}, {"mst", "knn", 6}, {"", "mst", 3}} {
		st := overlay.DefaultStyle()
		st.LinkGraph = tc.look
		if n := drawnLinks(t, st, knn.Options{K: 3, Graph: tc.option}, f, w, h); n != tc.links {
			t.Errorf("look graph %q, option %q: %d links, want %d", tc.look, tc.option, n, tc.links)
		}
	}
	if st, _ := overlay.Preset("plexus"); st.LinkGraph != knn.GraphDelaunay {
		t.Errorf("plexus links by %q", st.LinkGraph)
	}
	st := overlay.DefaultStyle()
	st.LinkGraph = "web"
	if err := st.Validate(); err == nil {
		t.Error("link graph web was accepted")
	}
}

// TestDefaultSizesAreLegible: the looks' Auto sizes are never hairlines: strokes at least
// 2 px and points at least 2.5 px in radius at any height, scaled up from 1080 lines.
func TestDefaultSizesAreLegible(t *testing.T) {
	for _, tc := range []struct {
		h                       int
		point, line, box, trail float32
	}{
		{2160, 6, 4, 4, 4},
		{1080, 3, 2, 2, 2},
		{720, 2.5, 2, 2, 2},
		{360, 2.5, 2, 2, 2},
		{4320, 12, 8, 8, 8},
	} {
		st := overlay.DefaultStyle()
		st.CurveWidth = overlay.Auto
		st = st.ForHeight(tc.h)
		if st.PointRadius != tc.point || st.LineWidth != tc.line || st.CurveWidth != tc.line || st.BoxStroke != tc.box || st.TrailWidth != tc.trail {
			t.Errorf("at %d lines: points %g, lines %g, curves %g, boxes %g, trails %g; want %g, %g, %g, %g, %g", tc.h,
				st.PointRadius, st.LineWidth, st.CurveWidth, st.BoxStroke, st.TrailWidth, tc.point, tc.line, tc.line, tc.box, tc.trail)
		}
	}
}
