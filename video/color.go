package video

import (
	"fmt"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// Pixel formats and colour.
//
// The overlay is composited in the frame's own Y'CbCr, so the pipeline hands it the decoded
// planes in one of the two layouts package composite knows: planar 4:2:0 (yuv420p, and
// yuvj420p which is the same layout at full range) or NV12. Other 8-bit Y'CbCr formats
// (4:2:2, 4:4:4, packed YUYV, NV21…) are converted to yuv420p with swscale, which only
// resamples chroma and keeps the matrix and range; the output is then 4:2:0, and a warning
// says so. RGB, grey and palette formats are refused: converting them means choosing a matrix
// the source never had. Anything deeper than 8 bits (yuv420p10le, p010…) is refused too,
// because composite.Surface is 8-bit and truncating would lose the source's precision.

// workFormat is the layout frames are overlaid and encoded in.
type workFormat struct {
	pix    astiav.PixelFormat // yuv420p, yuvj420p or nv12
	matrix composite.Matrix
	rng    composite.Range
}

func (w workFormat) String() string { return fmt.Sprintf("%s/%s", w.matrix, w.rng) }

// chooseWorkFormat decides the layout for a stream whose decoder produces pf, for an encoder
// that accepts nv12 or not. converted reports that frames go through swscale.
func chooseWorkFormat(par *astiav.CodecParameters, pf astiav.PixelFormat, nv12OK bool) (w workFormat, converted bool, err error) {
	depth, hw, rgbLike := pixelFormatTraits(pf)
	switch {
	case pf == astiav.PixelFormatNone:
		return w, false, fmt.Errorf("%w: the decoder reports no pixel format", ErrUnsupportedFormat)
	case hw:
		return w, false, fmt.Errorf("%w: %s is a hardware surface format", ErrUnsupportedFormat, pf)
	case depth > 8:
		return w, false, fmt.Errorf("%w: %s is %d-bit; trackink renders 8-bit video only (convert with ffmpeg -pix_fmt yuv420p)", ErrUnsupportedFormat, pf, depth)
	case rgbLike:
		return w, false, fmt.Errorf("%w: %s is not Y'CbCr (convert with ffmpeg -pix_fmt yuv420p)", ErrUnsupportedFormat, pf)
	}
	w.matrix, w.rng = streamColor(par, pf)
	switch {
	case pf == astiav.PixelFormatYuv420P || pf == astiav.PixelFormatYuvj420P:
		w.pix = pf
	case pf == astiav.PixelFormatNv12 && nv12OK:
		w.pix = pf
	default:
		// swscale changes values only when the source and destination disagree on range, so a
		// full-range source goes to yuvj420p and a limited one to yuv420p.
		w.pix, converted = astiav.PixelFormatYuv420P, true
		if w.rng == composite.Full {
			w.pix = astiav.PixelFormatYuvj420P
		}
	}
	return w, converted, nil
}

// streamColor reads the matrix and range from the stream. Matrix: BT.601 for smpte170m and
// bt470bg, BT.709 for bt709; unspecified (or anything else) follows the convention players
// use: below 720 lines BT.601, otherwise BT.709. Range: full when the stream says so or the
// format is a yuvj* one, otherwise limited.
func streamColor(par *astiav.CodecParameters, pf astiav.PixelFormat) (composite.Matrix, composite.Range) {
	m := composite.BT709
	switch par.ColorSpace() {
	case astiav.ColorSpaceSmpte170M, astiav.ColorSpaceBt470Bg:
		m = composite.BT601
	case astiav.ColorSpaceBt709:
	default:
		if par.Height() < 720 {
			m = composite.BT601
		}
	}
	r := composite.Limited
	if par.ColorRange() == astiav.ColorRangeJpeg || isFullRangeFormat(pf) {
		r = composite.Full
	}
	return m, r
}

func isFullRangeFormat(pf astiav.PixelFormat) bool {
	switch pf {
	case astiav.PixelFormatYuvj420P, astiav.PixelFormatYuvj422P, astiav.PixelFormatYuvj444P,
		astiav.PixelFormatYuvj411P, astiav.PixelFormatYuvj440P:
		return true
	}
	return false
}

// encoderPixelFormat is the format the encoder is opened with: yuvj420p and yuvj444p are the
// deprecated spellings of full-range yuv420p and yuv444p, and encoders take the range from
// color_range instead.
func encoderPixelFormat(pf astiav.PixelFormat) astiav.PixelFormat {
	switch pf {
	case astiav.PixelFormatYuvj420P:
		return astiav.PixelFormatYuv420P
	case astiav.PixelFormatYuvj444P:
		return astiav.PixelFormatYuv444P
	}
	return pf
}

// yuv444Of is the 4:4:4 format a work format is converted to for Odd444, in the same range
// (swscale then resamples chroma only).
func yuv444Of(w workFormat) astiav.PixelFormat {
	if w.rng == composite.Full {
		return astiav.PixelFormatYuvj444P
	}
	return astiav.PixelFormatYuv444P
}

// wrap exposes f's planes as a composite.Surface without copying. The slices point into the
// AVFrame's buffers and are valid until the frame is unreferenced, so the overlay must not
// keep them.
func wrap(f *astiav.Frame, w workFormat) (composite.Surface, error) {
	width, height := f.Width(), f.Height()
	cw, ch := (width+1)/2, (height+1)/2
	y, sy, err := plane(f, 0, width, height)
	if err != nil {
		return nil, err
	}
	if w.pix == astiav.PixelFormatNv12 {
		uv, suv, err := plane(f, 1, 2*cw, ch)
		if err != nil {
			return nil, err
		}
		return &composite.NV12{Y: y, UV: uv, StrideY: sy, StrideUV: suv, W: width, H: height, Matrix: w.matrix, Range: w.rng}, nil
	}
	u, su, err := plane(f, 1, cw, ch)
	if err != nil {
		return nil, err
	}
	v, sv, err := plane(f, 2, cw, ch)
	if err != nil {
		return nil, err
	}
	return &composite.YUV420P{Y: y, U: u, V: v, StrideY: sy, StrideU: su, StrideV: sv, W: width, H: height, Matrix: w.matrix, Range: w.rng}, nil
}
