package gpu

import (
	"slices"
	"testing"

	"trackink/composite"
	"trackink/goldens"
	"trackink/overlay"
)

// seedFrame builds frame 1 of the seed benchmark scene at w × h, as the golden scene
// seed-small draws it at its size.
func seedFrame(b *testing.B, f *overlay.Font, w, h int) *overlay.Primitives {
	i := slices.IndexFunc(goldens.Scenes, func(s goldens.Scene) bool { return s.Name == "seed-small" })
	p := &overlay.Primitives{Font: f}
	if err := goldens.Scenes[i].Draw(p, f, w, h); err != nil {
		b.Fatal(err)
	}
	return p
}

func benchBackend(b *testing.B, be overlay.Backend) {
	const w, h = 3840, 2160
	p := seedFrame(b, testFont(b, overlay.DefaultStyle().ForHeight(h).LabelSize), w, h)
	fr := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	if err := be.Draw(fr, p); err != nil { // first frame: allocation and capture
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := be.Draw(fr, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSeed4KCPU and BenchmarkSeed4KEmu draw the seed scene's first frame at 4K onto a
// YUV420P frame with the CPU renderer and with the kernels on the emulated device.
func BenchmarkSeed4KCPU(b *testing.B) {
	benchBackend(b, newTestCPU(b))
}

func BenchmarkSeed4KEmu(b *testing.B) {
	benchBackend(b, newTestGPU(b, false))
}
