package render

import (
	"testing"

	"trackink/composite"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
	"trackink/sdf"
)

// BenchmarkSeed4K draws successive frames of the seed scene at 3840×2160 onto a YUV420P
// frame with two workers (the primitives built beforehand): the renderer alone, for CPU
// profiles (go test -bench Seed4K -cpuprofile), whose per-function CPU time does not
// depend on how busy a shared machine is the way wall time does. all-add, all-screen,
// all-multiply, all-lighten and all-darken draw everything with those blends (the frame is
// black, so lighten keeps every pixel and darken none: both pass over the layer alike), all-glow with a 12 px glow (the looks' at 4K), all-echo
// with 4 echo trails (against all, the echo stage's cost); all-unfilled and
// all-echo-unfilled the same with the boxes' fills off (outlines, links and curves: a fifth
// of the frame kept, against half); lines-gradient draws the lines as gradients. The other
// sub-benchmarks draw one kind of primitive each, composite included, for instruction
// counts per stage (valgrind --tool=callgrind on the test binary) that do not depend on it
// at all; boxes-glow, lines-glow and curves-glow with the 12 px glow.
func BenchmarkSeed4K(b *testing.B) {
	const w, h, frames = 3840, 2160, 40
	tr := scene.Seed(w, h, frames)
	build := newBuilder(b, "seed", w, h)
	g, err := knn.New(knn.Options{K: knn.DefaultK, Hysteresis: knn.DefaultHysteresis})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	prims := make([]overlay.Primitives, frames)
	for i := range prims {
		edges, err := g.Update(tr[i].Points)
		if err != nil {
			b.Fatal(err)
		}
		build.Build(&prims[i], &tr[i], edges)
	}
	// The same lines as gradients, from their colour to that colour's complement.
	gradients := make([][]overlay.Line, frames)
	for i := range prims {
		for _, l := range prims[i].Lines {
			l.Gradient, l.Color1 = true, overlay.RGBA{R: l.Color.A - l.Color.R, G: l.Color.A - l.Color.G, B: l.Color.A - l.Color.B, A: l.Color.A}
			gradients[i] = append(gradients[i], l)
		}
	}
	for _, kind := range []struct {
		name string
		keep func(i int) overlay.Primitives
	}{
		{"all", func(i int) overlay.Primitives { return prims[i] }},
		{"all-add", func(i int) overlay.Primitives { q := prims[i]; q.Blend = composite.BlendAdd; return q }},
		{"all-screen", func(i int) overlay.Primitives { q := prims[i]; q.Blend = composite.BlendScreen; return q }},
		{"all-multiply", func(i int) overlay.Primitives { q := prims[i]; q.Blend = composite.BlendMultiply; return q }},
		{"all-lighten", func(i int) overlay.Primitives { q := prims[i]; q.Blend = composite.BlendLighten; return q }},
		{"all-darken", func(i int) overlay.Primitives { q := prims[i]; q.Blend = composite.BlendDarken; return q }},
		{"all-opacity", func(i int) overlay.Primitives { q := prims[i]; q.Transparency = 0.4; return q }},
		{"all-multiply-opacity", func(i int) overlay.Primitives {
			q := prims[i]
			q.Blend, q.Transparency = composite.BlendMultiply, 0.4
			return q
		}},
		{"all-glow", func(i int) overlay.Primitives { q := prims[i]; q.Glow = sdf.NewGlow(12, 0.5); return q }},
		{"all-echo", func(i int) overlay.Primitives {
			q := prims[i]
			q.Echo = overlay.EchoPass{Frames: 4, Decay: 0.6, Scale: 1}
			return q
		}},
		{"all-unfilled", func(i int) overlay.Primitives { return unfilled(prims[i]) }},
		{"all-echo-unfilled", func(i int) overlay.Primitives {
			q := unfilled(prims[i])
			q.Echo = overlay.EchoPass{Frames: 4, Decay: 0.6, Scale: 1}
			return q
		}},
		{"boxes-glow", func(i int) overlay.Primitives {
			return overlay.Primitives{Boxes: prims[i].Boxes, Glow: sdf.NewGlow(12, 0.5)}
		}},
		{"lines-glow", func(i int) overlay.Primitives {
			return overlay.Primitives{Lines: prims[i].Lines, Glow: sdf.NewGlow(12, 0.5)}
		}},
		{"curves-glow", func(i int) overlay.Primitives {
			return overlay.Primitives{Curves: prims[i].Curves, Glow: sdf.NewGlow(12, 0.5)}
		}},
		{"boxes", func(i int) overlay.Primitives { return overlay.Primitives{Boxes: prims[i].Boxes} }},
		{"lines", func(i int) overlay.Primitives { return overlay.Primitives{Lines: prims[i].Lines} }},
		{"lines-gradient", func(i int) overlay.Primitives { return overlay.Primitives{Lines: gradients[i]} }},
		{"curves", func(i int) overlay.Primitives { return overlay.Primitives{Curves: prims[i].Curves} }},
		{"labels", func(i int) overlay.Primitives {
			return overlay.Primitives{Labels: prims[i].Labels, Font: prims[i].Font}
		}},
	} {
		b.Run(kind.name, func(b *testing.B) {
			fr := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
				StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
			r := newRenderer(b, 2)
			var p overlay.Primitives
			n := 0
			for b.Loop() {
				p = kind.keep(n % frames)
				draw(b, r, fr, &p)
				n++
			}
		})
	}
}

// unfilled is p with its boxes' fills off (a copy of the boxes; p's stay as they were).
func unfilled(p overlay.Primitives) overlay.Primitives {
	p.Boxes = append([]overlay.Box(nil), p.Boxes...)
	for j := range p.Boxes {
		p.Boxes[j].Fill = overlay.RGBA{}
	}
	return p
}
