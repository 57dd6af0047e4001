package render

import (
	"encoding/binary"

	"trackink/composite"
	"trackink/overlay"
)

// The camera stage: the camera look (overlay/camera.go) over the whole frame after the
// layer is composited (twin: kernels/camera.cu). The workers take bands of fxBand luma rows
// (and the chroma rows under them); each row is loaded, changed and stored whole, so the
// aberration's shifted reads see the row as composited. Every operation is on integers:
//
//	v = c + (((s − c)·k) >> 15) + g,  clamped to the plane's codes,
//
// s the sample (chroma and R', B' taken Aberration samples to the side, the row's edge
// repeated), c the plane's black (chroma: neutral), k = (cols[x]·rows[y] + 2¹⁴) >> 15 the
// gain (chroma: the luma gain at its block's top-left pixel), g the grain: on luma and R'G'B'
// ((n − 128)·a) >> 8, n the sample's noise byte (overlay.CameraPass.GrainAmplitude); on Cb
// and Cr the colour grain, the same of their own keys and amplitude
// (overlay.CameraPass.ColorGrainAmplitude), and on R'G'B' the colour grain of the pixel's
// two chroma noises through overlay.ColorGrainRGB besides.
//
// The tint (overlay.CameraTint) runs first, on each band's rows in place: chroma (reading
// the luma rows before they change) and R'G'B' by its rule; on Y' it is folded into the
// columns' gains (colsY), so Y' takes no pass of its own.

// cameraScratch is the camera stage's per-frame state: the frame's planes and the gains
// (remade when the frame size or the pass's settings change).
type cameraScratch struct {
	f          fxFrame
	pass       overlay.CameraPass
	cols, rows []int32
	colsC      []int32 // the chroma columns' gains: cols at their blocks' left pixels
	colsCI     []int32 // colsC with each entry twice, for NV12's interleaved Cb and Cr
	colsY      []int32 // luma's: cols with the tint's gain (cols itself without a tint)
	tint       overlay.CameraTint
	tintFor    overlay.CameraTint // the tint colsY was made with
	key        uint32
	amp        int32
	keyC       [2]uint32 // the colour grain's, Cb and Cr
	ampC       int32     // the colour grain's amplitude; 0: none
	shift      [3]int    // per plane: read sample x + shift
	gainsFor   overlay.CameraPass
	bands      int
}

// prepare sets the stage up for pass p on dst.
func (sc *cameraScratch) prepare(dst composite.HostSurface, p *overlay.CameraPass) error {
	if err := effectsFrame(dst, &sc.f); err != nil {
		return err
	}
	w, h := dst.Size()
	f := &sc.f
	t := p.Tint
	neutral := f.pl[1].black
	if f.rgb {
		neutral = 0
	}
	tc := f.space.Color(t[0], t[1], t[2], 1)
	sc.tint = p.CameraTint([3]float32(tc[:3]), f.pl[0].black, f.pl[0].white, neutral, f.rgb)
	// The gains depend on all but the frame number.
	q := *p
	q.Frame = 0
	remade := len(sc.cols) != w || len(sc.rows) != h || q != sc.gainsFor
	if remade {
		sc.cols, sc.rows = grow(sc.cols, w), grow(sc.rows, h)
		q.CameraGains(sc.cols, sc.rows)
		sc.colsC = grow(sc.colsC, (w+1)/2)
		sc.colsCI = grow(sc.colsCI, 2*len(sc.colsC))
		for x := range sc.colsC {
			sc.colsC[x] = sc.cols[2*x]
			sc.colsCI[2*x], sc.colsCI[2*x+1] = sc.cols[2*x], sc.cols[2*x]
		}
		sc.gainsFor = q
	}
	if remade || sc.tint != sc.tintFor || len(sc.colsY) != w {
		sc.colsY = grow(sc.colsY, w)
		copy(sc.colsY, sc.cols)
		if !f.rgb {
			sc.tint.LumaCols(sc.colsY, sc.cols)
		}
		sc.tintFor = sc.tint
	}
	sc.pass = *p
	sc.key = p.GrainKey()
	sc.amp = p.GrainAmplitude(sc.f.pl[0].white - sc.f.pl[0].black)
	sc.keyC = p.ColorGrainKeys()
	sc.ampC = p.ColorGrainAmplitude(sc.f.pl[0].white - sc.f.pl[0].black)
	red, blue := 2, 1 // Cr, Cb
	if sc.f.rgb {
		red, blue = 0, 2
	}
	sc.shift = [3]int{}
	sc.shift[red] = -p.CameraShift(sc.f.pl[red].sub)
	sc.shift[blue] = p.CameraShift(sc.f.pl[blue].sub)
	sc.bands = (h + fxBand - 1) / fxBand
	return nil
}

