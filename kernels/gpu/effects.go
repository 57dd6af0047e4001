package gpu

import (
	"math"
	"unsafe"

	"trackink/kernels/device"
	"trackink/overlay"
)

// The box effects (overlay.EffectBox; kernels/effects.cu): the host uploads the frame's
// effect boxes and the effects' parameter block, and sizes the copy of the frame as decoded
// that the kernels read, the Gaussian's weights and column sums (gaussRecords), and the
// pixel sort's lines sorted (sortRecords); tk_effects_copy, tk_effects_gauss_weights,
// tk_effects_gauss, tk_effects_sort and tk_effects run ahead of binning, on the frame in
// device memory (an NVDEC frame in place).

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
	N, RGB       int32
	Boxes        uint64
	Planes       [3]tkFxPlane
	Copies       [3]tkFxCopy
	Gauss        uint64
	Sort         uint64
	SortLines, _ int32
}

type tkFxGauss struct {
	Sums, Weights      uint64
	X0, Y0, Cols, Rows int32
	R, _               int32
}

type tkFxSort struct {
	Keys, Places       uint64
	X0, Y0, Cols, Rows int32
	First, _           int32
}

// effectBufs are the effects' device buffers and the host copy of their parameter block
// (in an allocation of its own, as hostRecords: memory handed to the driver); the
// Gaussian's records and column sums; the pixel sort's records and its scratch (each sort
// box's keys and places).
type effectBufs struct {
	block, boxes buf
	src          [3]buf
	host         *tkEffects
	gauss, sums  buf
	records      []tkFxGauss
	sort, sorted buf
	sorts        []tkFxSort
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
	if q.Gauss, err = g.gaussRecords(hf, fx, &q); err != nil {
		return 0, err
	}
	if q.Sort, q.SortLines, err = g.sortRecords(hf, fx, &q); err != nil {
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

// gaussRecords lays out the Gaussian boxes' column sums (kernels/effects.cu's
// tk_effects_gauss) in e.sums and uploads their records, and returns the records' address;
// 0 when no box is a Gaussian. Each plane's record spans the samples the box's effect is
// computed at (fxRect's rectangle; 4:2:0 chroma at half) and gaussReach beyond them each
// way, in the frame, and leaves room for 2·gaussReach + 1 weights after its sums
// (tk_effects_gauss_weights writes them and the exact reach).
func (g *Backend) gaussRecords(hf *frameDesc, fx []overlay.EffectBox, q *tkEffects) (uint64, error) {
	e := &g.fx
	e.records = e.records[:0]
	var cells int64
	for i := range fx {
		b := &fx[i]
		r := fxRect(b, hf.w, hf.h)
		for k := range 3 {
			pl := &q.Planes[k]
			if b.Kind != overlay.EffectGaussian || pl.W == 0 {
				e.records = append(e.records, tkFxGauss{})
				continue
			}
			sh, sub := int(pl.Sub>>1), int(pl.Sub)
			x0, y0, x1, y1 := r[0]>>sh, r[1]>>sh, (r[2]+sub-1)>>sh, (r[3]+sub-1)>>sh
			reach := gaussReach(b.Strength, sub)
			gx0, gx1 := max(x0-reach, 0), min(x1+reach, int(pl.W))
			rec := tkFxGauss{X0: int32(gx0), Y0: int32(y0)}
			if x1 > x0 && y1 > y0 {
				rec.Cols, rec.Rows = int32(gx1-gx0), int32(y1-y0)
			}
			// Offsets until the buffer is known: the sums, then room for the weights.
			rec.Sums, rec.Weights = uint64(cells), uint64(cells+int64(rec.Cols)*int64(rec.Rows))
			cells = int64(rec.Weights) + int64(2*reach+1)
			e.records = append(e.records, rec)
		}
	}
	if cells == 0 {
		return 0, nil
	}
	if err := g.ensure(&e.sums, int(cells)*4); err != nil {
		return 0, err
	}
	for i := range e.records {
		r := &e.records[i]
		r.Sums, r.Weights = uint64(e.sums.ptr)+4*r.Sums, uint64(e.sums.ptr)+4*r.Weights
	}
	if err := g.ensure(&e.gauss, len(e.records)*int(unsafe.Sizeof(tkFxGauss{}))); err != nil {
		return 0, err
	}
	if err := g.dev.CopyIn(e.gauss.ptr, bytesOf(e.records)); err != nil {
		return 0, err
	}
	return uint64(e.gauss.ptr), nil
}

// sortRecords lays out the pixel-sort boxes' lines (kernels/effects.cu's tk_effects_sort) in
// e.sorted and uploads their records, two a box (the frame's sampling, then 4:2:0 chroma's:
// none on an R'G'B' frame, whose planes share the frame's), and returns the records' address
// and their lines, all told; 0 when no box sorts. Each spans the samples the box's effect is
// computed at (fxRect's rectangle; 4:2:0 chroma at half), its own: overlapping sort boxes
// each sort the copy.
func (g *Backend) sortRecords(hf *frameDesc, fx []overlay.EffectBox, q *tkEffects) (uint64, int32, error) {
	e := &g.fx
	e.sorts = e.sorts[:0]
	var cells, lines int64
	for i := range fx {
		b := &fx[i]
		r := fxRect(b, hf.w, hf.h)
		for k := range 2 {
			pl := &q.Planes[k]
			rec := tkFxSort{First: int32(lines)}
			if b.Kind != overlay.EffectSort || pl.W == 0 || (k == 1 && q.RGB != 0) {
				e.sorts = append(e.sorts, rec)
				continue
			}
			sh, sub := int(pl.Sub>>1), int(pl.Sub)
			x0, y0, x1, y1 := r[0]>>sh, r[1]>>sh, (r[2]+sub-1)>>sh, (r[3]+sub-1)>>sh
			rec.X0, rec.Y0 = int32(x0), int32(y0)
			if x1 > x0 && y1 > y0 {
				rec.Cols, rec.Rows = int32(x1-x0), int32(y1-y0)
			}
			// Offsets until the buffer is known: the places (int32) here, the keys (bytes) after
			// every record's places.
			rec.Places, rec.Keys = uint64(cells), uint64(cells)
			cells += int64(rec.Cols) * int64(rec.Rows)
			if b.SortColumns != 0 {
				lines += int64(rec.Cols)
			} else {
				lines += int64(rec.Rows)
			}
			e.sorts = append(e.sorts, rec)
		}
	}
	if cells == 0 {
		return 0, 0, nil
	}
	if err := g.ensure(&e.sorted, int(cells)*5); err != nil {
		return 0, 0, err
	}
	for i := range e.sorts {
		r := &e.sorts[i]
		r.Places, r.Keys = uint64(e.sorted.ptr)+4*r.Places, uint64(e.sorted.ptr)+4*uint64(cells)+r.Keys
	}
	if err := g.ensure(&e.sort, len(e.sorts)*int(unsafe.Sizeof(tkFxSort{}))); err != nil {
		return 0, 0, err
	}
	if err := g.dev.CopyIn(e.sort.ptr, bytesOf(e.sorts)); err != nil {
		return 0, 0, err
	}
	return uint64(e.sort.ptr), int32(lines), nil
}

// gaussMaxSigma bounds sigma as fxGaussRadii does (TK_FX_GAUSS_SIGMA, render's
// gaussMaxSigma).
const gaussMaxSigma = 50

// gaussReach bounds the Gaussian's reach, its three radii's sum (render's gaussRadii), for
// sigma s px in a plane whose samples are sub px apart: each radius is at most
// (sqrt(4σ² + 1) + 1) / 2, and one more for rounding.
func gaussReach(s float32, sub int) int {
	sg := float64(min(max(s, 0), gaussMaxSigma)) / float64(sub)
	return 3 * (int((math.Sqrt(4*sg*sg+1)+1)/2) + 1)
}

// fxRect is kernels/effects.cu's fxRect (render's effectRect): the pixels [r[0], r[2]) ×
// [r[1], r[3]) box b can reach in a w × h frame, on even coordinates; empty for a box whose
// edges are not finite or beyond 2²⁴ px. The same float32 operations as the kernel's.
func fxRect(b *overlay.EffectBox, w, h int) [4]int {
	const far = float32(1 << 24)
	v := [4]float32{b.X - 1, b.Y - 1, b.X + b.W + 2, b.Y + b.H + 2}
	var r [4]int
	for _, f := range v {
		if !(f >= -far && f <= far) {
			return r
		}
	}
	lim := [4]int{w, h, w, h}
	for i, f := range v {
		r[i] = min(max(int(math.Floor(float64(f))), 0), lim[i])
	}
	r[0] &^= 1
	r[1] &^= 1
	r[2] = min((r[2]+1)&^1, w)
	r[3] = min((r[3]+1)&^1, h)
	return r
}
