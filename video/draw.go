package video

import (
	"context"
	"fmt"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/composite"
)

// drawStage calls the DrawFunc on each frame in the tracks' range, turned to display
// orientation for it when the video is rotated (turn.go); frames drawn in GPU memory for a
// host encoder are copied to host memory after it; frames of odd size are fitted to the
// encoder's picture last (oddsize.go).
type drawStage struct {
	timer
	draw        DrawFunc
	frameOffset int
	work        workFormat
	down        *converter // GPU frames to host memory for a host encoder, or nil
	encOnDevice bool       // the encoder takes GPU frames as they are
	turner      *frameTurner
	fitter      *fitter
	layer       *layerDrawer // a layer-only render's (Options.Layer): frames are replaced by the layer
	ahead       DrawFunc     // Options.Ahead
	held        []item       // the frames handed to ahead and not yet drawn, oldest first; Options.AheadFrames at most
	aheadFrames int

	overlaid, onDevice int
}

func (d *drawStage) run(ctx context.Context, in <-chan item, out chan<- item) error {
	defer d.freeHeld()
	for it := range in {
		if err := ctx.Err(); err != nil {
			it.frame.Free()
			return err
		}
		it, ok, err := d.hold(it)
		if err == nil && ok {
			it, err = d.process(it)
		}
		if err != nil {
			return err
		}
		if ok {
			if err := send(ctx, out, it, freeItem); err != nil {
				return err
			}
		}
	}
	for len(d.held) > 0 {
		it, err := d.process(d.release())
		if err != nil {
			return err
		}
		if err := send(ctx, out, it, freeItem); err != nil {
			return err
		}
	}
	return nil
}

// looksAhead reports whether frames go to Options.Ahead before the DrawFunc.
func (d *drawStage) looksAhead() bool { return d.ahead != nil && d.aheadFrames > 0 && d.layer == nil }

// hold hands it to the Ahead func (turned to display orientation first) when the DrawFunc
// will draw it, and holds it. It returns the frame to draw now, and ok: the oldest frame held
// once AheadFrames are, or it itself when nothing looks ahead. On an error the frame is freed.
func (d *drawStage) hold(it item) (item, bool, error) {
	if !d.looksAhead() {
		return it, true, nil
	}
	var oldest item
	full := len(d.held) == d.aheadFrames
	if full {
		oldest = d.release()
	}
	if d.drawsOn(it.v) && !it.device {
		if err := d.lookAhead(&it); err != nil {
			if full {
				oldest.frame.Free()
			}
			return item{}, false, err
		}
	}
	d.held = append(d.held, it)
	return oldest, full, nil
}

// lookAhead hands frame it to the Ahead func, turned first when the video is rotated
// (drawOn then does not turn it again); on an error the frame is freed.
func (d *drawStage) lookAhead(it *item) error {
	defer d.since(time.Now())
	if d.turner != nil {
		f, err := d.turn(d.turner.toDisplay, it.frame)
		if err != nil {
			return err
		}
		it.frame, it.turned = f, true
	}
	pic, err := wrap(it.frame, d.work)
	if err == nil {
		err = d.ahead(it.v-d.frameOffset, pic)
	}
	if err != nil {
		it.frame.Free()
		return fmt.Errorf("video: tracks frame %d, video frame %d, ahead of drawing: %w", it.v-d.frameOffset, it.v, err)
	}
	return nil
}

// release returns the oldest frame held.
func (d *drawStage) release() item {
	it := d.held[0]
	d.held = append(d.held[:0], d.held[1:]...)
	return it
}

// freeHeld frees the frames still held (the render stopped).
func (d *drawStage) freeHeld() {
	for _, it := range d.held {
		it.frame.Free()
	}
	d.held = d.held[:0]
}

// process draws on it when the DrawFunc is called on its frame, copies a frame drawn in GPU
// memory to host memory for a host encoder and fits it to the encoder's size, and returns
// it for the encoder; on an error the frame is freed.
func (d *drawStage) process(it item) (item, error) {
	if d.layer != nil {
		return d.processLayer(it)
	}
	var err error
	if d.drawsOn(it.v) {
		it.frame, err = d.drawOn(it, it.v-d.frameOffset)
	}
	if err == nil && it.device && !d.encOnDevice {
		it, err = d.download(it)
	}
	if err == nil && d.fitter != nil {
		t0 := time.Now()
		it.frame, err = d.fitter.fit(it.frame)
		d.since(t0)
	}
	if err != nil {
		if it.frame != nil {
			it.frame.Free()
		}
		return item{}, err
	}
	return it, nil
}

// processLayer replaces the frame of it with the layer frame drawn for it (layerDrawer).
func (d *drawStage) processLayer(it item) (item, error) {
	defer d.since(time.Now())
	draw := d.draw
	if !d.drawsOn(it.v) {
		draw = nil
	}
	it, err := d.layer.layerFrame(it, it.v-d.frameOffset, draw)
	if err != nil {
		return item{}, err
	}
	if draw != nil {
		d.overlaid++
	}
	return it, nil
}

// drawsOn reports whether the DrawFunc is called on video frame v: the decoder's frame is
// then made writable (converter.normalize), and otherwise passed on as it is. It reads only
// what does not change during a render, so the decode stage may call it.
func (d *drawStage) drawsOn(v int) bool { return d.draw != nil && v-d.frameOffset >= 1 }

// drawOn calls the DrawFunc with frame it as the surface it draws on, as track frame n, and
// returns the frame drawn on (a new one when it was turned; it.frame is then freed).
func (d *drawStage) drawOn(it item, n int) (*astiav.Frame, error) {
	defer d.since(time.Now())
	f := it.frame
	if d.turner != nil && !it.turned {
		var err error
		if f, err = d.turn(d.turner.toDisplay, f); err != nil {
			return nil, err
		}
	}
	var dst composite.Surface
	var err error
	if it.device {
		dst, err = wrapDevice(f, d.work)
	} else {
		dst, err = wrap(f, d.work)
	}
	if err == nil {
		err = d.draw(n, dst)
	}
	if err != nil {
		f.Free()
		return nil, fmt.Errorf("video: drawing tracks frame %d on video frame %d: %w", n, it.v, err)
	}
	d.overlaid++
	if it.device {
		d.onDevice++
	}
	if d.turner != nil {
		return d.turn(d.turner.back, f)
	}
	return f, nil
}

// turn runs f through t and frees it.
func (d *drawStage) turn(t *turner, f *astiav.Frame) (*astiav.Frame, error) {
	out, err := t.turn(f)
	f.Free()
	return out, err
}

// download copies a frame drawn in GPU memory to host memory for the encoder.
func (d *drawStage) download(it item) (item, error) {
	t0 := time.Now()
	defer d.since(t0)
	host, err := d.down.normalize(it.frame, frameInfo{pts: it.pts, duration: it.dur}, false)
	it.frame.Free()
	if err != nil {
		return item{}, err
	}
	host.v = it.v
	return host, nil
}
