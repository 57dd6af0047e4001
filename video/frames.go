package video

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/asticode/go-astiav"
)

// Frames decodes opts.Input and calls visit on every frame, in presentation order, as
// Transcode would hand it to its DrawFunc (the same numbering, orientation and planes), but
// encodes nothing: it is the decode half of a render, for commands that only look at the
// video (trackink track). visit must not write on the frame: it may be the decoder's own.
// Output, the encoder options and Segment are ignored; Source is read as Transcode reads it.
//
// A damaged input is visited as far as it decodes and reported with ErrInputDamaged, as
// Transcode does; a video with no frame gives an error wrapping ErrNoFrames, a range with
// none ErrNothingToRender, and a video none of whose frames decoded an error saying so.
func Frames(ctx context.Context, opts Options, visit DrawFunc) (Stats, error) {
	opts.Output, opts.Segment = "", nil
	if endsBeforeStart(opts.Start, opts.End) {
		return Stats{}, endBeforeStartError(opts.Start, opts.End)
	}
	if err := opts.checkSource(); err != nil {
		return Stats{}, err
	}
	if opts.Source != nil {
		opts.Input = opts.Source.Path()
	}
	if opts.Log == nil {
		opts.Log = func(string) {}
	}
	opts.HWAccel = cmp.Or(opts.HWAccel, "none")
	started := time.Now()
	sink, detach := attachFFmpegLog(opts.FFmpegLog)
	defer detach()
	rep := &report{log: opts.Log}
	var c closer
	defer c.close()
	stats := Stats{Input: opts.Input}
	finish := func(err error) (Stats, error) {
		stats.Wall = time.Since(started)
		if stats.Wall > 0 {
			stats.FPS = float64(stats.Frames) / stats.Wall.Seconds()
		}
		stats.Warnings = rep.warnings
		if err == nil && rep.damaged > 0 {
			err = fmt.Errorf("%w: %d frames read; see warnings", ErrInputDamaged, stats.Frames)
		}
		return stats, err
	}
	in, info, err := openSource(ctx, opts, &c)
	if err != nil {
		return finish(err)
	}
	w, h := info.Width, info.Height
	stats.Width, stats.Height, stats.PixelFormat = w, h, info.PixelFormat
	dec, err := openDecoder(in, opts.HWAccel, opts.Log, sink)
	if err != nil {
		return finish(err)
	}
	c.add(dec.close)
	stats.HWAccel = dec.name
	// Any 4:2:0 layout will do: nothing is encoded, so keep what the decoder gives.
	par := in.vs.CodecParameters()
	work, _, err := chooseWorkFormat(par, dec.hostFormat(par), func(astiav.PixelFormat) bool { return true })
	if err != nil {
		return finish(err)
	}
	conv, err := newConverter(work, w, h)
	if err != nil {
		return finish(err)
	}
	c.add(conv.close)
	var t turn
	if opts.Orientation == Displayed {
		t, _ = streamTurn(in.vs)
	}
	turner, err := newFrameTurner(t, work.pix, w, h)
	if err != nil {
		return finish(err)
	}
	if turner != nil {
		c.add(turner.close)
	}
	win := newWindow(opts.Start, opts.End, in, 0)
	c.add(win.free)
	// The visitor reads the frames (the tracker), so the decoder's own are handed on, not
	// copies made writable.
	ds := decodeStage{in: in, dec: dec, conv: conv, win: win, copied: map[int]*astiav.Stream{}, rep: rep, lastPts: astiav.NoPtsValue,
		drawOn: func(int) bool { return false }}
	prog := newProgress(opts.Progress, expectedTotal(in, opts), started)

	// Frames are visited as they are decoded, on this goroutine, as runInline encodes them:
	// no queue. No stream is copied, so the packet sink gets nothing to keep.
	err = ds.run(ctx, func(it item) error {
		if err := visitFrame(it, opts.FrameOffset, work, turner, visit); err != nil {
			return err
		}
		stats.Frames++
		prog.report(stats.Frames, false)
		return nil
	}, func(p *astiav.Packet) error { freePacket(p); return nil })
	stats.Decoded, stats.Preroll = ds.decoded, ds.preroll
	switch {
	case err == nil && stats.Frames == 0 && rep.damaged > 0:
		err = fmt.Errorf("video: no frame of %s could be decoded; see warnings", opts.Input)
	case err == nil && stats.Frames == 0:
		err = nothingIn(opts.Start, opts.End, ds.length())
	}
	if err == nil {
		prog.report(stats.Frames, true)
	}
	return finish(err)
}

// visitFrame hands one decoded frame to visit, turned to display orientation when the video
// is rotated, and frees it.
func visitFrame(it item, frameOffset int, work workFormat, ft *frameTurner, visit DrawFunc) error {
	f := it.frame
	defer func() { f.Free() }()
	n := it.v - frameOffset
	if n < 1 {
		return nil
	}
	if ft != nil {
		turned, err := ft.toDisplay.turn(f)
		if err != nil {
			return err
		}
		f.Free()
		f = turned
	}
	dst, err := wrap(f, work)
	if err != nil {
		return err
	}
	if err := visit(n, dst); err != nil {
		return fmt.Errorf("video: frame %d: %w", it.v, err)
	}
	return nil
}
