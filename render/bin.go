package render

import (
	"math"

	"trackink/composite"
	"trackink/curves"
	"trackink/overlay"
	"trackink/sdf"
)

// The bin stage (twin: kernels/bin.cu): curves flattened into chords, then, for every tile,
// the primitives of each kind that can reach it.

// bins holds, for every tile, the indices of the primitives that may touch it, per kind and in
// paint order. Like the GPU's binning it runs in two passes over the primitives, a count and
// then a fill into one flat array per kind, so a frame allocates nothing unless it needs more
// entries than any frame before it.
type bins struct {
	tilesX, tilesY int
	boxBins        binList
	lineBins       binList
	chordBins      binList // indices into chords, grouped by stroke in paint order
	labelBins      binList
	// chords are the flattened curves: each curve's polyline within curves.Tolerance.
	chords []chord
	// chordTiles is, for each chord, the rectangle of tiles the count pass listed it in, or
	// an empty one where it binned the chord band by band: the fill pass lists the chord in
	// the same rectangle without binning it again.
	chordTiles []tileRect
	// glyphs are the placed glyphs of all labels; label i owns glyphs[glyphStart[i]:glyphStart[i+1]].
	glyphs     []overlay.PlacedGlyph
	glyphStart []int32
	// The primitives' colours carried into the layer's Space, by primitive index (curves: by
	// curve, of which a stroke takes its first curve's).
	boxPaints   []boxPaint
	lineColors  []layerColor
	lineEnds    []layerColor // a gradient line's Color1
	curveColors []layerColor
	labelPaints []labelPaint
}

// binList is one kind's per-tile lists: tile t's entries are items[start[t]:start[t+1]].
type binList struct {
	start   []int32 // len tiles+1; during the count pass, start[t+1] counts tile t
	cursor  []int32 // during the fill pass, where tile t's next entry goes
	items   []int32
	filling bool
}

func (l *binList) resize(tiles int) {
	l.start = make([]int32, tiles+1)
	l.cursor = make([]int32, tiles)
}

// add lists primitive idx in tile t.
func (l *binList) add(t int, idx int32) {
	if l.filling {
		l.items[l.cursor[t]] = idx
		l.cursor[t]++
		return
	}
	l.start[t+1]++
}

// beginCount starts the count pass.
func (l *binList) beginCount() {
	clear(l.start)
	l.filling = false
}

// beginFill turns the counts into offsets and starts the fill pass.
func (l *binList) beginFill() {
	for t := 1; t < len(l.start); t++ {
		l.start[t] += l.start[t-1]
	}
	n := int(l.start[len(l.start)-1])
	if cap(l.items) < n {
		// Headroom, so that a scene that grows slowly does not allocate every frame.
		l.items = make([]int32, n, n+n/4)
	}
	l.items = l.items[:n]
	copy(l.cursor, l.start)
	l.filling = true
}

func (l *binList) tile(t int) []int32 { return l.items[l.start[t]:l.start[t+1]] }

// chord is one segment of a flattened curve. Chords of one stroke (a curve, or a run of
// joined curves) share stroke, the index of the stroke's first curve.
type chord struct {
	x0, y0, x1, y1 float32
	stroke         int32
	opacity        float32 // 1 − the curve's fade at the chord's middle
	s0             float32 // the arc length of the chords before it in its curve (dashed strokes only)
	l              float32 // its length, curves.ChordLen (dashed strokes only)
	// turn0 and turn1 are, with a glow, the sine of the stroke's turn at the chord's start
	// and end (to the chord before and after it), 1 for a turn past 90° and where the stroke
	// ends: how far past its ends the chord can be the stroke's nearest (slabSpans).
	turn0, turn1 float32
}

func (b *bins) resize(w, h int) {
	b.tilesX, b.tilesY = (w+ts-1)/ts, (h+ts-1)/ts
	n := b.tilesX * b.tilesY
	for _, l := range b.lists() {
		l.resize(n)
	}
}

func (b *bins) lists() [4]*binList {
	return [4]*binList{&b.boxBins, &b.lineBins, &b.chordBins, &b.labelBins}
}

// twoPasses runs a kind's binning as a count pass and a fill pass into l.
func twoPasses(l *binList, pass func()) {
	l.beginCount()
	pass()
	l.beginFill()
	pass()
}

