package gpu

import (
	"trackink/kernels/device"
	"trackink/overlay"
)

// The box effects (overlay.EffectBox; kernels/effects.cu): the host uploads the frame's
// effect boxes and the effects' parameter block, and sizes the copy of the frame as decoded
// that the kernels read; tk_effects_copy and tk_effects run ahead of binning, on the frame
// in device memory (an NVDEC frame in place).

// The Go twins of kernels/effects.h's records (layout_test.go checks them).
type tkFxPlane struct {
	Frame, Src   uint64
	Stride, Step int32
	Wide, Shift  int32
	Sub, W, H    int32
	Chroma       int32
	Black, White float32
	Max          float32
	_            int32
}

type tkFxCopy struct {
	From, To uint64
	Bytes    int64
}

type tkEffects struct {
	N, RGB int32
	Boxes  uint64
	Planes [3]tkFxPlane
	Copies [3]tkFxCopy
}

// effectBufs are the effects' device buffers and the host copy of their parameter block
// (in an allocation of its own, as hostRecords: memory handed to the driver).
type effectBufs struct {
	block, boxes buf
	src          [3]buf
	host         *tkEffects
}

// fxLayout is how a frame format holds its planes for the effects: for each component,
// which of the frame's planes it lies in, at which byte offset, its step in bytes, and
// whether it is 4:2:0 chroma; samples two bytes wide at shift for the 10-bit formats.
var fxLayout = map[int32]struct {
	plane, offset, step [3]int
	sub                 int
	wide                bool
	shift               int
}{
	formatRGBA:      {[3]int{0, 0, 0}, [3]int{0, 1, 2}, [3]int{4, 4, 4}, 1, false, 0},
	formatYUV420P:   {[3]int{0, 1, 2}, [3]int{}, [3]int{1, 1, 1}, 2, false, 0},
	formatNV12:      {[3]int{0, 1, 1}, [3]int{0, 0, 1}, [3]int{1, 2, 2}, 2, false, 0},
	formatYUV420P10: {[3]int{0, 1, 2}, [3]int{}, [3]int{2, 2, 2}, 2, true, 0},
	formatP010:      {[3]int{0, 1, 1}, [3]int{0, 0, 2}, [3]int{2, 4, 4}, 2, true, 6},
}

// uploadEffects writes the frame's effect boxes and the effects' block to the device and
// returns the block's address for TkParams.effects; 0 when the frame has none. planes are
// the frame's planes in device memory.
func (g *Backend) uploadEffects(hf *frameDesc, fx []overlay.EffectBox, planes [3]device.Ptr) (uint64, error) {
	if len(fx) == 0 {
		return 0, nil
	}
	e := &g.fx
	if e.host == nil {
		e.host = new(tkEffects)
	}
	if err := g.ensure(&e.block, int(sizeofEffects)); err != nil {
		return 0, err
	}
	if err := g.ensure(&e.boxes, len(fx)*int(sizeofEffectBox)); err != nil {
		return 0, err
	}
	q := tkEffects{N: int32(len(fx)), Boxes: uint64(e.boxes.ptr)}
	if hf.format == formatRGBA {
		q.RGB = 1
	}
	var err error
	if q.Planes, q.Copies, err = g.fxPlanes(hf, planes, &e.src); err != nil {
		return 0, err
	}
	*e.host = q
	if err := g.dev.CopyIn(e.boxes.ptr, bytesOf(fx)); err != nil {
		return 0, err
	}
	if err := g.dev.CopyIn(e.block.ptr, structBytes(e.host)); err != nil {
		return 0, err
	}
	return uint64(e.block.ptr), nil
}

// fxPlanes describes the frame's planes for the effects and the camera look, and the copies
// of them into src (grown to fit) that their kernels read.
func (g *Backend) fxPlanes(hf *frameDesc, planes [3]device.Ptr, src *[3]buf) ([3]tkFxPlane, [3]tkFxCopy, error) {
	var pls [3]tkFxPlane
	var copies [3]tkFxCopy
	lay := fxLayout[hf.format]
	for k := range 3 {
		n := hf.planeBytes(k)
		if n == 0 {
			continue
		}
		if err := g.ensure(&src[k], n); err != nil {
			return pls, copies, err
		}
		copies[k] = tkFxCopy{From: uint64(planes[k]), To: uint64(src[k].ptr), Bytes: int64(n)}
	}
	black, white := hf.space.Color(0, 0, 0, 1), hf.space.Color(1, 1, 1, 1)
	for k := range 3 {
		sub := 1
		if k > 0 {
			sub = lay.sub
		}
		pl := lay.plane[k]
		fp := tkFxPlane{
			Frame: uint64(planes[pl]) + uint64(lay.offset[k]), Src: uint64(src[pl].ptr) + uint64(lay.offset[k]),
			Stride: int32(hf.strides[pl]), Step: int32(lay.step[k]), Shift: int32(lay.shift),
			Sub: int32(sub), W: int32((hf.w + sub - 1) / sub), H: int32((hf.h + sub - 1) / sub),
			Black: black[k], White: white[k], Max: 255,
		}
		if lay.wide {
			fp.Wide, fp.Max = 1, 1023
		}
		if sub == 2 {
			fp.Chroma, fp.White = 1, black[k]
		}
		pls[k] = fp
	}
	return pls, copies, nil
}

// planeBytes is the bytes plane k of the frame spans (0 for a plane the format lacks).
func (fd *frameDesc) planeBytes(k int) int {
	if !fd.onDevice() {
		return len(fd.planes[k])
	}
	if fd.devicePlanes[k] == 0 {
		return 0
	}
	// An NV12 frame in device memory: Y, then interleaved CbCr.
	rows, row := fd.h, fd.w
	if k > 0 {
		rows, row = (fd.h+1)/2, 2*((fd.w+1)/2)
	}
	return fd.strides[k]*(rows-1) + row
}
