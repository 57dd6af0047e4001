package video

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// Overlay draws track frame n onto f in place. n is the 1-based number of the video frame in
// presentation order (the n-th frame a player shows, counting from the first frame of the
// input regardless of Options.Start) minus Options.FrameOffset; frames with n < 1 are not
// passed to it. f is a *composite.YUV420P or *composite.NV12 whose planes are the decoded
// frame's own buffers: they are valid only during the call. An error stops the render.
type Overlay func(n int, f composite.Surface) error

// Pipeline depth: frames waiting between stages. Each 4K 4:2:0 frame is 12 MB, and the decoder
// and encoder hold their own (reference frames, lookahead), so a short queue keeps memory flat
// while still letting the stages overlap.
const (
	frameQueue  = 2
	packetQueue = 64
)

// job is one Transcode: the open input, codecs and output, the stage channels, and the
// counters the stages update.
type job struct {
	opts    Options
	overlay Overlay
	ctx     context.Context
	sink    *logSink

	in   *input
	dec  *decoder
	enc  *encoder
	out  *output
	conv *converter
	gpu  *gpuFrames // frames the overlay draws on in GPU memory (Options.DeviceFrames), or nil
	down *converter // copies them to host memory after the overlay, for a host encoder
	win  *window

	muxIn chan *astiav.Packet

	// Owned by the decode stage.
	decoded          int
	lastPts, lastDur int64

	mu       sync.Mutex
	stats    Stats
	damaged  int // damage warnings recorded
	started  time.Time
	total    int
	lastTick time.Time
}

// Transcode renders opts.Input to opts.Output, calling overlay on every frame. Decoding,
// overlay, encoding and muxing run in their own goroutines joined by short queues.
//
// On success it returns nil. For a damaged input it keeps the output, renders every frame
// that decoded and returns an error wrapping ErrInputDamaged, with the places in
// Stats.Warnings. On any other error or a cancelled ctx the temporary file is removed and
// Stats holds what was done so far.
func Transcode(ctx context.Context, opts Options, overlay Overlay) (Stats, error) {
	opts, err := opts.normalize()
	if err != nil {
		return Stats{}, err
	}
	j := &job{opts: opts, overlay: overlay, started: time.Now(), lastPts: astiav.NoPtsValue}
	j.stats.Input, j.stats.Output = opts.Input, opts.Output
	var cancel context.CancelFunc
	j.ctx, cancel = context.WithCancel(ctx)
	defer cancel()
	var detach func()
	j.sink, detach = attachFFmpegLog(opts.Log)
	defer detach()

	err = j.run()
	cancel()
	j.stats.Wall = time.Since(j.started)
	if j.stats.Wall > 0 {
		j.stats.FPS = float64(j.stats.Frames) / j.stats.Wall.Seconds()
	}
	j.stats.PeakRSS = PeakRSS()
	if err == nil && j.damaged > 0 {
		err = fmt.Errorf("%w: %d frames rendered; see warnings", ErrInputDamaged, j.stats.Frames)
	}
	return j.stats, err
}

