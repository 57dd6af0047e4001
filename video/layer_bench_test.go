package video

import (
	"os"
	"path/filepath"
	"testing"

	"trackink/composite"
	"trackink/goldens"
	"trackink/internal/cputime"
	"trackink/knn"
	"trackink/overlay"
	cpu "trackink/render"
	"trackink/scene"
)

// BenchmarkLayerRender renders the first 60 frames of vtest.avi with the seed scene's 100
// tracks in the default look, side by side: burnt in (libx264 as auto picks it, and ProRes
// 4444, an editor's alternative to a layer) and as a layer in each format. The ratio of a
// layer's time to a burnt-in one's is the cost of the layer.
//
//	go test ./video -run XXX -bench LayerRender -benchtime 3x -count 3
func BenchmarkLayerRender(b *testing.B) {
	if _, err := os.Stat(goldens.Footage); err != nil {
		b.Skipf("%s is not installed", goldens.Footage)
	}
	const frames = 60
	dir := b.TempDir()
	for _, tc := range []struct {
		name, output, encoder, profile string
		layer                          bool
	}{
		{"burnt-x264", "burnt.mp4", "", "", false},
		{"burnt-prores4444", "burnt.mov", "prores_ks", "4444", false},
		{"layer-prores4444", "layer.mov", "", "", true},
		{"layer-prores4444-aw", "layer.mov", "prores_aw", "", true},
		{"layer-png", "layer_%05d.png", "", "", true},
		{"layer-qtrle", "layer.mov", "qtrle", "", true},
		{"layer-vp9", "layer.webm", "", "", true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			// CPU time as well as wall time: on a shared machine it swings much less.
			cpu0 := cputime.Self()
			defer func() { b.ReportMetric((cputime.Self()-cpu0).Seconds()/float64(b.N), "cpu-s/op") }()
			for b.Loop() {
				d, err := overlay.New(overlay.Options{Style: overlay.DefaultStyle(), Links: knn.Options{K: knn.DefaultK},
					NewBackend: cpu.NewBackend})
				if err != nil {
					b.Fatal(err)
				}
				var seed *scene.SeedScene
				var tf scene.Frame
				_, err = Transcode(b.Context(), Options{Input: goldens.Footage, Output: filepath.Join(dir, tc.output), Overwrite: true,
					Encoder: tc.encoder, Profile: tc.profile, Layer: tc.layer, End: Position{Frame: frames}},
					func(n int, f composite.Surface) error {
						w, h := f.Size()
						if seed == nil {
							seed = scene.NewSeed(w, h)
						}
						seed.Frame(n, &tf)
						return d.Draw(f, &tf)
					})
				d.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
