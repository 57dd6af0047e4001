package job_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"trackink/job"
	"trackink/kernels/device"
	"trackink/knn"
	"trackink/overlay"
	"trackink/video"
)

// Render the seed scene's tracks onto a clip, as `trackink render --scene seed` does.
func ExampleRender() {
	dir, _ := os.MkdirTemp("", "job-example-")
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "out.mp4")
	if err := video.Synthesize(in, 320, 180, 12, 24); err != nil {
		fmt.Println(err)
		return
	}
	place, err := job.Place("cpu", device.Probe)
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := job.Render(context.Background(), job.Options{
		Video:   video.Options{Input: in, Output: out, Encoder: "libx264", Preset: "ultrafast"},
		Overlay: overlay.Options{Style: overlay.DefaultStyle(), Links: knn.Options{K: knn.DefaultK, Hysteresis: knn.DefaultHysteresis}},
		Place:   place,
		Tracks:  job.Tracks{Seed: true},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d frames drawn, %d encoded with %s\n", rep.Overlaid, rep.Frames, rep.Encoder)
	// Output: 12 frames drawn, 12 encoded with libx264
}
