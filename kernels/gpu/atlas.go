package gpu

import (
	"math"

	"trackink/overlay"
)

// atlas is a font's glyphs packed for the device: all masks in one byte array, in the
// font's glyph numbers. It grows as labels bring characters the font had not rasterised
// (Font.Glyphs grows with them), so it holds the glyphs used, not a whole script.
type atlas struct {
	bytes    []byte
	mask     []int32 // offset of glyph i's mask in bytes
	w, h     []int32
	uploaded int // how many of the bytes the device's copy holds
}

// add packs the glyphs f has rasterised since the last call.
func (a *atlas) add(f *overlay.Font) {
	for i := int32(len(a.mask)); i < int32(f.Glyphs()); i++ {
		mask, w, h := f.Glyph(i)
		a.mask, a.w, a.h = append(a.mask, int32(len(a.bytes))), append(a.w, int32(w)), append(a.h, int32(h))
		a.bytes = append(a.bytes, mask[:w*h]...)
	}
}

// layout appends the labels' device records and their glyphs, placed by f.Layout as every
// backend places them, packing the glyphs the labels bring; placed is scratch space,
// returned for reuse.
func (a *atlas) layout(labels []overlay.Label, f *overlay.Font, out []tkLabel, glyphs []tkGlyph, placed []overlay.PlacedGlyph) ([]tkLabel, []tkGlyph, []overlay.PlacedGlyph) {
	for i := range labels {
		l := &labels[i]
		rec := tkLabel{X: int32(l.X), Y: int32(l.Y), W: int32(l.W), H: int32(l.H), Glyph0: int32(len(glyphs)),
			Color:      [4]float32{l.Color.R, l.Color.G, l.Color.B, l.Color.A},
			Background: [4]float32{l.Background.R, l.Background.G, l.Background.B, l.Background.A}}
		if l.Outline > 0 {
			rec.Outline = int32(math.Ceil(float64(l.Outline)))
			rec.OutlineColor = [4]float32{l.OutlineColor.R, l.OutlineColor.G, l.OutlineColor.B, l.OutlineColor.A}
		}
		placed = f.Layout(placed[:0], l)
		a.add(f)
		for _, g := range placed {
			glyphs = append(glyphs, tkGlyph{X: int32(g.X), Y: int32(g.Y), W: a.w[g.Glyph], H: a.h[g.Glyph], Mask: a.mask[g.Glyph]})
		}
		rec.Glyph1 = int32(len(glyphs))
		out = append(out, rec)
	}
	return out, glyphs, placed
}
