package overlay

import "trackink/scene"

// Gradient links (Style.LinkGradient): a straight link runs from its first end's colour to
// its second's (Line.Gradient), each end premultiplied at the link's opacity (faded with
// its length as the mean colour would be). Curved, dashed and electric links keep the mean
// of the two colours: the stroke loops that draw them (the nearest of many chords or
// dashes) keep no parameter along the link.

// gradient gives l, the straight link from pa to pb, its ends' colours when the style asks
// for gradient links and l is solid (a dashed line takes one colour: Line).
func (b *Builder) gradient(l *Line, pa, pb *scene.Point) {
	s := &b.style
	if !s.LinkGradient || l.Dash.Period > 0 {
		return
	}
	op := LinkFade(s.LinkOpacity, pb.X-pa.X, pb.Y-pa.Y, s.LinkFade)
	l.Color, l.Color1, l.Gradient = Premul(b.linkEndColor(pa), op), Premul(b.linkEndColor(pb), op), true
}

// lerpRGBA is a + (b − a)·t, channel by channel.
func lerpRGBA(a, b RGBA, t float32) RGBA {
	return RGBA{a.R + (b.R-a.R)*t, a.G + (b.G-a.G)*t, a.B + (b.B-a.B)*t, a.A + (b.A-a.A)*t}
}
