package overlay

import (
	"math"
	"testing"

	"trackink/composite"
	"trackink/knn"
	"trackink/scene"
)

// captureBackend records the camera pass and the labels' text of each frame it draws.
type captureBackend struct {
	frames []int
	stamps []string
}

func (c *captureBackend) Draw(dst composite.Surface, p *Primitives) error {
	c.frames = append(c.frames, p.Camera.Frame)
	if n := len(p.Labels); n > 0 {
		c.stamps = append(c.stamps, string(p.Labels[n-1].Text))
	}
	return nil
}
func (c *captureBackend) Timings() Timings { return Timings{} }
func (c *captureBackend) Workers() int     { return 1 }
func (c *captureBackend) Close()           {}

// TestCameraCountsEveryFrame: the camera pass and stamp take each frame's number, and a
// frame with nothing tracked (nil) the number after the frame before, so the grain and the
// clock move on through gaps in the tracks; the stamp's clock counts whole seconds at FPS.
func TestCameraCountsEveryFrame(t *testing.T) {
	st := DefaultStyle()
	st.Camera = Camera{Grain: 0.1, Name: "CAM", FPS: 2}
	cb := &captureBackend{}
	d, err := New(Options{Style: st, Links: knn.Options{K: 2}, NewBackend: func(BackendOptions) (Backend, error) { return cb, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fr := &composite.RGBA{Pix: make([]byte, 64*48*4), Stride: 64 * 4, W: 64, H: 48}
	for _, tf := range []*scene.Frame{{Index: 1}, nil, nil, {Index: 4}, {Index: 5}, nil} {
		if err := d.Draw(fr, tf); err != nil {
			t.Fatal(err)
		}
	}
	want := []int{1, 2, 3, 4, 5, 6}
	for i, w := range want {
		if cb.frames[i] != w {
			t.Fatalf("camera frames %v, want %v", cb.frames, want)
		}
	}
	if got, want := cb.stamps[5], "CAM  00:00:02"; got != want {
		t.Errorf("frame 6's stamp %q, want %q (5 frames at 2 fps)", got, want)
	}
}

// The stamp's clock rate is 0 (the video's) or MinCameraFPS to MaxCameraFPS (a time-lapse's
// 1/600 was once refused; 1e-9 stamped the year 2305 by frame 30); a clock that would run
// past what a time can hold stops there rather than wrap round.
func TestCameraClockBounds(t *testing.T) {
	for _, c := range []struct {
		fps float32
		ok  bool
	}{{0, true}, {1.0 / 600, true}, {MinCameraFPS, true}, {2400, true}, {MaxCameraFPS, true},
		{1e-30, false}, {1e-9, false}, {1.0 / 86400, true}, {9.9e-6, false}, {2e6, false}, {-1, false}} {
		st := DefaultStyle()
		st.Camera = Camera{Name: "CAM", FPS: c.fps}
		if err := st.Validate(); (err == nil) != c.ok {
			t.Errorf("camera fps %g: %v, want ok %v", c.fps, err, c.ok)
		}
	}
	cam := Camera{Name: "CAM", FPS: MinCameraFPS}
	if got, want := string(cam.cameraStamp(nil, 1<<40, cam.cameraClock())), "CAM  2500000:00:00"; got != want {
		t.Errorf("frame 2^40 at %g fps: %q, want %q", cam.FPS, got, want)
	}
}

// TestCameraTintStrength: a tint's strength as the frame's pass takes it: none without a
// colour, the default 1 for 0 (so a look that sets Camera keeps a tint full), the strength
// scaled by the colour's alpha; and the picture counts as altered.
func TestCameraTintStrength(t *testing.T) {
	lime := scene.Color{G: 255, A: 255}
	for _, c := range []struct {
		name string
		cam  Camera
		want float32
	}{
		{"no colour", Camera{TintStrength: 0.5}, 0},
		{"default", Camera{Tint: OptionalColor{lime, true}}, 1},
		{"half", Camera{Tint: OptionalColor{lime, true}, TintStrength: 0.5}, 0.5},
		{"alpha", Camera{Tint: OptionalColor{scene.Color{G: 255, A: 51}, true}, TintStrength: 0.5}, 0.1},
	} {
		s := DefaultStyle()
		s.Camera = c.cam
		p := s.cameraPass(3)
		if math.Abs(float64(p.TintStrength-c.want)) > 1e-6 || s.Camera.AltersPicture() != (c.want > 0) {
			t.Errorf("%s: strength %g, alters %v; want %g", c.name, p.TintStrength, s.Camera.AltersPicture(), c.want)
		}
		if c.want > 0 && p.Tint != [3]float32{0, 1, 0} {
			t.Errorf("%s: colour %v, want lime", c.name, p.Tint)
		}
	}
}
