package gpu

import (
	"trackink/kernels/device"
	"trackink/overlay"
)

// The camera look (overlay.CameraPass; kernels/camera.cu): the host makes the Q15 gains of
// the columns and rows with the CPU renderer's own function and uploads them when the frame
// size or the settings change, and each frame the camera's block (the grain key changes per
// frame); tk_camera_copy and tk_camera run after the composite. The copy of the frame they
// read is the effects' (the effects are done by then).

// tkCamera is kernels/effects.h's TkCamera (effects_test.go checks it).
type tkCamera struct {
	Cols, Rows uint64
	Key        uint32
	Amp        int32
	RGB        int32
	Shift      [3]int32
	Tint, Keep int32
	Luma       int32
	Move       [3]int32
	Planes     [3]tkFxPlane
	Copies     [3]tkFxCopy
	AmpC       int32
	KeyC       [2]uint32
}

// cameraBufs are the camera look's device buffers, the host copy of its block (an
// allocation of its own, as hostRecords) and the gains last uploaded.
type cameraBufs struct {
	block, cols, rows buf
	host              *tkCamera
	gains             []int32 // the columns' gains, then the rows'
	gainsFor          overlay.CameraPass
	w, h              int
}

// cameraTint is the pass's tint constants for the frame hf (overlay.CameraTint), from the
// frame's space as the CPU makes them.
func cameraTint(hf *frameDesc, p *overlay.CameraPass, pl *[3]tkFxPlane) overlay.CameraTint {
	rgb := hf.format == formatRGBA
	neutral := pl[1].Black
	if rgb {
		neutral = 0
	}
	t := p.Tint
	c := hf.space.Color(t[0], t[1], t[2], 1)
	return p.CameraTint([3]float32(c[:3]), pl[0].Black, pl[0].White, neutral, rgb)
}

// uploadCamera writes the frame's camera block (and the gains, when they change) to the
// device and returns the block's address for TkParams.camera; 0 when the frame has none.
func (g *Backend) uploadCamera(hf *frameDesc, p *overlay.CameraPass, planes [3]device.Ptr) (uint64, error) {
	if !p.On() {
		return 0, nil
	}
	c := &g.cam
	if c.host == nil {
		c.host = new(tkCamera)
	}
	if err := g.ensure(&c.block, int(sizeofCamera)); err != nil {
		return 0, err
	}
	if err := g.ensure(&c.cols, 4*hf.w); err != nil {
		return 0, err
	}
	if err := g.ensure(&c.rows, 4*hf.h); err != nil {
		return 0, err
	}
	gp := *p
	gp.Frame = 0
	if c.w != hf.w || c.h != hf.h || c.gainsFor != gp || c.gains == nil {
		c.gains = make([]int32, hf.w+hf.h)
		gp.CameraGains(c.gains[:hf.w], c.gains[hf.w:])
		if err := g.dev.CopyIn(c.cols.ptr, bytesOf(c.gains[:hf.w])); err != nil {
			return 0, err
		}
		if err := g.dev.CopyIn(c.rows.ptr, bytesOf(c.gains[hf.w:])); err != nil {
			return 0, err
		}
		c.w, c.h, c.gainsFor = hf.w, hf.h, gp
	}
	q := tkCamera{Cols: uint64(c.cols.ptr), Rows: uint64(c.rows.ptr), Key: p.GrainKey()}
	var err error
	if q.Planes, q.Copies, err = g.fxPlanes(hf, planes, &g.fx.src); err != nil {
		return 0, err
	}
	q.Amp = p.GrainAmplitude(q.Planes[0].White - q.Planes[0].Black)
	q.AmpC, q.KeyC = p.ColorGrainAmplitude(q.Planes[0].White-q.Planes[0].Black), p.ColorGrainKeys()
	red, blue := 2, 1 // Cr, Cb
	if hf.format == formatRGBA {
		q.RGB, red, blue = 1, 0, 2
	}
	q.Shift[red] = int32(-p.CameraShift(int(q.Planes[red].Sub)))
	q.Shift[blue] = int32(p.CameraShift(int(q.Planes[blue].Sub)))
	if t := cameraTint(hf, p, &q.Planes); t.On() {
		q.Tint, q.Keep, q.Luma, q.Move = 1, t.Keep, t.Luma, t.Move
	}
	*c.host = q
	if err := g.dev.CopyIn(c.block.ptr, structBytes(c.host)); err != nil {
		return 0, err
	}
	return uint64(c.block.ptr), nil
}
