package gpu

import "trackink/overlay"

// atlas is a font's glyphs packed for the device: all masks in one byte array.
type atlas struct {
	bytes []byte
	mask  [256]int32 // offset of byte c's mask in bytes
	w, h  [256]int32
}

// newAtlas packs the glyphs of every byte value (the font maps unknown bytes to '?', so
// the table needs no fallback of its own).
func newAtlas(f *overlay.Font) *atlas {
	a := &atlas{}
	for c := range 256 {
		mask, w, h := f.Glyph(byte(c))
		a.mask[c], a.w[c], a.h[c] = int32(len(a.bytes)), int32(w), int32(h)
		a.bytes = append(a.bytes, mask[:w*h]...)
	}
	if len(a.bytes) == 0 {
		a.bytes = []byte{0} // a device buffer cannot be empty
	}
	return a
}

// layout appends the labels' device records and their glyphs, placed by f.Layout as every
// backend places them; placed is scratch space, returned for reuse.
func (a *atlas) layout(labels []overlay.Label, f *overlay.Font, out []tkLabel, glyphs []tkGlyph, placed []overlay.PlacedGlyph) ([]tkLabel, []tkGlyph, []overlay.PlacedGlyph) {
	for i := range labels {
		l := &labels[i]
		w, h := f.LabelSize(l.Text)
		rec := tkLabel{X: int32(l.X), Y: int32(l.Y), W: int32(w), H: int32(h), Glyph0: int32(len(glyphs)),
			Color:      [4]float32{l.Color.R, l.Color.G, l.Color.B, l.Color.A},
			Background: [4]float32{l.Background.R, l.Background.G, l.Background.B, l.Background.A}}
		placed = f.Layout(placed[:0], l)
		for _, g := range placed {
			glyphs = append(glyphs, tkGlyph{X: int32(g.X), Y: int32(g.Y), W: a.w[g.Char], H: a.h[g.Char], Mask: a.mask[g.Char]})
		}
		rec.Glyph1 = int32(len(glyphs))
		out = append(out, rec)
	}
	return out, glyphs, placed
}