// binCurves flattens the curves and bins their chords: the largest share of binning, which
// Draw runs on a goroutine of its own beside binOthers (the kinds' lists are independent).
func (b *bins) binCurves(p *overlay.Primitives, sp *composite.Space, w, h int) {
	b.curveColors = b.curveColors[:0]
	for i := range p.Curves {
		b.curveColors = append(b.curveColors, toLayer(sp, p.Curves[i].Color))
	}
	b.flatten(p.Curves, w, h, &p.Glow)
	twoPasses(&b.chordBins, func() { b.binChords(p.Curves, &p.Glow) })
}

// binOthers bins the boxes, lines and labels.
func (b *bins) binOthers(p *overlay.Primitives, sp *composite.Space) {
	b.boxPaints, b.lineColors, b.labelPaints = b.boxPaints[:0], b.lineColors[:0], b.labelPaints[:0]
	for i := range p.Boxes {
		bx := &p.Boxes[i]
		b.boxPaints = append(b.boxPaints, boxPaint{fill: toLayer(sp, bx.Fill), stroke: toLayer(sp, bx.StrokeColor)})
	}
	b.lineEnds = b.lineEnds[:0]
	for i := range p.Lines {
		b.lineColors = append(b.lineColors, toLayer(sp, p.Lines[i].Color))
		b.lineEnds = append(b.lineEnds, toLayer(sp, p.Lines[i].Color1))
	}
	for i := range p.Labels {
		l := &p.Labels[i]
		b.labelPaints = append(b.labelPaints, labelPaint{background: boxPaint{fill: toLayer(sp, l.Background)}, text: toLayer(sp, l.Color),
			outline: toLayer(sp, l.OutlineColor)})
	}
	b.placeGlyphs(p.Labels, p.Font)
	twoPasses(&b.boxBins, func() { b.binBoxes(p.Boxes, &p.Glow) })
	twoPasses(&b.lineBins, func() { b.binLines(p.Lines, &p.Glow) })
	twoPasses(&b.labelBins, func() { b.binLabels(p.Labels) })
}

// empty reports whether nothing reaches tile t.
func (b *bins) empty(t int) bool {
	for _, l := range b.lists() {
		if l.start[t] != l.start[t+1] {
			return false
		}
	}
	return true
}

// tileRange returns the tiles [tx0, tx1) × [ty0, ty1) that the pixel-space rectangle
// [x0, x1] × [y0, y1] overlaps, clipped to the frame; empty when it lies outside.
func (b *bins) tileRange(x0, y0, x1, y1 float32) (tx0, ty0, tx1, ty1 int) {
	// ⌊v / ts⌋ clamped to [0, n], for v not NaN: v / ts is exact in float32 (ts is a power
	// of two), and for 0 ≤ v < n·ts truncating it rounds it down. (math.Floor, Min and Max
	// are calls, and this runs for every chord of every curve, twice.)
	clampT := func(v float32, n int) int {
		switch {
		case !(v >= 0):
			return 0
		case v >= float32(n*ts):
			return n
		}
		return int(v * (1.0 / ts))
	}
	// NaN coordinates (possible through the Go API; the readers reject them) reach nothing.
	if !(x1 >= 0 && y1 >= 0) || x0 != x0 || y0 != y0 {
		return 0, 0, 0, 0
	}
	return clampT(x0, b.tilesX), clampT(y0, b.tilesY), clampT(x1, b.tilesX-1) + 1, clampT(y1, b.tilesY-1) + 1
}

// binBoxes lists each box in the tiles its stroke, its glow and its fill reach.
func (b *bins) binBoxes(boxes []overlay.Box, g *sdf.Glow) {
	for i := range boxes {
		bx := &boxes[i]
		m := boxMargin(bx, g)
		tx0, ty0, tx1, ty1 := b.tileRange(bx.X-m, bx.Y-m, bx.X+bx.W+m, bx.Y+bx.H+m)
		for ty := ty0; ty < ty1; ty++ {
			for tx := tx0; tx < tx1; tx++ {
				b.boxBins.add(ty*b.tilesX+tx, int32(i))
			}
		}
	}
}

