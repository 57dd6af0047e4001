package gpu

import (
	"trackink/kernels/device"
	"trackink/overlay"
)

// echoRing is the echo trails' kept layers on the device (kernels/echo.cu): Frames + 1
// slots, each the whole frame's layer at 4 bytes a pixel, so that the slot a frame keeps its
// layer in is never one of its echoes; and where the next frame's goes and how many frames
// the ring holds, which the host keeps and hands the kernel in the parameter block.
type echoRing struct {
	layers       buf
	frames, w, h int
	next, filled int
}

// prepare sizes the ring for a w × h frame of pixels layer pixels (the tiles') with pass e,
// starting it empty when the size or the number of frames changed.
func (r *echoRing) prepare(dev device.Device, e *overlay.EchoPass, w, h, pixels int) error {
	if !e.On() {
		return nil
	}
	if r.frames != e.Frames || r.w != w || r.h != h {
		r.frames, r.w, r.h, r.next, r.filled = e.Frames, w, h, 0, 0
	}
	return r.layers.ensure(dev, (e.Frames+1)*4*pixels)
}

// params writes pass e and the ring's state into q.
func (r *echoRing) params(q *tkParams, e *overlay.EchoPass) {
	if !e.On() {
		return
	}
	q.EchoLayers, q.EchoFrames, q.EchoFilled, q.EchoCur, q.EchoRing = uint64(r.layers.ptr), int32(e.Frames), int32(r.filled), int32(r.next), int32(e.Frames+1)
	q.EchoDecay, q.EchoScale, q.EchoOffset = e.Decay, e.Scale, e.Offset
	if e.Keep {
		q.EchoKeep = 1
	}
}

// end moves the ring on past a frame drawn with pass e.
func (r *echoRing) end(e *overlay.EchoPass) {
	if !e.On() {
		return
	}
	r.next = (r.next + 1) % (r.frames + 1)
	r.filled = min(r.filled+1, r.frames)
}