// cameraBand runs the stage on luma rows [ys, ye) (ys even) and the chroma rows under them.
func (sc *cameraScratch) cameraBand(ys, ye int, wk *fxWork) {
	f := &sc.f
	if sc.tint.On() {
		sc.tintBand(ys, ye, wk)
	}
	for k := range 3 {
		pl := &f.pl[k]
		y0, y1 := ys, ye
		if pl.sub == 2 {
			y0, y1 = ys/2, (ye+1)/2
		}
		for y := y0; y < y1; y++ {
			switch {
			case k > 0 && f.interleaved():
				if k == 1 {
					sc.cameraRowNV12(y, wk)
				}
			default:
				sc.cameraRow(pl, k, y, wk)
			}
		}
	}
}

// cameraRow runs the stage on row y of plane k.
func (sc *cameraScratch) cameraRow(pl *fxPlane, k, y int, wk *fxWork) {
	n := pl.w
	cols := sc.cols[:n]
	switch {
	case pl.sub == 2:
		cols = sc.colsC[:n]
	case k == 0:
		cols = sc.colsY[:n]
	}
	ry := sc.rows[y*pl.sub]
	// Luma and R'G'B' take the grain, Cb and Cr the colour grain.
	amp, key := sc.amp, sc.key
	if k > 0 && !sc.f.rgb {
		amp, key = sc.ampC, sc.keyC[k-1]
	}
	// The row's first sample's input to overlay.GrainHash; sample x's is base + x.
	rowZ := uint32(y) * overlay.GrainRow
	base := key + rowZ
	d := sc.shift[k]
	if !pl.wide && pl.step == 1 {
		// 8-bit planar (Y', and Cb and Cr of YUV420P): in place on the bytes.
		row := pl.p[y*pl.stride : y*pl.stride+n]
		src := row
		if d != 0 {
			wk.row8 = grow(wk.row8, n)
			shiftRow(wk.row8, row, d)
			src = wk.row8
		}
		camera8(row, src, cols, base, ry, int32(pl.black), amp)
		return
	}
	wk.a = grow(wk.a, n)
	pl.load(wk.a, 0, y)
	src := wk.a
	if d != 0 {
		wk.b = grow(wk.b, n)
		shiftRow(wk.b, wk.a, d)
		src = wk.b
	}
	out := wk.a
	c, hi := int32(pl.black), int32(pl.max)
	if sc.f.rgb && sc.ampC != 0 {
		kb, kr := sc.keyC[0]+rowZ, sc.keyC[1]+rowZ
		for x := range n {
			z := uint32(x)
			g := overlay.ColorGrainRGB(k, overlay.GrainNoise(kb+z, sc.ampC), overlay.GrainNoise(kr+z, sc.ampC))
			out[x] = min(max(cameraSample(src[x], cols[x], ry, c, amp, base+z)+g, 0), hi)
		}
	} else {
		for x := range n {
			out[x] = min(max(cameraSample(src[x], cols[x], ry, c, amp, base+uint32(x)), 0), hi)
		}
	}
	pl.store(out, y)
}

