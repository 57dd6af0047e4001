package render

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"trackink/composite"
)

// randomColor returns a premultiplied layer colour: translucent, opaque, transparent, or one
// whose 1 − A rounds (A near 1, denormal channels).
func randomColor(rng *rand.Rand) layerColor {
	a := float32(rng.Float64())
	switch rng.IntN(6) {
	case 0:
		a = 1
	case 1:
		a = 0
	case 2:
		a = math.Nextafter32(1, 0)
	case 3:
		return layerColor{1e-40, 2e-39, 0.5, 3e-39}
	}
	return layerColor{a * float32(rng.Float64()) * 255, a * float32(rng.Float64()) * 255, a * float32(rng.Float64()) * 255, a}
}

// randomPlanes fills every plane of t with random values.
func randomPlanes(rng *rand.Rand, t *composite.Tile) {
	for p := range t.Planes {
		for i := range t.Planes[p] {
			t.Planes[p][i] = float32(rng.Float64()) * 255
		}
	}
}

// sameBits reports the first float of the tiles' planes whose bits differ.
func sameBits(t *testing.T, what string, got, want *composite.Tile) {
	t.Helper()
	for p := range got.Planes {
		for i := range got.Planes[p] {
			if g, w := got.Planes[p][i], want.Planes[p][i]; math.Float32bits(g) != math.Float32bits(w) {
				t.Fatalf("%s: plane %d pixel %d is %g, Go twin %g", what, p, i, g, w)
			}
		}
	}
}

// TestOverSpanMatchesGo checks overSpan with AVX2 against overSpanGo bit for bit on spans of
// every length 0..64 at every start within a tile row, and that it leaves the rest alone.
func TestOverSpanMatchesGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 on this machine: only the Go twin runs")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	want, got := &composite.Tile{}, &composite.Tile{}
	for x0 := 0; x0 <= ts; x0++ {
		for x1 := x0; x1 <= ts; x1++ {
			randomPlanes(rng, want)
			*got = *want
			c := randomColor(rng)
			i := 5*ts + x0
			overSpanGo(want, i, x1-x0, &c)
			overSpan(got, i, x1-x0, &c)
			sameBits(t, fmt.Sprintf("span [%d, %d) colour %v", x0, x1, c), got, want)
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
				t := &composite.Tile{}
				c := layerColor{20, 10, 5, 0.2}
				for b.Loop() {
					overSpan(t, 0, n, &c)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/px")
			})
		}
	}
}
