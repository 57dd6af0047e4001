package job

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"trackink/internal/mediatest"
	"trackink/kernels/device"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// The camera look's clock counts at the video's frame rate unless a rate is given.
func TestCameraClockAtTheVideosRate(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "in.mp4")
	if err := video.Synthesize(clip, 64, 48, 5, 10); err != nil {
		t.Fatal(err)
	}
	src, err := video.Open(t.Context(), clip, 0)
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
	// A high-speed camera's rate, and a time-lapse's of a frame every 10 minutes, as they are
	// (once held to 1000 and 0.01: the clock ran 2.4 times too fast, 6 times too slow).
	for _, tc := range []struct{ rate, want float64 }{{2400, 2400}, {1.0 / 600, 1.0 / 600}} {
		o := Options{Overlay: overlay.Options{Style: overlay.Style{Camera: overlay.Camera{Name: "CAM"}}}}
		fitToVideo(&o, video.Info{FrameRate: tc.rate})
		if got := o.Overlay.Style.Camera.FPS; got != float32(tc.want) {
			t.Errorf("a %g fps video: the clock counts at %g, want %g", tc.rate, got, tc.want)
		}
	}
}

// A render from --start N draws the camera look on frame N and after as the whole render
// draws those frames: the grain and the clock count the video's frames, not those drawn,
// also where nothing is tracked (here, every frame after the first).
func TestCameraCountsTheVideosFrames(t *testing.T) {
	dir := t.TempDir()
	clip := filepath.Join(dir, "in.mp4")
	const frames, fps = 8, 2 // the clock moves on every other frame
	if err := video.Synthesize(clip, 96, 64, frames, fps); err != nil {
		t.Fatal(err)
	}
	tracks, err := scene.NewTracks([]scene.Frame{{Index: 1, Boxes: []scene.Box{{ID: 1, X: 10, Y: 10, W: 20, H: 30}}}})
	if err != nil {
		t.Fatal(err)
	}
	place, err := Place("cpu", device.Probe)
	if err != nil {
		t.Fatal(err)
	}
	cctv, _ := overlay.Preset("cctv")
	cctv.Camera.Grain = 0.3
	render := func(name string, start int) []string {
		out := filepath.Join(dir, name)
		_, err := Render(context.Background(), Options{
			Video:   video.Options{Input: clip, Output: out, Encoder: "libx264", Lossless: true, Start: video.Position{Frame: start}},
			Overlay: overlay.Options{Style: cctv, Links: knn.Options{K: knn.DefaultK, Hysteresis: knn.DefaultHysteresis}},
			Place:   place,
			Tracks:  Tracks{Load: func(w, h int, _ bool) (*scene.Tracks, error) { return tracks, nil }, Name: "tracks"},
		})
		if err != nil {
			t.Fatal(err)
		}
		return mediatest.Pictures(mediatest.Frames(t, out))
	}
	whole := render("whole.mkv", 0)
	if len(whole) != frames {
		t.Fatalf("the whole render has %d frames, want %d", len(whole), frames)
	}
	for _, start := range []int{2, 5} {
		got := render(fmt.Sprintf("from%d.mkv", start), start)
		if want := whole[start-1:]; !slices.Equal(got, want) {
			t.Errorf("--start %d: frames %s", start, mediatest.Difference(want, got))
		}
	}
}

// A segment's plan counts a font file by the bytes the render draws with: a node whose path
// holds another font makes another plan, which the join refuses (once segments drawn in two
// fonts joined into one video); the file is not read again for the plan (a FIFO would block
// there, and a file replaced since is not what was drawn).
func TestDrawingCountsTheFontsBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "label.ttf")
	if err := os.WriteFile(path, goregular.TTF, 0o644); err != nil {
		t.Fatal(err)
	}
	tf, err := overlay.LoadTypeface(path) // as the drawer does
	if err != nil {
		t.Fatal(err)
	}
	if tf.Sum() != sha256.Sum256(goregular.TTF) {
		t.Error("the typeface's sum is not its file's SHA-256")
	}
	o := overlay.Options{Style: overlay.DefaultStyle()}
	o.Style.Font = path
	drawn := drawing("cpu", o, nil, 1, 10)
	if err := os.WriteFile(path, gobold.TTF, 0o644); err != nil {
		t.Fatal(err)
	}
	if drawing("cpu", o, nil, 1, 10) != drawn {
		t.Error("the plan read the font file again: it changed with the file after the render loaded it")
	}
	o.Style.Font = overlay.GoMono
	if drawing("cpu", o, nil, 1, 10) == drawn {
		t.Error("Go Mono and a font file make the same plan")
	}
}

// A render whose frames show none of the tracks' frames says so, with the flags that line
// them up (once it said nothing, or, with an offset past the video's end, that the video
// ended at tracks frame 0); one that reaches only some of them says where the video ends.
func TestRenderSaysWhenTheTracksMissTheVideo(t *testing.T) {
	dir := t.TempDir()
	clip := filepath.Join(dir, "in.mp4")
	if err := video.Synthesize(clip, 64, 48, 6, 10); err != nil {
		t.Fatal(err)
	}
	var frames []scene.Frame
	for n := 1; n <= 3; n++ {
		frames = append(frames, scene.Frame{Index: n, Boxes: []scene.Box{{ID: 1, X: 10, Y: 10, W: 20, H: 20}}})
	}
	tracks, err := scene.NewTracks(frames)
	if err != nil {
		t.Fatal(err)
	}
	place, err := Place("cpu", device.Probe)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		offset, start int
		want          string // in the one warning; "" for none
	}{
		{0, 0, ""},
		{3, 0, ""},  // tracks frames 1 to 3 on video frames 4 to 6
		{-2, 0, ""}, // tracks frames 3 to 8: the tracks end first
		{4, 0, "the video ends at tracks frame 2"},
		{-10, 0, "the frames rendered show tracks frames 11 to 16 (--frame-offset -10), and it has frames 1 to 3: check --frame-offset"},
		{10, 0, "--frame-offset 10 puts its frames 1 to 3 on video frames 11 to 13, after the last frame rendered: check --frame-offset"},
		{0, 5, "the frames rendered show tracks frames 5 to 6 (--frame-offset 0), and it has frames 1 to 3: check --frame-offset"},
	} {
		var warnings []string
		_, err := Render(t.Context(), Options{
			Video:   video.Options{Input: clip, Output: filepath.Join(dir, "out.mkv"), Overwrite: true, Encoder: "libx264", Preset: "ultrafast", FrameOffset: tc.offset, Start: video.Position{Frame: tc.start}},
			Overlay: overlay.Options{Style: overlay.DefaultStyle(), Links: knn.Options{K: knn.DefaultK, Hysteresis: knn.DefaultHysteresis}},
			Place:   place,
			Tracks:  Tracks{Load: func(w, h int, _ bool) (*scene.Tracks, error) { return tracks, nil }, Name: "t.txt"},
			Warn:    func(m string) { warnings = append(warnings, m) },
		})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.want == "" && len(warnings) > 0:
			t.Errorf("--frame-offset %d --start %d: warned %q", tc.offset, tc.start, warnings)
		case tc.want != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], tc.want)):
			t.Errorf("--frame-offset %d --start %d: warned %q, want one with %q", tc.offset, tc.start, warnings, tc.want)
		}
	}
}
