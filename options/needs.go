package options

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"trackink/overlay"
)

// A look flag that only tunes another's drawing (a spiral's turns, an echo's decay, the
// pixel sort's key) changes nothing while what it tunes is off: the render came out as if
// the flag had not been given, without a word. Such a flag given on the command line is
// refused where, once the look and the style file have been applied, what it tunes is
// off. A style file may hold them all: it is a look kept for many renders, most of which
// draw only some of it.

// tuner is a group of flags that tune what on reports drawn, and the flag (with its
// value) that turns it on, for the message.
type tuner struct {
	flags []string
	needs string
	on    func(*overlay.Style) bool
}

// hasEffect reports whether s changes the frame under its boxes with effect e (any
// effect, where e is "").
func hasEffect(s *overlay.Style, e string) bool {
	if e == "" {
		return len(s.BoxEffects) > 0
	}
	k, _ := overlay.ParseEffect(e)
	return slices.Contains(s.BoxEffects, k)
}

// outlinedPoint reports whether s's points have an outline (every point style but dot).
func outlinedPoint(s *overlay.Style) bool { return s.PointStyle != "" && s.PointStyle != "dot" }

// drawsLinks reports whether s draws the links between tracked points, as lines or curves.
func drawsLinks(s *overlay.Style) bool { return s.LineWidth != 0 || s.CurveWidth != 0 }

// dashes reports whether stroke style style has a dash pattern (dashed, dotted), as the
// drawer decides it (overlay.DashFor).
func dashes(style string) bool { return overlay.DashFor(style, 1).Period > 0 }

// tuners are the look's tuning flags and what each needs.
var tuners = []tuner{
	{[]string{"link-turns"}, "--link-shape spiral", func(s *overlay.Style) bool { return s.LinkShape == "spiral" }},
	{[]string{"link-amp", "link-freq", "link-speed"}, "--link-shape wave, elastic or swirl",
		func(s *overlay.Style) bool { return slices.Contains([]string{"wave", "elastic", "swirl"}, s.LinkShape) }},
	{[]string{"link-flow"}, "--link-style dashed or dotted",
		func(s *overlay.Style) bool { return dashes(s.LinkStyle) }},
	{[]string{"link-pulse-period"}, "--link-pulse", func(s *overlay.Style) bool { return s.LinkPulse > 0 }},
	{[]string{"echo-decay", "echo-offset", "echo-scale"}, "--echo N", func(s *overlay.Style) bool { return s.Echo > 0 }},
	{[]string{"particle-life", "particle-seed"}, "--particles N", func(s *overlay.Style) bool { return s.Particles > 0 }},
	{[]string{"effect-strength", "effect-opacity", "effect-feather"}, "--box-effect",
		func(s *overlay.Style) bool { return hasEffect(s, "") }},
	{[]string{"sort-range", "sort-columns", "sort-order", "sort-key", "sort-min-run"}, "--box-effect sort",
		func(s *overlay.Style) bool { return hasEffect(s, "sort") }},
	{[]string{"box-radius", "box-size"}, "--box-from radius or age", func(s *overlay.Style) bool { return s.BoxFrom != "" && s.BoxFrom != "none" }},
	{[]string{"label-outline-color"}, "--label-outline PX", func(s *overlay.Style) bool { return s.LabelOutline > 0 }},
	{[]string{"glow-opacity"}, "--glow PX", func(s *overlay.Style) bool { return s.Glow != 0 }},
	// A glow separates the strokes itself and turns the halo off (overlay.Style.Halo).
	{[]string{"halo-opacity"}, "--halo PX (without --glow)", func(s *overlay.Style) bool { return s.Halo != 0 && s.Glow == 0 }},
	{[]string{"trail-width", "trail-smooth", "trail-opacity", "trail-color"}, "--trail N", func(s *overlay.Style) bool { return s.Trail > 0 }},
	{[]string{"bracket-length"}, "--box-style corners", func(s *overlay.Style) bool { return s.BoxStyle == "corners" }},
	{[]string{"dash"}, "--link-style or --box-style dashed or dotted", func(s *overlay.Style) bool {
		return dashes(s.LinkStyle) || dashes(s.BoxStyle)
	}},
	{[]string{"bend"}, "--curve-width PX or --link-shape s", func(s *overlay.Style) bool { return s.CurveWidth != 0 || s.LinkShape == "s" }},
	{[]string{"bend-away"}, "--curve-width PX", func(s *overlay.Style) bool { return s.CurveWidth != 0 }},
	// What a look may hide whole: links (cctv, clean), boxes (plexus), points (cctv, clean,
	// blob).
	{[]string{"links", "k", "max-degree", "max-dist", "max-dy", "hysteresis", "max-links-per-point", "max-links-per-frame",
		"link-reach", "link-style", "link-color", "link-opacity", "link-fade", "link-shape", "link-pulse"},
		"--line-width PX or --curve-width PX", drawsLinks},
	{[]string{"box-opacity"}, "--box-stroke PX", func(s *overlay.Style) bool { return s.BoxStroke != 0 }},
	// A fill of opacity 0.5 or more takes a halo round its edge, in the outline's pattern.
	{[]string{"box-style"}, "--box-stroke PX", func(s *overlay.Style) bool {
		return s.BoxStroke != 0 || s.FillOpacity >= 0.5 && s.Halo != 0 && s.HaloOpacity > 0 && s.Glow == 0
	}},
	// An effect is tinted by the outline's colour and shaped by the corners.
	{[]string{"box-color"}, "--box-stroke PX or --box-effect", func(s *overlay.Style) bool { return s.BoxStroke != 0 || hasEffect(s, "") }},
	{[]string{"fill-color"}, "--fill-opacity O", func(s *overlay.Style) bool { return s.FillOpacity != 0 }},
	{[]string{"roundness"}, "--box-stroke PX, --fill-opacity O or --box-effect", func(s *overlay.Style) bool {
		return s.BoxStroke != 0 || s.FillOpacity != 0 || hasEffect(s, "")
	}},
	{[]string{"point-style", "point-stroke", "point-fill-opacity"}, "--point-radius PX", func(s *overlay.Style) bool { return s.PointRadius != 0 }},
	// The particles take the points' colour and opacity.
	{[]string{"point-color", "point-opacity"}, "--point-radius PX or --particles N", func(s *overlay.Style) bool {
		return s.PointRadius != 0 || s.Particles > 0
	}},
	{[]string{"point-stroke"}, "--point-style ring, square, diamond, cross or plus", outlinedPoint},
	{[]string{"point-fill-opacity"}, "--point-style ring, square or diamond", func(s *overlay.Style) bool {
		return outlinedPoint(s) && slices.Contains([]string{"ring", "square", "diamond"}, s.PointStyle)
	}},
	// The text files are read for the labels' {line} and {word} alone.
	{[]string{"label-lines"}, "--label or --class-label with {line}", func(s *overlay.Style) bool { return s.LabelsShow("line") }},
	{[]string{"label-words"}, "--label or --class-label with {word}", func(s *overlay.Style) bool { return s.LabelsShow("word") }},
	{[]string{"label-line-frames"}, "--label-lines FILE", func(s *overlay.Style) bool { return len(s.LabelLines) > 0 }},
	{[]string{"camera-clock", "camera-fps"}, "--camera-name NAME", func(s *overlay.Style) bool { return s.Camera.Name != "" }},
	{[]string{"scanline-period"}, "--scanlines", func(s *overlay.Style) bool { return s.Camera.Scanlines > 0 }},
	{[]string{"grain-seed"}, "--grain or --grain-color", func(s *overlay.Style) bool { return s.Camera.Grain > 0 || s.Camera.GrainColor > 0 }},
	{[]string{"camera-tint-strength"}, "--camera-tint COLOR", func(s *overlay.Style) bool { return s.Camera.Tint.Set }},
}

