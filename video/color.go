package video

import (
	"fmt"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// Pixel formats and colour.
//
// The overlay is composited in the frame's own Y'CbCr, so the pipeline hands it the decoded
// planes in one of the layouts package composite knows: planar 4:2:0 (yuv420p, and yuvj420p
// which is the same layout at full range), NV12, and their 10-bit forms, yuv420p10le (what
// software HEVC Main10, H.264 High 10, VP9 and AV1 decoders give) and P010 (what NVDEC gives
// for 10-bit video). Other Y'CbCr formats of 8 or 10 bits (4:2:2, 4:4:4, packed YUYV,
// NV21, 9-bit…) are converted with swscale to the 4:2:0 format of their depth, which only
// resamples chroma and keeps the matrix and range; the output is then 4:2:0, and a warning
// says so. RGB, grey and palette formats are refused: converting them means choosing a matrix
// the source never had. Deeper than 10 bits is refused too: composite has no 12-bit frame,
// and truncating would lose the source's precision.

// workFormat is the layout frames are overlaid and encoded in.
type workFormat struct {
	pix    astiav.PixelFormat // yuv420p, yuvj420p, nv12, yuv420p10le or p010le
	matrix composite.Matrix
	rng    composite.Range
}

func (w workFormat) String() string { return fmt.Sprintf("%s/%s", w.matrix, w.rng) }

// tenBit reports whether the work format holds 10-bit samples.
func (w workFormat) tenBit() bool {
	return w.pix == astiav.PixelFormatYuv420P10Le || w.pix == astiav.PixelFormatP010Le
}

// sampleBytes is the bytes a sample takes: 2 for 10-bit formats, else 1.
func (w workFormat) sampleBytes() int {
	if w.tenBit() {
		return 2
	}
	return 1
}

// semiPlanar reports whether the chroma samples are interleaved in one plane (NV12, P010).
func (w workFormat) semiPlanar() bool {
	return w.pix == astiav.PixelFormatNv12 || w.pix == astiav.PixelFormatP010Le
}

// isTenBit reports whether frames of pixel format pf are rendered in a 10-bit work format
// (pf has 9 or 10 bits).
func isTenBit(pf astiav.PixelFormat) bool {
	depth, _, _ := pixelFormatTraits(pf)
	return depth > 8 && depth <= 10
}

// chooseWorkFormat decides the layout for a stream whose decoder produces pf, for an encoder
// that takes the pixel formats takes accepts. converted reports that frames are resampled to
// 4:2:0 by swscale (repacking between the 4:2:0 layouts of one depth is not counted: it
// keeps every sample).
func chooseWorkFormat(par *astiav.CodecParameters, pf astiav.PixelFormat, takes func(astiav.PixelFormat) bool) (w workFormat, converted bool, err error) {
	depth, hw, rgbLike := pixelFormatTraits(pf)
	switch {
	case pf == astiav.PixelFormatNone:
		return w, false, ErrNoPicture
	case hw:
		return w, false, fmt.Errorf("%w: %s is a hardware surface format", ErrUnsupportedFormat, pf)
	case depth > 10:
		return w, false, fmt.Errorf("%w: %s is %d-bit; trackink renders 8- and 10-bit video (convert with ffmpeg -pix_fmt yuv420p10le)", ErrUnsupportedFormat, pf, depth)
	case rgbLike:
		return w, false, fmt.Errorf("%w: %s is not Y'CbCr (convert with ffmpeg -pix_fmt yuv420p)", ErrUnsupportedFormat, pf)
	}
	if w.matrix, w.rng, err = streamColor(par, pf); err != nil {
		return w, false, err
	}
	planar, semi := astiav.PixelFormatYuv420P, astiav.PixelFormatNv12
	if depth > 8 {
		planar, semi = astiav.PixelFormatYuv420P10Le, astiav.PixelFormatP010Le
		if !takes(planar) && !takes(semi) {
			return w, false, fmt.Errorf("%w: %s is %d-bit and this encoder, as this FFmpeg has it, codes 8-bit video only (encoder auto picks one that codes 10-bit; or convert with ffmpeg -pix_fmt yuv420p)", ErrUnsupportedFormat, pf, depth)
		}
	}
	switch {
	case pf == astiav.PixelFormatYuvj420P || pf == planar && (depth == 8 || takes(pf)):
		w.pix = pf
	case pf == semi && takes(pf):
		w.pix = pf
	case pf == planar || pf == semi:
		// The same samples in the other layout, the one the encoder takes.
		w.pix = semi
		if takes(planar) {
			w.pix = planar
		}
	default:
		// swscale changes values only when the source and destination disagree on range, so a
		// full-range 8-bit source goes to yuvj420p and a limited one to yuv420p (10-bit
		// formats have no full-range spelling: the range is the stream's color_range).
		w.pix, converted = planar, true
		if !takes(planar) {
			w.pix = semi
		}
		if w.rng == composite.Full && depth == 8 {
			w.pix = astiav.PixelFormatYuvj420P
		}
	}
	return w, converted, nil
}

// streamColor reads the matrix and range from the stream. Matrix: BT.601 for smpte170m and
// bt470bg, BT.709 for bt709, BT.2020 for bt2020nc; unspecified (or anything else) follows
// the convention players use: below 720 lines BT.601, otherwise BT.709. BT.2020's
// constant-luminance form (bt2020c) is refused: it is not a matrix, and nothing produces it.
// Range: full when the stream says so or the format is a yuvj* one, otherwise limited.
func streamColor(par *astiav.CodecParameters, pf astiav.PixelFormat) (composite.Matrix, composite.Range, error) {
	m := composite.BT709
	switch par.ColorSpace() {
	case astiav.ColorSpaceSmpte170M, astiav.ColorSpaceBt470Bg:
		m = composite.BT601
	case astiav.ColorSpaceBt2020Ncl:
		m = composite.BT2020
	case astiav.ColorSpaceBt2020Cl:
		return m, 0, fmt.Errorf("%w: the stream's colour space is BT.2020 constant luminance (bt2020c), which trackink cannot composite in", ErrUnsupportedFormat)
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
	return m, r, nil
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

// yuv444Of is the 4:4:4 format a work format is converted to for Odd444, in the same depth
// and range (swscale then resamples chroma only).
func yuv444Of(w workFormat) astiav.PixelFormat {
	switch {
	case w.tenBit():
		return astiav.PixelFormatYuv444P10Le
	case w.rng == composite.Full:
		return astiav.PixelFormatYuvj444P
	}
	return astiav.PixelFormatYuv444P
}

// wrap exposes f's planes as a composite.Surface without copying. The slices point into the
// AVFrame's buffers and are valid until the frame is unreferenced, so the overlay must not
// keep them.
func wrap(f *astiav.Frame, w workFormat) (composite.Surface, error) {
	width, height := f.Width(), f.Height()
	size := w.sampleBytes()
	cw, ch := (width+1)/2*size, (height+1)/2
	y, sy, err := plane(f, 0, width*size, height)
	if err != nil {
		return nil, err
	}
	if w.semiPlanar() {
		uv, suv, err := plane(f, 1, 2*cw, ch)
		if err != nil {
			return nil, err
		}
		if w.tenBit() {
			return &composite.P010{Y: y, UV: uv, StrideY: sy, StrideUV: suv, W: width, H: height, Matrix: w.matrix, Range: w.rng}, nil
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
	if w.tenBit() {
		return &composite.YUV420P10{Y: y, U: u, V: v, StrideY: sy, StrideU: su, StrideV: sv, W: width, H: height, Matrix: w.matrix, Range: w.rng}, nil
	}
	return &composite.YUV420P{Y: y, U: u, V: v, StrideY: sy, StrideU: su, StrideV: sv, W: width, H: height, Matrix: w.matrix, Range: w.rng}, nil
}
