package video

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/composite"
	"trackink/outfile"
)

// DrawFunc draws track frame n onto dst in place. n is the 1-based number of the video frame
// in presentation order (the n-th frame a player shows, counting from the first frame of the
// input regardless of Options.Start) minus Options.FrameOffset; frames with n < 1 are not
// passed to it. dst is a *composite.YUV420P or *composite.NV12 whose planes are the decoded
// frame's own buffers (or a *composite.DeviceNV12 with Options.DeviceFrames): they are valid
// only during the call. An error stops the render.
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
	t := &transcoder{opts: opts, started: time.Now(), rep: &report{log: opts.Log},
		stats: Stats{Input: opts.Input, Output: opts.Output}}
	var detach func()
	t.sink, detach = attachFFmpegLog(opts.FFmpegLog)
	defer detach()
	defer t.c.close()
	steps := []func() error{
		func() error { return t.openInput(ctx) },
		t.openCoding,
		t.openOutput,
		func() error { return t.run(ctx, draw) },
		func() error { return t.commit(ctx) },
	}
	for _, step := range steps {
		if err = step(); err != nil {
			break
		}
	}
	return t.finish(err)
}

// transcoder is one Transcode: its options, what it opened (each registered with one
// closer, c) and what it measured. Its steps run in order: openInput, openCoding,
// openOutput, run, commit; finish says how it ended.
type transcoder struct {
	opts    Options
	started time.Time
	sink    *logSink
	rep     *report
	c       closer
	stats   Stats

	in     *input
	info   Info
	fit    sizeFit
	turn   turn
	out    *output
	dec    *decoder
	gpu    *gpuFrames
	enc    *encoder
	conv   *converter
	down   *converter // frames drawn in GPU memory to the host, for a host encoder
	turner *frameTurner
	fitter *fitter
	win    *window
	total  int
	p      *pipeline
}

// openInput opens the input (a segment's from its keyframe), the output's partial file and
// muxer, and the decoder, and takes the GPU frame pool when frames are drawn in GPU memory
// and nothing keeps them from it.
func (t *transcoder) openInput(ctx context.Context) error {
	opts := t.opts
	var err error
	if t.in, t.info, err = openSource(ctx, opts, &t.c); err != nil {
		return err
	}
	if err := t.info.CheckOddSize(opts); err != nil {
		return err
	}
	w, h := t.info.Width, t.info.Height
	t.stats.Width, t.stats.Height, t.stats.PixelFormat = w, h, t.info.PixelFormat
	t.fit = fitSize(opts.OddSize, w, h)
	if opts.Orientation == Displayed {
		if t.info.RotationProblem != "" {
			t.rep.warn(t.info.RotationProblem)
		}
		t.turn, _ = streamTurn(t.in.vs)
	}
	// A segment is video only: the join copies the other streams from the source once.
	if t.out, err = createOutput(t.in, opts.Input, opts.Output, opts.Overwrite, opts.Segment == nil, t.rep.warn); err != nil {
		return err
	}
	t.c.add(t.out.close) // removes the partial file unless commit moved it into place first
	if t.dec, err = openDecoder(t.in, opts.HWAccel, opts.Log, t.sink); err != nil {
		return err
	}
	t.c.add(t.dec.close)
	t.stats.HWAccel = t.dec.name
	if opts.DeviceFrames && t.dec.name == "cuda" {
		switch {
		case t.turn.toDisplay != "" || t.fit.changes():
			opts.Log("overlay: drawing on frames in host memory: the video is turned or of odd size, which only host frames handle")
		case isTenBit(t.in.vs.CodecParameters().PixelFormat()):
			opts.Log("overlay: drawing on frames in host memory: the video is 10-bit, and the GPU frame pool holds 8-bit NV12")
		default:
			if t.gpu, err = newGPUFrames(t.dec.cc, w, h); err != nil {
				return err
			}
			t.c.add(t.gpu.free)
		}
	}
	return nil
}

