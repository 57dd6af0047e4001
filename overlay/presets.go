package overlay

import "slices"

// Presets are named looks: a Style to start from (the command line's --preset; --style files
// and flags change it further).
var presets = map[string]struct {
	about string
	style func() Style
}{
	"blob":    blobLook,
	"default": {"boxes with labels, straight links between tracked points, no curves: calm on real footage", DefaultStyle},
	"seed": {"the seed benchmark scene's look: every link a line and a curve, points, labels (trackink bench)", func() Style {
		s := DefaultStyle()
		s.PointRadius, s.LineWidth, s.CurveWidth = Auto, Auto, Auto
		s.FillOpacity, s.LinkOpacity = 0.2, 0.8
		return s
	}},
	"clean": {"for checking a tracker: boxes and labels by class colour, no links or points", func() Style {
		s := DefaultStyle()
		s.PointRadius, s.LineWidth, s.CurveWidth = 0, 0, 0
		s.FillOpacity, s.Roundness = 0.1, 0
		s.ColorBy = ByClass
		return s
	}},
	"hud": {"a heads-up display: corner brackets without fill, dashed links, labels and brackets by class colour", func() Style {
		s := DefaultStyle()
		s.BoxStyle, s.BracketLength = "corners", 0.2
		s.LinkStyle = "dashed"
		s.FillOpacity, s.LinkOpacity = 0, 0.8
		s.ColorBy = ByClass
		return s
	}},
	"plexus": {"tracking points joined by glowing links on dark footage: neon colours, no labels", func() Style {
		s := DefaultStyle()
		s.Labels = false
		s.Palette = "neon"
		s.FillOpacity, s.BoxOpacity, s.LinkOpacity = 0, 0.9, 0.7
		s.CurveWidth, s.Trail = 0, 20
		return s
	}},
}

// Preset returns the style of the named preset.
func Preset(name string) (Style, bool) {
	p, ok := presets[name]
	if !ok {
		return Style{}, false
	}
	return p.style(), true
}

// PresetNames returns the presets' names, sorted, and what each looks like.
func PresetNames() (names, about []string) {
	for n := range presets {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		about = append(about, presets[n].about)
	}
	return names, about
}
