package render

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTileRangeMatchesTheDefinition compares tileRange with ⌊v / ts⌋ clamped to the frame's
// tiles, computed with math.Floor, on random and edge bounds.
func TestTileRangeMatchesTheDefinition(t *testing.T) {
	var b bins
	b.resize(3840, 2160)
	clampT := func(v float32, n int) int {
		return int(math.Max(0, math.Min(float64(n), math.Floor(float64(v)/ts))))
	}
	rng := rand.New(rand.NewPCG(41, 42))
	edges := []float32{0, -0.001, 63.999, 64, -64, -64.5, 3840, 3839.9, 2160, 1e30, -1e30, float32(math.Inf(1))}
	v := func() float32 {
		if rng.IntN(4) == 0 {
			return edges[rng.IntN(len(edges))]
		}
		return float32(rng.Float64()*5000 - 500)
	}
	for range 100000 {
		x0, y0, x1, y1 := v(), v(), v(), v()
		tx0, ty0, tx1, ty1 := b.tileRange(x0, y0, x1, y1)
		want := [4]int{clampT(x0, b.tilesX), clampT(y0, b.tilesY), clampT(x1, b.tilesX-1) + 1, clampT(y1, b.tilesY-1) + 1}
		if !(x1 >= 0 && y1 >= 0) {
			want = [4]int{}
		}
		if got := [4]int{tx0, ty0, tx1, ty1}; got != want {
			t.Fatalf("tileRange(%g, %g, %g, %g) = %v, want %v", x0, y0, x1, y1, got, want)
		}
	}
}

// TestSegmentsInOneTile: binSegment's shortcut for a segment within one tile lists the tiles
// the band-by-band rule lists.
func TestSegmentsInOneTile(t *testing.T) {
	var fast, bands bins
	fast.resize(700, 300)
	bands.resize(700, 300)
	fast.chordBins.beginCount()
	bands.chordBins.beginCount()
	rng := rand.New(rand.NewPCG(43, 44))
	for i := range 100000 {
		x0, y0 := float32(rng.Float64()*800-50), float32(rng.Float64()*400-50)
		x1, y1 := x0+float32(rng.Float64()*20-10), y0+float32(rng.Float64()*20-10)
		r := float32(0.5 + rng.Float64()*4)
		fast.binSegment(&fast.chordBins, int32(i), x0, y0, x1, y1, r)
		_, ty0, _, ty1 := bands.tileRange(min(x0, x1)-r, min(y0, y1)-r, max(x0, x1)+r, max(y0, y1)+r)
		bands.binSegmentBands(&bands.chordBins, int32(i), x0, y0, x1, y1, r, ty0, ty1)
		if !slices.Equal(fast.chordBins.start, bands.chordBins.start) {
			t.Fatalf("segment (%g, %g)-(%g, %g) reach %g: listed in other tiles", x0, y0, x1, y1, r)
		}
	}
}
