// Package composite holds trackink's overlay layer and blends it onto video frames.
//
// The layer is stored tile by tile (TileSize × TileSize pixels, FP32 planes): a tile lives
// only while it is drawn and composited, so it stays in cache and the frame is the only
// full-size buffer a render touches. Compositing is Porter-Duff "over" on premultiplied
// colours:
//
//	out = layer + (1 − α)·frame
//
// done in the frame's own pixel format, never converting the frame to RGB. The layer is drawn
// in the frame's own colour Space: "over" is linear in the premultiplied colour, and Y'CbCr is
// an affine function of R'G'B', so with the offsets scaled by α,
//
//	Y' = α·Y'_0 + M_Y·rgb_premul,  Cb = α·128 + M_Cb·rgb_premul,  Cr = α·128 + M_Cr·rgb_premul
//
// (Y'_0 = 16 limited, 0 full; M the stream's matrix, BT.709, BT.601 or BT.2020, and range;
// 10-bit frames scale the offsets and M to their code values) are linear
// functions of the premultiplied colour too, and a layer accumulated in them holds exactly the
// Y'CbCr that the R'G'B' layer would convert to. A primitive's colour is converted once, not
// each pixel, and compositing is one multiply-add per sample:
//
//	sample_out = c + (1 − α)·sample
//
// For 4:2:0 chroma the layer's premultiplied values are averaged over each 2×2 block first,
// which is the same as averaging the composited colours.
//
// # Add and screen (Blend)
//
// The layer can also be added to the frame, or screened onto it, still in the frame's own
// samples. Both are turned into an "over" with a changed colour c′ and alpha α′ (Tile.Blend),
// so the composite above, its vectorised loops and the kernel are the same code for every
// mode. Write o_i for channel i's offset (Space.M[i][3]: Y'_0, 128 or 0 for RGB) and c_i =
// o_i·α + M_i·rgb for the layer's value.
//
// Add is out = frame + layer in R'G'B', per channel, clamped. R'G'B' → Y'CbCr is affine, so
// the sum of two colours is the sum of their offset-free parts plus one offset:
//
//	Y'_out = Y' + (c_Y − Y'_0·α),  Cb_out = Cb + (c_Cb − 128·α),  Cr_out = Cr + (c_Cr − 128·α)
//
// that is over with c′_i = c_i − o_i·α and α′ = 0: exact before the clamp. The clamp is per
// sample of the frame's format (Y' and Cb, Cr at 0..255, or 0..1023), not per R'G'B'
// channel, so where R'G'B' would saturate (a bright layer on a bright frame) the hue can
// shift; and limited-range Y' may rise above 235 (super-white, which players clip).
//
// Screen is out = 1 − (1 − frame)(1 − layer) = layer + (1 − layer)·frame per R'G'B'
// channel: an over whose alpha is the layer's colour, a different one per channel, which no
// affine map to Y'CbCr keeps. trackink takes one alpha for all three, the layer's
// premultiplied luma ℓ = (c_Y − Y'_0·α)/(M_Y·(1, 1, 1)) (for RGB frames ℓ = 0.2126·R' +
// 0.7152·G' + 0.0722·B'):
//
//	out_i = (c_i + o_i·(α′ − α)) + (1 − α′)·sample_i,   that is c′_i = c_i + o_i·(α′ − α), α′ = ℓ
//
// which is exact for grey layers (R' = G' = B', every channel's alpha is ℓ) and lies
// between over and add otherwise: a saturated colour darkens the frame under it by its luma
// rather than channel by channel. α′ is ℓ held to [2⁻³⁰, α]: a layer whose colour lies in
// 0..1 has 0 ≤ ℓ ≤ α, the floor is add's (below), and an uncovered pixel (α = 0) keeps
// α′ = 0. The 4:2:0 mean of c′ over a 2×2 block is (Σc + o·(Σα′ − Σα))/n, so the composite
// changes the chroma on the sums it takes for over (and Σα′), not pixel by pixel, and the
// luma per pixel, blending c′_Y = t + Y'_0·α′ (t = c_Y − Y'_0·α) as (t + sample) +
// α′·(Y'_0 − sample), the same value in fewer operations.
//
// A covered pixel whose α′ would be 0 (add, or screen of near black) gets α′ = 2⁻³⁰ instead:
// the composite skips pixels and chroma blocks of alpha 0, and 1 − 2⁻³⁰ rounds to 1 in
// float32, so the sample is kept whole and the colour is still added. (Screen's c′ then
// holds o·2⁻³⁰ more: below float32's resolution at the code values it is added to.)
//
// # Multiply, lighten and darken
//
// Multiply is out = frame·(1 − α + L·α) per R'G'B' channel (L the layer's unpremultiplied
// colour): for a grey layer, ℓ = L·α in every channel, that is frame·(1 − (α − ℓ)), an over
// of black, whose Y'CbCr value is the offsets alone:
//
//	out_i = o_i·α′ + (1 − α′)·sample_i,   that is c′_i = o_i·α′, α′ = α − ℓ
//
// exact in Y'CbCr as screen is. trackink takes that for every layer, ℓ the premultiplied
// luma as screen's: exact for grey layers (white keeps the frame, black at full alpha makes
// it black), and for coloured ones between over and a true multiply: a saturated colour
// darkens the frame under it by one factor, 1 − α + ℓ, rather than channel by channel,
// without tinting it: pure red at full alpha leaves a fifth of the frame (BT.709's 0.2126),
// where a true multiply would keep the frame's red and drop its green and blue. α′ is α − ℓ
// held to [2⁻³⁰, α] as screen's ℓ is.
//
// Lighten and darken are the editors' "lighter colour" and "darker colour": the layer's
// pixel replaces the frame's (over, at its alpha) where its luma is above (lighten) or below
// (darken) the frame's, and the frame stays where not (α′ = 0, c′ = 0). The lumas compared
// are the layer's unpremultiplied Y' (c_Y/α) and the frame's Y' sample, both Y' of the
// frame's matrix, so the choice is exact in Y'CbCr; in RGBA both are BT.709's luma. Across
// the first sixteenth of the luma's range past a tie the layer fades in (α′ and c′ scaled
// by the difference over that sixteenth): a hard switch would flip a pixel between two
// colours on the least change of either luma (footage noise where layer and frame are alike,
// or the device's FP16 layer against the CPU's FP32 one); lighten never darkens a pixel's
// luma, nor darken lightens it. A 4:2:0 chroma sample takes the mean of its block's
// composited pixels, each chosen or not, as for over. The choice reads the frame, so it is a
// pass of its own before the composite (Tile.pick), as multiply's change is (applyBlend).
//
// Difference, |frame − layer|, is no over of any c′ and α′ (where the layer is the lighter
// it is layer − frame, a negative weight on the frame), so trackink does not make it: a
// layer rendered with --layer-only can be set to the editor's difference mode.
//
// On 4:2:0 frames the change is made inside the composite's loops as they read the layer,
// and on 8-bit ones with AVX2 inside the vectorised loop (no pass of its own: a second pass
// over the layer cost as much as the composite itself), in the same float32 operations as
// the Go loops, so the samples are the same bits either way; add on the Go loops and RGBA
// frames is a pass first (Tile.applyBlend), and multiply, lighten and darken are passes
// first on every path.
package composite