// tintBand runs the tint on luma rows [ys, ye) (ys even) and the chroma rows under them, in
// place: chroma first, from the luma rows as they were, then R'G'B' pixel by pixel (Y'
// takes the tint in its gains).
func (sc *cameraScratch) tintBand(ys, ye int, wk *fxWork) {
	f := &sc.f
	t := &sc.tint
	if f.rgb {
		n := f.pl[0].w
		wk.a, wk.b, wk.c = grow(wk.a, n), grow(wk.b, n), grow(wk.c, n)
		px := [3][]int32{wk.a, wk.b, wk.c}
		for y := ys; y < ye; y++ {
			for k := range 3 {
				f.pl[k].load(px[k], 0, y)
			}
			for x := range n {
				l := overlay.CameraLuma(px[0][x], px[1][x], px[2][x])
				for k := range 3 {
					px[k][x] = min(max(overlay.CameraTintSample(px[k][x], l, 0, 0, t.Keep, t.Move[k]), 0), 255)
				}
			}
			for k := range 3 {
				f.pl[k].store(px[k], y)
			}
		}
		return
	}
	luma := &f.pl[0]
	b := int32(luma.black)
	for k := 1; k < 3; k++ {
		pl := &f.pl[k]
		if k == 2 && f.interleaved() {
			break // with Cb
		}
		c, hi := int32(pl.black), int32(pl.max)
		y0, y1 := ys, ye
		if pl.sub == 2 {
			y0, y1 = ys/2, (ye+1)/2
		}
		n := pl.w
		for y := y0; y < y1; y++ {
			ly := y * pl.sub
			if !luma.wide && !pl.wide {
				// 8-bit: in place on the bytes (NV12: Cb and Cr side by side).
				lrow := luma.p[ly*luma.stride : ly*luma.stride+luma.w]
				row := pl.p[y*pl.stride:]
				if f.interleaved() {
					tintPairs8(row[:2*n], lrow, pl.sub, b, c, t.Keep, t.Move[1], t.Move[2])
				} else {
					tint8(row[:n], lrow, pl.sub, b, c, t.Keep, t.Move[k])
				}
				continue
			}
			wk.a, wk.b = grow(wk.a, luma.w), grow(wk.b, n)
			luma.load(wk.a, 0, ly)
			pl.load(wk.b, 0, y)
			for x := range n {
				wk.b[x] = min(max(overlay.CameraTintSample(wk.b[x], wk.a[x*pl.sub], c, b, t.Keep, t.Move[k]), 0), hi)
			}
			pl.store(wk.b, y)
		}
	}
}

// tint8 tints a row of 8-bit chroma in place, sample x from the luma lrow[x·sub]:
// overlay.CameraTintSample with its constants gathered (tintK). With AVX2 the whole groups
// of 8 of a 4:2:0 row run in tint8AVX2 (which reads 16 luma bytes a group), the rest here.
func tint8(row, lrow []byte, sub int, b, c, keep, move int32) {
	k := tintK(b, c, keep, move)
	x0 := 0
	if haveAVX2 && sub == 2 {
		if g := min(len(row)/8, len(lrow)/16); g > 0 {
			tint8AVX2(&row[0], &lrow[0], keep, move, move, k, k, false, g)
			x0 = 8 * g
		}
	}
	tint8Go(row, lrow, x0, sub, keep, move, k)
}

// tintK gathers the tint's constants: c + (e >> 15) is (c·2¹⁵ + e) >> 15, so a sample's
// value is (v·keep + l·move + k) >> 15.
func tintK(b, c, keep, move int32) int32 {
	return c<<overlay.CameraQ - c*keep - b*move + 1<<14
}

// tint8Go is tint8's loop in Go from sample x0.
func tint8Go(row, lrow []byte, x0, sub int, keep, move, k int32) {
	for x := x0; x < len(row); x++ {
		l := lrow[min(sub*x, len(lrow)-1)] // sub·x < len(lrow): the min spares a bounds check
		row[x] = clamp8((int32(row[x])*keep + int32(l)*move + k) >> overlay.CameraQ)
	}
}

// tintPairs8 is tint8 on NV12's interleaved Cb and Cr (moves mb and mr), the AVX2 loop
// reading 8 luma bytes a group.
func tintPairs8(row, lrow []byte, sub int, b, c, keep, mb, mr int32) {
	kb, kr := tintK(b, c, keep, mb), tintK(b, c, keep, mr)
	x0 := 0
	if haveAVX2 && sub == 2 {
		if g := min(len(row)/8, len(lrow)/8); g > 0 {
			tint8AVX2(&row[0], &lrow[0], keep, mb, mr, kb, kr, true, g)
			x0 = 8 * g
		}
	}
	tintPairs8Go(row, lrow, x0, sub, keep, mb, mr, kb, kr)
}

