package composite

// TileSize is the side of a layer tile in pixels. It is even, so that the 2×2 chroma blocks of
// a 4:2:0 frame never straddle two tiles.
const TileSize = 64

// Tile is one TileSize × TileSize piece of the overlay layer: premultiplied RGBA in FP32,
// row-major with a row stride of TileSize*4 floats. A tile at the right or bottom edge of a
// frame is smaller (W, H < TileSize) but keeps the same stride.
//
// Span records, for each row, the half-open pixel range [X0, X1) that drawing touched, so
// that compositing and clearing visit only those pixels; outside its span a row is zero.
type Tile struct {
	X0, Y0 int // the tile's top-left pixel in the frame
	W, H   int
	Span   [TileSize]Span
	Pix    [TileSize * TileSize * 4]float32
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

// Clear zeroes the touched pixels and the spans, ready for the next Reset.
func (t *Tile) Clear() {
	for y := 0; y < TileSize; y++ {
		s := t.Span[y]
		if s.X0 < s.X1 {
			row := t.Pix[y*TileSize*4:]
			clear(row[4*s.X0 : 4*s.X1])
		}
		t.Span[y] = Span{}
	}
}
