package gpu

import "unsafe"

// The Go twins of kernels/layout.h's records. layout_test.go compares every size and offset
// with the C compiler's (kernels/internal/clayout).

const (
	tileSize   = 64 // TK_TILE, composite.TileSize
	blockX     = 64 // TK_BLOCK_X
	blockY     = 4  // TK_BLOCK_Y
	compX      = 32 // TK_COMP_X
	compY      = 4  // TK_COMP_Y
	scanChunk  = 64 // TK_SCAN_CHUNK
	binThreads = 128
	binLanes   = 32 // TK_BIN_LANES
	chordLanes = 4  // TK_CHORD_LANES
	kinds      = 4  // TK_KINDS

	formatRGBA, formatYUV420P, formatNV12, formatYUV420P10, formatP010 = 0, 1, 2, 3, 4

	statusOverflow = 1
)

type tkScan struct {
	A, Partial uint64
	N, _       int32
}

type tkParams struct {
	Width, Height, TilesX, TilesY             int32
	NBoxes, NLines, NCurves, NLabels, NGlyphs int32
	Format                                    int32
	CapEntries                                [kinds]int32

	Boxes, Lines, Curves, Labels, Glyphs, Atlas uint64
	ChordStart, CurveStroke                     uint64
	BinStart, BinCursor, BinItems, BinFill      [kinds]uint64
	Layer, Status                               uint64
	Scans                                       [1 + kinds]tkScan

	Plane0, Plane1, Plane2    uint64
	Stride0, Stride1, Stride2 int32
	Blend                     int32 // composite.Blend
	Space                     [3][4]float32

	Links uint64 // TkLinks (links.h) when the device builds the links

	Effects uint64 // TkEffects (effects.h) when the frame has box effects

	GlowRadius, GlowInv, GlowOpacity float32 // overlay.Primitives.Glow (sdf.Glow)
	Transparency                     float32 // overlay.Primitives.Transparency

	Camera uint64 // TkCamera (effects.h) when the frame has the camera look

	EchoLayers                                          uint64 // the echo trails' kept layers (echo.cu)
	EchoFrames, EchoFilled, EchoCur, EchoRing, EchoKeep int32
	EchoDecay, EchoScale                                float32
	EchoOffset                                          [2]float32
	_                                                   int32
}

type tkLabel struct {
	X, Y, W, H     int32
	Glyph0, Glyph1 int32
	Color          [4]float32
	Background     [4]float32
	Outline, _     int32
	OutlineColor   [4]float32
}

type tkGlyph struct {
	X, Y, W, H int32
	Mask       int32
	_          int32
}

// Record sizes of the primitives the host uploads as they are (overlay.Box, overlay.Line,
// overlay.Curve): records.go checks them against overlay's types, layout_test.go against
// layout.h.
const (
	boxBytes   = 72
	lineBytes  = 68
	curveBytes = 68
	labelBytes = int(unsafe.Sizeof(tkLabel{}))
	glyphBytes = int(unsafe.Sizeof(tkGlyph{}))
)

// bytesOf views a slice of plain records (no pointers) as bytes, for uploads.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// structBytes views one plain record as bytes.
func structBytes[T any](v *T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(v)), unsafe.Sizeof(*v))
}
