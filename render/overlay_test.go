package render

import (
	"testing"

	"trackink/composite"
	"trackink/knn"
	"trackink/scene"
)

func TestOverlayAllocatesNothingInSteadyState(t *testing.T) {
	const w, h = 3840, 2160
	tr := scene.Seed(w, h, 40)
	st := DefaultStyle(h)
	st.Trail = 20
	ov, err := NewOverlay(OverlayOptions{Render: Options{Workers: 2, LabelSize: 14, Timed: true}, Style: st,
		Links: knn.Options{K: 5, Hysteresis: knn.DefaultHysteresis}})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Close()
	fr := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	n := 0
	frame := func() {
		if err := ov.Draw(fr, &tr.Frames[n]); err != nil {
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
	if ov.Links() == 0 {
		t.Error("no links drawn")
	}
}
