package video

// Frames that stay in GPU memory (Options.DeviceFrames): a pool of CUDA NV12 frames of our
// own on the decoder's CUDA device, which the overlay draws on and NVENC reads.
//
// Why a copy of each NVDEC frame rather than the frame itself: NVDEC's frames are its mapped
// output surfaces, read-only by contract (FFmpeg 5.1 nvdec.c marks them so), and the decoder
// has only a few of them (its DPB plus a handful), so frames held in the pipeline's queues
// would stall it ("No decoder surfaces left"). A device-to-device copy (12 MB for a 4K frame,
// microseconds on the GPU) returns the surface at once and gives a writable frame from a pool
// that grows on demand. The copies run on the CUDA legacy stream: the backend's stream waits
// for that stream's work before it draws (kernels' Device.AfterLegacy), and NVENC uses it too.

//#cgo pkg-config: libavcodec libavutil
//#include <libavcodec/avcodec.h>
//#include <libavutil/frame.h>
//#include <libavutil/hwcontext.h>
//
// static int tk_cuda_frames(const AVCodecContext *dec, int w, int h, AVBufferRef **out) {
//     if (!dec->hw_device_ctx) return AVERROR(EINVAL);
//     AVBufferRef *ref = av_hwframe_ctx_alloc(dec->hw_device_ctx);
//     if (!ref) return AVERROR(ENOMEM);
//     AVHWFramesContext *fc = (AVHWFramesContext *)ref->data;
//     fc->format = AV_PIX_FMT_CUDA;
//     fc->sw_format = AV_PIX_FMT_NV12;
//     fc->width = w;
//     fc->height = h;
//     int ret = av_hwframe_ctx_init(ref);
//     if (ret < 0) {
//         av_buffer_unref(&ref);
//         return ret;
//     }
//     *out = ref;
//     return 0;
// }
//
// // A new frame from the pool holding src, which is a CUDA frame or a host NV12 frame.
// static int tk_to_device(AVBufferRef *frames, AVFrame *dst, const AVFrame *src) {
//     int ret = av_hwframe_get_buffer(frames, dst, 0);
//     if (ret >= 0) ret = av_hwframe_transfer_data(dst, src, 0);
//     if (ret >= 0) ret = av_frame_copy_props(dst, src);
//     return ret;
// }
//
// static void tk_take_cuda_frames(AVCodecContext *enc, AVBufferRef *frames) {
//     enc->pix_fmt = AV_PIX_FMT_CUDA;
//     av_buffer_unref(&enc->hw_frames_ctx);
//     enc->hw_frames_ctx = av_buffer_ref(frames);
// }
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// gpuFrames is the pool of CUDA NV12 frames that the overlay draws on in GPU memory.
type gpuFrames struct {
	ref *C.AVBufferRef
}

// newGPUFrames makes a pool of w×h frames on the CUDA device of the decoder dec.
func newGPUFrames(dec *astiav.CodecContext, w, h int) (*gpuFrames, error) {
	g := &gpuFrames{}
	if ret := C.tk_cuda_frames(cCodec(dec), C.int(w), C.int(h), &g.ref); ret < 0 {
		return nil, fmt.Errorf("video: a pool of CUDA frames: %w", astiav.Error(int(ret)))
	}
	return g, nil
}

// copy returns a frame of the pool holding src: an NVDEC frame, or a host NV12 frame (from a
// decoder that fell back to software mid-stream) for an encoder that takes CUDA frames.
func (g *gpuFrames) copy(src *astiav.Frame) (*astiav.Frame, error) {
	dst := astiav.AllocFrame()
	if ret := C.tk_to_device(g.ref, cFrame(dst), cFrame(src)); ret < 0 {
		dst.Free()
		return nil, fmt.Errorf("video: copying a frame into GPU memory: %w", astiav.Error(int(ret)))
	}
	return dst, nil
}

// feed makes encoder enc take the pool's frames (NVENC in the same CUDA context).
func (g *gpuFrames) feed(enc *astiav.CodecContext) { C.tk_take_cuda_frames(cCodec(enc), g.ref) }

func (g *gpuFrames) free() { C.av_buffer_unref(&g.ref) }

// cudaNV12 reports whether CUDA frame f holds NV12.
func cudaNV12(f *astiav.Frame) bool {
	c := cFrame(f)
	return c.hw_frames_ctx != nil && (*C.AVHWFramesContext)(unsafe.Pointer(c.hw_frames_ctx.data)).sw_format == C.AV_PIX_FMT_NV12
}

// wrapDevice describes a frame of the pool for an overlay that draws in GPU memory: its
// planes are device addresses.
func wrapDevice(f *astiav.Frame, w workFormat) (*composite.DeviceNV12, error) {
	if !cudaNV12(f) {
		return nil, errors.New("video: the overlay in GPU memory takes CUDA NV12 frames")
	}
	c := cFrame(f)
	df := &composite.DeviceNV12{
		Y: uint64(uintptr(unsafe.Pointer(c.data[0]))), UV: uint64(uintptr(unsafe.Pointer(c.data[1]))),
		StrideY: int(c.linesize[0]), StrideUV: int(c.linesize[1]),
		W: int(c.width), H: int(c.height), Matrix: w.matrix, Range: w.rng,
	}
	return df, df.Check()
}
