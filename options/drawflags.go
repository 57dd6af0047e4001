package options

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trackink/overlay"
)

// The drawing flags beyond the basic look (overlay/look.go): link fade and reach, trail smoothing,
// boxes for points without one, point shapes, the blend mode. registerDrawFlags adds them with the other
// style flags, so that style files may set them too.

func registerDrawFlags(fs *pflag.FlagSet, st *overlay.Style) {
	registerTextFlags(fs, st)
	fs.Float32Var(&st.LinkFade, "link-fade", st.LinkFade, "links fade with length: opacity falls smoothly from full to none at this many px (0 = off, -1 = over the links' reach)")
	fs.Float32Var(&st.LinkReach, "link-reach", st.LinkReach, "without --max-dist: drop links longer than this fraction of the frame's width (0 = off)")
	fs.IntVar(&st.TrailSmooth, "trail-smooth", st.TrailSmooth, "smooth trails against tracker jitter: average each position with up to N either side, binomially weighted; the ends stay put (0 = off)")
	fs.IntVar(&st.MinLife, "min-life", st.MinLife, "draw a track from its Nth frame on: tracks shorter than N frames are never drawn (0 = every track at once; tracks in view at the first frame drawn are drawn at once)")
	fs.IntVar(&st.Fade, "fade", st.Fade, "boxes and labels fade and grow in over N frames when a track starts, and fade and shrink out over N frames after it ends (0 = off)")
	fs.Var(choiceValue{&st.BoxFrom, overlay.BoxFroms}, "box-from", "a box around each tracked point that has none: none, radius (--box-radius), age (growing to --box-radius over "+strconv.Itoa(overlay.BoxGrowFrames)+" frames)")
	fs.Var(sizeValue{&st.BoxRadius}, "box-radius", "half the side of --box-from's boxes in px")
	fs.Var(boxSizeValue{&st.BoxSize}, "box-size", "--box-from's boxes as W×H px rectangles centred on each point (40x80), instead of --box-radius's squares (0x0 = the squares)")
	if st.BoxRadius == overlay.Auto {
		fs.Lookup("box-radius").DefValue = "48 px at 2160 lines, scaled"
	}
	fs.Var(choiceValue{&st.PointStyle, overlay.PointStyles}, "point-style", "tracked points' shape: "+strings.Join(overlay.PointStyles, ", ")+" (each reaching --point-radius from the point; outlines --point-stroke wide)")
	fs.Var(sizeValue{&st.PointStroke}, "point-stroke", "outline width of ring, square, diamond, cross and plus points in px (0: none)")
	if st.PointStroke == overlay.Auto {
		fs.Lookup("point-stroke").DefValue = "half --point-radius, at least 1"
	}
	fs.Var(autoOpacityValue{&st.PointFillOpacity}, "point-fill-opacity", "opacity of ring, square and diamond points' interiors, 0..1, times --point-opacity (auto: squares solid, rings and diamonds hollow)")
	fs.IntVar(&st.Echo, "echo", st.Echo, "echo trails: draw the boxes, links, points and trails of the N frames before under this one, fading (0 = off, at most 32)")
	fs.Float32Var(&st.EchoDecay, "echo-decay", st.EchoDecay, "each echo's opacity is this times the newer one's, 0..1")
	fs.Var(pairValue{&st.EchoOffset, "dx,dy"}, "echo-offset", "each echo moved this many px further than the newer one")
	fs.Float32Var(&st.EchoScale, "echo-scale", st.EchoScale, "each echo scaled by this about the frame's centre, relative to the newer one, 0.5..2")
	fs.IntVar(&st.Particles, "particles", st.Particles, "each moving track emits N dots a frame that drift on with half its velocity and fade (0 = none, at most 64)")
	fs.IntVar(&st.ParticleLife, "particle-life", st.ParticleLife, "frames a particle lives")
	fs.Uint64Var(&st.ParticleSeed, "particle-seed", st.ParticleSeed, "the particles' seed (the same seed, the same particles)")
	fs.Float32Var(&st.LinkPulse, "link-pulse", st.LinkPulse, "links' widths pulse by this fraction, each link in its own phase, 0..1 (0 = off)")
	fs.IntVar(&st.LinkPulsePeriod, "link-pulse-period", st.LinkPulsePeriod, "frames of one pulse (0 = 30)")
	fs.Var(pairValue{&st.Dash, "length,gap"}, "dash", "dashed links and box outlines: dashes LENGTH px long with GAP px between them, as seen (round caps included; a dash is at least the stroke's width); dotted ones: GAP px between the dots (0,0 = tied to the width)")
	fs.Lookup("dash").DefValue = "0,0: dashes 4, gaps 2 and dots 1 stroke width apart"
	fs.Float32Var(&st.LinkFlow, "link-flow", st.LinkFlow, "with --link-style dashed or dotted: the dashes move this many px a frame along each link (negative: the other way; 0 = still)")
	fs.Var(choiceValue{&st.LinkShape, overlay.LinkShapes}, "link-shape", "straight links' shape: "+strings.Join(overlay.LinkShapes, ", ")+" (wave: a sine along the link, travelling; s: a cubic S bent by --bend; elastic: a damped wave; spiral: a curl from one end, --link-turns; swirl: a travelling field line)")
	fs.Var(sizeValue{&st.LinkAmp}, "link-amp", "with --link-shape wave or elastic: the wave's amplitude in px (at most a fifth of its wavelength); with swirl: a cycle is at least 8 of it long")
	if st.LinkAmp == overlay.Auto {
		fs.Lookup("link-amp").DefValue = "16 px at 2160 lines, scaled, at least 3"
	}
	fs.Float32Var(&st.LinkFreq, "link-freq", st.LinkFreq, "with --link-shape wave, elastic or swirl: cycles along each link, to the nearest half (swirl: whole), 0.5..32 (0 = 3; a short link takes fewer)")
	fs.Float32Var(&st.LinkTurns, "link-turns", st.LinkTurns, "with --link-shape spiral: turns of the curl, 0.25..5 (negative: the other way round; 0 = 1)")
	fs.Float32Var(&st.LinkSpeed, "link-speed", st.LinkSpeed, "with --link-shape wave, elastic or swirl: cycles a frame the wave travels along each link (negative: back; 0 = still)")
	fs.BoolVar(&st.BendAway, "bend-away", st.BendAway, "curves bend away from the tracked points' centre, bowing outward (by --bend), instead of to one side of each link")
	fs.Var(sizeValue{&st.Jitter}, "jitter", "draw each track moved by a constant vector within PX px, from a hash of its id: its box, point, label, links and trail together, so overlapping tracks part a little; drawn positions then differ from the file's (0 = off)")
	fs.Var(blendValue{choiceValue{&st.Blend, overlay.Blends}}, "blend", "how the overlay meets the frame: "+strings.Join(overlay.Blends, ", ")+" (add and screen light dark footage up; multiply darkens it by the overlay's luma (white keeps it); lighten and darken draw the overlay only where it is lighter, darker, than the frame; in the frame's own Y'CbCr)")
	fs.Float32Var(&st.OverlayOpacity, "overlay-opacity", st.OverlayOpacity, "the whole overlay's opacity, 0..1, in every --blend mode: the layer is faded as one, so overlapping strokes do not show through each other (labels keep their own opacity)")
}

