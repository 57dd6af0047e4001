package overlay

// Halos (Style.Halo): a stroke whose colour is close to the picture under it, a pastel
// outline on grey concrete, all but vanishes. Each stroke is drawn over a band Halo px wider
// on each side, in black or white, whichever contrasts more with the stroke, at HaloOpacity
// of the stroke's opacity: the stroke is then bounded by a colour it contrasts with whatever
// the picture (TestHaloContrast measures WCAG's 3:1 for graphics, over a picture of the
// stroke's own colour, black, white and grey). The halos are primitives under all the strokes of
// their kind, so both backends draw them alike and a halo never covers another stroke.

// DefaultHaloOpacity is HaloOpacity in the built-in looks: the least, in tenths, for which
// TestHaloContrast holds (0.7 leaves a box outline of the neon palette at 2.8:1 on grey).
const DefaultHaloOpacity = 0.8

// haloScratch holds a frame's primitives while their halos are put before them, and
// which colours want a black halo: working that out takes three math.Pow, and a frame's
// few hundred strokes share a few colours.
type haloScratch struct {
	boxes  []Box
	lines  []Line
	curves []Curve
	black  map[RGBA]bool
}

// maxHaloColors bounds the colours a haloScratch remembers.
const maxHaloColors = 4096

// haloColor is haloColor(c, a), remembering each colour's black or white.
func (sc *haloScratch) haloColor(c RGBA, a float32) RGBA {
	if c.A <= 0 {
		return RGBA{}
	}
	black, ok := sc.black[c]
	if !ok {
		if sc.black == nil || len(sc.black) >= maxHaloColors {
			// Faded links make colours of every opacity: start afresh rather than grow.
			sc.black = map[RGBA]bool{}
		}
		black = haloColor(c, 1).R == 0
		sc.black[c] = black
	}
	alpha := a * c.A
	if black {
		return RGBA{0, 0, 0, alpha}
	}
	return RGBA{alpha, alpha, alpha, alpha}
}

// haloed reports whether s's strokes get halos: a halo's width and opacity, and no glow.
func (s *Style) haloed() bool { return s.Halo != 0 && s.HaloOpacity > 0 && s.Glow == 0 }

// dotted reports whether dash pattern d is dots (DashFor's dotted): round dots as wide as
// the stroke, a stroke's width apart.
func dotted(d Dash) bool { return d.Period > 0 && d.On == 0 }

// addHalos puts the halo of every stroke of p under the strokes of its kind. Dotted
// strokes take none, as sparkles take none: a halo rings each dot, and the rings of dots a
// width apart touch, a chain of dark beads that hides the dots' colour.
func (b *Builder) addHalos(p *Primitives) {
	if !b.style.haloed() {
		return
	}
	h, a := b.style.Halo, b.style.HaloOpacity
	sc := &b.halo
	sc.boxes = append(sc.boxes[:0], p.Boxes...)
	p.Boxes = p.Boxes[:0]
	for _, bx := range sc.boxes {
		switch {
		case dotted(bx.Dash):
			continue
		case bx.Stroke > 0 && bx.StrokeColor.A > 0:
			bx.Stroke, bx.StrokeColor = bx.Stroke+2*h, sc.haloColor(bx.StrokeColor, a)
		case bx.Fill.A >= 0.5: // a filled shape (a square point): its edge
			bx.Stroke, bx.StrokeColor = 2*h, sc.haloColor(bx.Fill, a)
		default:
			continue
		}
		bx.Fill = RGBA{}
		p.Boxes = append(p.Boxes, bx)
	}
	p.Boxes = append(p.Boxes, sc.boxes...)
	// The points' dots (zero-length lines) move to the end of the curves, so that a trail
	// or curved link ending at a point, and its halo, drawn in the curves stage after the
	// lines, lie under the dot rather than over it. A zero-length curve is the same disk.
	sc.lines = sc.lines[:0]
	for _, l := range p.Lines {
		if l.X0 == l.X1 && l.Y0 == l.Y1 {
			p.Curves = append(p.Curves, Curve{X0: l.X0, Y0: l.Y0, X1: l.X0, Y1: l.Y0, X2: l.X0, Y2: l.Y0, Width: l.Width, Color: l.Color})
			continue
		}
		sc.lines = append(sc.lines, l)
	}
	p.Lines = p.Lines[:0]
	for _, l := range sc.lines {
		if dotted(l.Dash) {
			continue
		}
		c := l.Color
		if l.Gradient {
			c = RGBA{(l.Color.R + l.Color1.R) / 2, (l.Color.G + l.Color1.G) / 2, (l.Color.B + l.Color1.B) / 2, (l.Color.A + l.Color1.A) / 2}
		}
		l.Width, l.Color, l.Gradient, l.Color1 = l.Width+2*h, sc.haloColor(c, a), false, RGBA{}
		p.Lines = append(p.Lines, l)
	}
	p.Lines = append(p.Lines, sc.lines...)
	sc.curves = append(sc.curves[:0], p.Curves...)
	p.Curves = p.Curves[:0]
	for _, c := range sc.curves {
		if dotted(c.Dash) {
			continue
		}
		// A joined run is drawn with its first curve's width and colour: the halos' run too.
		c.Width, c.Color = c.Width+2*h, sc.haloColor(c.Color, a)
		p.Curves = append(p.Curves, c)
	}
	p.Curves = append(p.Curves, sc.curves...)
}

// haloColor is the halo of a stroke of premultiplied colour c: black or white, whichever
// contrasts more with c's colour, at opacity a of c's.
func haloColor(c RGBA, a float32) RGBA {
	if c.A <= 0 {
		return RGBA{}
	}
	lum := relativeLuminance(float64(c.R/c.A*255), float64(c.G/c.A*255), float64(c.B/c.A*255))
	alpha := a * c.A
	// Against black: (L + 0.05) / 0.05; against white: 1.05 / (L + 0.05).
	if (lum+0.05)/0.05 >= 1.05/(lum+0.05) {
		return RGBA{0, 0, 0, alpha}
	}
	return RGBA{alpha, alpha, alpha, alpha}
}
