package composite

import (
	"math/rand"
	"testing"
)

// TestFade: Tile.Fade scales every touched pixel's four planes by the opacity, the same
// bits with AVX2 as without, and leaves the untouched pixels zero, spans of every width
// and offset within a row included.
func TestFade(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var ref Tile
	ref.Reset(0, 0, TileSize, TileSize)
	for y := range TileSize {
		x0 := rng.Intn(TileSize)
		x1 := x0 + rng.Intn(TileSize-x0+1)
		if y%9 == 0 {
			x0, x1 = 0, TileSize
		}
		ref.Touch(y, x0, x1)
		for x := x0; x < x1; x++ {
			a := rng.Float32()
			ref.SetPixel(x, y, [Channels]float32{a * 235, a * 128, a * 100 * rng.Float32(), a})
		}
	}
	const a = 0.37
	for _, avx := range []bool{false, true} {
		if avx && !haveAVX2 {
			continue
		}
		tile := ref
		withAVX2(avx, func() { tile.Fade(a) })
		for y := range TileSize {
			for x := range TileSize {
				got, was := tile.Pixel(x, y), ref.Pixel(x, y)
				for c := range got {
					if want := was[c] * a; got[c] != want {
						t.Fatalf("AVX2 %v: pixel (%d, %d) channel %d: %g, want %g", avx, x, y, c, got[c], want)
					}
				}
			}
		}
	}
}