// boxMargin is how far outside its rectangle a box can cover pixels: half a pixel past its
// outline's reach with the glow g. Twin: boxMargin (half a pixel farther with a glow).
func boxMargin(bx *overlay.Box, g *sdf.Glow) float32 {
	if bx.Stroke > 0 {
		return g.Reach(bx.Stroke) + 0.5
	}
	return 1
}

// binSegment appends idx to the lists of the tiles within reach r of the segment: for each
// row of tiles, the part of the segment inside the row's band (widened by r) bounds the tiles
// the stroke can touch, so a long diagonal line is listed in a diagonal band of tiles, not its
// whole bounding box. A segment that lies in one tile with its reach is listed there without
// clipping (when the reach stays inside the tiles, so that no bound was clamped).
func (b *bins) binSegment(l *binList, idx int32, x0, y0, x1, y1, r float32) {
	bx0, by0, bx1, by1 := min(x0, x1)-r, min(y0, y1)-r, max(x0, x1)+r, max(y0, y1)+r
	tx0, ty0, tx1, ty1 := b.tileRange(bx0, by0, bx1, by1)
	if tx1-tx0 == 1 && ty1-ty0 == 1 && bx0 >= 0 && by0 >= 0 && bx1 < float32(b.tilesX*ts) && by1 < float32(b.tilesY*ts) {
		l.add(ty0*b.tilesX+tx0, idx)
		return
	}
	b.binSegmentBands(l, idx, x0, y0, x1, y1, r, ty0, ty1)
}

// binSegmentBands is binSegment for the tile rows [ty0, ty1), one band at a time.
func (b *bins) binSegmentBands(l *binList, idx int32, x0, y0, x1, y1, r float32, ty0, ty1 int) {
	for ty := ty0; ty < ty1; ty++ {
		lo, hi, ok := sdf.BandX(x0, y0, x1, y1, float32(ty*ts)-r, float32((ty+1)*ts)+r)
		if !ok {
			continue
		}
		tx0, _, tx1, _ := b.tileRange(lo-r, 0, hi+r, 0)
		for tx := tx0; tx < tx1; tx++ {
			l.add(ty*b.tilesX+tx, idx)
		}
	}
}

// binLines lists each line in the tiles within its reach with the glow g.
func (b *bins) binLines(lines []overlay.Line, g *sdf.Glow) {
	for i := range lines {
		l := &lines[i]
		b.binSegment(&b.lineBins, int32(i), l.X0, l.Y0, l.X1, l.Y1, g.Reach(l.Width))
	}
}

// flatten turns each curve into chords. A curve wholly outside the frame is skipped: its
// control polygon's hull bounds it, widened by its reach with the glow g.
func (b *bins) flatten(cs []overlay.Curve, w, h int, g *sdf.Glow) {
	b.chords = b.chords[:0]
	stroke := int32(0)
	for i := range cs {
		c := &cs[i]
		if !c.Joined || i == 0 {
			stroke = int32(i)
		}
		r := g.Reach(cs[stroke].Width)
		if min(c.X0, c.X1, c.X2)-r > float32(w) || max(c.X0, c.X1, c.X2)+r < 0 ||
			min(c.Y0, c.Y1, c.Y2)-r > float32(h) || max(c.Y0, c.Y1, c.Y2)+r < 0 {
			continue
		}
		n := curves.Chords(c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, curves.Tolerance)
		dashed := cs[stroke].Dash.Period > 0
		s0 := cs[stroke].Dash.Phase
		for k := range n {
			ax, ay, bx, by := curves.Chord(c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, k, n)
			l := float32(0)
			if dashed {
				l = curves.ChordLen(ax, ay, bx, by)
			}
			b.chords = append(b.chords, chord{ax, ay, bx, by, stroke, chordOpacity(c, k, n), s0, l, 1, 1})
			s0 += l
		}
	}
	if g.Radius > 0 {
		b.turns()
	}
}

