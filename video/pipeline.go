package video

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/asticode/go-astiav"
)

// Pipeline depth: frames waiting between stages. Each 4K 4:2:0 frame is 12 MB, and the decoder
// and encoder hold their own (reference frames, lookahead), so a short queue keeps memory flat
// while still letting the stages overlap.
const (
	frameQueue  = 2
	packetQueue = 64
)

// pipeline is one render's four stages: decode, draw, encode, mux. A render whose frames
// stay in host memory runs them on one goroutine (runInline), as the ffmpeg CLI's loop runs
// decoder, filters and encoder: each packet read is decoded, each frame drawn on, encoded
// and its packets written as they come. The codecs overlap the work themselves: the
// decoder's frame threads decode the packets in flight and x264's frame threads encode
// while the loop draws the next frame. Stages on goroutines of their own, joined by
// two-frame queues, added no overlap to that on the CPU, and cost what the queues hold
// (frames alive: the decoder's and the copies' pools grow, fresh pages are zeroed) and a
// hand-off per frame (docs/benchmarks.md has the figures).
//
// Frames drawn in GPU memory (Options.DeviceFrames) keep the staged pipeline: each stage
// a goroutine that owns what it uses (its codec or format context, its counters and busy
// time), meeting the others only at the queues, so that the host's decoding and encoding
// run while the device draws:
//
//	decode ─ frames ─> draw ─ frames ─> encode ─ packets ─┐
//	   └──────────── copied streams' packets ─────────────┴─> mux
type pipeline struct {
	decode decodeStage
	draw   drawStage
	encode encodeStage
	mux    muxStage
	staged bool // one goroutine per stage (frames in GPU memory), else runInline
}

// item is one frame travelling down the pipeline.
type item struct {
	frame  *astiav.Frame
	v      int   // 1-based video frame number in the input, presentation order
	pts    int64 // video stream time base, shifted to the output's start
	dur    int64
	device bool // frame is a CUDA frame, still to be copied to host memory after the draw
	turned bool // frame is turned to display orientation already (drawStage.lookAhead)
}

// run runs the stages and returns the first error. An error in one stage cancels the
// others; whatever is still queued is freed once all have stopped.
func (p *pipeline) run(parent context.Context) error {
	if !p.staged {
		return p.runInline(parent)
	}
	decoded := make(chan item, frameQueue)
	drawn := make(chan item, frameQueue)
	err := runStages(parent, &p.mux,
		func(ctx context.Context, mux packetSink) error {
			defer close(decoded)
			return p.decode.run(ctx, func(it item) error { return send(ctx, decoded, it, freeItem) }, mux)
		},
		func(ctx context.Context, _ packetSink) error {
			defer close(drawn)
			return p.draw.run(ctx, decoded, drawn)
		},
		func(ctx context.Context, mux packetSink) error {
			return p.encode.run(ctx, drawn, mux)
		})
	for it := range decoded {
		it.frame.Free()
	}
	for it := range drawn {
		it.frame.Free()
	}
	return err
}

// runInline runs the stages on one goroutine: each packet read is decoded, each frame drawn
// on, encoded and its packets written as they come, with no queue and no hand-off between
// goroutines; with Options.Ahead, each frame is handed to it as decoded and drawn
// AheadFrames frames later (drawStage.hold).
func (p *pipeline) runInline(ctx context.Context) error {
	mux := p.mux.write
	defer p.draw.freeHeld()
	drawAndEncode := func(it item) error {
		it, err := p.draw.process(it)
		if err != nil {
			return err
		}
		return p.encode.encode(ctx, it, mux)
	}
	err := p.decode.run(ctx, func(it item) error {
		it, ok, err := p.draw.hold(it)
		if err != nil || !ok {
			return err
		}
		return drawAndEncode(it)
	}, mux)
	for err == nil && len(p.draw.held) > 0 {
		err = drawAndEncode(p.draw.release())
	}
	if err == nil {
		err = p.encode.flush(ctx, mux)
	}
	// A cancel that came after the last check (in the flush, between its packets) still
	// stops the render: the caller must not commit what it wrote.
	if ctx.Err() != nil {
		return cancelled(ctx)
	}
	return err
}

// cancelled is the error of a render whose ctx ended: it wraps ctx's cause (a caught
// signal, for the cli's exit status), so it is also a context.Canceled.
func cancelled(ctx context.Context) error {
	return fmt.Errorf("video: cancelled: %w", context.Cause(ctx))
}

// packetSink takes a packet for the muxer: it queues or writes it, or frees it and returns
// an error.
type packetSink func(*astiav.Packet) error

// producer is a stage that may send packets to the muxer.
type producer func(ctx context.Context, mux packetSink) error

// runStages runs each producer in a goroutine of its own and mux in another, writing what
// they send until all have returned, and returns the first error: it cancels the others.
// The packets still queued are freed.
func runStages(parent context.Context, mux *muxStage, producers ...producer) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	packets := make(chan *astiav.Packet, packetQueue)
	sink := func(p *astiav.Packet) error { return send(ctx, packets, p, freePacket) }
	var (
		errOnce  sync.Once
		first    error
		produced sync.WaitGroup
		muxed    sync.WaitGroup
	)
	fail := func(err error) {
		if err != nil {
			errOnce.Do(func() { first = err; cancel() })
		}
	}
	for _, f := range producers {
		produced.Go(func() { fail(f(ctx, sink)) })
	}
	go func() { produced.Wait(); close(packets) }()
	muxed.Go(func() { fail(mux.run(ctx, packets)) })
	produced.Wait()
	muxed.Wait()
	for pkt := range packets {
		pkt.Free()
	}
	if parent.Err() != nil {
		return cancelled(parent) // even if every stage had finished: nothing is to be committed
	}
	return first
}

// send passes v on unless ctx ends first; then it frees v and returns ctx's error.
func send[T any](ctx context.Context, out chan<- T, v T, free func(T)) error {
	select {
	case out <- v:
		return nil
	case <-ctx.Done():
		free(v)
		return ctx.Err()
	}
}

func freeItem(it item)              { it.frame.Free() }
func freePacket(pkt *astiav.Packet) { pkt.Free() }

// report collects the warnings of a render, from any stage, and logs them.
type report struct {
	log      func(string)
	mu       sync.Mutex
	warnings []string
	damaged  int // damage warnings recorded
}

// warn records a warning and logs it.
func (r *report) warn(msg string) {
	r.mu.Lock()
	r.warnings = append(r.warnings, msg)
	r.mu.Unlock()
	r.log("warning: " + msg)
}

// maxDamageWarnings bounds the warnings a badly broken file adds; the last one says how many
// more there were.
const maxDamageWarnings = 20

// damage records damage in the input: the render goes on and Transcode returns ErrInputDamaged.
func (r *report) damage(msg string) {
	r.mu.Lock()
	r.damaged++
	n := r.damaged
	r.mu.Unlock()
	switch {
	case n <= maxDamageWarnings:
		r.warn("input damaged: " + msg)
	case n == maxDamageWarnings+1:
		r.warn("input damaged: further damage not listed")
	}
}

// timer accumulates a stage's busy time.
type timer struct{ busy time.Duration }

func (t *timer) since(t0 time.Time) { t.busy += time.Since(t0) }
