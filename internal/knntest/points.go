// Package knntest makes point sets that stress an exact nearest-neighbour search (ties,
// duplicates, degenerate extents, clusters), for the tests of package knn and of the GPU
// backend's link update (kernels/gpu), which must both give knn's answers. It is test
// tooling, imported by tests only.
package knntest

import (
	"math"
	"math/rand/v2"

	"trackink/scene"
)

// Shapes are the point-set shapes Points makes.
var Shapes = []string{"uniform", "clustered", "horizontal", "vertical", "diagonal", "duplicates", "lattice", "far"}

// Points makes n points of the given shape with distinct, shuffled track ids (some
// negative) in shuffled order.
func Points(rng *rand.Rand, shape string, n int) []scene.Point {
	pts := make([]scene.Point, n)
	centres := [][2]float64{}
	for range 1 + n/50 {
		centres = append(centres, [2]float64{rng.Float64() * 1920, rng.Float64() * 1080})
	}
	for i := range pts {
		var x, y float64
		switch shape {
		case "uniform":
			x, y = rng.Float64()*1920, rng.Float64()*1080
		case "clustered":
			c := centres[rng.IntN(len(centres))]
			x, y = c[0]+rng.NormFloat64()*3, c[1]+rng.NormFloat64()*3
		case "horizontal":
			x, y = rng.Float64()*1920, 500
		case "vertical":
			x, y = 700, float64(rng.IntN(200)) // integer steps: ties
		case "diagonal":
			t := float64(rng.IntN(300))
			x, y = 3*t+10, 2*t+20
		case "duplicates":
			x, y = float64(rng.IntN(6)), float64(rng.IntN(6))
		case "lattice":
			side := int(math.Ceil(math.Sqrt(float64(n))))
			x, y = float64(i%side)*8, float64(i/side)*8
		case "far":
			// Far from the origin and tightly packed: FAISS's float32 error is largest here.
			x, y = 1e6+rng.Float64()*40, -3e5+rng.Float64()*40
		default:
			panic(shape)
		}
		pts[i] = scene.Point{X: float32(x), Y: float32(y)}
	}
	ids := rng.Perm(3 * n)
	for i := range pts {
		pts[i].ID = ids[i] - n
	}
	return pts
}
