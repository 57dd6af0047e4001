package overlay

import (
	"trackink/curves"
	"trackink/knn"
	"trackink/scene"
)

// Build fills p (after Reset) with what frame f draws in style s on a w × h frame: its boxes
// with labels, the links between its points (straight and curved), and the points.
func (p *Primitives) Build(f *scene.Frame, links []knn.Edge, s *Style, font *Font, w, h int) {
	p.Reset()
	p.Font = font
	for i := range f.Boxes {
		b := &f.Boxes[i]
		c := boxColor(b)
		p.Boxes = append(p.Boxes, Box{
			X: b.X, Y: b.Y, W: b.W, H: b.H,
			Radius:      s.Roundness * min(b.W, b.H) / 2,
			Stroke:      s.BoxStroke,
			Fill:        Premul(c, s.FillOpacity),
			StrokeColor: Premul(c, 1),
		})
		if s.Labels {
			p.AddBoxLabel(b, c, s.BoxStroke, font, w, h)
		}
	}
	for _, l := range links {
		a, b := &f.Points[l.A], &f.Points[l.B]
		c := Premul(mix(pointColor(a), pointColor(b)), s.LinkOpacity)
		if s.LineWidth > 0 {
			p.Lines = append(p.Lines, Line{a.X, a.Y, b.X, b.Y, s.LineWidth, c})
		}
		if s.CurveWidth > 0 {
			cx, cy := curves.Control(a.X, a.Y, b.X, b.Y, s.Bend)
			p.Curves = append(p.Curves, Curve{X0: a.X, Y0: a.Y, X1: cx, Y1: cy, X2: b.X, Y2: b.Y, Width: s.CurveWidth, Color: c})
		}
	}
	if s.PointRadius > 0 {
		for i := range f.Points {
			pt := &f.Points[i]
			p.Lines = append(p.Lines, Line{pt.X, pt.Y, pt.X, pt.Y, 2 * s.PointRadius, Premul(pointColor(pt), 1)})
		}
	}
}
