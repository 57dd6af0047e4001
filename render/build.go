package render

import (
	"fmt"
	"math"
	"strconv"

	"trackink/curves"
	"trackink/knn"
	"trackink/scene"
)

// Style is how a scene is drawn. Sizes are in pixels of the frame.
type Style struct {
	PointRadius float32 // tracked points as disks; 0 hides them
	LineWidth   float32 // straight links; 0 hides them
	CurveWidth  float32 // curved links; 0 hides them
	Bend        float32 // curve control offset as a fraction of the link's length
	LinkOpacity float32 // opacity of links, 0..1
	BoxStroke   float32 // box outline width; 0 for none
	FillOpacity float32 // opacity of box fills, 0..1
	Roundness   float32 // box corner radius as a fraction of half the shorter side, 0..1
	Labels      bool    // "#id class score" above each box
	// Trail is the length of each track's trail in frames; 0 draws none (see Trails).
	Trail        int
	TrailWidth   float32 // trail stroke width
	TrailOpacity float32 // opacity of the newest end of a trail, 0..1
}

// DefaultStyle returns the style for a frame of the given height: the seed scene's 3 px box
// stroke and 2 px links at 2160 lines, scaled with the height (never below 1 px).
func DefaultStyle(height int) Style {
	s := float32(height) / 2160
	px := func(v float32) float32 { return max(1, float32(math.Round(float64(v*s*2)))/2) }
	return Style{
		PointRadius:  px(5),
		LineWidth:    px(2),
		CurveWidth:   px(2),
		Bend:         0.3,
		LinkOpacity:  0.8,
		BoxStroke:    px(3),
		FillOpacity:  0.2,
		Roundness:    0.15,
		Labels:       true,
		TrailWidth:   px(3),
		TrailOpacity: 0.9,
	}
}

// DefaultLabelSize returns the label font size for a frame of the given height.
func DefaultLabelSize(height int) int { return max(10, height/54) }

// Validate reports a style value outside its range, naming the flag that sets it.
func (s *Style) Validate() error {
	for _, c := range []struct {
		flag    string
		v, hi   float32
		allowHi bool
	}{
		{"--point-radius", s.PointRadius, 1000, true},
		{"--line-width", s.LineWidth, 1000, true},
		{"--curve-width", s.CurveWidth, 1000, true},
		{"--box-stroke", s.BoxStroke, 1000, true},
		{"--link-opacity", s.LinkOpacity, 1, true},
		{"--fill-opacity", s.FillOpacity, 1, true},
		{"--roundness", s.Roundness, 1, true},
		{"--trail-width", s.TrailWidth, 1000, true},
		{"--trail-opacity", s.TrailOpacity, 1, true},
	} {
		if !(c.v >= 0 && c.v <= c.hi) {
			return fmt.Errorf("%s %g is outside 0..%g", c.flag, c.v, c.hi)
		}
	}
	if s.Trail < 0 || s.Trail == 1 || s.Trail > 10000 {
		return fmt.Errorf("--trail %d: want 0 (off) or 2..10000 frames", s.Trail)
	}
	if math.IsNaN(float64(s.Bend)) || math.Abs(float64(s.Bend)) > 10 {
		return fmt.Errorf("--bend %g is outside -10..10", s.Bend)
	}
	return nil
}

// palette holds 20 well separated colours (Tableau 20, reordered so neighbouring track ids
// differ in hue); track id i takes palette[i mod 20].
var palette = [...]uint32{
	0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf,
	0xaec7e8, 0xffbb78, 0x98df8a, 0xff9896, 0xc5b0d5, 0xc49c94, 0xf7b6d2, 0xc7c7c7, 0xdbdb8d, 0x9edae5,
}

// opaque returns the opaque colour 0xRRGGBB.
func opaque(rgb uint32) scene.Color {
	return scene.Color{R: uint8(rgb >> 16), G: uint8(rgb >> 8), B: uint8(rgb), A: 255}
}

// TrackColor returns the palette colour of a track id.
func TrackColor(id int) scene.Color {
	n := len(palette)
	return opaque(palette[((id%n)+n)%n])
}

// Premul converts a straight-alpha colour to premultiplied RGBA, scaling its alpha by opacity.
func Premul(c scene.Color, opacity float32) RGBA {
	a := float32(c.A) / 255 * opacity
	return RGBA{float32(c.R) / 255 * a, float32(c.G) / 255 * a, float32(c.B) / 255 * a, a}
}

func pointColor(p *scene.Point) scene.Color {
	if p.HasColor {
		return p.Color
	}
	return TrackColor(p.ID)
}

func boxColor(b *scene.Box) scene.Color {
	if b.HasColor {
		return b.Color
	}
	return TrackColor(b.ID)
}

// mix averages two colours, so a link takes the hues of both its ends.
func mix(a, b scene.Color) scene.Color {
	avg := func(x, y uint8) uint8 { return uint8((int(x) + int(y)) / 2) }
	return scene.Color{R: avg(a.R, b.R), G: avg(a.G, b.G), B: avg(a.B, b.B), A: avg(a.A, b.A)}
}

// Build fills p (after Reset) with what frame f draws in style s on a w × h frame: its boxes
// with labels, the links between its points (straight and curved), and the points.
func (p *Primitives) Build(f *scene.Frame, links []knn.Edge, s *Style, font *Font, w, h int) {
	p.Reset()
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

// AddBoxLabel adds the label "#id class score" for box b: on the box's top edge, outside the
// box; moved inside the box when it would leave the top of the frame, and shifted left or up
// to stay inside the frame. A box wholly outside the frame gets no label.
func (p *Primitives) AddBoxLabel(b *scene.Box, c scene.Color, stroke float32, font *Font, w, h int) {
	if b.X+b.W < 0 || b.Y+b.H < 0 || b.X > float32(w) || b.Y > float32(h) {
		return
	}
	start := len(p.text)
	p.text = append(p.text, '#')
	p.text = strconv.AppendInt(p.text, int64(b.ID), 10)
	if b.Class != "" {
		p.text = append(p.text, ' ')
		p.text = append(p.text, b.Class...)
	}
	if b.HasScore {
		p.text = append(p.text, ' ')
		p.text = strconv.AppendFloat(p.text, float64(b.Score), 'f', 2, 32)
	}
	text := p.text[start:len(p.text):len(p.text)]
	lw, lh := font.LabelSize(text)
	half := stroke / 2
	x := int(math.Round(float64(b.X - half)))
	y := int(math.Round(float64(b.Y-half))) - lh
	if y < 0 {
		y = int(math.Round(float64(b.Y + half)))
	}
	x = max(0, min(x, w-lw))
	y = max(0, min(y, h-lh))
	// Dark text on light colours, light text on dark ones (BT.709 luma).
	luma := 0.2126*float32(c.R) + 0.7152*float32(c.G) + 0.0722*float32(c.B)
	fg := opaque(0xffffff)
	if luma > 150 {
		fg = opaque(0x000000)
	}
	p.Labels = append(p.Labels, Label{X: x, Y: y, Text: text, Color: Premul(fg, 1), Background: Premul(c, 0.85)})
}
