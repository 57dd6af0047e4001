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

func TestDrawerAllocatesNothingInSteadyState(t *testing.T) {
	const w, h = 3840, 2160
	tr := scene.Seed(w, h, 40)
	st := overlay.DefaultStyle()
	st.Trail = 20
	st.BoxEffects = []overlay.Effect{overlay.EffectInvert, overlay.EffectPixelate}
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
	seed.LineWidth = 4
	if st := seed.ForHeight(1080); st.LineWidth != 4 || st.CurveWidth != 4 {
		t.Errorf("--line-width 4 at 1080 lines: line %g, curve %g; want 4 and 4", st.LineWidth, st.CurveWidth)
	}
	if st := overlay.DefaultStyle().ForHeight(1080); st.CurveWidth != 0 || st.LineWidth != 1 {
		t.Errorf("the default look at 1080 lines: line %g, curve %g; want straight links only", st.LineWidth, st.CurveWidth)
	}
}
