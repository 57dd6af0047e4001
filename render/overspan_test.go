package render

import (
	"trackink/overlay"

	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomColor returns a premultiplied colour: translucent, opaque, transparent, or one whose
// 1 − A rounds (A near 1, denormal channels).
func randomColor(rng *rand.Rand) overlay.RGBA {
	a := float32(rng.Float64())
	switch rng.IntN(6) {
	case 0:
		a = 1
	case 1:
		a = 0
	case 2:
		a = math.Nextafter32(1, 0)
	case 3:
		return overlay.RGBA{R: 1e-40, G: 2e-39, B: 0.5, A: 3e-39}
	}
	return overlay.RGBA{R: a * float32(rng.Float64()), G: a * float32(rng.Float64()), B: a * float32(rng.Float64()), A: a}
}

// TestOverSpanMatchesGo checks overSpanAVX2 against overSpanGo bit for bit on spans of every
// length 0..64 at every start within a tile row, and that it leaves the rest of the row alone.
func TestOverSpanMatchesGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 on this machine: only the Go twin runs")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	row := make([]float32, 4*ts)
	for x0 := 0; x0 <= ts; x0++ {
		for x1 := x0; x1 <= ts; x1++ {
			for i := range row {
				row[i] = float32(rng.Float64())
			}
			c := randomColor(rng)
			want, got := slices.Clone(row), slices.Clone(row)
			overSpanGo(want[4*x0:4*x1], c)
			overSpan(got[4*x0:4*x1], c)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("span [%d, %d) colour %v: float %d is %g, Go twin %g", x0, x1, c, i, got[i], want[i])
				}
			}
		}
	}
}

func BenchmarkOverSpan(b *testing.B) {
	for _, n := range []int{3, 8, 24, 64} {
		for _, simd := range []bool{false, true} {
			b.Run(fmt.Sprintf("px=%d/avx2=%v", n, simd), func(b *testing.B) {
				if simd && !haveAVX2 {
					b.Skip("no AVX2")
				}
				saved := haveAVX2
				haveAVX2 = simd
				defer func() { haveAVX2 = saved }()
				row := make([]float32, 4*ts)
				c := overlay.RGBA{R: 0.1, G: 0.05, B: 0.02, A: 0.2}
				for b.Loop() {
					overSpan(row[:4*n], c)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/px")
			})
		}
	}
}
