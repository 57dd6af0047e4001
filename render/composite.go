package render

import "trackink/composite"

// The composite stage: the tile's layer blended onto the frame in the frame's own format
// (package composite, whose over.go is the twin of kernels/composite.cu), which leaves the
// tile clear for the next.
func compositeTile(dst composite.HostSurface, t *composite.Tile) {
	dst.Over(t)
}
