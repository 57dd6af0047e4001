package options

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trackink/overlay"
)

// The glow flags and gradient links (overlay.Style.Glow, GlowOpacity and LinkGradient). registerGlowFlags adds them after the colour flags, so that style files
// may set them too ("glow = 6", "link-color = \"gradient\"").

// registerGlowFlags adds --glow and --glow-opacity, --halo and --halo-opacity, and teaches
// --link-color "gradient".
func registerGlowFlags(fs *pflag.FlagSet, st *overlay.Style) {
	fs.Var(sizeValue{&st.Glow}, "glow", "a soft glow around every line, curve, trail, point and box outline reaching this many px beyond the stroke, from the stroke's own distance (0 = off)")
	if st.Glow == overlay.Auto {
		fs.Lookup("glow").DefValue = "12 px at 2160 lines, scaled by the height's square root"
	}
	fs.Float32Var(&st.GlowOpacity, "glow-opacity", st.GlowOpacity, "the glow's opacity at the stroke's edge, 0..1; it falls smoothly to none at --glow")
	fs.Var(sizeValue{&st.Halo}, "halo", "edge every stroke but dotted ones with a band this many px wide, black or white, whichever contrasts more with it, so that it stands out from a picture of its own colour (0 = off; a glow turns it off)")
	if st.Halo == overlay.Auto {
		fs.Lookup("halo").DefValue = "2 px at 2160 lines, scaled, at least 1"
	}
	fs.Float32Var(&st.HaloOpacity, "halo-opacity", st.HaloOpacity, "the halo's opacity at the stroke's, 0..1")
	lc := fs.Lookup("link-color")
	lc.Value = linkColorValue{colorValue{&st.LinkColor}, &st.LinkGradient, &st.LinkGradientColors}
	lc.Usage = "#rrggbb[aa] or a colour name for all links, or gradient: each straight solid link runs from one end's colour to the other's, " +
		"or gradient:COLOR,COLOR: from the first colour at the lower track id's end to the second at the higher's (auto: the mean of its ends' colours)"
	if st.LinkGradient {
		lc.DefValue = lc.Value.String()
	}
}

// sizeValue is a size in px, never negative (--glow, --aberration, the stroke widths and
// radii): overlay.Auto, a look's "scaled to the frame", is no value a user can give.
type sizeValue struct{ v *float32 }

func (g sizeValue) String() string {
	if g.v == nil {
		return "0"
	}
	if *g.v == overlay.Auto {
		return "auto"
	}
	return strconv.FormatFloat(float64(*g.v), 'g', -1, 32)
}

func (g sizeValue) Set(s string) error {
	v, err := nonNegative(s, "px, 0 for none")
	if err == nil {
		*g.v = v
	}
	return err
}

// nonNegative parses a flag's number that is never negative; want says what it takes.
func nonNegative(s, want string) (float32, error) {
	v, err := strconv.ParseFloat(s, 32)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is out of range for this flag", s)
	}
	if err != nil || v != v {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("%q: is negative: want %s", s, want)
	}
	return float32(v), nil
}

func (sizeValue) Type() string { return "px" }

// linkColorValue is --link-color: a colour for every link, auto, gradient (between the ends'
// colours) or gradient:COLOR,COLOR (between those).
type linkColorValue struct {
	colorValue
	gradient *bool
	ends     *[2]overlay.OptionalColor
}

func (v linkColorValue) String() string {
	if v.gradient != nil && *v.gradient {
		if v.ends[0].Set {
			return "gradient:" + v.ends[0].String() + "," + v.ends[1].String()
		}
		return "gradient"
	}
	return v.colorValue.String()
}

func (v linkColorValue) Set(s string) error {
	if s == "gradient" {
		*v.c, *v.gradient, *v.ends = overlay.OptionalColor{}, true, [2]overlay.OptionalColor{}
		return nil
	}
	if list, ok := strings.CutPrefix(s, "gradient:"); ok {
		a, b, two := strings.Cut(list, ",")
		if !two || a == "" || b == "" || strings.Contains(b, ",") {
			return fmt.Errorf("%q: want gradient:COLOR,COLOR (from the lower track id's end to the higher's)", s)
		}
		var ends [2]overlay.OptionalColor
		for i, c := range []string{a, b} {
			var err error
			if ends[i], err = overlay.ParseOptionalColor(c); err != nil {
				return fmt.Errorf("%q: %w", s, err)
			}
			if !ends[i].Set {
				return fmt.Errorf("%q: %q is no colour: want gradient:COLOR,COLOR, or gradient for the ends' own", s, c)
			}
		}
		*v.c, *v.gradient, *v.ends = overlay.OptionalColor{}, true, ends
		return nil
	}
	if err := v.colorValue.Set(s); err != nil {
		return err
	}
	*v.gradient, *v.ends = false, [2]overlay.OptionalColor{}
	return nil
}
