//go:build gc && !purego

package detect

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"trackink/composite"
)

// withoutAVX2 runs f with the Go twins.
func withoutAVX2(f func()) {
	defer func(v bool) { haveAVX2 = v }(haveAVX2)
	haveAVX2 = false
	f()
}

// sameBits reports the first sample where a and b differ in their bits.
func sameBits(a, b []float32) (int, bool) {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i, false
		}
	}
	return 0, true
}

// The AVX2 passes give the Go passes' bits: filters of 1 to 8 taps and more, reducing
// and enlarging, rows whose length is and is not a multiple of 8.
func TestFilterPassesAVX2MatchGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ n, m int }{
		{960, 416}, {768, 416}, {576, 312}, {540, 234}, {1280, 416}, {1920, 416}, // up to 8 taps, and 10
		{64, 416}, {13, 37}, {9, 9}, {100, 3},
	} {
		t.Run(fmt.Sprintf("%d-%d", tc.n, tc.m), func(t *testing.T) {
			f := newFilter(tc.n, tc.m, float64(tc.m)/float64(tc.n))
			// Vertical: a tc.n-row column of planes as wide as the test's row.
			for _, width := range []int{8, 13, 416, 963} {
				src := make([]byte, tc.n*width)
				for i := range src {
					src[i] = byte(rng.IntN(256))
				}
				fast, slow := make([]float32, width), make([]float32, width)
				for i := range tc.m {
					f.vertical(fast, src, width, i)
					withoutAVX2(func() { f.vertical(slow, src, width, i) })
					if x, ok := sameBits(fast, slow); !ok {
						t.Fatalf("vertical, width %d, output row %d, sample %d: AVX2 %g, Go %g", width, i, x, fast[x], slow[x])
					}
				}
			}
			// Horizontal: one row of tc.n samples and the 8 after it.
			row := make([]float32, tc.n+8)
			for i := range tc.n {
				row[i] = 255 * rng.Float32()
			}
			fast, slow := make([]float32, tc.m), make([]float32, tc.m)
			f.horizontal(fast, row)
			withoutAVX2(func() { f.horizontal(slow, row) })
			if x, ok := sameBits(fast, slow); !ok {
				t.Fatalf("horizontal (8 taps: %v), output %d: AVX2 %g, Go %g", f.w8 != nil, x, fast[x], slow[x])
			}
		})
	}
}

// The AVX2 colour conversion gives the Go conversion's bits, clamping included, for each
// matrix and range.
func TestToRGBAVX2MatchesGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 203
	var y, cb, cr [n]float32
	for i := range n {
		y[i], cb[i], cr[i] = 255*rng.Float32(), 255*rng.Float32(), 255*rng.Float32()
	}
	y[0], cb[0], cr[0] = 16, 128, 128 // Y' at black: R'G'B' exactly 0
	for _, m := range []composite.Matrix{composite.BT601, composite.BT709, composite.BT2020} {
		for _, rg := range []composite.Range{composite.Limited, composite.Full} {
			k := toRGB(m, rg)
			var fast, slow [3][n]float32
			k.rows(fast[0][:], fast[1][:], fast[2][:], y[:], cb[:], cr[:])
			withoutAVX2(func() { k.rows(slow[0][:], slow[1][:], slow[2][:], y[:], cb[:], cr[:]) })
			for c := range 3 {
				if x, ok := sameBits(fast[c][:], slow[c][:]); !ok {
					t.Fatalf("matrix %v range %v channel %d sample %d: AVX2 %g, Go %g", m, rg, c, x, fast[c][x], slow[c][x])
				}
			}
		}
	}
}
