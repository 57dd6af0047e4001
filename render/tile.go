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

// layerColor is a premultiplied colour in the layer's Space (composite.Space): the frame's
// three components in code values, then alpha. The bin stage carries every primitive's
// colours into the Space once per frame, so the stages never convert a pixel.
type layerColor [composite.Channels]float32

// toLayer carries the premultiplied colour c into space sp. Twin: layerColor.
func toLayer(sp *composite.Space, c overlay.RGBA) layerColor {
	return sp.Color(c.R, c.G, c.B, c.A)
}

// scaled returns c with every channel multiplied by s.
func (c layerColor) scaled(s float32) layerColor {
	return layerColor{c[0] * s, c[1] * s, c[2] * s, c[3] * s}
}

// over blends colour c with coverage cov onto pixel i (row-major index) of the tile's planes,
// each product rounded before its sum. Twin: over.
func over(t *composite.Tile, i int, c *layerColor, cov float32) {
	a := c[3] * cov
	k := 1 - a
	p := &t.Planes
	p[0][i] = float32(c[0]*cov) + float32(p[0][i]*k)
	p[1][i] = float32(c[1]*cov) + float32(p[1][i]*k)
	p[2][i] = float32(c[2]*cov) + float32(p[2][i]*k)
	p[3][i] = a + float32(p[3][i]*k)
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
