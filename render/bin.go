package render

import (
	"math"

	"trackink/composite"
	"trackink/curves"

	"golang.org/x/image/math/fixed"
)

const ts = composite.TileSize

// bins holds, for every tile, the indices of the primitives that may touch it, per kind and in
// paint order. The lists are reused frame to frame, so binning allocates only while they grow.
type bins struct {
	tilesX, tilesY int
	boxBins        [][]int32
	lineBins       [][]int32
	chordBins      [][]int32 // indices into chords, grouped by curve in curve order
	labelBins      [][]int32
	// chords are the flattened curves: each curve's polyline within curves.Tolerance.
	chords []chord
	// glyphs are the placed glyphs of all labels; label i owns glyphs[glyphStart[i]:glyphStart[i+1]].
	glyphs     []placedGlyph
	glyphStart []int32
}

type chord struct {
	x0, y0, x1, y1 float32
	curve          int32
}

type placedGlyph struct {
	g    *glyph
	x, y int // top-left of the mask in the frame
}

func (b *bins) resize(w, h int) {
	b.tilesX, b.tilesY = (w+ts-1)/ts, (h+ts-1)/ts
	n := b.tilesX * b.tilesY
	b.boxBins = make([][]int32, n)
	b.lineBins = make([][]int32, n)
	b.chordBins = make([][]int32, n)
	b.labelBins = make([][]int32, n)
}

func (b *bins) reset() {
	for i := range b.boxBins {
		b.boxBins[i] = b.boxBins[i][:0]
		b.lineBins[i] = b.lineBins[i][:0]
		b.chordBins[i] = b.chordBins[i][:0]
		b.labelBins[i] = b.labelBins[i][:0]
	}
	b.chords = b.chords[:0]
	b.glyphs = b.glyphs[:0]
	b.glyphStart = b.glyphStart[:0]
}

// tileRange returns the tiles [tx0, tx1) × [ty0, ty1) that the pixel-space rectangle
// [x0, x1] × [y0, y1] overlaps, clipped to the frame; empty when it lies outside.
func (b *bins) tileRange(x0, y0, x1, y1 float32) (tx0, ty0, tx1, ty1 int) {
	clampT := func(v float32, n int) int {
		t := math.Floor(float64(v) / ts)
		return int(math.Max(0, math.Min(float64(n), t)))
	}
	if !(x1 >= 0 && y1 >= 0) { // also rejects NaN
		return 0, 0, 0, 0
	}
	return clampT(x0, b.tilesX), clampT(y0, b.tilesY), clampT(x1, b.tilesX-1) + 1, clampT(y1, b.tilesY-1) + 1
}

// binBoxes lists each box in the tiles its stroke and fill reach.
func (b *bins) binBoxes(boxes []Box) {
	for i := range boxes {
		bx := &boxes[i]
		m := boxMargin(bx)
		tx0, ty0, tx1, ty1 := b.tileRange(bx.X-m, bx.Y-m, bx.X+bx.W+m, bx.Y+bx.H+m)
		for ty := ty0; ty < ty1; ty++ {
			for tx := tx0; tx < tx1; tx++ {
				t := ty*b.tilesX + tx
				b.boxBins[t] = append(b.boxBins[t], int32(i))
			}
		}
	}
}

// boxMargin is how far outside its rectangle a box can cover pixels.
func boxMargin(bx *Box) float32 {
	if bx.Stroke > 0 {
		return max(bx.Stroke, 1)/2 + 1
	}
	return 1
}