// run opens everything, runs the stages and commits or aborts the output.
func (j *job) run() (err error) {
	if j.in, err = openInput(j.opts.Input); err != nil {
		return err
	}
	defer j.in.close()
	// Let a cancelled context interrupt a blocking read (network inputs, slow disks).
	stop := context.AfterFunc(j.ctx, j.in.interrupt.Interrupt)
	defer stop()
	par := j.in.vs.CodecParameters()
	j.stats.Width, j.stats.Height, j.stats.PixelFormat = par.Width(), par.Height(), par.PixelFormat().String()

	if j.out, err = createOutput(j.in, j.opts.Output, j.opts.Overwrite, j.warn); err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			j.out.abort()
		}
	}()
	if j.dec, err = openDecoder(j.in, j.opts.HWAccel, j.opts.Log, j.sink); err != nil {
		return err
	}
	defer j.dec.close()
	j.stats.HWAccel = j.dec.name
	if j.opts.DeviceFrames && j.dec.name == "cuda" {
		if j.gpu, err = newGPUFrames(j.dec.cc, par.Width(), par.Height()); err != nil {
			return err
		}
		defer j.gpu.free()
	}
	if j.enc, err = openEncoder(j); err != nil {
		return err
	}
	defer j.enc.close()
	j.stats.Encoder, j.stats.Color = j.enc.name, j.enc.work.String()
	// Frames bound for the GPU pool are made NV12, its layout, whatever the encoder takes;
	// j.down converts them to the encoder's format on the way back.
	decodeWork := j.enc.work
	if j.gpu != nil {
		decodeWork.pix = astiav.PixelFormatNv12
	}
	if j.conv, err = newConverter(decodeWork, par.Width(), par.Height()); err != nil {
		return err
	}
	defer j.conv.close()
	if j.gpu != nil {
		j.conv.gpu = j.gpu
		if j.enc.device {
			j.opts.Log("overlay: drawing on frames in GPU memory; " + j.enc.name + " takes them there (no copies)")
		} else {
			if j.down, err = newConverter(j.enc.work, par.Width(), par.Height()); err != nil {
				return err
			}
			defer j.down.close()
			j.opts.Log("overlay: drawing on frames in GPU memory, then one copy to host memory for " + j.enc.name)
		}
	}
	if err = j.out.addVideo(j.in, j.enc, j.warn); err != nil {
		return err
	}
	if err = j.out.writeHeader(); err != nil {
		return err
	}
	j.win = newWindow(j.opts.Start, j.opts.End, j.in.vs, len(j.out.copied))
	defer j.win.free()
	j.total = j.expectedTotal()

	if err = j.stages(); err != nil {
		return err
	}
	t0 := time.Now()
	if err = j.out.commit(j.opts.Overwrite); err != nil {
		return err
	}
	committed = true
	j.addTime(&j.stats.Mux, time.Since(t0))
	j.progress(true)
	return nil
}

// stages runs decode → overlay → encode → mux and returns the first error. An error in one
// stage cancels the others; whatever is still queued is freed once all have stopped.
func (j *job) stages() error {
	ctx, cancel := context.WithCancel(j.ctx)
	defer cancel()
	parent := j.ctx
	j.ctx = ctx
	defer func() { j.ctx = parent }()

	decoded := make(chan item, frameQueue)
	drawn := make(chan item, frameQueue)
	j.muxIn = make(chan *astiav.Packet, packetQueue)

	var (
		wg        sync.WaitGroup
		errOnce   sync.Once
		first     error
		producers sync.WaitGroup
	)
	fail := func(err error) {
		if err != nil {
			errOnce.Do(func() { first = err; cancel() })
		}
	}
	run := func(g *sync.WaitGroup, f func() error) {
		g.Add(1)
		go func() { defer g.Done(); fail(f()) }()
	}
	run(&producers, func() error { return j.decodeStage(decoded) })
	run(&producers, func() error {
		defer close(drawn)
		return j.overlayStage(decoded, drawn)
	})
	run(&producers, func() error { return j.encodeStage(drawn, j.muxIn) })
	go func() { producers.Wait(); close(j.muxIn) }()
	run(&wg, func() error { return j.muxStage(j.muxIn) })
	producers.Wait()
	wg.Wait()

	for it := range decoded {
		it.frame.Free()
	}
	for it := range drawn {
		it.frame.Free()
	}
	for p := range j.muxIn {
		p.Free()
	}
	if first != nil && parent.Err() != nil {
		return fmt.Errorf("video: cancelled: %w", context.Cause(parent))
	}
	return first
}

