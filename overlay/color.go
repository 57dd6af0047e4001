package overlay

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"trackink/internal/suggest"
	"trackink/scene"
)

// Colours. Every item is drawn in one colour, chosen in this order: the element's colour
// from the style when it is set (Style.BoxColor …), the item's own colour from the tracking
// file, else the palette's colour for its track id or, with ColorBy class, for its class
// name. A link takes the mean of its two ends' colours.

// ColorBy says what picks an item's palette colour.
type ColorBy int

const (
	// ByTrack gives every track id its colour: id i takes palette[i mod len].
	ByTrack ColorBy = iota
	// ByClass gives every class its colour (see Builder.classColor); items without a class
	// fall back to their track's.
	ByClass
	// BySource gives every tracks file drawn together its colour (Style.Sources): the
	// i-th file's items take palette[i].
	BySource
)

// ParseColorBy reads "track", "class" or "source".
func ParseColorBy(s string) (ColorBy, error) {
	switch s {
	case "track":
		return ByTrack, nil
	case "class":
		return ByClass, nil
	case "source":
		return BySource, nil
	}
	return 0, fmt.Errorf("color by %q: want track, class or source", s)
}

func (c ColorBy) String() string {
	switch c {
	case ByClass:
		return "class"
	case BySource:
		return "source"
	}
	return "track"
}

// OptionalColor is a colour that, when Set, replaces the items' own for one element.
type OptionalColor struct {
	C   scene.Color
	Set bool
}

// ParseOptionalColor reads "#rrggbb[aa]" or a colour name (ColorNames, any case), or ""
// (or "auto") for no colour. A name a letter or two off is suggested.
func ParseOptionalColor(s string) (OptionalColor, error) {
	if s == "" || s == "auto" {
		return OptionalColor{}, nil
	}
	if rgb, ok := colorNames[strings.ToLower(s)]; ok {
		return OptionalColor{opaque(rgb), true}, nil
	}
	c, ok := scene.ParseColor(s)
	if !ok {
		hint := ""
		if !strings.HasPrefix(s, "#") {
			hint = suggest.DidYouMean(strings.ToLower(s), ColorNames())
		}
		return OptionalColor{}, fmt.Errorf("%q is not a color: want #rrggbb, #rrggbbaa or a name (%s)%s", s, strings.Join(ColorNames(), " "), hint)
	}
	return OptionalColor{c, true}, nil
}

// colorNames are the colours colour flags take by name: CSS's sixteen basic colours (its
// green is #008000; lime is #00ff00), orange, and CSS's other names cyan, magenta and grey
// for aqua, fuchsia and gray.
var colorNames = map[string]uint32{
	"black": 0x000000, "silver": 0xc0c0c0, "gray": 0x808080, "white": 0xffffff,
	"maroon": 0x800000, "red": 0xff0000, "purple": 0x800080, "fuchsia": 0xff00ff,
	"green": 0x008000, "lime": 0x00ff00, "olive": 0x808000, "yellow": 0xffff00,
	"navy": 0x000080, "blue": 0x0000ff, "teal": 0x008080, "aqua": 0x00ffff,
	"orange": 0xffa500, "cyan": 0x00ffff, "magenta": 0xff00ff, "grey": 0x808080,
}

// ColorNames returns the colour names ParseOptionalColor takes, sorted.
func ColorNames() []string {
	return slices.Sorted(maps.Keys(colorNames))
}

func (o OptionalColor) String() string {
	if !o.Set {
		return "auto"
	}
	return o.C.String()
}

// palettes are the named palettes (Style.Palette), each ordered so that neighbouring indexes
// differ in hue.
var palettes = map[string][]uint32{
	// Tableau 20, reordered: the default.
	"tableau20": {
		0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf,
		0xaec7e8, 0xffbb78, 0x98df8a, 0xff9896, 0xc5b0d5, 0xc49c94, 0xf7b6d2, 0xc7c7c7, 0xdbdb8d, 0x9edae5,
	},
	// Okabe and Ito's colours, told apart with any colour vision (without black).
	"okabe-ito": {0xe69f00, 0x56b4e9, 0x009e73, 0xf0e442, 0x0072b2, 0xd55e00, 0xcc79a7},
	// Saturated colours that glow on dark footage, for the plexus look.
	"neon": {0x00f5ff, 0xff2bd6, 0x39ff14, 0xffe600, 0xff6b00, 0x9d00ff, 0x00ff9d, 0xff0055},
	// One colour: everything white (set the element colours for others).
	"mono": {0xffffff},
}

// DefaultPalette is the palette a Style without one uses.
const DefaultPalette = "tableau20"

// Palettes returns the names of the palettes, sorted.
func Palettes() []string {
	names := make([]string, 0, len(palettes))
	for n := range palettes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// palette returns the named palette (the default for "").
func palette(name string) ([]uint32, error) {
	if name == "" {
		name = DefaultPalette
	}
	p, ok := palettes[name]
	if !ok {
		return nil, fmt.Errorf("want one of %s", strings.Join(Palettes(), ", "))
	}
	return p, nil
}

// opaque returns the opaque colour 0xRRGGBB.
func opaque(rgb uint32) scene.Color {
	return scene.Color{R: uint8(rgb >> 16), G: uint8(rgb >> 8), B: uint8(rgb), A: 255}
}

// TrackColor returns the default palette's colour of a track id.
func TrackColor(id int) scene.Color { return paletteColor(palettes[DefaultPalette], id) }

func paletteColor(p []uint32, i int) scene.Color {
	n := len(p)
	return opaque(p[((i%n)+n)%n])
}

// classIndex is the palette index of a class name: a hash, so that a class has one colour
// whatever else is in the video.
func classIndex(class string) int {
	h := fnv.New32a()
	h.Write([]byte(class))
	return int(h.Sum32() & 0x7fffffff)
}

// Premul converts a straight-alpha colour to premultiplied RGBA, scaling its alpha by opacity.
// Twin (for links): linkColor in kernels/links.cu.
func Premul(c scene.Color, opacity float32) RGBA {
	a := float32(c.A) / 255 * opacity
	return RGBA{float32(c.R) / 255 * a, float32(c.G) / 255 * a, float32(c.B) / 255 * a, a}
}

// mix averages two colours, so a link takes the hues of both its ends. Twin: linkColor in
// kernels/links.cu, with Premul.
func mix(a, b scene.Color) scene.Color {
	avg := func(x, y uint8) uint8 { return uint8((int(x) + int(y)) / 2) }
	return scene.Color{R: avg(a.R, b.R), G: avg(a.G, b.G), B: avg(a.B, b.B), A: avg(a.A, b.A)}
}
