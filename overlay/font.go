package overlay

import (
	"fmt"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Labels are set in Go Medium, embedded in the binary (no font files to ship). Glyphs are
// rasterised once per pixel size into coverage masks by x/image/font (analytic anti-aliasing,
// like the rest of the layer); drawing a label copies masks, it never touches the font again.

// firstGlyph and lastGlyph bound the printable ASCII range the atlas holds; other bytes are
// drawn as '?'.
const firstGlyph, lastGlyph = ' ', '~'

// glyph is one rasterised character: an alpha mask placed at (dx, dy) from the pen position on
// the baseline, advancing the pen by adv (26.6 fixed point).
type glyph struct {
	mask   []byte
	w, h   int
	dx, dy int
	adv    fixed.Int26_6
}

// Font is the glyph atlas for one pixel size.
type Font struct {
	Size            int // pixel size (em height)
	Ascent, Descent int // pixels above and below the baseline
	glyphs          [lastGlyph - firstGlyph + 1]glyph
}

var parsedFont = func() *opentype.Font {
	f, err := opentype.Parse(gomedium.TTF)
	if err != nil {
		panic("overlay: embedded Go Medium font does not parse: " + err.Error())
	}
	return f
}()

// The label sizes NewFont accepts, in pixels.
const (
	MinFontSize = 4
	MaxFontSize = 512
)

// NewFont rasterises the label glyphs at the given pixel size.
func NewFont(size int) (*Font, error) {
	if size < MinFontSize || size > MaxFontSize {
		return nil, fmt.Errorf("label size %d px is outside %d..%d", size, MinFontSize, MaxFontSize)
	}
	face, err := opentype.NewFace(parsedFont, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("label font at %d px: %w", size, err)
	}
	defer face.Close()
	m := face.Metrics()
	f := &Font{Size: size, Ascent: m.Ascent.Ceil(), Descent: m.Descent.Ceil()}
	for c := firstGlyph; c <= lastGlyph; c++ {
		dr, mask, mp, adv, ok := face.Glyph(fixed.Point26_6{}, rune(c))
		if !ok {
			return nil, fmt.Errorf("label font has no glyph for %q", c)
		}
		g := &f.glyphs[c-firstGlyph]
		g.adv, g.dx, g.dy, g.w, g.h = adv, dr.Min.X, dr.Min.Y, dr.Dx(), dr.Dy()
		g.mask = make([]byte, g.w*g.h, g.w*g.h+MaskSlack)
		for y := 0; y < g.h; y++ {
			for x := 0; x < g.w; x++ {
				_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA()
				g.mask[y*g.w+x] = byte(a >> 8)
			}
		}
	}
	return f, nil
}

func (f *Font) glyph(c byte) *glyph {
	if c < firstGlyph || c > lastGlyph {
		c = '?'
	}
	return &f.glyphs[c-firstGlyph]
}

// Width returns the advance width of text in pixels.
func (f *Font) Width(text []byte) int {
	var w fixed.Int26_6
	for _, c := range text {
		w += f.glyph(c).adv
	}
	return w.Ceil()
}

// pad is the space between a label's text and the edge of its background.
func (f *Font) pad() int { return max(1, f.Size/4) }

// LabelSize returns the size in pixels of a label's background: the text plus padding.
func (f *Font) LabelSize(text []byte) (w, h int) {
	p := f.pad()
	return f.Width(text) + 2*p, f.Ascent + f.Descent + 2*p
}

// PlacedGlyph is one glyph of a label, laid out in the frame.
type PlacedGlyph struct {
	Char byte // the byte it draws (Glyph(Char) is its mask)
	X, Y int  // the top-left corner of its mask in the frame
}

// Layout appends the glyphs of label l to dst, placed: the pen starts at the label's
// padding, each glyph's mask sits at its offset from the pen on the baseline (Ascent below
// the padding), and the pen advances in 26.6 fixed point, rounded per glyph. Every backend
// draws the glyphs where Layout puts them.
func (f *Font) Layout(dst []PlacedGlyph, l *Label) []PlacedGlyph {
	pad := f.pad()
	var pen fixed.Int26_6
	for _, c := range l.Text {
		g := f.glyph(c)
		dst = append(dst, PlacedGlyph{c, l.X + pad + pen.Round() + g.dx, l.Y + pad + f.Ascent + g.dy})
		pen += g.adv
	}
	return dst
}

// MaskSlack is how many bytes of capacity every glyph mask has past its end (zeros), so that
// a vectorised reader may load 8 bytes at any position of a mask (render's glyph blits do).
const MaskSlack = 8

// Glyph returns the w×h coverage mask (row-major, shared: do not modify) of the glyph that
// draws byte c (bytes outside the atlas draw '?'); its capacity runs MaskSlack bytes on.
func (f *Font) Glyph(c byte) (mask []byte, w, h int) {
	g := f.glyph(c)
	return g.mask, g.w, g.h
}
