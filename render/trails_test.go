package render

import (
	"math"
	"testing"

	"trackink/overlay"
	"trackink/scene"
)

// TestJoinedCurvesHaveNoSeams draws a translucent straight stroke as three joined pieces and
// as three separate curves: along the centre line the joined stroke keeps one opacity, the
// separate ones darken where their caps overlap.
func TestJoinedCurvesHaveNoSeams(t *testing.T) {
	r := newRenderer(t, 1)
	half := overlay.RGBA{R: 0.5, G: 0.5, B: 0.5, A: 0.5}
	pieces := func(joined bool) *overlay.Primitives {
		p := &overlay.Primitives{}
		for i, x := range []float32{20, 60, 100} {
			p.Curves = append(p.Curves, overlay.Curve{X0: x, Y0: 30.5, X1: x + 20, Y1: 30.5, X2: x + 40, Y2: 30.5,
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

func TestTrailFadesWithAge(t *testing.T) {
	tr := overlay.NewTrails(10)
	white := func(*scene.Point) overlay.RGBA { return overlay.RGBA{R: 1, G: 1, B: 1, A: 1} }
	var p overlay.Primitives
	for n := 1; n <= 10; n++ {
		tf := &scene.Frame{Index: n, Points: []scene.Point{{ID: 1, X: float32(20 + 15*n), Y: 50}}}
		tr.Update(tf)
		p.Reset()
		tr.AddTo(&p, tf, 4, white)
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
