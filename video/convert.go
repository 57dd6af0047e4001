package video

import (
	"fmt"

	"github.com/asticode/go-astiav"
)

// converter makes every decoded frame a private, writable frame in the work format.
//
// A decoder's frame usually shares its buffer with the decoder's reference list (an H.264
// P-frame is read again to predict the next ones), so drawing on it in place would corrupt
// later frames. Frames the decoder no longer references are writable and pass through with no
// copy; shared ones are copied once into a buffer from a pool, which the encoder releases when
// it is done with it. A frame nothing will be drawn on passes through shared, read-only, as
// the ffmpeg CLI hands it to the encoder: the encoder only reads it. CUDA frames are
// downloaded first; frames of any other format (another Y'CbCr layout or depth, RGB,
// palette, grey) go through swscale into a pooled buffer, in the work format's matrix and
// range (newScaler). When the overlay draws in GPU memory (gpu set), every frame ends in the
// GPU frame pool instead.
type converter struct {
	gpu           *gpuFrames // CUDA frames are copied into it, for an overlay that draws on them
	work          workFormat
	width, height int
	pool          *framePool
	sws           *scaler
	frames        *spares[*astiav.Frame] // the items' frames, given back by the encoder
	// timingOnly passes on the frames' timing and no picture (item.frame nil): a layer-only
	// render draws on a layer of its own.
	timingOnly bool
}

func newConverter(work workFormat, w, h int) (*converter, error) {
	pool, err := newFramePool(work.pix, w, h)
	if err != nil {
		return nil, err
	}
	return &converter{work: work, width: w, height: h, pool: pool}, nil
}

// normalize turns the decoder's frame f into a pipeline item, writable when drawOn (the draw
// stage will write on it); f is left empty or untouched and the caller unreferences it
// either way.
func (c *converter) normalize(f *astiav.Frame, info frameInfo, drawOn bool) (item, error) {
	if f.Width() != c.width || f.Height() != c.height {
		return item{}, fmt.Errorf("video: frame size changed mid-stream from %dx%d to %dx%d; trackink needs a constant size", c.width, c.height, f.Width(), f.Height())
	}
	if c.timingOnly {
		return item{pts: info.pts, dur: info.duration}, nil
	}
	src := f
	hw := describePixels(f.PixelFormat()).hw
	// With a GPU frame pool every frame is drawn in GPU memory: NVDEC's NV12 frames are
	// copied within the GPU, and host frames (software decoding, where NVDEC cannot do the
	// stream; CUDA frames of another layout, downloaded) are uploaded once.
	// (The converter's work format is then NV12, the pool's.)
	toGPU := c.gpu != nil
	if toGPU && (hw && cudaNV12(f) || f.PixelFormat() == astiav.PixelFormatNv12) {
		return c.toGPU(f, info)
	}
	if hw {
		host := astiav.AllocFrame()
		defer host.Free()
		if err := f.TransferHardwareData(host); err != nil {
			return item{}, fmt.Errorf("video: copying a CUDA frame to host memory: %w", err)
		}
		if err := copyProps(host, f); err != nil {
			return item{}, fmt.Errorf("video: copying CUDA frame properties: %w", err)
		}
		src = host
	}
	out := c.frames.get(astiav.AllocFrame)
	it := item{frame: out, pts: info.pts, dur: info.duration}
	var err error
	switch {
	case encoderPixelFormat(src.PixelFormat()) == encoderPixelFormat(c.work.pix) && (!drawOn || frameWritable(src)):
		out.MoveRef(src)
	case encoderPixelFormat(src.PixelFormat()) == encoderPixelFormat(c.work.pix):
		if err = c.pool.get(out); err == nil {
			// yuv420p and yuvj420p share a layout; av_frame_copy wants equal formats.
			out.SetPixelFormat(src.PixelFormat())
			err = copyFrame(out, src)
		}
	default:
		err = c.scale(out, src)
	}
	if err != nil {
		out.Free()
		return item{}, err
	}
	if toGPU {
		defer out.Free()
		return c.toGPU(out, info)
	}
	return it, nil
}

// toGPU returns an item holding f copied into the GPU frame pool.
func (c *converter) toGPU(f *astiav.Frame, info frameInfo) (item, error) {
	out, err := c.gpu.copy(f)
	if err != nil {
		return item{}, err
	}
	return item{frame: out, pts: info.pts, dur: info.duration, device: true}, nil
}

// scale converts src into a pooled frame of the work format. The conversion is made for the
// first source format seen and remade if it changes.
func (c *converter) scale(dst, src *astiav.Frame) error {
	if c.sws == nil || c.sws.from != src.PixelFormat() {
		c.sws.free()
		c.sws = nil
		sws, err := newScaler(src.PixelFormat(), c.work, c.width, c.height)
		if err != nil {
			return err
		}
		c.sws = sws
	}
	if err := c.pool.get(dst); err != nil {
		return fmt.Errorf("video: taking a frame from the pool: %w", err)
	}
	if err := c.sws.scale(dst, src); err != nil {
		return err
	}
	if err := copyProps(dst, src); err != nil {
		return fmt.Errorf("video: copying frame properties: %w", err)
	}
	return nil
}

func (c *converter) close() {
	c.sws.free()
	c.pool.close()
}