// CheckTuners refuses, exit 2, a tuning flag given on the command line (fs: not a key of
// the style file) whose drawing st, the style as the look, the style file and the flags
// left it, does not draw (tuners).
func (s *Style) CheckTuners(fs *pflag.FlagSet, st *overlay.Style) error {
	if err := s.checkNoLabels(fs); err != nil {
		return err
	}
	for _, t := range tuners {
		if t.on(st) {
			continue
		}
		for _, name := range t.flags {
			if _, inFile := s.fromFile[name]; !inFile && fs.Changed(name) {
				return UsageError{Err: fmt.Errorf("--%s tunes what %s draws, which is off: give %s too, or leave --%s out", name, t.needs, t.needs, name)}
			}
		}
	}
	return nil
}

// checkNoLabels refuses, exit 2, a label flag given on the command line beside --no-labels
// (or the style file's no-labels), which turns off every label that flag would shape.
func (s *Style) checkNoLabels(fs *pflag.FlagSet) error {
	if !fs.Changed("no-labels") || !s.noLabels {
		return nil
	}
	var given string
	fs.Visit(func(f *pflag.Flag) {
		_, inFile := s.fromFile[f.Name]
		if o, ok := optionOf(fs.Name(), f.Name); ok && o.group == groupLabels && f.Name != "no-labels" && !inFile && given == "" {
			given = f.Name
		}
	})
	switch line, inFile := s.fromFile["no-labels"]; {
	case given == "":
		return nil
	case inFile:
		return UsageError{Err: fmt.Errorf("--%s shapes the labels, and %s:%d turns them off (no-labels): leave one out", given, s.File, line)}
	default:
		return UsageError{Err: fmt.Errorf("--%s shapes the labels, and --no-labels turns them off: leave one out", given)}
	}
}
