package job

import (
	"path/filepath"
	"testing"

	"trackink/overlay"
	"trackink/video"
)

// The camera look's clock counts at the video's frame rate unless a rate is given.
func TestCameraClockAtTheVideosRate(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "in.mp4")
	if err := video.Synthesize(clip, 64, 48, 5, 10); err != nil {
		t.Fatal(err)
	}
	src, err := video.Open(clip, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	info := src.Info()
	for _, tc := range []struct {
		given, want float32
	}{{0, 10}, {24, 24}} {
		o := Options{Overlay: overlay.Options{Style: overlay.Style{Camera: overlay.Camera{Name: "CAM", FPS: tc.given}}}}
		fitToVideo(&o, info)
		if got := o.Overlay.Style.Camera.FPS; got != tc.want {
			t.Errorf("--camera-fps %g on a 10 fps clip: the clock counts at %g, want %g", tc.given, got, tc.want)
		}
	}
}