// binSegment appends idx to the lists of the tiles within reach r of the segment: for each
// row of tiles, the part of the segment inside the row's band (widened by r) bounds the tiles
// the stroke can touch, so a long diagonal line is listed in a diagonal band of tiles, not its
// whole bounding box.
func (b *bins) binSegment(lists [][]int32, idx int32, x0, y0, x1, y1, r float32) {
	_, ty0, _, ty1 := b.tileRange(min(x0, x1)-r, min(y0, y1)-r, max(x0, x1)+r, max(y0, y1)+r)
	for ty := ty0; ty < ty1; ty++ {
		lo, hi, ok := bandX(x0, y0, x1, y1, float32(ty*ts)-r, float32((ty+1)*ts)+r)
		if !ok {
			continue
		}
		tx0, _, tx1, _ := b.tileRange(lo-r, 0, hi+r, 0)
		for tx := tx0; tx < tx1; tx++ {
			t := ty*b.tilesX + tx
			lists[t] = append(lists[t], idx)
		}
	}
}

// bandX clips the segment to the horizontal band y0b ≤ y ≤ y1b and returns the x extent of
// what remains.
func bandX(x0, y0, x1, y1, y0b, y1b float32) (lo, hi float32, ok bool) {
	dy := y1 - y0
	t0, t1 := float32(0), float32(1)
	if dy == 0 {
		if y0 < y0b || y0 > y1b {
			return 0, 0, false
		}
	} else {
		ta, tb := (y0b-y0)/dy, (y1b-y0)/dy
		if ta > tb {
			ta, tb = tb, ta
		}
		t0, t1 = max(t0, ta), min(t1, tb)
		if t0 > t1 {
			return 0, 0, false
		}
	}
	xa, xb := x0+(x1-x0)*t0, x0+(x1-x0)*t1
	return min(xa, xb), max(xa, xb), true
}

// reach is how far from its centre line a stroke of width w covers pixels.
func reach(w float32) float32 { return max(w, 1)/2 + 0.5 }

func (b *bins) binLines(lines []Line) {
	for i := range lines {
		l := &lines[i]
		b.binSegment(b.lineBins, int32(i), l.X0, l.Y0, l.X1, l.Y1, reach(l.Width))
	}
}

// binCurves flattens each curve and bins its chords. A curve wholly outside the frame is
// skipped before flattening: its control polygon's hull bounds it.
func (b *bins) binCurves(cs []Curve, w, h int) {
	for i := range cs {
		c := &cs[i]
		r := reach(c.Width)
		if min(c.X0, c.X1, c.X2)-r > float32(w) || max(c.X0, c.X1, c.X2)+r < 0 ||
			min(c.Y0, c.Y1, c.Y2)-r > float32(h) || max(c.Y0, c.Y1, c.Y2)+r < 0 {
			continue
		}
		n := curves.Chords(c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, curves.Tolerance)
		ax, ay := c.X0, c.Y0
		for k := 1; k <= n; k++ {
			bx, by := curves.Point(c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, float32(k)/float32(n))
			b.binSegment(b.chordBins, int32(len(b.chords)), ax, ay, bx, by, r)
			b.chords = append(b.chords, chord{ax, ay, bx, by, int32(i)})
			ax, ay = bx, by
		}
	}
}

// binLabels places each label's glyphs and lists the label in the tiles its background covers.
func (b *bins) binLabels(labels []Label, f *Font) {
	for i := range labels {
		l := &labels[i]
		b.glyphStart = append(b.glyphStart, int32(len(b.glyphs)))
		w, h := f.LabelSize(l.Text)
		pad := f.pad()
		var pen fixed.Int26_6
		for _, c := range l.Text {
			g := f.glyph(c)
			x := l.X + pad + pen.Round()
			b.glyphs = append(b.glyphs, placedGlyph{g, x + g.dx, l.Y + pad + f.Ascent + g.dy})
			pen += g.adv
		}
		tx0, ty0, tx1, ty1 := b.tileRange(float32(l.X), float32(l.Y), float32(l.X+w), float32(l.Y+h))
		for ty := ty0; ty < ty1; ty++ {
			for tx := tx0; tx < tx1; tx++ {
				t := ty*b.tilesX + tx
				b.labelBins[t] = append(b.labelBins[t], int32(i))
			}
		}
	}
	b.glyphStart = append(b.glyphStart, int32(len(b.glyphs)))
}
