package video

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// DrawFunc draws track frame n onto dst in place. n is the 1-based number of the video frame
// in presentation order (the n-th frame a player shows, counting from the first frame of the
// input regardless of Options.Start) minus Options.FrameOffset; frames with n < 1 are not
// passed to it. dst is a *composite.YUV420P or *composite.NV12 whose planes are the decoded
// frame's own buffers (or a *composite.DeviceNV12 with Options.DeviceFrames; with
// Options.Layer a transparent *composite.RGBA, the layer): they are valid only during the
// call. An error stops the render.
type DrawFunc func(n int, dst composite.Surface) error

// Transcode renders opts.Input to opts.Output, calling draw on every frame. It reads top to
// bottom the way go-astiav's transcoding example does: open the input, the output, the
// decoder and the encoder, each registered with one closer; run the stages (decode, draw,
// encode, mux: one loop, or goroutines joined by short queues for frames in GPU memory,
// pipeline.go); commit the output.
//
// On success it returns nil. For a damaged input it keeps the output, renders every frame
// that decoded and returns an error wrapping ErrInputDamaged, with the places in
// Stats.Warnings. On any other error or a cancelled ctx the temporary file is removed and
// Stats holds what was done so far.
func Transcode(ctx context.Context, opts Options, draw DrawFunc) (Stats, error) {
	opts, err := opts.normalize()
	if err != nil {
		return Stats{}, err
	}
	if opts.Layer {
		return renderLayer(ctx, opts, draw)
	}
	started := time.Now()
	sink, detach := attachFFmpegLog(opts.FFmpegLog)
	defer detach()
	rep := &report{log: opts.Log}
	var c closer
	defer c.close()
	stats := Stats{Input: opts.Input, Output: opts.Output}
	settle := func() {
		stats.Wall = time.Since(started)
		if stats.Wall > 0 {
			stats.FPS = float64(stats.Frames) / stats.Wall.Seconds()
		}
		stats.Warnings = rep.warnings
		stats.PeakRSS = PeakRSS()
	}
	finish := func(err error) (Stats, error) {
		settle()
		switch {
		case err == nil && rep.damaged > 0:
			err = fmt.Errorf("%w: %d frames rendered; see warnings", ErrInputDamaged, stats.Frames)
		case err != nil && !errors.Is(err, context.Canceled):
			err = fmt.Errorf("%w%s", err, because(sink.unshown()))
		}
		return stats, err
	}

	seg := opts.Segment
	in, info, err := openSource(ctx, opts, &c)
	if err != nil {
		return finish(err)
	}
	if err := info.CheckOddSize(opts.OddSize); err != nil {
		return finish(err)
	}
	w, h := info.Width, info.Height
	stats.Width, stats.Height, stats.PixelFormat = w, h, info.PixelFormat
	fit := fitSize(opts.OddSize, w, h)
	var t turn
	if opts.Orientation == Displayed {
		if info.RotationProblem != "" {
			rep.warn(info.RotationProblem)
		}
		t, _ = streamTurn(in.vs)
	}

	// A segment is video only: the join copies the other streams from the source once.
	out, err := createOutput(in, opts.Input, opts.Output, opts.Overwrite, seg == nil, rep.warn)
	if err != nil {
		return finish(err)
	}
	c.add(out.close) // removes the partial file unless commit moved it into place first

	dec, err := openDecoder(in, opts.HWAccel, opts.Log, sink)
	if err != nil {
		return finish(err)
	}
	c.add(dec.close)
	stats.HWAccel = dec.name
	var gpu *gpuFrames
	if opts.DeviceFrames && dec.name == "cuda" {
		switch {
		case t.toDisplay != "" || fit.changes():
			opts.Log("overlay: drawing on frames in host memory: the video is turned or of odd size, which only host frames handle")
		case isTenBit(in.vs.CodecParameters().PixelFormat()):
			opts.Log("overlay: drawing on frames in host memory: the video is 10-bit, and the GPU frame pool holds 8-bit NV12")
		default:
			if gpu, err = newGPUFrames(dec.cc, w, h); err != nil {
				return finish(err)
			}
			c.add(gpu.free)
		}
	}

	enc, err := openEncoder(encoderConfig{opts: opts, in: in, dec: dec, gpu: gpu, out: out, fit: fit, sink: sink, warn: rep.warn})
	if err != nil {
		return finish(err)
	}
	c.add(enc.close)
	stats.Encoder, stats.Color = enc.name, enc.work.String()

	// Frames bound for the GPU pool are made NV12, its layout, whatever the encoder takes;
	// the draw stage converts them to the encoder's format on the way back (down).
	decodeWork := enc.work
	if gpu != nil {
		decodeWork.pix = astiav.PixelFormatNv12
	}
	conv, err := newConverter(decodeWork, w, h)
	if err != nil {
		return finish(err)
	}
	c.add(conv.close)
	var down *converter
	if gpu != nil {
		conv.gpu = gpu
		if enc.device {
			opts.Log("overlay: drawing on frames in GPU memory; " + enc.name + " takes them there (no copies)")
		} else {
			if down, err = newConverter(enc.work, w, h); err != nil {
				return finish(err)
			}
			c.add(down.close)
			opts.Log("overlay: drawing on frames in GPU memory, then one copy to host memory for " + enc.name)
		}
	}
	turner, err := newFrameTurner(t, enc.work.pix, w, h)
	if err != nil {
		return finish(err)
	}
	if turner != nil {
		c.add(turner.close)
		opts.Log(turner.describe())
	}
	var fitter *fitter
	if fit.changes() {
		rep.warn(fit.describe())
	}
	if needsFitter(fit, enc.work, enc.coded) {
		if fitter, err = newFitter(fit, enc.work, enc.coded); err != nil {
			return finish(err)
		}
		c.add(fitter.close)
	}

	if err = out.addVideo(in, enc, rep.warn); err != nil {
		return finish(err)
	}
	if err = out.writeHeader(seg != nil); err != nil {
		return finish(err)
	}
	win, total := newWindow(opts.Start, opts.End, in.vs, len(out.copied)), expectedTotal(in, opts)
	if seg != nil {
		win, total = seg.window(), seg.Frames()
	}
	c.add(win.free)

	packets, frames := packetSpares(), frameSpares()
	c.add(packets.close)
	c.add(frames.close)
	conv.frames = frames
	p := &pipeline{
		decode: decodeStage{in: in, dec: dec, conv: conv, win: win, copied: out.copied, rep: rep, seg: seg, lastPts: astiav.NoPtsValue,
			packets: packets},
		draw: drawStage{draw: draw, frameOffset: opts.FrameOffset, work: enc.work, down: down, encOnDevice: enc.device,
			turner: turner, fitter: fitter},
		encode: encodeStage{enc: enc, video: out.video, idrFirst: seg != nil, lastPts: astiav.NoPtsValue, packets: packets, frames: frames},
		mux:    muxStage{out: out, progress: newProgress(opts.Progress, total, started), packets: packets},
		staged: gpu != nil,
	}
	p.decode.drawOn = p.draw.drawsOn
	err = p.run(ctx)
	stats.Decode, stats.Overlay, stats.Encode = p.decode.busy, p.draw.busy, p.encode.busy
	stats.Overlaid, stats.DeviceOverlay, stats.NVDECFrames = p.draw.overlaid, p.draw.onDevice, p.decode.hwDecoded
	stats.Frames, stats.Decoded = p.mux.frames, p.decode.decoded
	switch {
	case err == nil && stats.Frames == 0 && rep.damaged > 0:
		err = fmt.Errorf("video: no frame of %s could be decoded; see warnings", opts.Input)
	case err == nil && stats.Frames == 0 && win.ended:
		err = fmt.Errorf("%w: the range %s ends before its first frame", ErrNothingToRender, describeRange(opts.Start, opts.End))
	case err == nil && stats.Frames == 0:
		err = nothingIn(opts.Start, opts.End, p.decode.length())
	case err == nil && seg != nil && stats.Frames != seg.Frames():
		err = fmt.Errorf("video: segment %d of %d: %d frames of frames %d to %d decoded, want %d (is the input damaged? render it whole)",
			seg.Index, seg.Count, stats.Frames, seg.SegFirst, seg.SegLast, seg.Frames())
	case err == nil && seg != nil:
		err = seg.record(opts, enc, p.encode.lastPts, p.encode.lastDur).write(out)
	}
	var partners []*PartialFile
	if err == nil && opts.Partners != nil {
		stats.Mux = p.mux.busy
		settle()
		partners, err = opts.Partners(stats)
		for _, f := range partners {
			c.add(f.Discard) // a no-op once committed
		}
	}
	if err == nil {
		t0 := time.Now()
		err = out.commit(opts.Overwrite, partners...)
		p.mux.busy += time.Since(t0)
	}
	stats.Mux = p.mux.busy
	if err == nil {
		p.mux.progress.report(stats.Frames, true)
	}
	return finish(err)
}

