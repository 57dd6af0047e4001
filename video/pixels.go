package video

// Pixel formats as libavutil describes them, and their conversion by swscale, called
// directly: go-astiav v0.16.0 wraps sws_getContext and sws_scale_frame but not
// sws_setColorspaceDetails, which sets the matrix and range a conversion uses.

//#cgo pkg-config: libswscale libavutil
//#include <libswscale/swscale.h>
//#include <libavutil/frame.h>
//#include <libavutil/opt.h>
//#include <libavutil/pixdesc.h>
//
// // tk_sws_open makes a same-size conversion from src to dst as the ffmpeg CLI's scale
// // filter makes one: the options set before swscale's init, which picks its unscaled
// // converters by them (a range told after would not be), bicubic chroma filters, then the
// // matrix (cs, a colour space as sws_getCoefficients takes it). The matrix and range are
// // the same on both sides: Y'CbCr sources keep theirs, R'G'B' takes them (swscale ignores
// // the R'G'B' side's), grey takes the range.
// static struct SwsContext *tk_sws_open(int w, int h, int src, int dst, int cs, int full) {
//     struct SwsContext *c = sws_alloc_context();
//     if (!c) return NULL;
//     if (av_opt_set_int(c, "srcw", w, 0) < 0 || av_opt_set_int(c, "srch", h, 0) < 0 ||
//         av_opt_set_int(c, "src_format", src, 0) < 0 || av_opt_set_int(c, "dstw", w, 0) < 0 ||
//         av_opt_set_int(c, "dsth", h, 0) < 0 || av_opt_set_int(c, "dst_format", dst, 0) < 0 ||
//         av_opt_set_int(c, "sws_flags", SWS_BICUBIC, 0) < 0 ||
//         av_opt_set_int(c, "src_range", full, 0) < 0 || av_opt_set_int(c, "dst_range", full, 0) < 0 ||
//         sws_init_context(c, NULL, NULL) < 0) {
//         sws_freeContext(c);
//         return NULL;
//     }
//     const int *t = sws_getCoefficients(cs);
//     if (sws_setColorspaceDetails(c, t, full, t, full, 0, 1 << 16, 1 << 16) < 0) {
//         sws_freeContext(c);
//         return NULL;
//     }
//     return c;
// }
import "C"

import (
	"fmt"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// pixelKind is what a pixel format's components hold.
type pixelKind int

const (
	yCbCr pixelKind = iota
	rgb             // R'G'B', a palette of it, a Bayer mosaic, or CIE XYZ (swscale makes R'G'B' of those)
	grey            // one component (and perhaps alpha)
)

// pixels describes a pixel format.
type pixels struct {
	kind  pixelKind
	depth int  // bits of the first component
	alpha bool // it has an alpha component
	hw    bool // a hardware surface: the picture is in device memory
	// chromaW and chromaH are log2 of Y'CbCr chroma's horizontal and vertical subsampling
	// (4:2:0: 1, 1; 4:2:2: 1, 0).
	chromaW, chromaH int
}

// describePixels reads pf's descriptor; an unknown format is a zero pixels.
func describePixels(pf astiav.PixelFormat) pixels {
	d := C.av_pix_fmt_desc_get(C.enum_AVPixelFormat(pf))
	if d == nil {
		return pixels{}
	}
	p := pixels{depth: int(d.comp[0].depth), alpha: d.flags&C.AV_PIX_FMT_FLAG_ALPHA != 0, hw: d.flags&C.AV_PIX_FMT_FLAG_HWACCEL != 0,
		chromaW: int(d.log2_chroma_w), chromaH: int(d.log2_chroma_h)}
	colours := int(d.nb_components)
	if p.alpha {
		colours--
	}
	switch {
	// XYZ has no flag of its own in FFmpeg 5.1.
	case d.flags&(C.AV_PIX_FMT_FLAG_RGB|C.AV_PIX_FMT_FLAG_PAL|C.AV_PIX_FMT_FLAG_BAYER) != 0,
		pf == astiav.PixelFormatXyz12Le, pf == astiav.PixelFormatXyz12Be:
		p.kind = rgb
	case colours < 3:
		p.kind = grey
	}
	return p
}

// scaler converts frames of one pixel format into a work format's layout, of the same size,
// in its matrix and range.
type scaler struct {
	c        *C.struct_SwsContext
	from, to astiav.PixelFormat
}

// newScaler makes the conversion from frames of pixel format from into work's layout.
func newScaler(from astiav.PixelFormat, work workFormat, w, h int) (*scaler, error) {
	full := C.int(0)
	if work.rng == composite.Full {
		full = 1
	}
	// sws_getCoefficients numbers matrices as FFmpeg's colour spaces do (SWS_CS_ITU709 is
	// AVCOL_SPC_BT709, SWS_CS_BT2020 AVCOL_SPC_BT2020_NCL).
	c := C.tk_sws_open(C.int(w), C.int(h), C.int(from), C.int(work.pix), C.int(colorSpaceOf(work.matrix)), full)
	if c == nil {
		return nil, fmt.Errorf("video: swscale cannot convert %s to %s (%s)", from, work.pix, work)
	}
	return &scaler{c: c, from: from, to: work.pix}, nil
}

// scale converts src into dst, whose buffers are allocated in the scaler's output format.
func (s *scaler) scale(dst, src *astiav.Frame) error {
	if err := avError(C.sws_scale_frame(s.c, cFrame(dst), cFrame(src))); err != nil {
		return fmt.Errorf("video: converting %s to %s: %w", s.from, s.to, err)
	}
	return nil
}

func (s *scaler) free() {
	if s != nil {
		C.sws_freeContext(s.c)
	}
}

// swsReads reports whether swscale can read frames of pixel format pf.
func swsReads(pf astiav.PixelFormat) bool {
	return C.sws_isSupportedInput(C.enum_AVPixelFormat(pf)) > 0
}
