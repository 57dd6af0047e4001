package overlay

import (
	"sync"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
)

// GoMono, as a Style's Font, is the built-in monospace font (Go Mono): every digit the same
// width, so labels of coordinates keep their width as they change.
const GoMono = "Go Mono"

var goMono = sync.OnceValue(func() *Typeface {
	f, err := opentype.Parse(gomono.TTF)
	if err != nil {
		panic("overlay: embedded Go Mono font does not parse: " + err.Error())
	}
	return &Typeface{name: GoMono, f: f}
})

// blobLook is the preset "blob": the look video makers call blob tracking. Thin white boxes
// whose insides are inverted, small monospace labels with each track's hex string and its
// box's coordinates (zero-padded, so they do not jitter), thin white links between near
// boxes, no points or fills.
var blobLook = struct {
	about string
	style func() Style
}{"blob tracking: thin white boxes with inverted insides, monospace hex ids and coordinates, thin white links", func() Style {
	s := DefaultStyle()
	white := OptionalColor{C: opaque(0xffffff), Set: true}
	s.BoxEffects = []Effect{EffectInvert}
	s.Roundness, s.FillOpacity = 0, 0
	s.BoxColor, s.LinkColor, s.LabelTextColor = white, white, white
	s.LabelColor = OptionalColor{C: opaque(0x000000), Set: true}
	s.LabelOpacity = 0.55
	s.LabelFormat = "{hex} x{x} y{y}"
	s.Font = GoMono
	s.PointRadius, s.CurveWidth = 0, 0
	s.LineWidth, s.LinkOpacity = 1, 0.75
	s.MinLife, s.Fade = creativeMinLife, creativeFade
	return s
}}
