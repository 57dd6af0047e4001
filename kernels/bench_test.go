package kernels

import (
	"testing"

	"trackink/composite"
	"trackink/knn"
	"trackink/render"
	"trackink/scene"
)

// seedFrame builds frame 1 of the seed benchmark scene at w × h in the default style.
func seedFrame(b *testing.B, f *render.Font, w, h int) *render.Primitives {
	sf := &scene.Seed(w, h, 1).Frames[0]
	g, err := knn.New(knn.Options{K: knn.DefaultK})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	edges, err := g.Update(sf.Points)
	if err != nil {
		b.Fatal(err)
	}
	st := render.DefaultStyle(h)
	p := &render.Primitives{}
	p.Build(sf, edges, &st, f, w, h)
	return p
}

func benchBackend(b *testing.B, be render.Backend) {
	const w, h = 3840, 2160
	p := seedFrame(b, be.Font(), w, h)
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
	r, err := render.New(render.Options{LabelSize: render.DefaultLabelSize(2160)})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	benchBackend(b, r)
}

func BenchmarkSeed4KEmu(b *testing.B) {
	g := newTestGPU(b, render.DefaultLabelSize(2160), false)
	benchBackend(b, g)
}
