package overlay_test

import (
	"bytes"
	"testing"

	"trackink/composite"
	"trackink/internal/knntest"
	"trackink/kernels/gpu"
	"trackink/knn"
	"trackink/overlay"
	"trackink/render"
	"trackink/scene"
)

// A drawer that advances through frames 1 to k−1 and then draws k to the end draws exactly
// what a drawer that drew every frame draws there (a segment of a render, trackink render
// --segment), for each kind of state a frame leaves behind, on the CPU and on the GPU
// backend (emulated), which keeps the links on the device. A drawer that starts at k
// without advancing draws frame k otherwise: the scene does carry that state, so the
// comparison can fail.
func TestAdvanceThenDrawIsTheWholeRender(t *testing.T) {
	const w, h, frames, k = 160, 120, 30, 17
	fs := knntest.Jittery(w, h, frames)
	looks := []struct {
		name string
		edit func(s *overlay.Style)
	}{
		{"links and their hysteresis", func(s *overlay.Style) { s.LineWidth, s.CurveWidth = 1.5, 1.5 }},
		{"trails", func(s *overlay.Style) { s.Trail = 8 }},
		{"label ages", func(s *overlay.Style) { s.BoxStroke, s.Labels, s.LabelFormat = 1, true, "{age}" }},
		{"label places", func(s *overlay.Style) { s.BoxStroke, s.Labels, s.LabelFormat = 1, true, "#{id} {class}" }},
		{"fades and lives", func(s *overlay.Style) { s.BoxStroke, s.FillOpacity, s.MinLife, s.Fade = 1, 0.5, 3, 4 }},
		{"echo trails", func(s *overlay.Style) { s.BoxStroke, s.LineWidth, s.Echo, s.EchoDecay, s.EchoScale = 1.5, 1, 4, 0.7, 1 }},
		{"moving echoes", func(s *overlay.Style) {
			s.BoxStroke, s.FillOpacity, s.Echo, s.EchoDecay, s.EchoScale, s.EchoOffset = 1.5, 0.3, 5, 0.8, 1.04, [2]float32{1.5, -0.75}
		}},
	}
	backends := []struct {
		name string
		new  overlay.NewBackend
	}{{"cpu", render.NewBackend}, {"emu", gpu.NewEmu}}
	for _, b := range backends {
		for _, look := range looks {
			t.Run(b.name+"/"+look.name, func(t *testing.T) {
				// Only the look's own element is drawn, so only its state can show.
				st := overlay.Style{Bend: 0.3, Palette: overlay.DefaultPalette, LabelSize: 10, LabelOpacity: 1, BoxOpacity: 1,
					LinkOpacity: 1, TrailOpacity: 1, TrailWidth: 2, OverlayOpacity: 1}
				look.edit(&st)
				o := overlay.Options{Style: st, Links: knn.Options{K: 3, Hysteresis: knn.DefaultHysteresis},
					Backend: overlay.BackendOptions{Workers: 1}, NewBackend: b.new}
				whole := drawFrames(t, o, fs, 1, 1)
				segment := drawFrames(t, o, fs, 1, k)
				fresh := drawFrames(t, o, fs, k, k)
				for n := k; n <= frames; n++ {
					if !bytes.Equal(segment[n-k], whole[n-1]) {
						t.Errorf("frame %d: the drawer that advanced to it drew otherwise than the one that drew every frame", n)
					}
				}
				if bytes.Equal(fresh[0], whole[k-1]) {
					t.Errorf("frame %d: a drawer starting there without advancing drew the same: the test shows nothing", k)
				}
			})
		}
	}
}

// drawFrames draws frames from..end of fs with a new drawer, after advancing it through
// frames first..from−1, each onto a grey w × h picture; it returns the pictures' bytes.
func drawFrames(t *testing.T, o overlay.Options, fs []scene.Frame, first, from int) [][]byte {
	t.Helper()
	d, err := overlay.New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const w, h = 160, 120
	for n := first; n < from; n++ {
		if err := d.Advance(w, h, &fs[n-1]); err != nil {
			t.Fatal(err)
		}
	}
	var out [][]byte
	for n := from; n <= len(fs); n++ {
		pix := bytes.Repeat([]byte{128}, w*h*3/2)
		fr := &composite.YUV420P{Y: pix[:w*h], U: pix[w*h : w*h*5/4], V: pix[w*h*5/4:], StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
		if err := d.Draw(fr, &fs[n-1]); err != nil {
			t.Fatal(err)
		}
		out = append(out, pix)
	}
	return out
}
