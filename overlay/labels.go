package overlay

import (
	"math"
	"strconv"

	"trackink/scene"
)

// AddBoxLabel adds the label "#id class score" for box b (an untracked box has no "#id"; one
// with nothing to say gets no label): on the box's top edge, outside the box; moved inside
// the box when it would leave the top of the frame, and shifted left or up to stay inside
// the frame. A box wholly outside the frame gets no label.
func (p *Primitives) AddBoxLabel(b *scene.Box, c scene.Color, stroke float32, font *Font, w, h int) {
	if b.X+b.W < 0 || b.Y+b.H < 0 || b.X > float32(w) || b.Y > float32(h) {
		return
	}
	start := len(p.text)
	space := func() {
		if len(p.text) > start {
			p.text = append(p.text, ' ')
		}
	}
	if b.ID != scene.NoID {
		p.text = append(p.text, '#')
		p.text = strconv.AppendInt(p.text, int64(b.ID), 10)
	}
	if b.Class != "" {
		space()
		p.text = append(p.text, b.Class...)
	}
	if b.HasScore {
		space()
		p.text = strconv.AppendFloat(p.text, float64(b.Score), 'f', 2, 32)
	}
	if len(p.text) == start {
		return // an untracked box with neither class nor score: nothing to say
	}
	text := p.text[start:len(p.text):len(p.text)]
	lw, lh := font.LabelSize(text)
	half := stroke / 2
	x := int(math.Round(float64(b.X - half)))
	y := int(math.Round(float64(b.Y-half))) - lh
	if y < 0 {
		y = int(math.Round(float64(b.Y + half)))
	}
	x = max(0, min(x, w-lw))
	y = max(0, min(y, h-lh))
	// Dark text on light colours, light text on dark ones (BT.709 luma).
	luma := 0.2126*float32(c.R) + 0.7152*float32(c.G) + 0.0722*float32(c.B)
	fg := opaque(0xffffff)
	if luma > 150 {
		fg = opaque(0x000000)
	}
	p.Labels = append(p.Labels, Label{X: x, Y: y, Text: text, Color: Premul(fg, 1), Background: Premul(c, 0.85)})
}