import (
	"errors"
	"fmt"
)

// Matrix selects the Y'CbCr colour matrix.
type Matrix int

// Colour matrices. BT2020 is BT.2020's non-constant-luminance matrix (FFmpeg's bt2020nc),
// which BT.2100 uses for PQ and HLG video too.
const (
	BT709 Matrix = iota
	BT601
	BT2020
)

func (m Matrix) String() string {
	switch m {
	case BT601:
		return "bt601"
	case BT2020:
		return "bt2020"
	}
	return "bt709"
}

// Range selects limited ("TV", Y' in 16..235) or full ("PC", 0..255) quantisation.
type Range int

// Quantisation ranges.
const (
	Limited Range = iota
	Full
)

func (r Range) String() string {
	if r == Full {
		return "full"
	}
	return "limited"
}

// Surface is an image that a layer is composited onto: a HostSurface in host memory,
// or a DeviceNV12 in GPU memory, which only a device backend (package kernels) can reach.
type Surface interface {
	// Size returns the frame's width and height in pixels.
	Size() (w, h int)
}

// HostSurface is a Surface in host memory, which a layer tile is composited onto on the CPU.
type HostSurface interface {
	Surface
	// Space is the colour space the layer must be drawn in for Over.
	Space() Space
	// Over composites the tile onto the frame and leaves the tile clear (as Tile.Clear
	// does), ready for the next; the tile lies wholly inside the frame.
	Over(t *Tile)
}