// blendValue is --blend's choiceValue, which names what to do instead for a mode the
// editors have and trackink does not make.
type blendValue struct{ choiceValue }

// editorOnlyBlends are the editors' blend modes (and the node pack's names for them) that
// trackink does not make, with what each computes: none is an over of one colour and alpha,
// the form every mode takes in the frame's own Y'CbCr (package composite's "Add and
// screen"), so each is left to the editor, by the mode's name there.
var editorOnlyBlends = map[string]struct{ what, editor string }{
	"difference": {"|frame − overlay| per R'G'B' channel", "Difference"},
	"overlay":    {"multiply or screen per R'G'B' channel, as the frame's is dark or light", "Overlay"},
	"max":        {"the greater per R'G'B' channel; lighten compares whole colours by luma", "Lighten"},
	"min":        {"the lesser per R'G'B' channel; darken compares whole colours by luma", "Darken"},
}

// Set refuses an editor-only mode with the reason and what to do instead, and names over
// where "normal" (the editors' and the node pack's word for it) is given.
func (v blendValue) Set(s string) error {
	want, name := strings.Join(v.names, ", "), strings.ToLower(s) // as the editors spell it too
	if m, ok := editorOnlyBlends[name]; ok {
		return fmt.Errorf("%q: want %s; %s (%s) cannot be made in the frame's own Y'CbCr: render the overlay alone with --layer-only and set its layer's blend mode to %s in the editor", s, want, name, m.what, m.editor)
	}
	if name == "normal" {
		return fmt.Errorf("%q: want %s (over is the editors' Normal)", s, want)
	}
	return v.choiceValue.Set(s)
}

// autoOpacityValue is an opacity 0..1 or auto (overlay.Auto): --point-fill-opacity, whose
// default differs by shape. The range is the style's to check (Validate), which names the
// flag or the style file's line.
type autoOpacityValue struct{ v *float32 }

func (a autoOpacityValue) String() string {
	if a.v == nil || *a.v == overlay.Auto {
		return "auto"
	}
	return strconv.FormatFloat(float64(*a.v), 'g', -1, 32)
}

func (a autoOpacityValue) Set(s string) error {
	if s == "auto" {
		*a.v = overlay.Auto
		return nil
	}
	v, err := nonNegative(s, "0..1 or auto")
	if err == nil {
		*a.v = v
	}
	return err
}

func (autoOpacityValue) Type() string { return "opacity" }

// boxSizeValue is --box-size: WxH in px (fractions allowed), 0x0 for none (String gives
// the value back as it takes it, as setStyle needs).
type boxSizeValue struct{ v *[2]float32 }

func (b boxSizeValue) String() string {
	if b.v == nil {
		return "0x0"
	}
	return strconv.FormatFloat(float64(b.v[0]), 'g', -1, 32) + "x" + strconv.FormatFloat(float64(b.v[1]), 'g', -1, 32)
}

func (b boxSizeValue) Set(s string) error {
	ws, hs, ok := strings.Cut(strings.ReplaceAll(strings.ReplaceAll(s, "X", "x"), "×", "x"), "x")
	if !ok {
		return fmt.Errorf("%q: want WxH in px, like 40x80", s)
	}
	w, err := nonNegative(ws, "WxH in px")
	if err != nil {
		return err
	}
	h, err := nonNegative(hs, "WxH in px")
	if err != nil {
		return err
	}
	*b.v = [2]float32{w, h}
	return nil
}

func (boxSizeValue) Type() string { return "WxH" }
