package overlay

import (
	"math"
	"testing"

	"trackink/knn"
	"trackink/scene"
)

// TestJitterOffset: a track's offset lies within the disk, is the same every time, differs
// between tracks, and fills the disk (not its rim alone, nor its centre).
func TestJitterOffset(t *testing.T) {
	const px = 10
	seen := map[[2]float32]bool{}
	var sumR float64
	for id := 1; id <= 2000; id++ {
		dx, dy := jitterOffset(id, px)
		r := math.Hypot(float64(dx), float64(dy))
		if r > px+1e-4 {
			t.Fatalf("track %d: offset (%g, %g), %g px: want within %d", id, dx, dy, r, px)
		}
		if ex, ey := jitterOffset(id, px); ex != dx || ey != dy {
			t.Fatalf("track %d: (%g, %g), then (%g, %g)", id, dx, dy, ex, ey)
		}
		seen[[2]float32{dx, dy}] = true
		sumR += r
	}
	if len(seen) < 2000 {
		t.Errorf("%d distinct offsets of 2000 tracks", len(seen))
	}
	// Uniform over the disk: the mean distance is 2/3 of the radius.
	if mean := sumR / 2000; math.Abs(mean-2.0/3*px) > 0.3 {
		t.Errorf("mean offset %g px, want about %g (even over the disk)", mean, 2.0/3*px)
	}
	if dx, dy := jitterOffset(5, 0); dx != 0 || dy != 0 {
		t.Errorf("jitter 0: (%g, %g)", dx, dy)
	}
}

// TestJitterBuild: with Jitter, a track's box, label, point, links and trail move by its
// one offset, the same in every frame and whatever was built before; an untracked box stays;
// the caller's frame is left as it was.
func TestJitterBuild(t *testing.T) {
	frame := func(n int) scene.Frame {
		x := float32(10 * n)
		return scene.Frame{Index: n,
			Boxes:  []scene.Box{{ID: 3, X: 100 + x, Y: 80, W: 40, H: 60}, {ID: scene.NoID, X: 300, Y: 200, W: 30, H: 30}},
			Points: []scene.Point{{ID: 3, X: 120 + x, Y: 140}, {ID: 8, X: 400, Y: 250}}}
	}
	build := func(jitter float32, first, last int) Primitives {
		st := DefaultStyle()
		st.Jitter, st.Trail, st.LineWidth, st.PointRadius, st.LinkReach, st.Halo = jitter, 5, 2, 3, 0, 0
		b := newTestBuilder(t, st, 640, 360)
		var p Primitives
		for n := first; n <= last; n++ {
			f := frame(n)
			b.Build(&p, &f, []knn.Edge{{A: 0, B: 1}})
			if want := frame(n); f.Boxes[0] != want.Boxes[0] || f.Points[1] != want.Points[1] {
				t.Fatalf("the caller's frame moved: %+v", f)
			}
		}
		return p
	}
	plain, moved := build(0, 1, 4), build(12, 1, 4)
	d3x, d3y := jitterOffset(3, 12)
	d8x, d8y := jitterOffset(8, 12)
	if math.Hypot(float64(d3x), float64(d3y)) < 3 || moved.Labels[0].Text[0] != '#' {
		t.Fatalf("track 3's offset (%g, %g) or its label %q: the test wants a clear move of a tracked label", d3x, d3y, moved.Labels[0].Text)
	}
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-3 }
	for _, c := range []struct {
		what      string
		got, want [2]float32
		dx, dy    float32
	}{
		{"track 3's box", [2]float32{moved.Boxes[0].X, moved.Boxes[0].Y}, [2]float32{plain.Boxes[0].X, plain.Boxes[0].Y}, d3x, d3y},
		{"the untracked box", [2]float32{moved.Boxes[1].X, moved.Boxes[1].Y}, [2]float32{plain.Boxes[1].X, plain.Boxes[1].Y}, 0, 0},
		{"track 3's label", [2]float32{float32(moved.Labels[0].X), float32(moved.Labels[0].Y)}, [2]float32{float32(plain.Labels[0].X), float32(plain.Labels[0].Y)}, d3x, d3y},
		{"the link's first end", [2]float32{moved.Lines[0].X0, moved.Lines[0].Y0}, [2]float32{plain.Lines[0].X0, plain.Lines[0].Y0}, d3x, d3y},
		{"the link's other end", [2]float32{moved.Lines[0].X1, moved.Lines[0].Y1}, [2]float32{plain.Lines[0].X1, plain.Lines[0].Y1}, d8x, d8y},
		{"track 3's trail", [2]float32{moved.Curves[0].X0, moved.Curves[0].Y0}, [2]float32{plain.Curves[0].X0, plain.Curves[0].Y0}, d3x, d3y},
	} {
		dx, dy := c.got[0]-c.want[0], c.got[1]-c.want[1]
		if c.what == "track 3's label" {
			// Labels sit on whole pixels.
			if math.Abs(float64(dx-c.dx)) > 1 || math.Abs(float64(dy-c.dy)) > 1 {
				t.Errorf("%s moved (%g, %g), want about (%g, %g)", c.what, dx, dy, c.dx, c.dy)
			}
			continue
		}
		if !near(dx, c.dx) || !near(dy, c.dy) {
			t.Errorf("%s moved (%g, %g), want (%g, %g)", c.what, dx, dy, c.dx, c.dy)
		}
	}
	// A frame built alone (a segment's first) moves its tracks as after the others.
	alone := build(12, 4, 4)
	if alone.Boxes[0] != moved.Boxes[0] || alone.Lines[0] != moved.Lines[0] {
		t.Errorf("frame 4 alone: box %+v, link %+v; after frames 1 to 3: %+v, %+v", alone.Boxes[0], alone.Lines[0], moved.Boxes[0], moved.Lines[0])
	}
	st := DefaultStyle()
	for _, v := range []float32{-1, MaxJitter + 1, float32(math.NaN())} {
		st.Jitter = v
		if err := st.Validate(); err == nil {
			t.Errorf("Jitter %g: valid", v)
		}
	}
}