// Prefetcher is a HostSurface that can start loading the samples under a rectangle, so that
// they are in cache by the time a tile there is composited (render asks before it draws the
// tile). It is a hint: no sample changes.
type Prefetcher interface {
	Prefetch(x0, y0, w, h int)
}

// DeviceNV12 is an NV12 frame in GPU memory, as NVDEC decodes 8-bit 4:2:0 video: the
// planes are device addresses in the CUDA context the backend shares with the decoder.
// The overlay is composited into it in place, with no copy to host memory and back.
type DeviceNV12 struct {
	Y, UV             uint64 // device addresses of the planes' first bytes
	StrideY, StrideUV int    // bytes between rows (the allocation's pitch)
	W, H              int
	Matrix            Matrix
	Range             Range
}

// Size implements Surface.
func (f *DeviceNV12) Size() (int, int) { return f.W, f.H }

// Space is the colour space the layer is drawn in for this frame.
func (f *DeviceNV12) Space() Space { return YCbCrSpace(f.Matrix, f.Range) }

// Check reports whether the frame's addresses and pitches can hold its size.
func (f *DeviceNV12) Check() error {
	cw := (f.W + 1) / 2
	switch {
	case f.W <= 0 || f.H <= 0:
		return fmt.Errorf("composite: device frame size %dx%d", f.W, f.H)
	case f.Y == 0 || f.UV == 0:
		return errors.New("composite: device frame has a null plane")
	case f.StrideY < f.W:
		return fmt.Errorf("composite: device frame Y pitch %d is less than the width %d", f.StrideY, f.W)
	case f.StrideUV < 2*cw:
		return fmt.Errorf("composite: device frame UV pitch %d is less than %d bytes", f.StrideUV, 2*cw)
	}
	return nil
}

// RGBA is an 8-bit premultiplied RGBA frame (the layout of image.RGBA).
type RGBA struct {
	Pix    []byte
	Stride int
	W, H   int
}

// YUV420P is an 8-bit planar Y'CbCr 4:2:0 frame: chroma planes are ceil(W/2) × ceil(H/2).
type YUV420P struct {
	Y, U, V                   []byte
	StrideY, StrideU, StrideV int
	W, H                      int
	Matrix                    Matrix
	Range                     Range
}

// NV12 is an 8-bit Y'CbCr 4:2:0 frame with one interleaved CbCr plane (Cb first).
type NV12 struct {
	Y, UV             []byte
	StrideY, StrideUV int
	W, H              int
	Matrix            Matrix
	Range             Range
}

// YUV420P10 is a 10-bit planar Y'CbCr 4:2:0 frame, FFmpeg's yuv420p10le: each sample two
// bytes, little-endian, the value in the low 10 bits; strides are in bytes and chroma planes
// are ceil(W/2) × ceil(H/2) samples.
type YUV420P10 struct {
	Y, U, V                   []byte
	StrideY, StrideU, StrideV int
	W, H                      int
	Matrix                    Matrix
	Range                     Range
}

