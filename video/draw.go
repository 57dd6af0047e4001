package video

import (
	"context"
	"fmt"
	"time"

	"trackink/composite"
)

// drawStage calls the DrawFunc on each frame in the tracks' range; frames drawn in GPU
// memory for a host encoder are copied to host memory after it.
type drawStage struct {
	timer
	draw        DrawFunc
	frameOffset int
	work        workFormat
	down        *converter // GPU frames to host memory for a host encoder, or nil
	encOnDevice bool       // the encoder takes GPU frames as they are

	overlaid, onDevice int
}

func (d *drawStage) run(ctx context.Context, in <-chan item, out chan<- item) error {
	for it := range in {
		if err := ctx.Err(); err != nil {
			it.frame.Free()
			return err
		}
		if n := it.v - d.frameOffset; n >= 1 && d.draw != nil {
			if err := d.drawOn(it, n); err != nil {
				it.frame.Free()
				return err
			}
		}
		if it.device && !d.encOnDevice {
			t0 := time.Now()
			host, err := d.down.normalize(it.frame, frameInfo{pts: it.pts, duration: it.dur})
			it.frame.Free()
			d.since(t0)
			if err != nil {
				return err
			}
			host.v = it.v
			it = host
		}
		if err := send(ctx, out, it, freeItem); err != nil {
			return err
		}
	}
	return nil
}

// drawOn calls the DrawFunc with frame it as the surface it draws on, as track frame n.
func (d *drawStage) drawOn(it item, n int) error {
	defer d.since(time.Now())
	var dst composite.Surface
	var err error
	if it.device {
		dst, err = wrapDevice(it.frame, d.work)
	} else {
		dst, err = wrap(it.frame, d.work)
	}
	if err == nil {
		err = d.draw(n, dst)
	}
	if err != nil {
		return fmt.Errorf("video: overlay on frame %d (track frame %d): %w", it.v, n, err)
	}
	d.overlaid++
	if it.device {
		d.onDevice++
	}
	return nil
}
