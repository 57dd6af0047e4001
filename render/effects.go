package render

import (
	"encoding/binary"
	"fmt"
	"math"

	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The effects stage: each box's effect (overlay.EffectBox) changes the frame under it before
// the overlay is drawn (twin: kernels/effects.cu). It runs in two phases over the workers,
// so that every effect reads the frame as decoded:
//
//  1. per box, the effect's values over the box's pixel rectangle, read from the frame
//     (blurred, pixelated, zoomed, …), as float32 in the frame's own code values;
//  2. per band of rows, the boxes that reach it, in order: each sample becomes
//     sample + coverage·(effect − sample), coverage the effect's (fxCover of the box's
//     rounded-box distance: the fill's, its ramp widened to the feather), a 4:2:0 chroma sample's the mean of its four pixels'
//     (composite's rule), rounded to the nearest code value.
//
// The sums behind blur and pixelate are integers, and every float operation is the kernel's
// in the kernel's order, so the emulated device writes the same samples. The inner loops
// have AVX2 twins (effects_simd.go, effects_amd64.s) that give the same bits.

// fxBand is the rows a phase-2 task takes: even, so a band holds whole 4:2:0 chroma rows.
const fxBand = 16

// fxPlane is one component plane of a frame as the effects read and write it.
type fxPlane struct {
	p            []byte
	stride, step int  // bytes between rows and between samples
	wide         bool // two-byte little-endian samples
	shift        uint // the value's bit shift in its word (P010: 6)
	max          float32
	sub          int // 1, or 2 for 4:2:0 chroma (half the width and height)
	w, h         int
	black, white float32 // code values of black and white (chroma: both neutral)
	chroma       bool
}

// fxFrame is a host frame's planes: Y', Cb, Cr, or R', G', B' for RGBA (alpha untouched).
type fxFrame struct {
	pl    [3]fxPlane
	rgb   bool
	space composite.Space
}

// fxRect is a box's pixel rectangle [x0, x1) × [y0, y1), on even luma coordinates (x1 and
// y1 at most the frame's size), and where its values start in the effect arena.
type fxRect struct {
	x0, y0, x1, y1 int
	off            [3]int     // per plane: the effect's values, row by row
	pt             [3]fxPoint // per plane: a pointwise effect
	direct         bool       // phase 2 works out the pointwise effect of each sample (no values)
	cov            int        // the coverage of each column, of each row, of each chroma column (coverEdges)
	left, right    int        // the columns at each end that can lie beside a rounded corner
	in0, in1       int        // the rows whose coverage is the columns' (away from the edges and corners)
}

// effectsScratch is the effects stage's per-frame state, reused frame to frame.
type effectsScratch struct {
	f     fxFrame
	rects []fxRect
	arena []float32
	bands int
}

// fxWork is a worker's scratch for the effects: rows of samples, sums and coverage.
type fxWork struct {
	a, b, c []int32 // rows of samples (blur: b, the prefix sums of acc)
	acc     []int32 // blur, pixelate: column sums
	from    []int32 // blur: each sample's window in the loaded row
	to      []int32
	cov     [2][]float32
	covC    []float32
	zoom    zoomCols
	row     []float32 // zoom: a source row
	top     []float32 // zoom: two source rows interpolated across
	bot     []float32
	fx      []float32
	row8    []byte // camera: a shifted (NV12: padded) copy of a row of 8-bit samples
	// sort: the keys of a row (or a rectangle), of a chroma row, and of a chroma column; a
	// line's bit masks (sortMasks); a short run's items, a run's samples' places; its counts
	keys8, keysC8, line8 []byte
	keysT                []byte // a rectangle's keys, a column a row
	mirror               []byte // a line's keys mirrored (descending)
	inBits, downBits     []uint64
	items                []uint32
	places               []int32
	counts               [256]int32
	runKeys, sorted      [netMax]byte // a run's keys where whole vectors of them are not; a run sorted
	// gaussian: 8 lines along rows (their prefix sums in place) and their running sums
	// between blocks; the sweep's rows of sums, int32 or int64; a line's weights; the
	// weights inside the frame of each column and row
	gLine    []int32
	gCarry   [24]int32
	g32      gaussRows[int32]
	g64      gaussRows[int64]
	gNum     []int64
	gDx, gDy []float64
}

// grow returns s with length n, reallocated with a quarter to spare when it is too short:
// the workers take boxes in any order, and a scratch buffer a little longer than the last
// box needed saves reallocating it when the next is a few samples wider.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// effectsFrame describes dst's planes for the effects, or says it has none that they reach.
func effectsFrame(dst composite.HostSurface, f *fxFrame) error {
	// Per format: each component's samples from its first, the planes' strides, the bytes
	// from one sample to the next, two-byte samples (at a shift), and the chroma's
	// subsampling.
	var (
		p      [3][]byte
		stride [3]int
		step   [3]int
		wide   bool
		shift  uint
		sub    = 2
	)
	f.rgb = false
	switch d := dst.(type) {
	case *composite.RGBA:
		p, stride, step, sub, f.rgb = [3][]byte{d.Pix, d.Pix[1:], d.Pix[2:]}, [3]int{d.Stride, d.Stride, d.Stride}, [3]int{4, 4, 4}, 1, true
	case *composite.YUV420P:
		p, stride, step = [3][]byte{d.Y, d.U, d.V}, [3]int{d.StrideY, d.StrideU, d.StrideV}, [3]int{1, 1, 1}
	case *composite.NV12:
		p, stride, step = [3][]byte{d.Y, d.UV, d.UV[1:]}, [3]int{d.StrideY, d.StrideUV, d.StrideUV}, [3]int{1, 2, 2}
	case *composite.YUV420P10:
		p, stride, step, wide = [3][]byte{d.Y, d.U, d.V}, [3]int{d.StrideY, d.StrideU, d.StrideV}, [3]int{2, 2, 2}, true
	case *composite.P010:
		p, stride, step, wide, shift = [3][]byte{d.Y, d.UV, d.UV[2:]}, [3]int{d.StrideY, d.StrideUV, d.StrideUV}, [3]int{2, 4, 4}, true, 6
	default:
		return fmt.Errorf("render: box effects cannot change a %T frame", dst)
	}
	f.space = dst.Space()
	black, white := f.space.Color(0, 0, 0, 1), f.space.Color(1, 1, 1, 1)
	w, h := dst.Size()
	hi := float32(255)
	if wide {
		hi = 1023
	}
	for i := range 3 {
		s := 1
		if i > 0 {
			s = sub
		}
		f.pl[i] = fxPlane{p: p[i], stride: stride[i], step: step[i], wide: wide, shift: shift, max: hi, sub: s,
			w: (w + s - 1) / s, h: (h + s - 1) / s, black: black[i], white: white[i], chroma: s == 2}
		if s == 2 {
			f.pl[i].white = black[i] // neutral
		}
	}
	return nil
}

// load reads samples [x0, x0+len(dst)) of row y.
func (pl *fxPlane) load(dst []int32, x0, y int) {
	i := y*pl.stride + x0*pl.step
	switch {
	case pl.wide:
		for k := range dst {
			dst[k] = int32(binary.LittleEndian.Uint16(pl.p[i:]) >> pl.shift)
			i += pl.step
		}
	case pl.step == 1:
		for k, v := range pl.p[i : i+len(dst)] {
			dst[k] = int32(v)
		}
	default:
		for k := range dst {
			dst[k] = int32(pl.p[i])
			i += pl.step
		}
	}
}

// prefetch starts loading samples [x0, x1) of row y (a hint): each row of a box starts a new
// stretch of memory, which the hardware's prefetcher does not guess, so the loops ask for
// the next row while they work on this one.
func (pl *fxPlane) prefetch(x0, x1, y int) {
	if y < pl.h {
		composite.PrefetchRow(pl.p, pl.stride, x0*pl.step, x1*pl.step, y)
	}
}

// prefetchRows starts loading luma rows y and y+1 of rectangle r in every plane, and the
// chroma row under them.
func (sc *effectsScratch) prefetchRows(r *fxRect, y int) {
	for k := range sc.f.pl {
		pl := &sc.f.pl[k]
		x0, _, x1, _ := r.plane(pl)
		pl.prefetch(x0, x1, y/pl.sub)
		if pl.sub == 1 {
			pl.prefetch(x0, x1, y+1)
		}
	}
}

// fxMix is sample s with effect value e mixed in by coverage c, rounded and saturated to
// 0..hi, as composite blends (truncate the result). Twin: fxBlend.
func fxMix(s, e, c, hi float32) float32 {
	v := s + float32(c*(e-s)) + 0.5
	// Comparisons, not min and max, which order NaNs (and so cost more).
	if v < 0 {
		return 0
	} else if v > hi {
		return hi
	}
	return v
}

// prepare lays the boxes' rectangles out in the arena: each box's coverage of its columns
// and rows, and the effect's values over each plane, but for a pointwise effect, which phase
// 2 works out from each sample, unless the box overlaps a box before it (whose effect
// changes the sample phase 2 would read).
func (sc *effectsScratch) prepare(fx []overlay.EffectBox, w, h int) {
	sc.rects = sc.rects[:0]
	n := 0
	for i := range fx {
		r := effectRect(&fx[i], w, h)
		r.cov = n
		n += (r.x1 - r.x0) + (r.y1 - r.y0) + (r.x1-r.x0+1)/2
		if sc.f.pointwise(fx[i].Kind) {
			r.direct = true
			for j := range sc.rects {
				if q := &sc.rects[j]; q.x0 < r.x1 && r.x0 < q.x1 && q.y0 < r.y1 && r.y0 < q.y1 {
					r.direct = false
				}
			}
		}
		for k := range 3 {
			r.off[k] = n
			if !r.direct {
				x0, y0, x1, y1 := r.plane(&sc.f.pl[k])
				n += (x1 - x0) * (y1 - y0)
			}
		}
		sc.rects = append(sc.rects, r)
	}
	sc.arena = grow(sc.arena, n)
	sc.bands = (h + fxBand - 1) / fxBand
}

// pointwise reports whether effect e maps each sample of a plane alone (an fxPoint):
// invert, and threshold and tint but on R'G'B', where they mix the components.
func (f *fxFrame) pointwise(e overlay.Effect) bool {
	return e == overlay.EffectInvert || !f.rgb && (e == overlay.EffectThreshold || e == overlay.EffectTint)
}

// fxFar bounds the edges of the boxes the effects take, in px: within it every float32
// whole number is exact and converts to an int exactly, on the CPU and the GPU. The
// readers keep every box's edges within ±1e7 px (formats.md), so only garbage handed to the
// renderer directly reaches past it.
const fxFar = 1 << 24

// effectRect is the pixels box b's coverage can reach, widened to even coordinates.
// A box whose edges are not finite or beyond fxFar px is skipped: its rectangle is empty.
// (A box millions of px wide is no garbage: a box held over the whole frame by a tracker
// that lost its object still hides what is under it.) Twin: fxRect.
func effectRect(b *overlay.EffectBox, w, h int) fxRect {
	edges := [...]float32{b.X - 1, b.Y - 1, b.X + b.W + 2, b.Y + b.H + 2}
	for _, v := range edges {
		if !(v >= -fxFar && v <= fxFar) {
			return fxRect{}
		}
	}
	fl := func(v float32, lo, hi int) int {
		return max(lo, min(hi, int(math.Floor(float64(v)))))
	}
	r := fxRect{x0: fl(edges[0], 0, w), y0: fl(edges[1], 0, h), x1: fl(edges[2], 0, w), y1: fl(edges[3], 0, h)}
	r.x0, r.y0 = r.x0&^1, r.y0&^1
	r.x1, r.y1 = min(w, (r.x1+1)&^1), min(h, (r.y1+1)&^1)
	return r
}

// plane is rectangle r in plane pl's samples. The subsampling is 1 or 2 and the rectangle
// lies in the frame, so a shift divides (phase 2 asks per row: a division cost more than
// the row's coverage).
func (r *fxRect) plane(pl *fxPlane) (x0, y0, x1, y1 int) {
	s := uint(pl.sub >> 1)
	return r.x0 >> s, r.y0 >> s, (r.x1 + pl.sub - 1) >> s, (r.y1 + pl.sub - 1) >> s
}

// computeEffect is phase 1 for box i: its effect's values over its rectangle in each plane.
func (sc *effectsScratch) computeEffect(b *overlay.EffectBox, r *fxRect, wk *fxWork) {
	f := &sc.f
	sc.coverEdges(b, r)
	if b.Kind == overlay.EffectSort {
		sc.sortEffect(b, r, wk)
		return
	}
	if f.rgb && (b.Kind == overlay.EffectThreshold || b.Kind == overlay.EffectTint) {
		sc.pointRGB(b, r, wk)
		return
	}
	for k := range 3 {
		pl := &f.pl[k]
		x0, y0, x1, y1 := r.plane(pl)
		if x0 >= x1 || y0 >= y1 {
			continue
		}
		e := sc.arena[r.off[k]:r.off[k]]
		if !r.direct {
			e = sc.arena[r.off[k] : r.off[k]+(x1-x0)*(y1-y0)]
		}
		switch b.Kind {
		case overlay.EffectBlur:
			blurPlane(pl, e, x0, y0, x1, y1, fxRadius(b.Strength, pl.sub), wk)
		case overlay.EffectGaussian:
			gaussianPlane(pl, e, x0, y0, x1, y1, gaussRadii(b.Strength, pl.sub), wk)
		case overlay.EffectPixelate:
			pixelatePlane(pl, e, x0, y0, x1, y1, b, wk)
		case overlay.EffectZoom:
			zoomPlane(pl, e, x0, y0, x1, y1, b, wk)
		default:
			r.pt[k] = pointEffect(pl, b, f.space.Color(b.Tint.R, b.Tint.G, b.Tint.B, 1)[k])
			if !r.direct {
				pointPlane(pl, e, &r.pt[k], x0, y0, x1, y1, wk)
			}
		}
	}
}

// fxRadius is the blur radius in a plane's samples: the strength rounded, halved (rounded
// up) for 4:2:0 chroma. Twin: fxRadius.
func fxRadius(s float32, sub int) int {
	r := int(s + 0.5)
	if sub == 2 {
		r = (r + 1) / 2
	}
	return max(r, 1)
}

// fxCell is a pixelate cell's side in a plane's samples. Twin: fxCell.
func fxCell(s float32, sub int) int {
	c := int(s + 0.5)
	return max(c/sub, 1)
}

// fxPoint is an effect of each sample alone on one plane (invert, and threshold and tint on
// Y'CbCr), as an operation and its constants; at is its value of sample s.
type fxPoint struct {
	op      int32 // fxInvert: a − s; fxThreshold: b where s ≥ a, else c; fxTint: s + a·(b − s)
	a, b, c float32
}

// The fxPoint operations (effects_amd64.s knows their values).
const (
	fxInvert = iota + 1
	fxThreshold
	fxTint
)

func (q *fxPoint) at(s float32) float32 {
	switch q.op {
	case fxInvert:
		return q.a - s
	case fxThreshold:
		if s >= q.a {
			return q.b
		}
		return q.c
	}
	return s + float32(q.a*(q.b-s))
}

// pointEffect is phase 1 of the effects that map each sample alone: the operation on plane
// pl, with the kernel's constants in the kernel's order (Twin: fxEffect). tint is the tint
// colour's component in the plane.
func pointEffect(pl *fxPlane, b *overlay.EffectBox, tint float32) fxPoint {
	switch b.Kind {
	case overlay.EffectInvert:
		return fxPoint{op: fxInvert, a: pl.black + pl.white}
	case overlay.EffectThreshold:
		thr := pl.black + float32(b.Strength*(pl.white-pl.black))
		if pl.chroma { // black (neutral) everywhere
			thr = float32(math.Inf(1))
		}
		return fxPoint{op: fxThreshold, a: thr, b: pl.white, c: pl.black}
	}
	if !pl.chroma { // tint keeps luma: s + 0·(0 − s) is s
		return fxPoint{op: fxTint}
	}
	return fxPoint{op: fxTint, a: b.Strength, b: tint}
}

// pointPlane is phase 1 of a pointwise effect for a box that overlaps one before it: the
// effects of its samples as decoded, for phase 2 to mix in where the earlier box has
// changed them.
func pointPlane(pl *fxPlane, e []float32, q *fxPoint, x0, y0, x1, y1 int, wk *fxWork) {
	n := x1 - x0
	wk.a = grow(wk.a, n)
	for y := y0; y < y1; y++ {
		pl.prefetch(x0, x1, y+1)
		pl.load(wk.a, x0, y)
		row := e[(y-y0)*n : (y-y0+1)*n]
		for x, v := range wk.a {
			row[x] = q.at(float32(v))
		}
	}
}

// pointRGB is phase 1 of threshold and tint on an RGBA frame, whose luma is the three
// components' (BT.709 weights): threshold sets white where it reaches the level, else black;
// tint moves each pixel's chroma (its components less its luma) toward the colour's.
func (sc *effectsScratch) pointRGB(b *overlay.EffectBox, r *fxRect, wk *fxWork) {
	f := &sc.f
	n := r.x1 - r.x0
	if n <= 0 {
		return
	}
	wk.a, wk.b, wk.c = grow(wk.a, n), grow(wk.b, n), grow(wk.c, n)
	t := [3]float32{b.Tint.R * 255, b.Tint.G * 255, b.Tint.B * 255}
	yt := fxLuma(t[0], t[1], t[2])
	level := b.Strength * 255
	for y := r.y0; y < r.y1; y++ {
		f.pl[0].load(wk.a, r.x0, y)
		f.pl[1].load(wk.b, r.x0, y)
		f.pl[2].load(wk.c, r.x0, y)
		o := (y - r.y0) * n
		for x := range n {
			s := [3]float32{float32(wk.a[x]), float32(wk.b[x]), float32(wk.c[x])}
			l := fxLuma(s[0], s[1], s[2])
			for k := range 3 {
				v := float32(0)
				switch {
				case b.Kind == overlay.EffectTint:
					v = s[k] + float32(b.Strength*((t[k]-yt)-(s[k]-l)))
				case l >= level:
					v = 255
				}
				sc.arena[r.off[k]+o+x] = v
			}
		}
	}
}

// fxLuma is BT.709 luma of R'G'B' code values. Twin: fxLuma.
func fxLuma(r, g, b float32) float32 {
	return float32(float32(float32(0.2126*r)+float32(0.7152*g)) + float32(0.0722*b))
}

// blurPlane is phase 1 of blur: the mean of the (2·rad+1)² window around each sample, the
// window clipped to the frame, as sum · (1/count). The sums are exact integers: the sums of
// each column over the window's rows, moved down a row at a time (a row added, one taken
// away, read from the frame as decoded), then along each row the differences of their
// prefix sums.
func blurPlane(pl *fxPlane, e []float32, x0, y0, x1, y1, rad int, wk *fxWork) {
	n := x1 - x0
	lx0, lx1 := max(x0-rad, 0), min(x1+rad, pl.w)
	wk.a, wk.acc, wk.b = grow(wk.a, lx1-lx0), grow(wk.acc, lx1-lx0), grow(wk.b, lx1-lx0+1)
	// The window of sample x is the loaded row's [from[x], to[x]).
	wk.from, wk.to = grow(wk.from, n), grow(wk.to, n)
	for x := range n {
		sx := x0 + x
		wk.from[x], wk.to[x] = int32(max(sx-rad, 0)-lx0), int32(min(sx+rad, pl.w-1)+1-lx0)
	}
	wk.fx = grow(wk.fx, n)
	acc, recip, p := wk.acc, wk.fx, wk.b
	clear(acc)
	p[0] = 0
	// Samples whose window the frame's edges do not clip read p at fixed offsets.
	c0, c1 := x0-rad-lx0, x0+rad+1-lx0
	ia, ib := min(n, max(0, rad-x0)), max(0, min(n, pl.w-rad-x0))
	lastRows := 0
	lo, hi := max(y0-rad, 0), max(y0-rad, 0) // rows [lo, hi) are in acc
	for y := y0; y < y1; y++ {
		wlo, whi := max(y-rad, 0), min(y+rad, pl.h-1)+1
		for hi < whi || lo < wlo {
			add, sub := -1, -1
			if hi < whi {
				add, hi = hi, hi+1
				pl.prefetch(lx0, lx1, hi)
			}
			if lo < wlo {
				sub, lo = lo, lo+1
			}
			pl.slide(acc, lx0, add, sub, wk.a)
		}
		prefix(p, acc)
		if rows := whi - wlo; rows != lastRows {
			for x := range recip {
				recip[x] = 1 / float32((wk.to[x]-wk.from[x])*int32(rows))
			}
			lastRows = rows
		}
		out := e[(y-y0)*n : (y-y0+1)*n]
		for x := range ia {
			out[x] = float32(p[wk.to[x]]-p[wk.from[x]]) * recip[x]
		}
		if ia < ib {
			boxOut(out[ia:ib], p[ia+c1:ib+c1], p[ia+c0:ib+c0], recip[ia:ib])
		}
		for x := max(ia, ib); x < n; x++ {
			out[x] = float32(p[wk.to[x]]-p[wk.from[x]]) * recip[x]
		}
	}
}

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// pixelatePlane is phase 1 of pixelate: each sample takes the mean of its cell, cells of
// fxCell samples laid from the box's top-left pixel, clipped to the frame (not the box).
// Per row of cells: the column sums of its rows, then each cell's sum of those, its mean
// laid along one row of values, and that row copied to the others.
func pixelatePlane(pl *fxPlane, e []float32, x0, y0, x1, y1 int, b *overlay.EffectBox, wk *fxWork) {
	n := x1 - x0
	c := fxCell(b.Strength, pl.sub)
	ox := floorDiv(int(sdf.Floor(b.X)), pl.sub)
	oy := floorDiv(int(sdf.Floor(b.Y)), pl.sub)
	kx0, kx1 := floorDiv(x0-ox, c), floorDiv(x1-1-ox, c)
	sx0, sx1 := max(ox+kx0*c, 0), min(ox+(kx1+1)*c, pl.w)
	wk.a, wk.acc = grow(wk.a, sx1-sx0), grow(wk.acc, sx1-sx0)
	sums := wk.acc
	for ky := floorDiv(y0-oy, c); oy+ky*c < y1; ky++ {
		ry0, ry1 := max(oy+ky*c, 0), min(oy+(ky+1)*c, pl.h)
		clear(sums)
		for y := ry0; y < ry1; y++ {
			pl.prefetch(sx0, sx1, y+1)
			pl.slide(sums, sx0, y, -1, wk.a)
		}
		first := max(ry0, y0)
		row := e[(first-y0)*n : (first-y0+1)*n]
		for kx := kx0; kx <= kx1; kx++ {
			cx0, cx1 := max(ox+kx*c, 0), min(ox+(kx+1)*c, pl.w)
			var sum int32
			for _, v := range sums[cx0-sx0 : cx1-sx0] {
				sum += v
			}
			mean := float32(sum) / float32((cx1-cx0)*(ry1-ry0))
			for x := max(cx0, x0); x < min(cx1, x1); x++ {
				row[x-x0] = mean
			}
		}
		for y := first + 1; y < min(ry1, y1); y++ {
			copy(e[(y-y0)*n:(y-y0+1)*n], row)
		}
	}
}

// zoomPlane is phase 1 of zoom: the frame magnified Strength times about the box's centre,
// sampled bilinearly, the edge samples repeated beyond the frame. The columns each sample
// reads and its weight are the same in every row, worked out once; each source row read is
// interpolated across once (zoom reads it for several rows), and each sample is the two
// rows' values interpolated down.
func zoomPlane(pl *fxPlane, e []float32, x0, y0, x1, y1 int, b *overlay.EffectBox, wk *fxWork) {
	n := x1 - x0
	sub := float32(pl.sub)
	cx, cy := (b.X+b.W/2)/sub, (b.Y+b.H/2)/sub
	inv := 1 / b.Strength
	z := &wk.zoom
	z.i0, z.i1, z.w = grow(z.i0, n), grow(z.i1, n), grow(z.w, n)
	// [sx0, sx1) holds every column read: the two beside each sample, clamped to the frame.
	clamp := func(v int) int { return min(max(v, 0), pl.w-1) }
	sx0, sx1 := pl.w, 0
	for x := range n {
		s := cx + float32(((float32(x0+x)+0.5)-cx)*inv) - 0.5
		fl := sdf.Floor(s)
		z.i0[x], z.i1[x], z.w[x] = int32(clamp(int(fl))), int32(clamp(int(fl)+1)), s-fl
		sx0, sx1 = min(sx0, int(z.i0[x])), max(sx1, int(z.i1[x])+1)
	}
	for x := range n {
		z.i0[x] -= int32(sx0)
		z.i1[x] -= int32(sx0)
	}
	z.plan()
	wk.a, wk.row = grow(wk.a, sx1-sx0), grow(wk.row, sx1-sx0+9)
	wk.top, wk.bot = grow(wk.top, n), grow(wk.bot, n)
	top, bot := wk.top, wk.bot
	across := func(dst []float32, r int) {
		pl.load(wk.a, sx0, r)
		for i, v := range wk.a {
			wk.row[i] = float32(v)
		}
		z.across(dst, wk.row)
	}
	rowT, rowB := -1, -1 // the source rows in top and bot
	for y := y0; y < y1; y++ {
		s := cy + float32(((float32(y)+0.5)-cy)*inv) - 0.5
		fl := sdf.Floor(s)
		fy := s - fl
		r0 := min(max(int(fl), 0), pl.h-1)
		r1 := min(max(int(fl)+1, 0), pl.h-1)
		if r0 != rowT && r0 == rowB {
			top, bot, rowT, rowB = bot, top, rowB, rowT
		}
		if r0 != rowT {
			across(top, r0)
			rowT = r0
		}
		if r1 != rowB {
			across(bot, r1)
			rowB = r1
		}
		lerpRow(e[(y-y0)*n:(y-y0+1)*n], top, bot, fy)
	}
}

// The effect's coverage of a box's pixel is fxCover(sdf.RoundBox(…)). RoundBox is
// max(qx, qy) − r but where both qx and qy are positive (beside a rounded corner), qx a
// function of the column alone and qy of the row; and fxCover(max(qx, qy) − r) is
// min(fxCover(qx − r), fxCover(qy − r)) (both maps are monotonic, and the max is one of
// the two). So a row's coverage is each column's coverage capped by the row's, exactly,
// worked out per box once; only the pixels beside a corner take RoundBox itself. Twin:
// tk_effects' fxCover(roundBox(…)).

// fxCover is an effect's coverage of a pixel at signed distance d from its box's edge:
// sdf.Coverage's ramp, 0 half a pixel outside the edge, widened to rise to 1 over ramp px
// (max(1, EffectBox.Feather): 1 is sdf.Coverage exactly, so no feather changes nothing),
// scaled by the effect's opacity op (1 − EffectBox.Transparency; 1 changes nothing).
// Twin: fxCover.
func fxCover(d, ramp, op float32) float32 {
	c := (0.5 - d) / ramp
	if c <= 0 {
		return 0
	}
	if c >= 1 {
		c = 1
	}
	return c * op
}

// coverEdges works out box b's coverage of each column and each row of its rectangle r; the
// columns at its ends where qx is positive (a run at each end: qx falls, then rises); the
// rows in the middle whose coverage is the columns' (the row's 1, qy not positive: a run,
// qy falls, then rises); and the coverage of chroma samples under two such rows.
func (sc *effectsScratch) coverEdges(b *overlay.EffectBox, r *fxRect) {
	hx, hy := b.W/2, b.H/2
	cx, cy := b.X+hx, b.Y+hy
	n, m := r.x1-r.x0, r.y1-r.y0
	cols := sc.arena[r.cov : r.cov+n]
	rows := sc.arena[r.cov+n : r.cov+n+m]
	qx := func(i int) float32 { return sdf.Abs(float32(r.x0+i)+0.5-cx) - hx + b.Radius }
	ramp, op := max(b.Feather, 1), 1-b.Transparency
	for i := range cols {
		cols[i] = fxCover(qx(i)-b.Radius, ramp, op)
	}
	r.in0, r.in1 = r.y0, r.y0
	for i := range rows {
		qy := sdf.Abs(float32(r.y0+i)+0.5-cy) - hy + b.Radius
		rows[i] = fxCover(qy-b.Radius, ramp, op)
		// The row's coverage at its top (op) caps no column's.
		if rows[i] == op && qy <= 0 {
			if r.in0 == r.in1 {
				r.in0 = r.y0 + i
			}
			r.in1 = r.y0 + i + 1
		}
	}
	r.left, r.right = 0, 0
	for r.left < n && qx(r.left) > 0 {
		r.left++
	}
	for r.right < n-r.left && qx(n-1-r.right) > 0 {
		r.right++
	}
	chromaCoverage(sc.arena[r.cov+n+m:r.cov+n+m+(n+1)/2], cols, cols, 2)
}

// coverRow is box b's effect coverage over pixels [r.x0, r.x1) of row y. Twin: tk_effects'.
func (sc *effectsScratch) coverRow(cov []float32, b *overlay.EffectBox, r *fxRect, y int) {
	n := r.x1 - r.x0
	capRow(cov, sc.arena[r.cov:r.cov+n], sc.arena[r.cov+n+y-r.y0])
	hx, hy := b.W/2, b.H/2
	cx, cy := b.X+hx, b.Y+hy
	py := float32(y) + 0.5
	if sdf.Abs(py-cy)-hy+b.Radius <= 0 {
		return
	}
	ramp, op := max(b.Feather, 1), 1-b.Transparency
	corner := func(i int) {
		cov[i] = fxCover(sdf.RoundBox(float32(r.x0+i)+0.5, py, cx, cy, hx, hy, b.Radius), ramp, op)
	}
	for i := range r.left {
		corner(i)
	}
	for i := n - r.right; i < n; i++ {
		corner(i)
	}
}

// applyBand is phase 2 for the luma rows [ys, ye) (ys even): each box that reaches them, in
// order, mixed in by its coverage.
func (sc *effectsScratch) applyBand(fx []overlay.EffectBox, ys, ye int, wk *fxWork) {
	f := &sc.f
	h := f.pl[0].h
	for i := range fx {
		r := &sc.rects[i]
		n := r.x1 - r.x0
		if n <= 0 || r.y1 <= ys || r.y0 >= ye {
			continue
		}
		wk.cov[0], wk.cov[1] = grow(wk.cov[0], n), grow(wk.cov[1], n)
		for y := max(ys, r.y0); y < min(ye, r.y1); y += 2 {
			if y+2 < min(ye, r.y1) {
				sc.prefetchRows(r, y+2)
			}
			rows := min(2, h-y)
			// In the middle rows the coverage is the columns', worked out once.
			plain := rows == 2 && y >= r.in0 && y+2 <= r.in1
			for j := range rows {
				cov := sc.arena[r.cov : r.cov+n]
				if !plain {
					sc.coverRow(wk.cov[j], &fx[i], r, y+j)
					cov = wk.cov[j]
				}
				o := (y + j - r.y0) * n
				for k := range 3 {
					if k == 0 || f.rgb {
						e, q := sc.values(r, k, o, n)
						f.pl[k].blendRow(e, q, cov, r.x0, y+j)
					}
				}
			}
			if !f.rgb {
				sc.applyChroma(r, y, rows, plain, wk)
			}
		}
	}
}

// applyChroma blends the chroma row under luma rows y, y+1 (their coverage in wk.cov, or the
// columns' where plain).
func (sc *effectsScratch) applyChroma(r *fxRect, y, rows int, plain bool, wk *fxWork) {
	pl := &sc.f.pl[1]
	cx0, cy0, cx1, _ := r.plane(pl)
	nc := cx1 - cx0
	n, m := r.x1-r.x0, r.y1-r.y0
	cov := sc.arena[r.cov+n+m : r.cov+n+m+nc]
	if !plain {
		wk.covC = grow(wk.covC, nc)
		if rows < 2 {
			clear(wk.cov[1])
		}
		chromaCoverage(wk.covC, wk.cov[0], wk.cov[1], rows)
		cov = wk.covC
	}
	o := (y/2 - cy0) * nc
	for k := 1; k < 3; k++ {
		e, q := sc.values(r, k, o, nc)
		sc.f.pl[k].blendRow(e, q, cov, cx0, y/2)
	}
}

// runEffects is the effects stage: phase 1 (each box's values) on the workers, then phase 2
// (bands of rows) on them.
func (r *Renderer) runEffects(dst composite.HostSurface, p *overlay.Primitives) error {
	if err := effectsFrame(dst, &r.fx.f); err != nil {
		return err
	}
	r.fx.prepare(p.Effects, r.w, r.h)
	r.prims = p
	r.dispatch(r.fxJob)
	r.dispatch(r.applyJob)
	return nil
}

// effectsJob is a worker's part of phase 1: boxes, one at a time.
func (r *Renderer) effectsJob(wk *worker) {
	fx := r.prims.Effects
	for {
		i := int(r.next.Add(1) - 1)
		if i >= len(fx) {
			return
		}
		r.fx.computeEffect(&fx[i], &r.fx.rects[i], &wk.fx)
	}
}

// applyJobRun is a worker's part of phase 2: bands of rows, one at a time.
func (r *Renderer) applyJobRun(wk *worker) {
	for {
		b := int(r.next.Add(1) - 1)
		if b >= r.fx.bands {
			return
		}
		r.fx.applyBand(r.prims.Effects, b*fxBand, min((b+1)*fxBand, r.h), &wk.fx)
	}
}

// values are the n effect values of plane k from o in r's values, or its pointwise effect.
func (sc *effectsScratch) values(r *fxRect, k, o, n int) (e []float32, q *fxPoint) {
	if r.direct {
		return nil, &r.pt[k]
	}
	return sc.arena[r.off[k]+o : r.off[k]+o+n], nil
}
