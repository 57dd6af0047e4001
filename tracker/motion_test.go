package tracker

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMedian9: the exchange network gives the median of nine samples, on random samples
// and on runs of equal ones.
func TestMedian9(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 20011 // not a multiple of 32: the assembly and the Go loop both
	b := background{w: n, h: 1, filled: motionSamples, bg: make([]byte, n)}
	for k := range b.ring {
		b.ring[k] = make([]byte, n)
		for i := range b.ring[k] {
			b.ring[k][i] = byte(rng.IntN(256) >> (2 * (i % 4)))
		}
	}
	b.median()
	for i := range n {
		var v [motionSamples]byte
		for k := range v {
			v[k] = b.ring[k][i]
		}
		slices.Sort(v[:])
		if b.bg[i] != v[4] {
			t.Fatalf("pixel %d: median %d of %v, want %d", i, b.bg[i], v, v[4])
		}
	}
}

// TestBoxMeanReciprocal: boxMean's multiplication by a reciprocal is the division it
// replaces, for every sum of every neighbourhood size up to r = 7.
func TestBoxMeanReciprocal(t *testing.T) {
	for n := uint32(1); n <= 15*15; n++ {
		m := 1<<24/n + 1
		for v := uint32(0); v <= 255*n; v++ {
			if v*m>>24 != v/n {
				t.Fatalf("%d/%d: %d, want %d", v, n, v*m>>24, v/n)
			}
		}
	}
}