// tintPairs8Go is tintPairs8's loop in Go from byte x0 (even).
func tintPairs8Go(row, lrow []byte, x0, sub int, keep, mb, mr, kb, kr int32) {
	for x := x0; x+1 < len(row); x += 2 {
		l := int32(lrow[min(x/2*sub, len(lrow)-1)])
		row[x] = clamp8((int32(row[x])*keep + l*mb + kb) >> overlay.CameraQ)
		row[x+1] = clamp8((int32(row[x+1])*keep + l*mr + kr) >> overlay.CameraQ)
	}
}

// clamp8 is v held to a byte's codes.
func clamp8(v int32) byte { return byte(min(max(v, 0), 255)) }

// cameraSample is the stage's value of sample s, before the clamp: gains kx and ry, black
// c, grain amp (0: none) of noise input z.
func cameraSample(s, kx, ry, c, amp int32, z uint32) int32 {
	k := (kx*ry + 1<<14) >> overlay.CameraQ
	v := c + ((s-c)*k)>>overlay.CameraQ
	if amp != 0 {
		v += overlay.GrainNoise(z, amp)
	}
	return v
}

// interleaved reports whether the frame's Cb and Cr are 8-bit samples side by side in one
// plane (NV12).
func (f *fxFrame) interleaved() bool {
	return !f.rgb && !f.pl[1].wide && f.pl[1].step == 2
}

// cameraRowNV12 runs the stage on chroma row y of an NV12 frame, Cb and Cr at once: the
// interleaved row changed in place by camera8Pairs with each column's gain twice, Cb read
// shifted by its amount and Cr by its own from a copy of the row padded with its edge
// pairs. With colour grain Cb and Cr are gathered into rows of their own and run as
// YUV420P's (camera8, each its key), then put back: camera8Pairs's noise is keyed by the
// byte, and a Go loop hashing each sample took 13 ms a 4K frame against 3.
func (sc *cameraScratch) cameraRowNV12(y int, wk *fxWork) {
	cb := &sc.f.pl[1]
	n := cb.w
	i := y * cb.stride
	row := cb.p[i : i+2*n]
	even, odd := row, row
	// A shift of n or more reads the edge everywhere, as a shift of n does.
	d1, d2 := min(max(sc.shift[1], -n), n), min(max(sc.shift[2], -n), n)
	pad := max(d1, -d1, d2, -d2)
	padded := 0
	if pad > 0 {
		padded = 2 * (n + 2*pad)
	}
	planar := 0 // the colour grain's Cb and Cr rows, after the padded copy
	if sc.ampC != 0 {
		planar = 2 * n
	}
	wk.row8 = grow(wk.row8, padded+planar)
	if pad > 0 {
		buf := wk.row8
		copy(buf[2*pad:], row)
		for p := range pad {
			buf[2*p], buf[2*p+1] = row[0], row[1]
			buf[2*(pad+n+p)], buf[2*(pad+n+p)+1] = row[2*n-2], row[2*n-1]
		}
		even, odd = buf[2*(pad+d1):], buf[2*(pad+d2):]
	}
	ry, c := sc.rows[2*y], int32(cb.black)
	if sc.ampC == 0 {
		camera8Pairs(row, even, odd, sc.colsCI[:2*n], 0, ry, c, 0)
		return
	}
	rowZ := uint32(y) * overlay.GrainRow
	cbs, crs := wk.row8[padded:padded+n], wk.row8[padded+n:padded+2*n]
	even, odd = even[:2*n], odd[:2*n]
	for x := range n {
		cbs[x], crs[x] = even[2*x], odd[2*x+1]
	}
	camera8(cbs, cbs, sc.colsC[:n], sc.keyC[0]+rowZ, ry, c, sc.ampC)
	camera8(crs, crs, sc.colsC[:n], sc.keyC[1]+rowZ, ry, c, sc.ampC)
	for x := range n {
		row[2*x], row[2*x+1] = cbs[x], crs[x]
	}
}

