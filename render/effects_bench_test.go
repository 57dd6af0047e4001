package render

import (
	"testing"

	"trackink/composite"
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
// once the scratch has grown, a frame allocates nothing.
func TestEffectsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under the race detector are its runtime's")
	}
	const w, h = 640, 360
	r := newRenderer(t, 2)
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
