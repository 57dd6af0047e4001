package overlay

import (
	"math"
	"testing"

	"trackink/scene"
)

func trailFrame(index int, pts ...scene.Point) *scene.Frame {
	return &scene.Frame{Index: index, Points: pts}
}

func TestTrailEdgeCases(t *testing.T) {
	st := DefaultStyle().ForHeight(200)
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
				tr.AddTo(&p, f, st.TrailWidth, func(*scene.Point) RGBA { return RGBA{A: 1} })
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
