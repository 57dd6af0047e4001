package goldens

import (
	"math/rand/v2"

	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
)

// The link graphs' goldens, one scene per graph, appended to Scenes here so that the list
// in scenes.go needs no edit.
func init() {
	for _, graph := range knn.Graphs {
		Scenes = append(Scenes, Scene{
			Name: "links-" + graph, Width: 360, Height: 240,
			About: "the " + graph + " link graph (--links " + graph + ") on 44 points: a lattice of cocircular squares, " +
				"a row of collinear points, a duplicate and scattered points",
			Draw: graphScene(graph),
		})
	}
}

// graphPoints are the graphs' goldens' points: a 4 × 3 lattice (every square of it
// cocircular), eight collinear points on a slant, a point twice, and 22 scattered ones.
func graphPoints() []scene.Point {
	var pts []scene.Point
	add := func(x, y float32) { pts = append(pts, scene.Point{ID: len(pts)*7%97 + 1, X: x, Y: y}) }
	for i := range 12 {
		add(40+float32(i%4)*30, 40+float32(i/4)*30)
	}
	for i := range 8 {
		add(200+float32(i)*18, 30+float32(i)*9)
	}
	add(90, 200)
	add(90, 200)
	rng := rand.New(rand.NewPCG(26, 1))
	for range 22 {
		add(10+rng.Float32()*340, 120+rng.Float32()*110)
	}
	return pts
}

// graphScene draws graphPoints linked by graph (kNN with k = 3, radius within 45 px, no
// other caps), as links and points in the default look.
func graphScene(graph string) func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	return func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
		g, err := knn.New(knn.Options{K: 3, Graph: graph, MaxDist: map[bool]float64{true: 45}[graph == knn.GraphRadius]})
		if err != nil {
			return err
		}
		defer g.Close()
		f := &scene.Frame{Index: 1, Points: graphPoints()}
		edges, err := g.Update(f.Points)
		if err != nil {
			return err
		}
		st := overlay.DefaultStyle()
		st.LineWidth, st.PointRadius, st.LinkOpacity = 1.5, 3, 0.9
		b, err := overlay.NewBuilder(st.ForHeight(h), font, w, h)
		if err != nil {
			return err
		}
		b.Build(p, f, edges)
		return nil
	}
}
