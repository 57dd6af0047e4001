package sdf

import (
	"math"
	"testing"
)

// TestGlowCover: the glow is its opacity at the stroke's edge, a quarter of it halfway out,
// none from its radius on, and no glow leaves every coverage's bits as they were.
func TestGlowCover(t *testing.T) {
	g := NewGlow(8, 0.6)
	for _, tc := range []struct {
		cov, s, want float32
	}{
		{1, -2, 1},         // inside the stroke
		{0, 0, 0.6},        // at its edge
		{0.5, 0, 0.8},      // on its anti-aliased edge: cov + (1 − cov)·0.6
		{0, 4, 0.6 * 0.25}, // halfway out
		{0, 6, 0.6 / 16},   // three quarters out
		{0, 8, 0},          // at the radius
		{0, 100, 0},        // beyond it
		{0.25, 8, 0.25},    // coverage alone
		{0, float32(math.MaxFloat32), 0},
	} {
		if got := g.Cover(tc.cov, tc.s); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("Cover(%g, %g) = %g, want %g", tc.cov, tc.s, got, tc.want)
		}
	}
	var none Glow
	for _, cov := range []float32{0, 1e-30, 0.3, 1} {
		for _, s := range []float32{-3, 0, 2.5, 1e30} {
			if got := none.Cover(cov, s); math.Float32bits(got) != math.Float32bits(cov) {
				t.Errorf("no glow: Cover(%g, %g) = %g", cov, s, got)
			}
		}
	}
	for _, tc := range [][2]float32{{0, 0.5}, {4, 0}, {-1, 0.5}, {float32(math.NaN()), 1}, {3, float32(math.NaN())}} {
		if g := NewGlow(tc[0], tc[1]); g != (Glow{}) {
			t.Errorf("NewGlow(%g, %g) = %+v, want none", tc[0], tc[1], g)
		}
	}
}