// openSource opens the input (a segment's from its keyframe), or takes opts.Source, opened
// already; lets a cancelled ctx interrupt its blocking reads (network inputs, slow disks),
// registers both with c (a Source is closed by its owner, not here), and checks that
// opts.Start lies in it.
func openSource(ctx context.Context, opts Options, c *closer) (*input, Info, error) {
	var in *input
	var err error
	switch {
	case opts.Source != nil:
		in, err = opts.Source.take()
	case opts.Segment != nil:
		in, err = opts.Segment.openInput(opts.Input, opts.Log)
	default:
		in, err = openInput(opts.Input, opts.VideoStream)
	}
	if err != nil {
		return nil, Info{}, err
	}
	if opts.Source == nil {
		c.add(in.close)
	}
	stopInterrupt := context.AfterFunc(ctx, in.interrupt.Interrupt)
	c.add(func() { stopInterrupt() })
	info := in.info()
	return in, info, info.CheckStart(opts.Start)
}

// describeRange says what Start and End select, for messages.
// nothingIn is the error for a render or a pass that found no frame from start to end in a
// video of the length given: ErrNoFrames for the whole video, else ErrNothingToRender.
func nothingIn(start, end Position, length string) error {
	switch {
	case start.IsZero() && end.IsZero() && length == noFrames:
		return ErrNoFrames
	case start.IsZero() && end.IsZero():
		return fmt.Errorf("%w to show (it decodes to %s)", ErrNoFrames, length)
	}
	return fmt.Errorf("%w: nothing lies %s; the video has %s", ErrNothingToRender, describeRange(start, end), length)
}

func describeRange(start, end Position) string {
	switch {
	case start.IsZero() && end.IsZero():
		return "in the whole video"
	case end.IsZero():
		return "from " + start.String()
	case start.IsZero():
		return "up to " + end.String()
	}
	return "from " + start.String() + " to " + end.String()
}

// closer releases what Transcode opened, last opened first.
type closer []func()

func (c *closer) add(f func()) { *c = append(*c, f) }

func (c *closer) close() {
	for i := len(*c) - 1; i >= 0; i-- {
		(*c)[i]()
	}
	*c = nil
}

// expectedTotal is the number of frames the output should get, for progress; 0 if unknown.
func expectedTotal(in *input, opts Options) int {
	n := in.expectedFrames()
	if n == 0 {
		return 0
	}
	if opts.End.Frame > 0 && !opts.End.IsTime {
		n = min(n, opts.End.Frame)
	}
	if opts.Start.Frame > 0 && !opts.Start.IsTime {
		n -= opts.Start.Frame - 1
	}
	if opts.Start.IsTime || opts.End.IsTime {
		return 0 // would need the frame rate to hold; better no ETA than a wrong one
	}
	return max(n, 0)
}
