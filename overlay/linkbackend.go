package overlay

import (
	"trackink/composite"
	"trackink/knn"
	"trackink/scene"
)

// LinkBackend is a Backend that builds the links between tracked points itself: the GPU
// backend (package kernels/gpu) runs the frame's link update (knn.Graph's rules, with the
// previous frame's state kept on the device), the link primitives and the drawing in one
// captured graph, with no round trip to the host in between. The Drawer checks for it: with
// one, it hands over each frame's points and the link style instead of searching
// neighbours on the host and building the link primitives.
type LinkBackend interface {
	Backend
	// StartLinks sets the link options, once, before the first frame. The links are
	// knn.Graph's, exactly (docs/links.md, "The rules, exactly"); opts.Backend, which picks the
	// host's search, does not apply.
	StartLinks(opts knn.Options) error
	// DrawLinked renders p as Draw does, together with the links of frame f: their lines
	// before p's lines and their curves before p's curves, where Builder.Build puts them. p
	// holds no links (Build with none). Frames must come in order, for the hysteresis.
	DrawLinked(dst composite.Surface, p *Primitives, f *LinkFrame) error
	// Links returns the number of links the last DrawLinked drew (it waits for the device).
	Links() (int, error)
}

// LinkFrame is what a LinkBackend needs to build and draw a frame's links as Build would.
type LinkFrame struct {
	Points []scene.Point // the frame's tracked points, in any order
	// Colors[i] is the straight colour Points[i] lends its links: a link takes the mean of
	// its two ends' (Build's link colours).
	Colors []scene.Color
	Style  LinkStyle
}

// LinkStyle is how links are drawn: what Build takes from a Style for them.
type LinkStyle struct {
	LineWidth  float32 // straight links; 0: none
	CurveWidth float32 // curved links; 0: none
	Bend       float32 // the curves' bend (curves.Control)
	Opacity    float32 // Style.LinkOpacity
	Fade       float32 // Style.LinkFade: the opacity falls with the link's length (LinkFade)
	// LineDash and CurveDash are the lines' and curves' dash patterns (DashFor).
	LineDash, CurveDash Dash
}

// LinkFrame fills lf with what a LinkBackend needs to draw the links of frame f as Build
// would: the points, the colours they lend their links, the style. Call it after Build(p,
// f, nil), which records the classes the colours may depend on.
func (b *Builder) LinkFrame(f *scene.Frame, lf *LinkFrame) {
	s := &b.style
	lf.Points = f.Points
	lf.Colors = lf.Colors[:0]
	for i := range f.Points {
		lf.Colors = append(lf.Colors, b.linkEndColor(&f.Points[i]))
	}
	lf.Style = LinkStyle{LineWidth: s.LineWidth, CurveWidth: s.CurveWidth, Bend: s.Bend, Opacity: s.LinkOpacity, Fade: s.LinkFade,
		LineDash: b.lineDash, CurveDash: b.curveDash}
}