// openCoding opens the encoder and what converts frames between the decoder, the overlay
// and the encoder: the converters, the turner of a rotated video, the fitter of an odd size.
func (t *transcoder) openCoding() error {
	opts, w, h := t.opts, t.info.Width, t.info.Height
	var err error
	if t.enc, err = openEncoder(encoderConfig{opts: opts, in: t.in, dec: t.dec, gpu: t.gpu, out: t.out, fit: t.fit, sink: t.sink, warn: t.rep.warn}); err != nil {
		return err
	}
	t.c.add(t.enc.close)
	t.stats.Encoder, t.stats.Color = t.enc.name, t.enc.work.String()
	// Frames bound for the GPU pool are made NV12, its layout, whatever the encoder takes;
	// the draw stage converts them to the encoder's format on the way back (down).
	decodeWork := t.enc.work
	if t.gpu != nil {
		decodeWork.pix = astiav.PixelFormatNv12
	}
	if t.conv, err = newConverter(decodeWork, w, h); err != nil {
		return err
	}
	t.c.add(t.conv.close)
	if t.gpu != nil {
		t.conv.gpu = t.gpu
		if t.enc.device {
			opts.Log("overlay: drawing on frames in GPU memory; " + t.enc.name + " takes them there (no copies)")
		} else {
			if t.down, err = newConverter(t.enc.work, w, h); err != nil {
				return err
			}
			t.c.add(t.down.close)
			opts.Log("overlay: drawing on frames in GPU memory, then one copy to host memory for " + t.enc.name)
		}
	}
	if t.turner, err = newFrameTurner(t.turn, t.enc.work.pix, w, h); err != nil {
		return err
	}
	if t.turner != nil {
		t.c.add(t.turner.close)
		opts.Log(t.turner.describe())
	}
	if t.fit.changes() {
		t.rep.warn(t.fit.describe())
	}
	if needsFitter(t.fit, t.enc.work, t.enc.coded) {
		if t.fitter, err = newFitter(t.fit, t.enc.work, t.enc.coded); err != nil {
			return err
		}
		t.c.add(t.fitter.close)
	}
	return nil
}

// openOutput adds the video stream to the output and writes its header, and sets the window
// of frames the render keeps (a segment's its plan's).
func (t *transcoder) openOutput() error {
	seg := t.opts.Segment
	if err := t.out.addVideo(t.in, t.enc, t.rep.warn); err != nil {
		return err
	}
	first := startOffset(t.opts.Start, timecodeRate(t.in.vs))
	if seg != nil {
		first = seg.SegFirst - 1 // the join gives the whole render's from its record
	}
	if err := t.out.shiftTimecodes(t.in.vs, first, t.rep.warn); err != nil {
		return err
	}
	if err := t.out.writeHeader(seg != nil); err != nil {
		return err
	}
	t.win, t.total = newWindow(t.opts.Start, t.opts.End, t.in, len(t.out.copied)), expectedTotal(t.in, t.opts)
	if seg != nil {
		t.win, t.total = seg.window(), seg.Frames()
	}
	t.c.add(t.win.free)
	return nil
}

// run runs the stages (pipeline.go) with draw, and checks that the render wrote what it
// should: some frame, and a segment all of its own.
func (t *transcoder) run(ctx context.Context, draw DrawFunc) error {
	opts, seg := t.opts, t.opts.Segment
	packets, frames := packetSpares(), frameSpares()
	t.c.add(packets.close)
	t.c.add(frames.close)
	t.conv.frames = frames
	p := &pipeline{
		decode: decodeStage{in: t.in, dec: t.dec, conv: t.conv, win: t.win, copied: t.out.copied, rep: t.rep, seg: seg, lastPts: astiav.NoPtsValue,
			packets: packets},
		draw: drawStage{draw: draw, frameOffset: opts.FrameOffset, work: t.enc.work, down: t.down, encOnDevice: t.enc.device,
			turner: t.turner, fitter: t.fitter, ahead: opts.Ahead, aheadFrames: opts.AheadFrames},
		encode: encodeStage{enc: t.enc, video: t.out.video, idrFirst: seg != nil, lastPts: astiav.NoPtsValue, packets: packets, frames: frames},
		mux:    muxStage{out: t.out, progress: newProgress(opts.Progress, t.total, t.started), packets: packets},
		staged: t.gpu != nil,
	}
	p.decode.drawOn = p.draw.drawsOn
	t.p = p
	err := p.run(ctx)
	st := &t.stats
	st.Decode, st.Overlay, st.Encode, st.Mux = p.decode.busy, p.draw.busy, p.encode.busy, p.mux.busy
	st.Overlaid, st.DeviceOverlay, st.NVDECFrames = p.draw.overlaid, p.draw.onDevice, p.decode.hwDecoded
	st.Frames, st.Decoded, st.Preroll = p.mux.frames, p.decode.decoded, p.decode.preroll
	switch {
	case err != nil:
		return err
	case st.Frames == 0 && t.rep.damaged > 0:
		return damagedBeforeRange(opts, st.Decoded, t.rep)
	case st.Frames == 0 && t.win.ended:
		return fmt.Errorf("%w: the range %s ends before its first frame", ErrNothingToRender, describeRange(opts.Start, opts.End))
	case st.Frames == 0:
		return nothingIn(opts.Start, opts.End, p.decode.length())
	case seg != nil && st.Frames != seg.Frames():
		return fmt.Errorf("video: segment %d of %d: %d frames of frames %d to %d decoded, want %d (is the input damaged? render it whole)",
			seg.Index, seg.Count, st.Frames, seg.SegFirst, seg.SegLast, seg.Frames())
	case seg != nil:
		return seg.record(opts, t.enc, p.encode.lastPts, p.encode.lastDur).write(t.out)
	}
	return nil
}

