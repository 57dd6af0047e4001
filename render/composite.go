package render

import "trackink/composite"

// The composite stage: the tile's layer blended onto the frame in the frame's own format
// (package composite, whose over.go is the twin of kernels/composite.cu), which leaves the
// tile clear for the next. Add and screen change the layer (Tile.Blend: the twin of
// blendPixel in composite.cu) and then composite as over. A transparency above 0
// (--overlay-opacity below 1) fades the layer first (Tile.Fade), so the mode meets the
// faded layer.
func compositeTile(dst composite.HostSurface, t *composite.Tile, sp *composite.Space, b composite.Blend, transparency float32) {
	if transparency > 0 {
		t.Fade(1 - transparency)
	}
	t.Blend(sp, b)
	dst.Over(t)
}
