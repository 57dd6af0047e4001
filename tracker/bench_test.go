package tracker

import (
	"math/rand/v2"
	"testing"

	"trackink/composite"
	"trackink/internal/cputime"
	"trackink/internal/synthclip"
)

// BenchmarkStep times one frame in each mode, 1080p and, for points and motion, 4K (both
// analysed at 540 lines), frames of a synthetic clip of the mode's kind, after 20 frames of
// warm-up.
func BenchmarkStep(b *testing.B) {
	for _, size := range []struct {
		suffix string
		w, h   int
	}{{"", 1920, 1080}, {"-4k", 3840, 2160}} {
		for _, mode := range Modes {
			if size.suffix != "" && mode != Points && mode != Motion {
				continue
			}
			var frames []*composite.YUV420P // drawn once, not for each b.N tried
			b.Run(mode+size.suffix, func(b *testing.B) {
				if frames == nil {
					frames = clipFrames(b, synthclip.Options{Kind: clipKind[mode], Width: size.w, Height: size.h, Frames: 40}, 40)
				}
				benchSteps(b, DefaultOptions(mode), frames)
			})
		}
	}
}

// BenchmarkDownscale times the box filter of a frame's luma down to 540 lines: 1080p by 2,
// 4K by 4, and 4K by the definition's loop (downscaleRef, what every factor but 1 and 2
// used to run).
func BenchmarkDownscale(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		name string
		w, h int
		f    int
		fn   func(*plane, source, int)
	}{{"1080p-f2", 1920, 1080, 2, downscale}, {"4k-f4", 3840, 2160, 4, downscale}, {"4k-f4-ref", 3840, 2160, 4, downscaleRef}} {
		b.Run(c.name, func(b *testing.B) {
			src := randomSource(rng, c.w, c.h, 1, 0, false)
			var dst plane
			for b.Loop() {
				c.fn(&dst, src, c.f)
			}
		})
	}
}

// The bench's frames are what `trackink bench --detect` says it times: 16 distinct 1080p
// frames of a clip of the mode's kind (they differ from one another), and Bench steps a
// tracker over them.
func TestBenchSets(t *testing.T) {
	for _, mode := range []string{Bright, Motion, Points} {
		sets, err := BenchSets(mode, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(sets) != 1 || len(sets[0].Frames) != benchFrames {
			t.Fatalf("%s: %d sets, want one of %d frames", mode, len(sets), benchFrames)
		}
		fs := sets[0].Frames
		if w, h := fs[0].Size(); w != 1920 || h != 1080 || string(fs[0].Y) == string(fs[1].Y) {
			t.Errorf("%s: frames %dx%d, the first two alike: %v", mode, w, h, string(fs[0].Y) == string(fs[1].Y))
		}
		if r, err := Bench(DefaultOptions(mode), fs, 4); err != nil || !(r.FPS > 0) {
			t.Errorf("%s: %+v, %v", mode, r, err)
		}
	}
}

// BenchmarkPointSeeds times one frame of points with each seed map side by side, 1080p and
// 4K (both analysed at 540 lines), on a clip of coloured objects moving over a textured
// background (so that every map has something to seed on), after 20 frames of warm-up.
func BenchmarkPointSeeds(b *testing.B) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"1080p", 1920, 1080}, {"4k", 3840, 2160}} {
		frames := clipFrames(b, synthclip.Options{Kind: synthclip.Bright, Width: size.w, Height: size.h, Frames: 40}, 40)
		for _, seed := range PointSeeds {
			b.Run(seed+"-"+size.name, func(b *testing.B) {
				o := DefaultOptions(Points)
				o.PointSeed = seed
				benchSteps(b, o, frames)
			})
		}
	}
}

// benchSteps times a tracker with options o stepping frames[20:] in turn (cycled), after
// frames[:20] untimed.
func benchSteps(b *testing.B, o Options, frames []*composite.YUV420P) {
	w, h := frames[0].Size()
	tr, err := New(o, w, h)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range frames[:20] {
		tr.Step(f)
	}
	b.ResetTimer()
	c0 := cputime.Self()
	for i := 0; i < b.N; i++ {
		tr.Step(frames[20+i%20])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	// CPU time, which the machine's other jobs disturb far less than the wall clock.
	b.ReportMetric(float64((cputime.Self()-c0).Microseconds())/1e3/float64(b.N), "cpu-ms/frame")
}
