package render

import (
	"math"
	"testing"

	"trackink/scene"
)

// TestJoinedCurvesHaveNoSeams draws a translucent straight stroke as three joined pieces and
// as three separate curves: along the centre line the joined stroke keeps one opacity, the
// separate ones darken where their caps overlap.
func TestJoinedCurvesHaveNoSeams(t *testing.T) {
	r := newRenderer(t, 1)
	half := RGBA{0.5, 0.5, 0.5, 0.5}
	pieces := func(joined bool) *Primitives {
		p := &Primitives{}
		for i, x := range []float32{20, 60, 100} {
			p.Curves = append(p.Curves, Curve{X0: x, Y0: 30.5, X1: x + 20, Y1: 30.5, X2: x + 40, Y2: 30.5,
				Width: 6, Color: half, Joined: joined && i > 0})
		}
		return p
	}
	joined, separate := newFloatFrame(160, 60), newFloatFrame(160, 60)
	draw(t, r, joined, pieces(true))
	draw(t, r, separate, pieces(false))
	for x := 25; x < 135; x++ {
		if a := joined.alpha(x, 30); math.Abs(float64(a)-0.5) > 1e-5 {
			t.Fatalf("joined stroke: alpha %g at x=%d, want 0.5 all along", a, x)
		}
	}
	if a := separate.alpha(60, 30); a < 0.7 {
		t.Errorf("separate pieces should overlap at their joint (alpha %g): the test would not see a seam", a)
	}
}

func trailFrame(index int, pts ...scene.Point) *scene.Frame {
	return &scene.Frame{Index: index, Points: pts}
}

func TestTrailFadesWithAge(t *testing.T) {
	st := DefaultStyle(200)
	st.Trail, st.TrailWidth, st.TrailOpacity = 10, 4, 1
	tr := NewTrails(st.Trail)
	var p Primitives
	for n := 1; n <= 10; n++ {
		f := trailFrame(n, scene.Point{ID: 1, X: float32(20 + 15*n), Y: 50})
		tr.Update(f)
		p.Reset()
		tr.AddTo(&p, f, &st)
	}
	if len(p.Curves) != 10 { // lead-in, 8 inner pieces, lead-out
		t.Fatalf("%d curves for a 10-point trail, want 10", len(p.Curves))
	}
	f := newFloatFrame(200, 100)
	draw(t, newRenderer(t, 1), f, &p)
	oldest, newest := f.alpha(40, 50), f.alpha(165, 50)
	if !(newest > 0.8 && oldest < newest/3) {
		t.Errorf("alpha near the oldest end %g, near the newest %g: want a fade towards the past", oldest, newest)
	}
	for x := 40; x < 170; x++ {
		if f.alpha(x+1, 50) < f.alpha(x, 50)-1e-4 {
			t.Fatalf("alpha drops from x=%d to x=%d: the fade is not monotonic", x, x+1)
		}
	}
}

func TestTrailEdgeCases(t *testing.T) {
	st := DefaultStyle(200)
	st.Trail = 5
	for _, tc := range []struct {
		name   string
		frames []*scene.Frame
		curves int
	}{
		{"one position", []*scene.Frame{trailFrame(1, scene.Point{ID: 1, X: 10, Y: 10})}, 0},
		{"two positions", []*scene.Frame{trailFrame(1, scene.Point{ID: 1, X: 10, Y: 10}), trailFrame(2, scene.Point{ID: 1, X: 30, Y: 10})}, 1},
		{"stationary", []*scene.Frame{trailFrame(1, scene.Point{ID: 1, X: 10, Y: 10}), trailFrame(2, scene.Point{ID: 1, X: 10.1, Y: 10}),
			trailFrame(3, scene.Point{ID: 1, X: 10, Y: 10.2})}, 0},
		{"absent now", []*scene.Frame{trailFrame(1, scene.Point{ID: 1, X: 10, Y: 10}), trailFrame(2, scene.Point{ID: 1, X: 30, Y: 10}),
			trailFrame(3, scene.Point{ID: 2, X: 50, Y: 50})}, 0},
		{"aged out", []*scene.Frame{trailFrame(1, scene.Point{ID: 1, X: 10, Y: 10}), trailFrame(2, scene.Point{ID: 1, X: 30, Y: 10}),
			trailFrame(9, scene.Point{ID: 1, X: 40, Y: 10})}, 0},
		{"gap within length", []*scene.Frame{trailFrame(1, scene.Point{ID: 1, X: 10, Y: 10}), trailFrame(2, scene.Point{ID: 1, X: 30, Y: 10}),
			trailFrame(4, scene.Point{ID: 1, X: 40, Y: 20})}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTrails(st.Trail)
			var p Primitives
			for _, f := range tc.frames {
				tr.Update(f)
				p.Reset()
				tr.AddTo(&p, f, &st)
			}
			if len(p.Curves) != tc.curves {
				t.Errorf("%d curves, want %d", len(p.Curves), tc.curves)
			}
			for _, c := range p.Curves {
				for _, v := range []float32{c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, c.Fade0, c.Fade1} {
					if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
						t.Fatalf("non-finite curve %+v", c)
					}
				}
			}
		})
	}
}
