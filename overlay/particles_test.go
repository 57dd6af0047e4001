package overlay

import (
	"slices"
	"testing"

	"trackink/scene"
)

// TestParticles: a track moving 4 px a frame emits Particles dots a frame from its second
// frame on, each living ParticleLife frames and fading; a still track and an untracked
// point emit none; the same seed gives the same dots, another seed others.
func TestParticles(t *testing.T) {
	build := func(seed uint64, frames int) []Line {
		st := DefaultStyle()
		st.Particles, st.ParticleLife, st.ParticleSeed = 3, 4, seed
		st.LineWidth, st.PointRadius, st.Labels = 0, 0, false
		b, err := NewBuilder(st.ForHeight(200), nil, 300, 200)
		if err != nil {
			t.Fatal(err)
		}
		var p Primitives
		for n := 1; n <= frames; n++ {
			f := scene.Frame{Index: n, Points: []scene.Point{
				{ID: 1, X: 10 + 4*float32(n), Y: 50},
				{ID: 2, X: 100, Y: 100},                   // still
				{ID: scene.NoID, X: 5 * float32(n), Y: 9}, // untracked
			}}
			b.Build(&p, &f, nil)
		}
		return slices.Clone(p.Lines)
	}
	for _, c := range []struct{ frames, want int }{{1, 0}, {2, 3}, {4, 9}, {5, 12}, {9, 12}} {
		if got := len(build(1, c.frames)); got != c.want {
			t.Errorf("after %d frames: %d particles, want %d", c.frames, got, c.want)
		}
	}
	a, b, other := build(1, 9), build(1, 9), build(2, 9)
	if !slices.Equal(a, b) || slices.Equal(a, other) {
		t.Error("want the same particles for the same seed, others for another")
	}
	// The oldest (age 3 of 4) are the faintest: a quarter of the newest's opacity.
	if old, young := a[0].Color.A, a[len(a)-1].Color.A; !(old < young) || old != young/4 {
		t.Errorf("opacity oldest %g, newest %g: want a quarter", old, young)
	}
}