// P010 is a 10-bit Y'CbCr 4:2:0 frame with one interleaved CbCr plane (Cb first), FFmpeg's
// p010le and NVDEC's output for 10-bit video: each sample two bytes, little-endian, the value
// in the high 10 bits (the low 6 are zero); strides are in bytes.
type P010 struct {
	Y, UV             []byte
	StrideY, StrideUV int
	W, H              int
	Matrix            Matrix
	Range             Range
}

// Size implements Surface.
func (f *RGBA) Size() (int, int) { return f.W, f.H }

// Size implements Surface.
func (f *YUV420P10) Size() (int, int) { return f.W, f.H }

// Size implements Surface.
func (f *P010) Size() (int, int) { return f.W, f.H }

// Space implements HostSurface: the frame's Y'CbCr in 10-bit code values.
func (f *YUV420P10) Space() Space { return YCbCrSpaceDepth(f.Matrix, f.Range, 10) }

// Space implements HostSurface: the frame's Y'CbCr in 10-bit code values.
func (f *P010) Space() Space { return YCbCrSpaceDepth(f.Matrix, f.Range, 10) }

// Check reports whether the planes are large enough for the stated size and strides.
func (f *YUV420P10) Check() error {
	cw, ch := (f.W+1)/2, (f.H+1)/2
	if err := checkPlane("Y", f.Y, f.StrideY, 2*f.W, f.H); err != nil {
		return err
	}
	if err := checkPlane("U", f.U, f.StrideU, 2*cw, ch); err != nil {
		return err
	}
	return checkPlane("V", f.V, f.StrideV, 2*cw, ch)
}

// Check reports whether the planes are large enough for the stated size and strides.
func (f *P010) Check() error {
	if err := checkPlane("Y", f.Y, f.StrideY, 2*f.W, f.H); err != nil {
		return err
	}
	return checkPlane("UV", f.UV, f.StrideUV, 4*((f.W+1)/2), (f.H+1)/2)
}

// Size implements Surface.
func (f *YUV420P) Size() (int, int) { return f.W, f.H }

// Size implements Surface.
func (f *NV12) Size() (int, int) { return f.W, f.H }

// Space implements HostSurface: R'G'B' in code values.
func (f *RGBA) Space() Space { return RGBASpace() }

// Space implements HostSurface: the frame's Y'CbCr.
func (f *YUV420P) Space() Space { return YCbCrSpace(f.Matrix, f.Range) }

// Space implements HostSurface: the frame's Y'CbCr.
func (f *NV12) Space() Space { return YCbCrSpace(f.Matrix, f.Range) }

// Check reports whether the planes are large enough for the stated size and strides.
func (f *YUV420P) Check() error {
	cw, ch := (f.W+1)/2, (f.H+1)/2
	if err := checkPlane("Y", f.Y, f.StrideY, f.W, f.H); err != nil {
		return err
	}
	if err := checkPlane("U", f.U, f.StrideU, cw, ch); err != nil {
		return err
	}
	return checkPlane("V", f.V, f.StrideV, cw, ch)
}

// Check reports whether the planes are large enough for the stated size and strides.
func (f *NV12) Check() error {
	if err := checkPlane("Y", f.Y, f.StrideY, f.W, f.H); err != nil {
		return err
	}
	return checkPlane("UV", f.UV, f.StrideUV, 2*((f.W+1)/2), (f.H+1)/2)
}

// Check reports whether the pixel buffer is large enough for the stated size and stride.
func (f *RGBA) Check() error { return checkPlane("RGBA", f.Pix, f.Stride, 4*f.W, f.H) }

func checkPlane(name string, p []byte, stride, rowBytes, rows int) error {
	if rowBytes < 0 || rows < 0 {
		return fmt.Errorf("composite: negative %s plane size", name)
	}
	if rows == 0 {
		return nil
	}
	if stride < rowBytes {
		return fmt.Errorf("composite: %s plane stride %d is less than its row of %d bytes", name, stride, rowBytes)
	}
	if need := stride*(rows-1) + rowBytes; len(p) < need {
		return fmt.Errorf("composite: %s plane holds %d bytes, needs %d", name, len(p), need)
	}
	return nil
}
