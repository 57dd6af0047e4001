package render

import (
	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// What the per-tile stages share (the twin of kernels/tile.cuh). Each stage draws its
// primitives into one tile, in paint order, visiting only the pixels a primitive can cover
// (its rows within the tile, and in each row the span its distance field can reach), so work
// grows with covered pixels, not with the frame or the tile. Pixel (x, y) is sampled at its
// centre (x + 0.5, y + 0.5).

// over blends colour c with coverage cov onto the premultiplied pixel px. Twin: over.
func over(px []float32, c overlay.RGBA, cov float32) {
	a := c.A * cov
	k := 1 - a
	px[0] = c.R*cov + px[0]*k
	px[1] = c.G*cov + px[1]*k
	px[2] = c.B*cov + px[2]*k
	px[3] = a + px[3]*k
}

// segmentRows returns the tile rows [lo, hi) whose centres lie within r of the segment's
// vertical extent. Twin: the row test of segmentInReach.
func segmentRows(t *composite.Tile, y0, y1, r float32) (lo, hi int) {
	oy := float32(t.Y0)
	return sdf.Centers(min(y0, y1)-r-oy, max(y0, y1)+r-oy, t.H)
}

// segmentSpan returns the columns of tile row y that can lie within r of the segment: the
// part of the segment within r of the row's centre line, widened by r. Twin: the column
// test of segmentInReach.
func segmentSpan(t *composite.Tile, y int, x0, y0, x1, y1, r float32) (lo, hi int) {
	yc := float32(t.Y0+y) + 0.5
	a, b, ok := sdf.BandX(x0, y0, x1, y1, yc-r, yc+r)
	if !ok {
		return 0, 0
	}
	ox := float32(t.X0)
	return sdf.Centers(a-r-ox, b+r-ox, t.W)
}
