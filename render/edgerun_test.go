package render

import (
	"math/rand/v2"
	"testing"

	"trackink/composite"
)

// scanEdgeRun is edgeRun as a scan from both ends of the row: the reference.
func scanEdgeRun(s *boxShader, x0, x1 int, limit float32) (a, b int) {
	a, b = x0, x1
	for a < b && s.qx(a) > limit {
		a++
	}
	for b > a && s.qx(b-1) > limit {
		b--
	}
	return a, b
}

// TestEdgeRunMatchesScan holds edgeRun (an estimate checked by its neighbours, else
// bisection), and confirmRun from any guess, to the scan it replaced, on boxes whose centres, half widths and radii fall on
// and between pixel centres (where rounding decides), runs clipped by the tile either side,
// empty runs and limits from deep inside to past the box.
func TestEdgeRunMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	tile := &composite.Tile{}
	snap := func(v float32) float32 { // on a half pixel one time in two
		if rng.IntN(2) == 0 {
			return float32(int(v*2)) / 2
		}
		return v
	}
	for i := range 200000 {
		tile.Reset(64*rng.IntN(60), 0, 64, 64)
		hx := snap(float32(rng.Float64() * 80))
		s := boxShader{t: tile, boxProfile: boxProfile{cx: float32(tile.X0) + snap(float32(rng.Float64()*160-48)), hx: hx,
			r: snap(float32(rng.Float64()) * hx)}}
		if rng.IntN(4) == 0 {
			s.r = 0
		}
		limit := -snap(float32(rng.Float64() * 40))
		if rng.IntN(3) == 0 {
			limit = 0
		}
		x0 := rng.IntN(65)
		x1 := x0 + rng.IntN(65-x0)
		wa, wb := scanEdgeRun(&s, x0, x1, limit)
		ga, gb := s.edgeRun(x0, x1, limit)
		// A guess anywhere in the row, right or wrong: confirmRun must see which.
		ha := x0 + rng.IntN(x1-x0+1)
		ha, hb := s.confirmRun(x0, x1, limit, ha, ha+rng.IntN(x1-ha+1))
		if ga != wa || gb != wb || ha != wa || hb != wb {
			t.Fatalf("case %d: box cx %g hx %g r %g, columns [%d, %d) of tile x %d, limit %g: run [%d, %d), from a guess [%d, %d), the scan's [%d, %d)",
				i, s.cx, s.hx, s.r, x0, x1, tile.X0, limit, ga, gb, ha, hb, wa, wb)
		}
	}
}
