package render

import (
	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The labels stage: each label's rounded background (a box without stroke) and its
// glyphs' coverage masks, where overlay.Font.Layout placed them (twin: kernels/labels.cu).

// drawLabels draws each label's rounded background (of size W×H), then its glyphs:
// label i owns glyphs[start[i]:start[i+1]], the first half of them its outline's when it
// has one (overlay.Font.Layout).
func drawLabels(t *composite.Tile, labels []overlay.Label, paints []labelPaint, f *overlay.Font, glyphs []overlay.PlacedGlyph, start []int32, idx []int32, sc *stageScratch) {
	for _, i := range idx {
		l := &labels[i]
		w, h := l.W, l.H
		bg := overlay.Box{X: float32(l.X), Y: float32(l.Y), W: float32(w), H: float32(h),
			Radius: float32(min(w, h)) / 4, Fill: l.Background}
		drawBox(t, &bg, &paints[i].background, sc, &noGlow)
		gs := glyphs[start[i]:start[i+1]]
		if l.Outline > 0 {
			for _, g := range gs[:len(gs)/2] {
				drawGlyph(t, f, g, &paints[i].outline)
			}
			gs = gs[len(gs)/2:]
		}
		for _, g := range gs {
			drawGlyph(t, f, g, &paints[i].text)
		}
	}
}

// noGlow is the glow of label backgrounds: none.
var noGlow sdf.Glow

// labelPaint is a label's colours in the layer's Space: its background as a box's paint
// (no stroke), its text and the text's outline.
type labelPaint struct {
	background    boxPaint
	text, outline layerColor
}

// drawGlyph blends the glyph's mask, clipped to the tile, as coverage of the text colour.
func drawGlyph(t *composite.Tile, f *overlay.Font, pg overlay.PlacedGlyph, c *layerColor) {
	mask, w, h := f.Glyph(pg.Glyph)
	x0, y0 := max(pg.X, t.X0), max(pg.Y, t.Y0)
	x1, y1 := min(pg.X+w, t.X0+t.W), min(pg.Y+h, t.Y0+t.H)
	if x0 >= x1 || y0 >= y1 {
		return
	}
	overMask(t, (y0-t.Y0)*ts+x0-t.X0, mask[(y0-pg.Y)*w+x0-pg.X:], w, x1-x0, y1-y0, c)
	for y := y0; y < y1; y++ {
		t.Touch(y-t.Y0, x0-t.X0, x1-t.X0)
	}
}