// overlayStage calls the overlay on each frame in the track's range.
func (j *job) overlayStage(in <-chan item, out chan<- item) error {
	for it := range in {
		if err := j.ctx.Err(); err != nil {
			it.frame.Free()
			return err
		}
		if n := it.v - j.opts.FrameOffset; n >= 1 && j.overlay != nil {
			t0 := time.Now()
			var f composite.Surface
			var err error
			if it.device {
				f, err = wrapDevice(it.frame, j.enc.work)
			} else {
				f, err = wrap(it.frame, j.enc.work)
			}
			if err == nil {
				err = j.overlay(n, f)
			}
			j.addTime(&j.stats.Overlay, time.Since(t0))
			if err != nil {
				it.frame.Free()
				return fmt.Errorf("video: overlay on frame %d (track frame %d): %w", it.v, n, err)
			}
			j.mu.Lock()
			j.stats.Overlaid++
			if it.device {
				j.stats.DeviceOverlay++
			}
			j.mu.Unlock()
		}
		if it.device && !j.enc.device {
			t0 := time.Now()
			host, err := j.down.normalise(it.frame, frameInfo{pts: it.pts, duration: it.dur})
			it.frame.Free()
			j.addTime(&j.stats.Overlay, time.Since(t0))
			if err != nil {
				return err
			}
			host.v = it.v
			it = host
		}
		select {
		case out <- it:
		case <-j.ctx.Done():
			it.frame.Free()
			return j.ctx.Err()
		}
	}
	return nil
}

// expectedTotal is the number of frames the output should get, for progress; 0 if unknown.
func (j *job) expectedTotal() int {
	n := j.in.expectedFrames()
	if n == 0 {
		return 0
	}
	if j.opts.End.Frame > 0 && !j.opts.End.IsTime {
		n = min(n, j.opts.End.Frame)
	}
	if j.opts.Start.Frame > 0 && !j.opts.Start.IsTime {
		n -= j.opts.Start.Frame - 1
	}
	if j.opts.Start.IsTime || j.opts.End.IsTime {
		return 0 // would need the frame rate to hold; better no ETA than a wrong one
	}
	return max(n, 0)
}

func (j *job) addTime(d *time.Duration, t time.Duration) {
	j.mu.Lock()
	*d += t
	j.mu.Unlock()
}

// warn records a warning in Stats and logs it.
func (j *job) warn(msg string) {
	j.mu.Lock()
	j.stats.Warnings = append(j.stats.Warnings, msg)
	j.mu.Unlock()
	j.opts.Log("warning: " + msg)
}

// maxDamageWarnings bounds the warnings a badly broken file adds; the last one says how many
// more there were.
const maxDamageWarnings = 20

// damage records damage in the input: the render goes on and Transcode returns ErrInputDamaged.
func (j *job) damage(msg string) {
	j.mu.Lock()
	j.damaged++
	n := j.damaged
	j.mu.Unlock()
	switch {
	case n <= maxDamageWarnings:
		j.warn("input damaged: " + msg)
	case n == maxDamageWarnings+1:
		j.warn("input damaged: further damage not listed")
	}
}

// frameDone counts an encoded frame written to the output and reports progress.
func (j *job) frameDone() {
	j.mu.Lock()
	j.stats.Frames++
	j.mu.Unlock()
	j.progress(false)
}

// progress calls Options.Progress at most twice a second, and always when final.
func (j *job) progress(final bool) {
	if j.opts.Progress == nil {
		return
	}
	now := time.Now()
	if !final && now.Sub(j.lastTick) < 500*time.Millisecond {
		return
	}
	j.lastTick = now
	j.mu.Lock()
	p := Progress{Frames: j.stats.Frames, Total: j.total, Elapsed: now.Sub(j.started)}
	j.mu.Unlock()
	if s := p.Elapsed.Seconds(); s > 0 {
		p.FPS = float64(p.Frames) / s
	}
	if p.Total > p.Frames && p.FPS > 0 {
		p.ETA = time.Duration(float64(p.Total-p.Frames) / p.FPS * float64(time.Second))
	}
	j.opts.Progress(p)
}
