package composite

// TileSize is the side of a layer tile in pixels. It is even, so that the 2×2 chroma blocks of
// a 4:2:0 frame never straddle two tiles.
const TileSize = 64

// Channels is the number of planes of a tile: the three colour channels of the layer's Space
// and alpha, Planes[Alpha].
const (
	Channels = 4
	Alpha    = 3
)

// Tile is one TileSize × TileSize piece of the overlay layer in FP32: four planes, each
// row-major with a row stride of TileSize, holding the three colour channels of the frame's
// Space and alpha, all premultiplied (alpha 0..1, the colour channels in the frame's 8-bit
// code values scaled by alpha). Planar storage puts 8 neighbouring pixels of one channel in
// one AVX2 register, so the drawing stages and the composite need no shuffles. A tile at the
// right or bottom edge of a frame is smaller (W, H < TileSize) but keeps the same stride.
//
// Span records, for each row, the half-open pixel range [X0, X1) that drawing touched, so
// that compositing and clearing visit only those pixels; outside its span a row is zero in
// every plane.
type Tile struct {
	X0, Y0 int // the tile's top-left pixel in the frame
	W, H   int
	Span   [TileSize]Span
	Planes [Channels][TileSize * TileSize]float32
	// The drawing kernels take a row's last group of 8 pixels whole, storing back the values
	// they loaded in its lanes past the row's end: past the last row's, these.
	_     [8]float32
	blend tileBlend // how the next Over composites the layer (Tile.Blend)
}

// Span is a half-open range of columns within a tile row; X0 >= X1 means empty.
type Span struct{ X0, X1 int32 }

// Reset places the tile at (x0, y0) with size w × h. The tile must be clear (as after Clear
// or when new).
func (t *Tile) Reset(x0, y0, w, h int) {
	t.X0, t.Y0, t.W, t.H = x0, y0, w, h
}

// Touch widens row y's span to include columns [x0, x1).
func (t *Tile) Touch(y, x0, x1 int) {
	s := &t.Span[y]
	if s.X0 >= s.X1 {
		s.X0, s.X1 = int32(x0), int32(x1)
		return
	}
	if int32(x0) < s.X0 {
		s.X0 = int32(x0)
	}
	if int32(x1) > s.X1 {
		s.X1 = int32(x1)
	}
}

// Clear zeroes the touched pixels and the spans, ready for the next Reset. (Compositing
// clears the tile as it reads it; Clear is for a tile that is not composited.)
func (t *Tile) Clear() {
	for y := 0; y < TileSize; y++ {
		s := t.Span[y]
		if s.X0 < s.X1 {
			lo, hi := y*TileSize+int(s.X0), y*TileSize+int(s.X1)
			for c := range t.Planes {
				clear(t.Planes[c][lo:hi])
			}
		}
	}
	t.Span = [TileSize]Span{}
	t.blend = tileBlend{}
}

// Fade scales the touched pixels' four planes by a (0..1): the layer at that opacity, as a
// whole. The planes are premultiplied, offsets included (the package comment), so scaling
// all four is the layer of alpha a·α and the same colour, and every blend mode (Tile.Blend,
// set after) takes it as such. With AVX2 each span runs widened to whole groups of eight
// (a row is zero outside its span, and zero stays zero; a Go loop took 11 of a dense 4K
// frame's 27 ms). Twin: compositeTile's fade (kernels/composite.cu).
func (t *Tile) Fade(a float32) {
	for y := range t.H {
		s := t.Span[y]
		if s.X0 >= s.X1 {
			continue
		}
		x0, x1 := int(s.X0), int(s.X1)
		if haveAVX2 {
			x0, x1 = x0&^7, min((x1+7)&^7, TileSize)
		}
		lo, hi := y*TileSize+x0, y*TileSize+x1
		for c := range t.Planes {
			row := t.Planes[c][lo:hi]
			if haveAVX2 {
				fadeAVX2(&row[0], len(row), a)
				continue
			}
			for i := range row {
				row[i] *= a
			}
		}
	}
}

// Pixel returns pixel (x, y)'s channels (tile coordinates), for tests and tools.
func (t *Tile) Pixel(x, y int) [Channels]float32 {
	i := y*TileSize + x
	return [Channels]float32{t.Planes[0][i], t.Planes[1][i], t.Planes[2][i], t.Planes[3][i]}
}

// SetPixel sets pixel (x, y)'s channels (tile coordinates), for tests and tools; it does not
// touch the row's span.
func (t *Tile) SetPixel(x, y int, c [Channels]float32) {
	i := y*TileSize + x
	for k := range c {
		t.Planes[k][i] = c[k]
	}
}
