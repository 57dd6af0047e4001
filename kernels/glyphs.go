package kernels

import (
	"golang.org/x/image/math/fixed"
	"trackink/render"
)

// atlas is a font's glyphs packed for the device: all masks in one byte array.
type atlas struct {
	bytes  []byte
	glyphs [256]atlasGlyph
}

type atlasGlyph struct {
	mask, w, h, dx, dy int
	adv                fixed.Int26_6
}

// newAtlas packs the glyphs of every byte value (the font maps unknown bytes to '?', so
// the table needs no fallback of its own).
func newAtlas(f *render.Font) *atlas {
	a := &atlas{}
	for c := 0; c < 256; c++ {
		mask, w, h, dx, dy, adv := f.Glyph(byte(c))
		a.glyphs[c] = atlasGlyph{mask: len(a.bytes), w: w, h: h, dx: dx, dy: dy, adv: adv}
		a.bytes = append(a.bytes, mask[:w*h]...)
	}
	if len(a.bytes) == 0 {
		a.bytes = []byte{0} // a device buffer cannot be empty
	}
	return a
}

// layout appends the labels' device records and their placed glyphs, placing glyphs as
// render's placeGlyphs does: the pen starts at the label's padding, each glyph's mask sits
// at its offset from the pen on the baseline (Ascent below the padding), the pen advances
// in 26.6 and is rounded per glyph.
func (a *atlas) layout(labels []render.Label, f *render.Font, out []tkLabel, glyphs []tkGlyph) ([]tkLabel, []tkGlyph) {
	padW, _ := f.LabelSize(nil) // the padding on both sides of no text
	pad := padW / 2
	for i := range labels {
		l := &labels[i]
		w, h := f.LabelSize(l.Text)
		rec := tkLabel{X: int32(l.X), Y: int32(l.Y), W: int32(w), H: int32(h), Glyph0: int32(len(glyphs)),
			Color:      [4]float32{l.Color.R, l.Color.G, l.Color.B, l.Color.A},
			Background: [4]float32{l.Background.R, l.Background.G, l.Background.B, l.Background.A}}
		var pen fixed.Int26_6
		for _, c := range l.Text {
			g := &a.glyphs[c]
			x := l.X + pad + pen.Round()
			glyphs = append(glyphs, tkGlyph{X: int32(x + g.dx), Y: int32(l.Y + pad + f.Ascent + g.dy),
				W: int32(g.w), H: int32(g.h), Mask: int32(g.mask)})
			pen += g.adv
		}
		rec.Glyph1 = int32(len(glyphs))
		out = append(out, rec)
	}
	return out, glyphs
}
