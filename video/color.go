package video

import (
	"fmt"
	"strings"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// Pixel formats and colour.
//
// The overlay is composited in the frame's own Y'CbCr, so the pipeline hands it the decoded
// planes in one of the layouts package composite knows: planar 4:2:0 (yuv420p, and yuvj420p
// which is the same layout at full range), NV12, and their 10-bit forms, yuv420p10le (what
// software HEVC Main10, H.264 High 10, VP9 and AV1 decoders give) and P010 (what NVDEC gives
// for 10-bit video). Frames of those go to the overlay as decoded. Every other format
// swscale reads is converted by swscale to the 4:2:0 format of its depth (8-bit; 10-bit for
// anything deeper than 8 bits, rounding 12 and 16 bits to 10, since composite has no deeper
// frame), with one line saying what changed (conversionNote):
//
//   - other Y'CbCr (4:2:2, 4:4:4, 4:1:1, NV21, 9 to 16 bits, with or without alpha) keeps
//     its matrix and range; only chroma is resampled and the depth changed;
//   - R'G'B' (packed or planar, 8 to 16 bits), palettes (GIF, PNG), Bayer and XYZ are
//     converted with the BT.709 matrix (BT.2020's where the stream's primaries are
//     BT.2020's) to limited range, as players expect of video without a range flag;
//   - grey becomes Y' unchanged at full range (0..255 stays 0..255), with neutral chroma.
//
// Alpha is dropped: the colour stored under it is what is rendered. The conversion is the
// one the ffmpeg CLI's scale filter makes with the same matrix and range (bicubic chroma
// filter, swscale's default siting: 4:2:0 chroma it makes lies midway between the rows and,
// resampled across columns, between the columns it comes from); the output stream says the
// matrix, range and siting the frames now have. 4:2:2 and 4:4:4 output and alpha are not
// kept: composite draws on 4:2:0 frames only, and libx264 and libx265 code no alpha.

// workFormat is the layout frames are overlaid and encoded in.
type workFormat struct {
	pix    astiav.PixelFormat // yuv420p, yuvj420p, nv12, yuv420p10le or p010le
	matrix composite.Matrix
	rng    composite.Range
	// space and siting are what the output stream declares: the input stream's colour
	// space and chroma location, or what a conversion made (a matrix for a source that had
	// none, swscale's siting for chroma made or resampled across columns).
	space  astiav.ColorSpace
	siting astiav.ChromaLocation
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

// isTenBit reports whether frames of pixel format pf are rendered in a 10-bit work format:
// pf has more than 8 bits.
func isTenBit(pf astiav.PixelFormat) bool { return describePixels(pf).depth > 8 }

// chooseWorkFormat decides the layout for a stream whose decoder produces pf, for an encoder
// that takes the pixel formats takes accepts. note is the one line that says what a
// conversion changes (conversionNote), "" when frames keep every sample: those of the work
// format, and those repacked between the 4:2:0 layouts of one depth.
func chooseWorkFormat(par *astiav.CodecParameters, pf astiav.PixelFormat, takes func(astiav.PixelFormat) bool) (w workFormat, note string, err error) {
	px := describePixels(pf)
	switch {
	case pf == astiav.PixelFormatNone:
		return w, "", ErrNoPicture
	case px.hw:
		return w, "", fmt.Errorf("%w: %s is a hardware surface format", ErrUnsupportedFormat, pf)
	case !swsReads(pf):
		return w, "", fmt.Errorf("%w: %s, which FFmpeg's swscale cannot convert", ErrUnsupportedFormat, pf)
	}
	if w.matrix, w.rng, err = sourceColor(par, pf); err != nil {
		return w, "", err
	}
	w.space, w.siting = par.ColorSpace(), par.ChromaLocation()
	if px.kind != yCbCr {
		w.space = colorSpaceOf(w.matrix)
	}
	if px.kind != yCbCr || px.chromaW != 1 {
		w.siting = astiav.ChromaLocationCenter
	}
	planar, semi := astiav.PixelFormatYuv420P, astiav.PixelFormatNv12
	if px.depth > 8 {
		planar, semi = astiav.PixelFormatYuv420P10Le, astiav.PixelFormatP010Le
		if !takes(planar) && !takes(semi) {
			return w, "", fmt.Errorf("%w: %s is %d-bit and this encoder, as this FFmpeg has it, codes 8-bit video only (encoder auto picks one that codes 10-bit; or convert with ffmpeg -pix_fmt yuv420p)", ErrUnsupportedFormat, pf, px.depth)
		}
	}
	switch {
	case pf == astiav.PixelFormatYuvj420P || pf == planar && (px.depth == 8 || takes(pf)):
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
		// swscale is given the work format's range on both sides (newScaler), so a
		// full-range 8-bit picture goes to yuvj420p, the spelling encoders know, and a 10-bit
		// one to yuv420p10le with the range in the stream's color_range.
		w.pix = planar
		if !takes(planar) {
			w.pix = semi
		}
		if w.rng == composite.Full && px.depth <= 8 {
			w.pix = astiav.PixelFormatYuvj420P
		}
		note = conversionNote(pf, px, w)
	}
	return w, note, nil
}

// sourceColor is the matrix and range frames of pf are drawn in: a Y'CbCr stream's own
// (streamColor); for R'G'B', BT.709, or BT.2020 where the stream's primaries are BT.2020's
// (the matrix that goes with its primaries), at limited range; for grey the same matrix
// (its chroma is neutral either way) at full range, which keeps every grey level as it is.
func sourceColor(par *astiav.CodecParameters, pf astiav.PixelFormat) (composite.Matrix, composite.Range, error) {
	kind := describePixels(pf).kind
	if kind == yCbCr {
		return streamColor(par, pf)
	}
	m := composite.BT709
	if par.ColorPrimaries() == astiav.ColorPrimariesBt2020 {
		m = composite.BT2020
	}
	if kind == grey {
		return m, composite.Full, nil
	}
	return m, composite.Limited, nil
}

// colorSpaceOf is FFmpeg's colour space for a matrix.
func colorSpaceOf(m composite.Matrix) astiav.ColorSpace {
	switch m {
	case composite.BT601:
		return astiav.ColorSpaceSmpte170M
	case composite.BT2020:
		return astiav.ColorSpaceBt2020Ncl
	}
	return astiav.ColorSpaceBt709
}

// conversionNote says in one line what converting frames of pf (described by px) to the
// work format w changes, e.g. "rgb24 source: converted to yuv420p (BT.709 limited) for the
// overlay and the encoder"; "" when it changes no sample (NV21 repacked into yuv420p).
func conversionNote(pf astiav.PixelFormat, px pixels, w workFormat) string {
	var what []string
	switch {
	case px.kind == rgb:
		what = append(what, fmt.Sprintf("%s %s", matrixName(w.matrix), w.rng))
	case px.kind == grey:
		what = append(what, "grey as Y', full range")
	case px.chromaW != 1 || px.chromaH != 1:
		what = append(what, "chroma resampled to 4:2:0")
	}
	depth := 8
	if w.tenBit() {
		depth = 10
	}
	switch {
	case px.depth > depth:
		what = append(what, fmt.Sprintf("%d-bit rounded to %d-bit", px.depth, depth))
	case px.depth > 8 && px.depth < depth:
		what = append(what, fmt.Sprintf("%d-bit as %d-bit", px.depth, depth))
	}
	if px.alpha {
		what = append(what, "alpha dropped")
	}
	if len(what) == 0 {
		return ""
	}
	return fmt.Sprintf("%s source: converted to %s (%s) for the overlay and the encoder", pf, w.pix, strings.Join(what, "; "))
}

// matrixName names a matrix in messages.
func matrixName(m composite.Matrix) string {
	switch m {
	case composite.BT601:
		return "BT.601"
	case composite.BT2020:
		return "BT.2020"
	}
	return "BT.709"
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
