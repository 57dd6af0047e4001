package gpu

import (
	"testing"

	"trackink/composite"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
)

// seedFrame builds frame 1 of the seed benchmark scene at w × h in the default style.
func seedFrame(b *testing.B, f *overlay.Font, w, h int) *overlay.Primitives {
	sf := &scene.Seed(w, h, 1)[0]
	g, err := knn.New(knn.Options{K: knn.DefaultK})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	edges, err := g.Update(sf.Points)
	if err != nil {
		b.Fatal(err)
	}
	st := overlay.DefaultStyle().ForHeight(h)
	p := &overlay.Primitives{}
	p.Build(sf, edges, &st, f, w, h)
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
