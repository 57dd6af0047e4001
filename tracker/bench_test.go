package tracker

import (
	"testing"

	"trackink/internal/synthclip"
)

// BenchmarkStep times one 1080p frame in each mode (analysed at 540 lines), frames of a
// synthetic clip of the mode's kind, after 20 frames of warm-up.
func BenchmarkStep(b *testing.B) {
	for _, mode := range Modes {
		b.Run(mode, func(b *testing.B) {
			frames := clipFrames(b, synthclip.Options{Kind: clipKind[mode], Width: 1920, Height: 1080, Frames: 40}, 40)
			tr, err := New(DefaultOptions(mode), 1920, 1080)
			if err != nil {
				b.Fatal(err)
			}
			for _, f := range frames[:20] {
				tr.Step(f)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tr.Step(frames[20+i%20])
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}
