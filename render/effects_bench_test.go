package render

import (
	"cmp"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"trackink/composite"
	"trackink/internal/cputime"
	"trackink/internal/mediatest"
	"trackink/overlay"
)

// BenchmarkEffects4K runs the effects stage alone on a 3840×2160 YUV420P frame with two
// workers: overlay.EffectBenchBoxes' 20 boxes over 10 % of the frame, each effect at its
// default strength (the budget: 2 ms a frame on two cores).
func BenchmarkEffects4K(b *testing.B) {
	const w, h = 3840, 2160
	for _, name := range overlay.EffectNames() {
		kind, _ := overlay.ParseEffect(name)
		b.Run(name, func(b *testing.B) {
			fr := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
				StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
			for i := range fr.Y {
				fr.Y[i] = byte(i * 7)
			}
			r := newRenderer(b, 2)
			p := overlay.Primitives{Effects: overlay.EffectBenchBoxes(w, h, kind, 0)}
			b.ReportAllocs()
			for b.Loop() {
				draw(b, r, fr, &p)
			}
		})
	}
}

// TestEffectsAllocateNothing draws every effect on frames of two formats and checks that,
// once the scratch has grown, a frame allocates nothing. With one worker: each worker's
// scratch grows until it has taken the largest box, and which worker takes which box is
// the scheduler's choice, so with two a worker that a loaded machine left idle through the
// first frame grows its scratch in a counted one (seen under emulation on a busy machine).
func TestEffectsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under the race detector are its runtime's")
	}
	const w, h = 640, 360
	r := newRenderer(t, 1)
	frames := []composite.HostSurface{testFrame("nv12", w, h, 1), testFrame("p010", w, h, 2)}
	for _, name := range overlay.EffectNames() {
		kind, _ := overlay.ParseEffect(name)
		p := overlay.Primitives{Effects: overlay.EffectBenchBoxes(w, h, kind, 0)}
		for _, fr := range frames {
			draw(t, r, fr, &p)
			if allocs := testing.AllocsPerRun(5, func() { draw(t, r, fr, &p) }); allocs != 0 {
				t.Errorf("%s on %T: %v allocations per frame, want 0", name, fr, allocs)
			}
		}
	}
}

// BenchmarkSort4K runs pixel sort alone as BenchmarkEffects4K does, on frames whose keys
// make its work light and heavy: the ramp (each box row a few runs of about 120 keys, in
// order), bench --effects' ramp with grain (±6 codes: the same runs out of order), uniform
// noise (runs of random keys, few longer than 8) and, where it is installed, real footage
// (footage4K), each along rows and along columns, and along rows keyed by saturation and by
// hue (--sort-key), and along rows with runs under 8 px left (--sort-min-run 8), with blur
// on the same frame beside it for the ratio. Each frame
// starts as decoded (copied back untimed), so that no frame sorts runs already sorted.
func BenchmarkSort4K(b *testing.B) {
	const w, h = 3840, 2160
	ramp, grain, noise := overlay.EffectBenchFrame(w, h), overlay.EffectBenchGrainFrame(w, h), overlay.EffectBenchFrame(w, h)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range noise.Y {
		noise.Y[i] = byte(rng.Uint32())
	}
	frames := []struct {
		name string
		f    *composite.YUV420P
	}{{"ramp", ramp}, {"grain", grain}, {"noise", noise}}
	if f := footage4K(b, w, h); f != nil {
		frames = append(frames, struct {
			name string
			f    *composite.YUV420P
		}{"footage", f})
	}
	for _, fr := range frames {
		for _, c := range []struct {
			name    string
			kind    overlay.Effect
			columns int32
			key     int32
			minRun  int32
		}{{"blur", overlay.EffectBlur, 0, 0, 0}, {"rows", overlay.EffectSort, 0, 0, 0}, {"columns", overlay.EffectSort, 1, 0, 0},
			{"saturation", overlay.EffectSort, 0, overlay.SortSaturation, 0}, {"hue", overlay.EffectSort, 0, overlay.SortHue, 0},
			{"min-run8", overlay.EffectSort, 0, 0, 8}} {
			b.Run(fr.name+"/"+c.name, func(b *testing.B) {
				r := newRenderer(b, 2)
				p := overlay.Primitives{Effects: overlay.EffectBenchBoxes(w, h, c.kind, 0)}
				for i := range p.Effects {
					p.Effects[i].SortColumns, p.Effects[i].SortKey, p.Effects[i].SortMinRun = c.columns, c.key, c.minRun
				}
				f := *fr.f // a frame of its own: the effects change it
				f.Y, f.U, f.V = slices.Clone(f.Y), slices.Clone(f.U), slices.Clone(f.V)
				var cpu time.Duration
				for b.Loop() {
					b.StopTimer()
					copy(f.Y, fr.f.Y)
					copy(f.U, fr.f.U)
					copy(f.V, fr.f.V)
					b.StartTimer()
					cpu += cpuDraw(b, r, &f, &p)
				}
				reportCPU(b, cpu)
			})
		}
	}
}

// cpuDraw draws p onto f as draw does and returns the CPU time it took, all threads.
func cpuDraw(b *testing.B, r *Renderer, f composite.Surface, p *overlay.Primitives) time.Duration {
	c0 := cputime.Self()
	draw(b, r, f, p)
	return cputime.Self() - c0
}

// reportCPU reports cpu, the CPU time of b's frames, as cpu-ms/frame: a figure the
// machine's other jobs disturb less than the wall time.
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/frame")
}

// footageVideo is the footage of the goldens (goldens.Footage), $TRACKINK_FOOTAGE or
// OpenCV's vtest.avi, 768×576.
var footageVideo = cmp.Or(os.Getenv("TRACKINK_FOOTAGE"), "/usr/share/doc/opencv-doc/examples/data/vtest.avi")

// footage4K is frame 100 of footageVideo tiled over a w × h YUV420P frame (w and h even),
// or nil when the video is not installed.
func footage4K(b *testing.B, w, h int) *composite.YUV420P {
	const fw, fh = 768, 576
	if _, err := os.Stat(footageVideo); err != nil {
		b.Logf("no footage: %v", err)
		return nil
	}
	raw := mediatest.Picture(b, footageVideo, 100, fw, fh)
	f := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h, Matrix: composite.BT601, Range: composite.Limited}
	tile := func(dst, src []byte, dw, dh, sw, sh int) {
		for y := range dh {
			for x := range dw {
				dst[y*dw+x] = src[(y%sh)*sw+x%sw]
			}
		}
	}
	tile(f.Y, raw[:fw*fh], w, h, fw, fh)
	tile(f.U, raw[fw*fh:fw*fh*5/4], w/2, h/2, fw/2, fh/2)
	tile(f.V, raw[fw*fh*5/4:], w/2, h/2, fw/2, fh/2)
	return f
}