// turns sets each chord's turn0 and turn1 from its neighbours in its stroke: where two
// chords meet end to start, the sine of the angle between them (1 past 90°).
func (b *bins) turns() {
	for i := 1; i < len(b.chords); i++ {
		p, c := &b.chords[i-1], &b.chords[i]
		if p.stroke != c.stroke || p.x1 != c.x0 || p.y1 != c.y0 {
			continue
		}
		pdx, pdy, dx, dy := p.x1-p.x0, p.y1-p.y0, c.x1-c.x0, c.y1-c.y0
		l := sdf.Sqrt(float32(pdx*pdx+pdy*pdy) * float32(dx*dx+dy*dy))
		if dot := float32(pdx*dx) + float32(pdy*dy); l > 0 && dot > 0 {
			s := sdf.Abs(float32(pdx*dy)-float32(pdy*dx)) / l
			p.turn1, c.turn0 = s, s
		}
	}
}

// binChords lists each chord in the tiles within its stroke's reach with the glow g. A chord
// whose reach's bounding box lies in at most 2×2 tiles (most: a chord is short) is listed in
// each of them: clipping so short a chord to each row of tiles would seldom spare a tile,
// and a tile it does not reach draws nothing of it. The others are binned band by band.
func (b *bins) binChords(cs []overlay.Curve, g *sdf.Glow) {
	l := &b.chordBins
	if !l.filling {
		b.chordTiles = b.chordTiles[:0]
	}
	for i := range b.chords {
		var tr tileRect
		if l.filling {
			tr = b.chordTiles[i]
		}
		if !l.filling || tr.empty() {
			ch := &b.chords[i]
			r := g.Reach(cs[ch.stroke].Width)
			x0, y0, x1, y1 := min(ch.x0, ch.x1)-r, min(ch.y0, ch.y1)-r, max(ch.x0, ch.x1)+r, max(ch.y0, ch.y1)+r
			tx0, ty0, tx1, ty1 := b.tileRange(x0, y0, x1, y1)
			if tx1-tx0 > 2 || ty1-ty0 > 2 {
				b.binSegmentBands(l, int32(i), ch.x0, ch.y0, ch.x1, ch.y1, r, ty0, ty1)
				if !l.filling {
					b.chordTiles = append(b.chordTiles, tileRect{})
				}
				continue
			}
			tr = tileRect{int16(tx0), int16(ty0), int16(tx1), int16(ty1)}
			if !l.filling {
				b.chordTiles = append(b.chordTiles, tr)
			}
		}
		for ty := int(tr.ty0); ty < int(tr.ty1); ty++ {
			for tx := int(tr.tx0); tx < int(tr.tx1); tx++ {
				l.add(ty*b.tilesX+tx, int32(i))
			}
		}
	}
}

// tileRect is the tiles [tx0, tx1) × [ty0, ty1).
type tileRect struct{ tx0, ty0, tx1, ty1 int16 }

func (r tileRect) empty() bool { return r.tx0 >= r.tx1 || r.ty0 >= r.ty1 }

// chordOpacity is 1 − the curve's fade at the middle of chord k of n. Twin: chordOpacity.
func chordOpacity(c *overlay.Curve, k, n int) float32 {
	mid := float32(k+1)/float32(n) - 0.5/float32(n)
	return 1 - (c.Fade0 + (c.Fade1-c.Fade0)*mid)
}

// placeGlyphs lays out each label's glyphs.
func (b *bins) placeGlyphs(labels []overlay.Label, f *overlay.Font) {
	b.glyphs = b.glyphs[:0]
	b.glyphStart = b.glyphStart[:0]
	for i := range labels {
		b.glyphStart = append(b.glyphStart, int32(len(b.glyphs)))
		b.glyphs = f.Layout(b.glyphs, &labels[i])
	}
	b.glyphStart = append(b.glyphStart, int32(len(b.glyphs)))
}

// binLabels lists each label in the tiles its background covers, grown by its outline's
// reach: the outline may run past the background's padding. Twin: kernels/bin.cu.
func (b *bins) binLabels(labels []overlay.Label) {
	for i := range labels {
		l := &labels[i]
		m := float32(math.Ceil(float64(l.Outline)))
		tx0, ty0, tx1, ty1 := b.tileRange(float32(l.X)-m, float32(l.Y)-m, float32(l.X+l.W)+m, float32(l.Y+l.H)+m)
		for ty := ty0; ty < ty1; ty++ {
			for tx := tx0; tx < tx1; tx++ {
				b.labelBins.add(ty*b.tilesX+tx, int32(i))
			}
		}
	}
}
