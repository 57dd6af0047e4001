package job

import (
	"path/filepath"
	"strings"
	"testing"

	"trackink/kernels/device"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// previewClip is a synthetic 64×48 clip of frames frames, and a CPU placement to draw on it.
func previewClip(t *testing.T, frames int) (string, Placement) {
	t.Helper()
	clip := filepath.Join(t.TempDir(), "in.mp4")
	if err := video.Synthesize(clip, 64, 48, frames, 10); err != nil {
		t.Fatal(err)
	}
	place, err := Place("cpu", device.Probe)
	if err != nil {
		t.Fatal(err)
	}
	return clip, place
}

// previewOptions are the options of a render of tracks onto clip, its warnings appended to
// *warnings.
func previewOptions(clip string, place Placement, style overlay.Style, tracks *scene.Tracks, warnings *[]string) Options {
	return Options{
		Video:   video.Options{Input: clip},
		Overlay: overlay.Options{Style: style, Links: knn.Options{K: knn.DefaultK, Hysteresis: knn.DefaultHysteresis}},
		Place:   place,
		Tracks:  Tracks{Load: func(w, h int) (*scene.Tracks, error) { return tracks, nil }, Name: "t.txt"},
		Warn:    func(m string) { *warnings = append(*warnings, m) },
	}
}

// The one-frame preview, which the FAQ has users check a render with, warns of what it
// draws as the render does: labels in characters the font lacks, items wholly outside the
// picture (it once said neither).
func TestPreviewSaysWhatItCouldNotDraw(t *testing.T) {
	clip, place := previewClip(t, 3)
	tracks, err := scene.NewTracks([]scene.Frame{{Index: 2, Boxes: []scene.Box{
		{ID: 1, X: 10, Y: 10, W: 20, H: 20, Class: "行人"},
		{ID: 2, X: 500, Y: 10, W: 20, H: 20, Class: "person"},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	if _, _, err := Preview(t.Context(), previewOptions(clip, place, overlay.DefaultStyle(), tracks, &warnings), 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"U+884C 行", "1 tracked item in 1 frame lies wholly outside the 64x48 picture (first: frame 2, track 2)"} {
		if !strings.Contains(strings.Join(warnings, "\n"), want) {
			t.Errorf("--frame 2 warned %q, want %q", warnings, want)
		}
	}
}