// commit writes the partners (Options.Partners) and moves the output into place with them.
func (t *transcoder) commit(ctx context.Context) error {
	var partners []*outfile.PartialFile
	if t.opts.Partners != nil {
		t.settle()
		var err error
		if partners, err = t.opts.Partners(t.stats); err != nil {
			return err
		}
		for _, f := range partners {
			t.c.add(f.Discard) // a no-op once committed
		}
	}
	t0 := time.Now()
	err := t.out.commit(ctx, t.opts.Overwrite, partners...)
	t.p.mux.busy += time.Since(t0)
	t.stats.Mux = t.p.mux.busy
	if err == nil {
		t.p.mux.progress.report(t.stats.Frames, true)
	}
	return err
}

// settle completes the stats so far: wall time, frames a second, warnings, peak memory.
func (t *transcoder) settle() {
	st := &t.stats
	st.Wall = time.Since(t.started)
	if st.Wall > 0 {
		st.FPS = float64(st.Frames) / st.Wall.Seconds()
	}
	st.Warnings = t.rep.warnings
	st.PeakRSS = PeakRSS()
}

// finish returns the stats and the render's error: ErrInputDamaged for a complete render of
// a damaged input; other errors with what FFmpeg said that was not shown.
func (t *transcoder) finish(err error) (Stats, error) {
	t.settle()
	switch {
	case err == nil && t.rep.damaged > 0:
		err = fmt.Errorf("%w: %d frames rendered; see warnings", ErrInputDamaged, t.stats.Frames)
	case err != nil && !errors.Is(err, context.Canceled):
		err = fmt.Errorf("%w%s", err, because(t.sink.unshown()))
	}
	return t.stats, err
}

// openSource opens the input (a segment's from its keyframe), or takes opts.Source, opened
// already; lets a cancelled ctx interrupt its blocking reads (network inputs, slow disks, pipes),
// registers both with c (a Source is closed by its owner, not here), and checks that
// opts.Start lies in it.
func openSource(ctx context.Context, opts Options, c *closer) (*input, Info, error) {
	var in *input
	var err error
	switch {
	case opts.Source != nil:
		in, err = opts.Source.take()
	case opts.Segment != nil:
		in, err = opts.Segment.openInput(ctx, opts.Input, opts.Log)
	default:
		in, err = openInput(ctx, opts.Input, opts.VideoStream)
	}
	if err != nil {
		return nil, Info{}, err
	}
	if opts.Source == nil {
		c.add(in.close)
	}
	stopInterrupt := in.cancelOn(ctx)
	c.add(func() { stopInterrupt() })
	info := in.info()
	return in, info, info.CheckStart(opts.Start)
}

// damagedBeforeRange is the error for a damaged input of which no frame was rendered: none
// decoded, or the damage ended it before the range Start and End select (decoded frames
// before it). The damage is said in the error itself: a caller that does not log (a
// preview's) would otherwise show none of it.
func damagedBeforeRange(opts Options, decoded int, rep *report) error {
	var damage []string
	for _, w := range rep.warnings {
		if d, ok := strings.CutPrefix(w, "input damaged: "); ok {
			damage = append(damage, d)
		}
	}
	what := strings.Join(damage[:min(len(damage), 3)], "; ")
	if len(damage) > 3 {
		what += fmt.Sprintf("; and %d more", len(damage)-3)
	}
	if decoded == 0 {
		return fmt.Errorf("video: no frame of %s could be decoded: it is damaged (%s)", opts.Input, what)
	}
	where := "the range " + describeRange(opts.Start, opts.End)
	if opts.Start == opts.End {
		where = opts.Start.String() // one frame: a preview's
	}
	return fmt.Errorf("video: %s is damaged and ends after %d frames, before %s (%s)", opts.Input, decoded, where, what)
}

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

// describeRange says what Start and End select, for messages.
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
