package overlay

import "trackink/scene"

// Gradient links (Style.LinkGradient): a straight link runs from its first end's colour to
// its second's (Line.Gradient), or between Style.LinkGradientColors from its lower track id's
// end to its higher's, each end premultiplied at the link's opacity (faded with
// its length as the mean colour would be). Curved, dashed and electric links keep the mean
// of the two colours: the stroke loops that draw them (the nearest of many chords or
// dashes) keep no parameter along the link. Straight sparkle links' dots each take the
// colour at their place (sparkle.go).

// gradient gives l, the straight link from pa to pb, its ends' colours when the style asks
// for gradient links and l is solid (a dashed line takes one colour: Line).
func (b *Builder) gradient(l *Line, pa, pb *scene.Point) {
	s := &b.style
	if !s.LinkGradient || l.Dash.Period > 0 {
		return
	}
	op := LinkFade(s.LinkOpacity, pb.X-pa.X, pb.Y-pa.Y, s.LinkFade)
	ca, cb := b.linkEnds(pa, pb)
	l.Color, l.Color1, l.Gradient = Premul(ca, op), Premul(cb, op), true
}

// linkEnds are the colours of the link from pa to pb at pa's end and pb's: the points'
// (linkEndColor), or with gradient links between chosen colours (Style.LinkGradientColors)
// the first at the lower track id's end and the second at the higher's, so that a link's
// ramp does not turn with the order the link search gave its ends.
func (b *Builder) linkEnds(pa, pb *scene.Point) (ca, cb scene.Color) {
	if g := b.style.LinkGradientColors; b.style.LinkGradient && g[0].Set {
		if pb.ID < pa.ID {
			return g[1].C, g[0].C
		}
		return g[0].C, g[1].C
	}
	return b.linkEndColor(pa), b.linkEndColor(pb)
}

// lerpRGBA is a + (b − a)·t, channel by channel.
func lerpRGBA(a, b RGBA, t float32) RGBA {
	return RGBA{a.R + (b.R-a.R)*t, a.G + (b.G-a.G)*t, a.B + (b.B-a.B)*t, a.A + (b.A-a.A)*t}
}
