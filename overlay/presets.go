package overlay

import "slices"

// Presets are named looks: a Style to start from (the command line's --look; --style files
// and flags change it further).
var presets = map[string]struct {
	about string
	style func() Style
}{
	"blob": blobLook,
	"default": {"boxes with labels, straight links between tracked points, no curves: calm on real footage", func() Style {
		return haloed(DefaultStyle())
	}},
	"seed": {"the seed benchmark scene's look: every link a line and a curve, points, labels (trackink bench)", func() Style {
		s := DefaultStyle()
		s.PointRadius, s.LineWidth, s.CurveWidth = Auto, Auto, Auto
		s.FillOpacity, s.LinkOpacity = 0.2, 0.8
		s.SeedSizes, s.LinkReach = true, 0 // the workload bench has always measured
		return s
	}},
	"cctv": {"a security camera's picture: scanlines, colour fringes, grain and a vignette over the footage, a name and clock stamped in the corner; thin class-coloured boxes with labels, no links", func() Style {
		s := DefaultStyle()
		s.PointRadius, s.LineWidth, s.CurveWidth = 0, 0, 0
		s.FillOpacity, s.Roundness = 0, 0
		s.ColorBy = ByClass
		s.Camera = Camera{Scanlines: 0.25, Aberration: Auto, Grain: 0.06, Seed: 1, Vignette: 0.5,
			Name: "CAM 01", Clock: "2025-01-01 00:00:00"}
		return haloed(s)
	}},
	"clean": {"for checking a tracker: boxes and labels by class colour, no links or points", func() Style {
		s := DefaultStyle()
		s.PointRadius, s.LineWidth, s.CurveWidth = 0, 0, 0
		s.FillOpacity, s.Roundness = 0.1, 0
		s.ColorBy = ByClass
		return haloed(s)
	}},
	"hud": {"a heads-up display: corner brackets without fill, dashed links, labels and brackets by class colour", func() Style {
		s := DefaultStyle()
		s.BoxStyle, s.BracketLength = "corners", 0.2
		s.LinkStyle = "dashed"
		s.FillOpacity, s.LinkOpacity = 0, 0.8
		s.ColorBy = ByClass
		s.MinLife, s.Fade = creativeMinLife, creativeFade
		return haloed(s)
	}},
	"plexus": {"a constellation: glowing points joined by Delaunay links that fade with length (reach a third of the width), screened onto the footage; no boxes or labels", func() Style {
		s := DefaultStyle()
		s.Labels = false
		s.Palette = "neon"
		s.BoxStroke, s.FillOpacity = 0, 0
		s.LinkGraph, s.LinkOpacity, s.LinkReach, s.LinkFade = "delaunay", 1, 0.35, Auto
		s.Trail, s.TrailSmooth, s.TrailOpacity = 20, 3, 0.6
		s.Blend = "screen"
		s.Glow, s.GlowOpacity = Auto, 0.5
		s.MinLife = creativeMinLife
		return s
	}},
	"neon": {"light on dark footage: glowing neon outlines, links and smoothed trails added onto the frame, no fills or labels", func() Style {
		s := DefaultStyle()
		s.Labels = false
		s.Palette = "neon"
		s.FillOpacity, s.BoxOpacity, s.Roundness = 0, 0.8, 0.5
		s.LinkOpacity, s.LinkFade = 0.8, Auto
		s.Trail, s.TrailSmooth = 30, 3
		s.Blend = "add"
		s.Glow, s.GlowOpacity = Auto, 0.6
		s.MinLife, s.Fade = creativeMinLife, creativeFade
		return s
	}},
}

// haloed is s with its strokes haloed (Style.Halo), as the looks meant for any footage
// have them: default, clean, hud, cctv. The glowing looks separate their strokes by the
// glow; the seed look is the scene the benchmark has always measured.
func haloed(s Style) Style {
	s.Halo = Auto
	return s
}

// The creative looks (hud, neon, plexus, blob) leave out tracks shorter than a fifth of a
// second at 25 fps, which on real footage are a tracker's false starts, and fade boxes in
// and out over a quarter of a second; the default and clean looks show every box a tracks
// file holds, as it holds it.
const (
	creativeMinLife = 5
	creativeFade    = 6
)

// Preset returns the style of the named preset.
func Preset(name string) (Style, bool) {
	p, ok := presets[name]
	if !ok {
		return Style{}, false
	}
	return p.style(), true
}

// PresetNames returns the presets' names, sorted, and what each looks like: the looks to
// offer, so not "seed", the benchmark's scene (which Preset still finds), unless it is
// among also, the presets a command offers besides (bench, whose default it is), listed
// first.
func PresetNames(also ...string) (names, about []string) {
	for _, n := range also {
		if _, ok := presets[n]; ok && n == "seed" {
			names = append(names, n)
		}
	}
	var rest []string
	for n := range presets {
		if n != "seed" {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	names = append(names, rest...)
	for _, n := range names {
		about = append(about, presets[n].about)
	}
	return names, about
}
