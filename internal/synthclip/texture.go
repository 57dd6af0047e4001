package synthclip

import (
	"math"
	"math/rand/v2"
)

// The texture's lattice: texSize × texSize random values, repeated, in two octaves whose
// cells are cell0 and cell1 pixels wide. A 7-pixel cell gives corners a 21-pixel window
// sees several of; the finer octave keeps the picture from looking smooth.
const (
	texSize      = 128
	cell0, cell1 = 7.0, 3.0
	amp1         = 0.5
)

// texture is value noise: a function of the plane, continuous with continuous gradients,
// about −1 to 1 with a standard deviation near 0.45.
type texture struct {
	lattice [2][]float32
	grain   float64 // scales the cells
}

func newTexture(r *rand.Rand, grain float64) texture {
	t := texture{grain: grain}
	for o := range t.lattice {
		t.lattice[o] = make([]float32, texSize*texSize)
		for i := range t.lattice[o] {
			t.lattice[o][i] = float32(2*r.Float64() - 1)
		}
	}
	return t
}

// at returns the texture's value at (x, y) in pixels.
func (t *texture) at(x, y float64) float64 {
	c0, c1 := cell0*t.grain, cell1*t.grain
	return (bicubic(t.lattice[0], x/c0, y/c0) + amp1*bicubic(t.lattice[1], x/c1, y/c1)) / (1 + amp1)
}

// bicubic interpolates the lattice at (u, v) in lattice units with Catmull-Rom weights.
func bicubic(l []float32, u, v float64) float64 {
	fu, fv := math.Floor(u), math.Floor(v)
	iu, iv := int(fu), int(fv)
	wu, wv := catmullRom(u-fu), catmullRom(v-fv)
	var sum float64
	for j := range 4 {
		row := wrap(iv+j-1) * texSize
		var s float64
		for i := range 4 {
			s += wu[i] * float64(l[row+wrap(iu+i-1)])
		}
		sum += wv[j] * s
	}
	return sum
}

// catmullRom returns the weights of the four samples around a point at fraction t past the
// second.
func catmullRom(t float64) [4]float64 {
	t2, t3 := t*t, t*t*t
	return [4]float64{
		(-t3 + 2*t2 - t) / 2,
		(3*t3 - 5*t2 + 2) / 2,
		(-3*t3 + 4*t2 + t) / 2,
		(t3 - t2) / 2,
	}
}

func wrap(i int) int { return ((i % texSize) + texSize) % texSize }
