package overlay_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"trackink/kernels/gpu"
	"trackink/knn"
	"trackink/overlay"
	"trackink/render"
)

// TestBenchSeedPasses: the seed benchmark draws on every frame format a backend can hold,
// and on a device backend times a second pass as a render draws (the captured graph) that
// must draw the timed pass's picture; the CPU has no device memory for FormatDevice.
func TestBenchSeedPasses(t *testing.T) {
	for _, tt := range []struct {
		backend string
		newB    overlay.NewBackend
		format  string
		graph   bool  // a graph pass is reported
		err     error // BenchSeed's
	}{
		{"cpu", render.NewBackend, "yuv420p", false, nil},
		{"cpu", render.NewBackend, overlay.FormatDevice, false, overlay.ErrNoDeviceFrames},
		{"emu", gpu.NewEmu, "yuv420p", true, nil},
		{"emu", gpu.NewEmu, "nv12", true, nil},
		{"emu", gpu.NewEmu, overlay.FormatDevice, true, nil},
	} {
		t.Run(tt.backend+"/"+tt.format, func(t *testing.T) {
			o := overlay.Options{Style: overlay.DefaultStyle(), Links: knn.Options{K: 5, Hysteresis: knn.DefaultHysteresis},
				Backend: overlay.BackendOptions{Workers: 2}, NewBackend: tt.newB}
			const frames, w, h = 2, 320, 180
			b, err := overlay.BenchSeedAt(o, tt.format, w, h, 2, frames)
			if !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if b.Frames != frames || b.Links == 0 || b.TotalMS <= 0 || b.StagesMS[overlay.StageBin] <= 0 {
				t.Errorf("timed pass %+v: want %d frames, links, a total and the bin stage's time", b, frames)
			}
			if (b.Graph != nil) != tt.graph {
				t.Fatalf("graph pass %+v, want one: %v", b.Graph, tt.graph)
			}
			js, err := json.Marshal(b.Report(tt.backend, tt.format))
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{`"graph_total_median_ms":`, `"graph_allocs_per_frame":`, `"graph_same_picture":true`} {
				if strings.Contains(string(js), k) != tt.graph {
					t.Errorf("%s in %s: %v, want %v", k, js, !tt.graph, tt.graph)
				}
			}
			if g := b.Graph; g != nil && (g.TotalMS <= 0 || !g.SamePicture) {
				t.Errorf("graph pass %+v: want a total and the timed pass's picture", g)
			}
			// The pictures compared are the drawn frame's, read back from the device where
			// it is there: not the grey frame the pass starts from.
			pic, err := overlay.SeedPicture(o, tt.format, w, h, 2+frames)
			if err != nil {
				t.Fatal(err)
			}
			grey := crc32.Update(crc32.ChecksumIEEE(bytes.Repeat([]byte{110}, w*h)), crc32.IEEETable, bytes.Repeat([]byte{128}, w*h/2))
			if pic == grey || pic == crc32.ChecksumIEEE(nil) {
				t.Errorf("the pass's picture (CRC %08x) is the grey frame it starts from, or nothing", pic)
			}
		})
	}
}