// shiftRow sets dst[x] to src[x + d], the row's edge repeated beyond it.
func shiftRow[T any](dst, src []T, d int) {
	n := len(src)
	switch {
	case d >= n || -d >= n:
		for x := range dst {
			dst[x] = src[min(max(x+d, 0), n-1)]
		}
	case d > 0:
		copy(dst, src[d:])
		for x := n - d; x < n; x++ {
			dst[x] = src[n-1]
		}
	default:
		copy(dst[-d:], src)
		for x := range -d {
			dst[x] = src[0]
		}
	}
}

// camera8 is the stage on a row of 8-bit samples: row[x] from src[x] (the row itself, or
// its shifted copy), gains cols and ry, black c, grain amp (0: none) of noise inputs base +
// x. With AVX2 the whole groups of 8 run in camera8AVX2, the rest here.
func camera8(row, src []byte, cols []int32, base uint32, ry, c, amp int32) {
	src, cols = src[:len(row)], cols[:len(row)]
	x0 := 0
	if haveAVX2 && len(row) >= 8 {
		g := len(row) / 8
		camera8AVX2(&row[0], &src[0], &cols[0], base, ry, c, amp, g)
		x0 = 8 * g
	}
	camera8Go(row[x0:], src[x0:], cols[x0:], base+uint32(x0), ry, c, amp)
}

// camera8Go is camera8's loop in Go.
func camera8Go(row, src []byte, cols []int32, base uint32, ry, c, amp int32) {
	src, cols = src[:len(row)], cols[:len(row)]
	for x := range row {
		row[x] = byte(min(max(cameraSample(int32(src[x]), cols[x], ry, c, amp, base+uint32(x)), 0), 255))
	}
}

// camera8Pairs is camera8 on NV12's interleaved chroma: row[x] from even[x] where x is
// even (Cb), from odd[x] where it is odd (Cr).
func camera8Pairs(row, even, odd []byte, cols []int32, base uint32, ry, c, amp int32) {
	even, odd, cols = even[:len(row)], odd[:len(row)], cols[:len(row)]
	x0 := 0
	if haveAVX2 && len(row) >= 8 {
		g := len(row) / 8
		camera8PairsAVX2(&row[0], &even[0], &odd[0], &cols[0], base, ry, c, amp, g)
		x0 = 8 * g
	}
	camera8PairsGo(row[x0:], even[x0:], odd[x0:], cols[x0:], base+uint32(x0), ry, c, amp)
}

// camera8PairsGo is camera8Pairs's loop in Go (row's first sample a Cb).
func camera8PairsGo(row, even, odd []byte, cols []int32, base uint32, ry, c, amp int32) {
	even, odd, cols = even[:len(row)], odd[:len(row)], cols[:len(row)]
	for x := range row {
		s := even[x]
		if x%2 != 0 {
			s = odd[x]
		}
		row[x] = byte(min(max(cameraSample(int32(s), cols[x], ry, c, amp, base+uint32(x)), 0), 255))
	}
}

// store writes samples [0, len(src)) of row y.
func (pl *fxPlane) store(src []int32, y int) {
	i := y * pl.stride
	switch {
	case pl.wide:
		for _, v := range src {
			binary.LittleEndian.PutUint16(pl.p[i:], uint16(v)<<pl.shift)
			i += pl.step
		}
	case pl.step == 1:
		for k, v := range src {
			pl.p[i+k] = byte(v)
		}
	default:
		for _, v := range src {
			pl.p[i] = byte(v)
			i += pl.step
		}
	}
}

// runCamera is the camera stage: bands of rows on the workers.
func (r *Renderer) runCamera(dst composite.HostSurface, p *overlay.Primitives) error {
	if err := r.cam.prepare(dst, &p.Camera); err != nil {
		return err
	}
	r.dispatch(r.camJob)
	return nil
}

// cameraJob is a worker's part of the camera stage: bands of rows, one at a time.
func (r *Renderer) cameraJob(wk *worker) {
	for {
		b := int(r.next.Add(1) - 1)
		if b >= r.cam.bands {
			return
		}
		r.cam.cameraBand(b*fxBand, min((b+1)*fxBand, r.h), &wk.fx)
	}
}
