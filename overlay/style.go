package overlay

import (
	"math"

	"trackink/internal/field"
	"trackink/scene"
)

// Auto, as a size in a Style, stands for the default at the frame's height (see
// Style.ForHeight): the seed scene's look at 2160 lines, scaled.
const Auto = -1

// ReferenceHeight is the frame height at which the default sizes are the seed scene's.
const ReferenceHeight = 2160

// Style is how a scene is drawn. Sizes are in pixels of the frame; a size left at Auto
// follows the frame's height.
type Style struct {
	PointRadius float32 // tracked points as disks; 0 hides them
	LineWidth   float32 // straight links; 0 hides them
	CurveWidth  float32 // curved links; 0 hides them; Auto: LineWidth when that is set
	Bend        float32 // curve control offset as a fraction of the link's length
	LinkOpacity float32 // opacity of links, 0..1
	BoxStroke   float32 // box outline width; 0 for none
	FillOpacity float32 // opacity of box fills, 0..1
	Roundness   float32 // box corner radius as a fraction of half the shorter side, 0..1
	Labels      bool    // "#id class score" above each box
	LabelSize   int     // label font size in pixels; 0: height / 54, at least 10
	// Trail is the length of each track's trail in frames; 0 draws none (see Trails).
	Trail        int
	TrailWidth   float32 // trail stroke width
	TrailOpacity float32 // opacity of the newest end of a trail, 0..1
}

// DefaultStyle returns the default look, its sizes left at Auto.
func DefaultStyle() Style {
	return Style{
		PointRadius:  Auto,
		LineWidth:    Auto,
		CurveWidth:   Auto,
		Bend:         0.3,
		LinkOpacity:  0.8,
		BoxStroke:    Auto,
		FillOpacity:  0.2,
		Roundness:    0.15,
		Labels:       true,
		TrailWidth:   Auto,
		TrailOpacity: 0.9,
	}
}

// ForHeight returns s with its Auto sizes resolved for a frame of the given height: 5 px
// points, 2 px links, a 3 px box stroke and 3 px trails at 2160 lines, scaled with the
// height to the nearest half pixel (never below 1 px), and labels of height / 54 px.
func (s Style) ForHeight(height int) Style {
	k := float32(height) / ReferenceHeight
	auto := func(v *float32, at2160 float32) {
		if *v == Auto {
			*v = max(1, float32(math.Round(float64(at2160*k*2)))/2)
		}
	}
	if s.CurveWidth == Auto && s.LineWidth != Auto {
		s.CurveWidth = s.LineWidth
	}
	auto(&s.PointRadius, 5)
	auto(&s.LineWidth, 2)
	auto(&s.CurveWidth, 2)
	auto(&s.BoxStroke, 3)
	auto(&s.TrailWidth, 3)
	if s.LabelSize == 0 {
		s.LabelSize = max(10, height/54)
	}
	return s
}

// Validate reports the first value outside its range as a *field.Error.
func (s *Style) Validate() error {
	for _, c := range []struct {
		name string
		v    float32
		hi   float32
		auto bool
	}{
		{"PointRadius", s.PointRadius, 1000, true},
		{"LineWidth", s.LineWidth, 1000, true},
		{"CurveWidth", s.CurveWidth, 1000, true},
		{"BoxStroke", s.BoxStroke, 1000, true},
		{"TrailWidth", s.TrailWidth, 1000, true},
		{"LinkOpacity", s.LinkOpacity, 1, false},
		{"FillOpacity", s.FillOpacity, 1, false},
		{"Roundness", s.Roundness, 1, false},
		{"TrailOpacity", s.TrailOpacity, 1, false},
	} {
		if c.auto && c.v == Auto {
			continue
		}
		if !(c.v >= 0 && c.v <= c.hi) {
			return field.Errorf("overlay.Style."+c.name, c.v, "is outside 0..%g", c.hi)
		}
	}
	switch {
	case s.Trail < 0 || s.Trail == 1 || s.Trail > 10000:
		return field.Errorf("overlay.Style.Trail", s.Trail, "want 0 (off) or 2..10000 frames")
	case math.IsNaN(float64(s.Bend)) || math.Abs(float64(s.Bend)) > 10:
		return field.Errorf("overlay.Style.Bend", s.Bend, "is outside -10..10")
	case s.LabelSize != 0 && (s.LabelSize < MinFontSize || s.LabelSize > MaxFontSize):
		return field.Errorf("overlay.Style.LabelSize", s.LabelSize, "is outside %d..%d", MinFontSize, MaxFontSize)
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
