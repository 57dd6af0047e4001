package render

import (
	"math"
	"math/bits"

	"trackink/overlay"
)

// Pixel sort (overlay.EffectSort), phase 1: along each row (or column) of the box's
// rectangle, the runs of pixels whose key lies in the box's range are sorted by key,
// least first, pixels of equal key keeping their order (a stable sort); the pixels outside
// the range stay. A hue range may wrap through red (sortWraps). A pixel's key (EffectBox.SortKey) is a byte, 0 to 255:
//
//   - luma: its luma in 8-bit code values (10-bit luma >> 2; an RGBA pixel's BT.709 luma,
//     truncated);
//   - saturation and hue: from its chroma u, v, the offsets of Cb and Cr from neutral in
//     8-bit codes (10-bit >> 2): on 4:2:0 Y'CbCr the chroma sample of the pixel's 2×2
//     block (no interpolation: the four pixels share a key), on R'G'B' the BT.709 Cb and
//     Cr of its components (full range, ±127.5). Saturation is the chroma's distance from
//     grey, 2·√(u² + v²) truncated, 255 from 127.5 codes on (a Cb or Cr at its extreme);
//     hue is the chroma's angle from the +Cr axis toward −Cb (red 0, then yellow, green,
//     cyan, blue, magenta), as a diamond angle (the quadrant, plus the fraction a/(a+b) of
//     the offsets in it: monotonic with the angle, and a single division, so that both
//     backends work out the same byte), 64 a quadrant, at most 254. Grey has saturation 0;
//     a pixel of saturation below hueFloor has no hue: its hue key is noHue (255), out of
//     every hue range, so greys never sort with the reds (whose hue is near 0).
//
// A pixel moves whole: on R'G'B' its three components, on Y'CbCr its Y'; the 4:2:0 chroma
// samples are sorted the same way on their own rows (or columns), each keyed by the key of
// its block's top-left pixel, Cb and Cr together.
// Twin: tk_effects_sort and fxSort (kernels/effects.cu): a thread a line, its runs counted.
//
// The values start as the samples (the arena filled with each plane's), and each line's
// runs out of order are sorted in the arena: they are found from two bit masks of the
// line's keys (sortMasks, 32 keys at a time with AVX2), so that keys out of the range and
// runs in order (as on a gradient) cost nothing more. 8-bit luma, whose samples are their
// own keys, is sorted alone: with AVX2 a run of up to netMax in registers by a sorting
// network (fxSortBytesAVX2), a longer run counted and laid out by its keys. Otherwise
// each sample is given its place in the run sorted, and each plane's values moved there as
// they are: with AVX2 a run of up to rankMax by comparing every key with every other in
// vectors (fxRanksAVX2), else from its keys' counts, in order. Without AVX2 a short run is
// sorted by insertion instead: each sample an item, its key in the top byte (item >>
// itemKey) and its planes' values below, sorted stably and unpacked back. Along columns
// the rectangle's keys are transposed first (transposeBytes), so that a column's keys lie
// side by side.

// itemKey is the bit where a sort item's key starts.
const itemKey = 24

// sortShort is, without AVX2, the shortest run sorted by counting rather than insertion
// (with AVX2 the network and fxRanksAVX2 take the short runs): counting visits every key
// from the run's least to its greatest, insertion moves a sample for each pair out of
// order (and mispredicts). On footage and grain 12 did better than 6 or 32.
const sortShort = 12

// sortRange is the box's key range [lo, hi]: for luma in 8-bit codes, SortLo and SortHi of
// the way from black to white, rounded (on a full-range 10-bit frame hi, and lo, can be
// 256, above every key); for saturation and hue SortLo and SortHi of 255, rounded, a hue
// range's hi at most 254 (below noHue). A hue range that wraps (sortWraps) is of the keys
// turned by hueTurn: [0, hi−lo+255], which holds the keys from lo up and from 0 to hi (all
// of them where hi ≥ lo − 1, as when the ends round to one key), at most 254: never noHue.
// Twin: fxSort's.
func sortRange(b *overlay.EffectBox, pl *fxPlane) (lo, hi int32) {
	if b.SortKey != overlay.SortLuma {
		lo, hi = int32(float32(b.SortLo*255)+0.5), int32(float32(b.SortHi*255)+0.5)
		if sortWraps(b) {
			return 0, min(hi-lo+noHue, noHue-1)
		}
		if b.SortKey == overlay.SortHue {
			hi = min(hi, noHue-1)
		}
		return lo, hi
	}
	black, white := pl.black, pl.white
	if pl.wide {
		black, white = black/4, white/4
	}
	lo = int32(black + float32(b.SortLo*(white-black)) + 0.5)
	hi = int32(black + float32(b.SortHi*(white-black)) + 0.5)
	return lo, hi
}

// sortWraps reports whether box b's hue range wraps through red (hue 0): SortLo above
// SortHi, the hues from SortLo up to 1 and from 0 to SortHi (the style allows it for hue
// alone).
func sortWraps(b *overlay.EffectBox) bool {
	return b.SortKey == overlay.SortHue && b.SortLo > b.SortHi
}

// hueTurn is what box b's keys are turned by (turnKey): its range's low key where its hue
// range wraps, so that the range's keys lie together from 0 and a run through red sorts
// from SortLo's hue round to SortHi's (magenta-red, red, orange), not with its oranges
// first; else 0. Twin: fxSort's turn.
func hueTurn(b *overlay.EffectBox) byte {
	if !sortWraps(b) {
		return 0
	}
	return byte(int32(float32(b.SortLo*255) + 0.5))
}

// turnKey is key k turned by t round the hue circle of keys 0..254 (subtracted, mod 255),
// noHue kept (out of every range); k itself where t is 0. Twin: fxTurnKey.
func turnKey(k, t byte) byte {
	switch {
	case k == noHue:
		return k
	case k >= t:
		return k - t
	default:
		return k - t + noHue // k − t + 255 in 0..254
	}
}

// sortEffect is phase 1 of pixel sort for box b: its values over rectangle r in each plane.
func (sc *effectsScratch) sortEffect(b *overlay.EffectBox, r *fxRect, wk *fxWork) {
	if r.x1 <= r.x0 || r.y1 <= r.y0 {
		return
	}
	lo, hi := sortRange(b, &sc.f.pl[0])
	if b.SortColumns == 0 {
		sc.sortRows(r, wk, lo, hi, b)
		return
	}
	sc.sortColumns(r, wk, lo, hi, b)
}

// sortLine is a line (row or column) of a rectangle's values in the arena: sample i of its
// planes' j-th at e[j][i·stride]. An item holds the planes' values bits apart, the last
// lowest; self marks 8-bit luma, sorted without items (a sample is its key).
type sortLine struct {
	e      [3][]float32
	planes int
	bits   uint
	stride int
	self   bool
	desc   bool  // EffectBox.SortDescending
	key    int32 // EffectBox.SortKey
	minRun int   // the shortest run sorted, in the line's samples (sortMinRun)
	turn   byte  // subtracted from every hue key (hueTurn)
}

// sortLines are the lines of frame f's planes of full resolution and of its 4:2:0 chroma,
// along rows (stride 1) or columns (stride: the rectangle's width in samples, n and cn),
// sorted by key.
func sortLines(f *fxFrame, n, cn int, b *overlay.EffectBox) (full, chroma sortLine) {
	line := func(planes int, bits uint, stride, sub int) sortLine {
		return sortLine{planes: planes, bits: bits, stride: stride, desc: b.SortDescending != 0, key: b.SortKey,
			minRun: sortMinRun(b, sub), turn: hueTurn(b)}
	}
	full = line(1, 12, n, 1)
	full.self = !f.pl[0].wide && b.SortKey == overlay.SortLuma
	if f.rgb {
		full = line(3, 8, n, 1)
	}
	return full, line(2, 12, cn, 2)
}

// sortMinRun is box b's shortest run sorted in a plane's samples: SortMinRun px, halved
// (rounded up) for 4:2:0 chroma, whose runs are half as long. Twin: fxSort's.
func sortMinRun(b *overlay.EffectBox, sub int) int {
	return (int(b.SortMinRun) + sub - 1) / sub
}

// at points ln at the values of planes ks from o on (o: past each plane's offset in r).
func (ln *sortLine) at(arena []float32, r *fxRect, ks []int, o int) {
	for j, k := range ks {
		ln.e[j] = arena[r.off[k]+o:]
	}
}

// sortRows is sortEffect along rows: each row's samples into the arena, then its runs sorted.
func (sc *effectsScratch) sortRows(r *fxRect, wk *fxWork, lo, hi int32, b *overlay.EffectBox) {
	f := &sc.f
	n := r.x1 - r.x0
	cx0, cy0, cx1, _ := r.plane(&f.pl[1])
	cn := cx1 - cx0
	full, chroma := sortLines(f, 1, 1, b)
	fullPlanes := f.fullPlanes()
	wk.keys8, wk.keysC8 = grow(wk.keys8, n), grow(wk.keysC8, cn)
	for y := r.y0; y < r.y1; y++ {
		if y+2 < r.y1 {
			sc.prefetchRows(r, y+2)
		}
		o := (y - r.y0) * n
		for _, k := range fullPlanes {
			f.pl[k].values(sc.arena[r.off[k]+o:r.off[k]+o+n], r.x0, y, wk)
		}
		full.at(sc.arena, r, fullPlanes, o)
		keys := sc.rowKeys(wk.keys8, &full, r.x0, y, wk)
		full.sortRuns(keys, lo, hi, wk)
		if f.rgb || y%2 != 0 {
			continue
		}
		oc := (y/2 - cy0) * cn
		for k := 1; k < 3; k++ {
			f.pl[k].values(sc.arena[r.off[k]+oc:r.off[k]+oc+cn], cx0, y/2, wk)
		}
		ck := wk.keysC8[:cn]
		evenBytes(ck, keys)
		chroma.at(sc.arena, r, chromaPlanes, oc)
		chroma.sortRuns(ck, lo, hi, wk)
	}
}

// sortColumns is sortEffect along columns: the rectangle's samples into the arena and its
// keys worked out, then each column's runs sorted.
func (sc *effectsScratch) sortColumns(r *fxRect, wk *fxWork, lo, hi int32, b *overlay.EffectBox) {
	f := &sc.f
	n, m := r.x1-r.x0, r.y1-r.y0
	cx0, cy0, cx1, cy1 := r.plane(&f.pl[1])
	cn, cm := cx1-cx0, cy1-cy0
	full, chroma := sortLines(f, n, cn, b)
	fullPlanes := f.fullPlanes()
	wk.keys8 = grow(wk.keys8, n*m)
	for y := r.y0; y < r.y1; y++ {
		if y+2 < r.y1 {
			sc.prefetchRows(r, y+2)
		}
		o := (y - r.y0) * n
		for _, k := range fullPlanes {
			f.pl[k].values(sc.arena[r.off[k]+o:r.off[k]+o+n], r.x0, y, wk)
		}
		full.at(sc.arena, r, fullPlanes, o)
		full.stride = 1
		copy(wk.keys8[o:o+n], sc.rowKeys(wk.keys8[o:o+n], &full, r.x0, y, wk))
	}
	full.stride = n
	// The keys a column a row (a key a step, not a row's length apart).
	wk.keysT = grow(wk.keysT, n*m)
	transposeBytes(wk.keysT, wk.keys8, n, m)
	for x := range n {
		full.at(sc.arena, r, fullPlanes, x)
		full.sortRuns(wk.keysT[x*m:x*m+m], lo, hi, wk)
	}
	if f.rgb {
		return
	}
	// Chroma: keyed by the key of each block's top-left pixel.
	for y := cy0; y < cy1; y++ {
		oc := (y - cy0) * cn
		for k := 1; k < 3; k++ {
			f.pl[k].values(sc.arena[r.off[k]+oc:r.off[k]+oc+cn], cx0, y, wk)
		}
	}
	wk.line8 = grow(wk.line8, cm)
	for x := range cn {
		evenBytes(wk.line8, wk.keysT[2*x*m:2*x*m+m])
		chroma.at(sc.arena, r, chromaPlanes, x)
		chroma.sortRuns(wk.line8, lo, hi, wk)
	}
}

// transposeBytes sets dst (n rows of m) to src (m rows of n) transposed: 8 rows by 32
// columns at a time by fxTransposeAVX2 where it runs, the rest by transposeBytesGo.
func transposeBytes(dst, src []byte, n, m int) {
	if n*m == 0 {
		return
	}
	_, _ = dst[n*m-1], src[n*m-1]
	x0, i0 := 0, 0
	if g := n / 32; haveAVX2 && g > 0 && m >= 8 {
		x0, i0 = 32*g, m&^7
		for i := 0; i < i0; i += 8 {
			fxTransposeAVX2(&dst[i], m, &src[i*n], n, g)
		}
	}
	transposeBytesGo(dst, src, n, m, x0, i0)
}

// transposeBytesGo is transposeBytes's Go twin, for the keys of columns from x0 on and, of
// those before, rows from i0 on.
func transposeBytesGo(dst, src []byte, n, m, x0, i0 int) {
	for i := range m {
		from := x0
		if i >= i0 {
			from = 0
		}
		for x, v := range src[i*n+from : i*n+n] {
			dst[(from+x)*m+i] = v
		}
	}
}

// The planes sorted together: the luma, R'G'B', and 4:2:0 chroma.
var lumaPlane, rgbPlanes, chromaPlanes = []int{0}, []int{0, 1, 2}, []int{1, 2}

// fullPlanes are f's planes of full resolution.
func (f *fxFrame) fullPlanes() []int {
	if f.rgb {
		return rgbPlanes
	}
	return lumaPlane
}

// values sets e to samples [x0, x0+len(e)) of row y.
func (pl *fxPlane) values(e []float32, x0, y int, wk *fxWork) {
	if !pl.wide && pl.step == 1 {
		i := y*pl.stride + x0
		widen8(e, pl.p[i:i+len(e)])
		return
	}
	wk.a = grow(wk.a, len(e))
	pl.load(wk.a, x0, y)
	for i, v := range wk.a {
		e[i] = float32(v)
	}
}

// rowKeys is the keys of the pixels of row y from x0 (even), whose values ln holds (stride
// 1): 8-bit luma is its own keys (the frame's bytes), the others' are worked out into keys.
func (sc *effectsScratch) rowKeys(keys []byte, ln *sortLine, x0, y int, wk *fxWork) []byte {
	luma := &sc.f.pl[0]
	switch {
	case ln.key != overlay.SortLuma && sc.f.rgb:
		r, g, b := ln.e[0][:len(keys)], ln.e[1][:len(keys)], ln.e[2][:len(keys)]
		for x := range keys {
			u, v := rgbChroma(r[x], g[x], b[x])
			keys[x] = turnKey(chromaKey(ln.key, u, v), ln.turn)
		}
	case ln.key != overlay.SortLuma:
		// Each block's chroma sample keys its two pixels in the row.
		cn := (len(keys) + 1) / 2
		wk.a, wk.c = grow(wk.a, cn), grow(wk.c, cn)
		cb, cr := &sc.f.pl[1], &sc.f.pl[2]
		cb.load(wk.a, x0/2, y/2)
		cr.load(wk.c, x0/2, y/2)
		var sh uint
		if cb.wide {
			sh = 2
		}
		for x := range keys {
			keys[x] = turnKey(chromaKey(ln.key, float32(wk.a[x/2]>>sh-128), float32(wk.c[x/2]>>sh-128)), ln.turn)
		}
	case ln.self:
		i := y*luma.stride + x0
		return luma.p[i : i+len(keys)]
	case sc.f.rgb:
		r, g, b := ln.e[0][:len(keys)], ln.e[1][:len(keys)], ln.e[2][:len(keys)]
		for x := range keys {
			keys[x] = byte(int32(fxLuma(r[x], g[x], b[x])))
		}
	default:
		for x, v := range ln.e[0][:len(keys)] {
			keys[x] = byte(int32(v) >> 2)
		}
	}
	return keys
}

// sortRuns sorts each maximal run of the line whose keys lie in [lo, hi] by key, stably,
// but a run already in order or shorter than ln.minRun. It finds the runs out of order from bit masks of the keys
// (sortMasks): where a key and the next lie in the range and the next is below it.
func (ln *sortLine) sortRuns(keys []byte, lo, hi int32, wk *fxWork) {
	hi = min(hi, 255) // the same keys
	n := len(keys)
	if lo > hi || n < 2 {
		return
	}
	if ln.desc {
		// Descending: the line's mirror image sorted, then mirrored back. The runs out of
		// order are found on the keys mirrored (into scratch: they can be the frame's
		// bytes); only their samples are mirrored, sorted and mirrored back. Twin: fxSort's
		// rank from the run's end.
		wk.mirror = grow(wk.mirror, n)
		for i, k := range keys {
			wk.mirror[n-1-i] = k
		}
		keys = wk.mirror
	}
	nw := (n + 63) / 64
	// Scratch for the whole line, so that no run grows it: a worker's scratch stops growing
	// once it has taken the largest box, whatever the keys.
	wk.inBits, wk.downBits = grow(wk.inBits, nw+1), grow(wk.downBits, nw)
	wk.items, wk.places, wk.fx = grow(wk.items, n), grow(wk.places, max(n, rankMax)), grow(wk.fx, n+layOutPast)
	in, down := wk.inBits[:nw+1], wk.downBits[:nw]
	sortMasks(in[:nw], down, keys, lo, hi)
	in[nw] = 0 // a run ends by the line's end
	for i := 0; ; {
		if i = nextOutOfOrder(in, down, i); i < 0 {
			return
		}
		s, e := runStart(in, i), runEnd(in, i)
		switch {
		case e-s < ln.minRun: // left as it is
		case ln.desc && e-s == 2: // a pair out of order: swapped, mirrored or not
			ln.sortRun(keys[s:e], n-e, wk)
		case ln.desc: // the run's samples, mirrored, lie at n−e..n−s
			ln.mirror(n-e, e-s)
			ln.sortRun(keys[s:e], n-e, wk)
			ln.mirror(n-e, e-s)
		default:
			ln.sortRun(keys[s:e], s, wk)
		}
		i = e
	}
}

// mirror reverses the order of the line's n samples from sample s in each of its planes.
func (ln *sortLine) mirror(s, n int) {
	st := ln.stride
	for p := range ln.planes {
		e := ln.e[p]
		for i, j := s, s+n-1; i < j; i, j = i+1, j-1 {
			e[i*st], e[j*st] = e[j*st], e[i*st]
		}
	}
}

// sortMasks sets bit i (of word i/64) of in where key i lies in [lo, hi] (hi at most 255),
// and of down where key i+1 lies below key i: by fxSortMasksAVX2 where it runs, 32 keys a
// group. The bits past the keys are 0.
func sortMasks(in, down []uint64, keys []byte, lo, hi int32) {
	clear(in)
	clear(down)
	l, span := uint32(lo), uint32(hi-lo)
	if !haveAVX2 || len(keys) == 0 {
		sortMasksGo(in, down, keys, l, span)
		return
	}
	g := (len(keys) - 1) / 32 // each group reads the key after it
	if g > 0 {
		_ = in[(g-1)/2]
		fxSortMasksAVX2(&in[0], &down[0], &keys[0], l, span, g)
	}
	// The last 1 to 32 keys from a copy padded with the last key (not below itself), the
	// group's bits past the keys cleared.
	var last [33]byte
	t := copy(last[:], keys[32*g:])
	for j := t; j < len(last); j++ {
		last[j] = keys[len(keys)-1]
	}
	var lastIn, lastDown uint64
	fxSortMasksAVX2(&lastIn, &lastDown, &last[0], l, span, 1)
	keep, sh := uint64(1)<<t-1, 32*(g%2)
	in[g/2] |= (lastIn & keep) << sh
	down[g/2] |= (lastDown & keep) << sh
}

// sortMasksGo is sortMasks's Go twin (in and down zero before).
func sortMasksGo(in, down []uint64, keys []byte, l, span uint32) {
	for i, k := range keys {
		bit := uint64(1) << (i & 63)
		if uint32(k)-l <= span {
			in[i>>6] |= bit
		}
		if i+1 < len(keys) && keys[i+1] < k {
			down[i>>6] |= bit
		}
	}
}

// nextOutOfOrder is the first key from i on that lies in the range with the next, which
// lies below it; -1 if none does. in has a word past the keys' (0).
func nextOutOfOrder(in, down []uint64, i int) int {
	w := i >> 6
	if w >= len(down) {
		return -1
	}
	bad := in[w] & (in[w]>>1 | in[w+1]<<63) & down[w] & (^uint64(0) << (i & 63))
	for bad == 0 {
		if w++; w >= len(down) {
			return -1
		}
		bad = in[w] & (in[w]>>1 | in[w+1]<<63) & down[w]
	}
	return w<<6 + bits.TrailingZeros64(bad)
}

// runStart is the first key of the run (of keys in the range) that holds key i.
func runStart(in []uint64, i int) int {
	w := i >> 6
	out := ^in[w] & (uint64(1)<<(i&63) - 1) // keys out of the range below i
	for out == 0 {
		if w--; w < 0 {
			return 0
		}
		out = ^in[w]
	}
	return w<<6 + 64 - bits.LeadingZeros64(out)
}

// runEnd is the key after the run that holds key i: the first out of the range after it.
// in's last word is 0.
func runEnd(in []uint64, i int) int {
	w := i >> 6
	out := ^in[w] & (^uint64(0) << (i & 63))
	for out == 0 {
		w++
		out = ^in[w]
	}
	return w<<6 + bits.TrailingZeros64(out)
}

// sortRun sorts the run of the line from sample s whose keys are run (out of order).
func (ln *sortLine) sortRun(run []byte, s int, wk *fxWork) {
	st := ln.stride
	if len(run) == 2 { // out of order: swapped (common where the keys are noisy)
		for p := range ln.planes {
			e := ln.e[p]
			e[s*st], e[(s+1)*st] = e[(s+1)*st], e[s*st]
		}
		return
	}
	if ln.self {
		e := ln.e[0][s*st : (s+len(run)-1)*st+1]
		if haveAVX2 && len(run) <= netMax { // the keys sorted are the samples sorted
			sorted := sortBytes(wk, run)
			if st == 1 {
				widen8(e, sorted)
				return
			}
			for i, v := range sorted {
				e[i*st] = float32(v)
			}
			return
		}
		if len(run) < sortShort {
			for j := 1; j < len(run); j++ {
				v, q := e[j*st], j
				for ; q > 0 && e[(q-1)*st] > v; q-- {
					e[q*st] = e[(q-1)*st]
				}
				e[q*st] = v
			}
			return
		}
		// Counted, and each key laid out as many times as it came (equal keys are equal
		// samples, so no sample need be placed, each waiting for its key's count).
		c, least := histogram(wk, run)
		out := wk.fx[:len(run)+layOutPast]
		layOut(out, c, least)
		if st == 1 {
			copy(e, out[:len(run)])
			return
		}
		for i, v := range out[:len(run)] {
			e[i*st] = v
		}
		return
	}
	if len(run) < sortShort && !haveAVX2 {
		ln.insertRun(run, s, wk)
		return
	}
	ln.placeRun(run, s, wk)
}

// insertRun sorts a short run by insertion: each sample an item, its key in the top byte
// and its planes' values below, sorted stably by key and unpacked back.
func (ln *sortLine) insertRun(run []byte, s int, wk *fxWork) {
	st := ln.stride
	items := wk.items[:len(run)]
	// The planes one by one: a loop over them per sample cost more than the sort.
	for j, k := range run {
		items[j] = uint32(k) << itemKey
	}
	for p := range ln.planes {
		sh := uint(ln.planes-1-p) * ln.bits
		e := ln.e[p][s*st : (s+len(run)-1)*st+1]
		for j := range items {
			items[j] |= uint32(e[j*st]) << sh
		}
	}
	for j := 1; j < len(items); j++ {
		v := items[j]
		k, q := v>>itemKey, j
		for ; q > 0 && items[q-1]>>itemKey > k; q-- {
			items[q] = items[q-1]
		}
		items[q] = v
	}
	mask := uint32(1)<<ln.bits - 1
	for p := range ln.planes {
		sh := uint(ln.planes-1-p) * ln.bits
		e := ln.e[p][s*st : (s+len(run)-1)*st+1]
		for j, it := range items {
			e[j*st] = float32(it >> sh & mask)
		}
	}
}

// placeRun sorts a run by each sample's place in the run sorted (runPlaces), worked out
// once, then each plane's values moved to their places through wk.fx and back, as they are
// (no items packed and unpacked).
func (ln *sortLine) placeRun(run []byte, s int, wk *fxWork) {
	places := runPlaces(wk, run)
	st := ln.stride
	sorted := wk.fx[:len(run)]
	for p := range ln.planes {
		e := ln.e[p][s*st : (s+len(run)-1)*st+1]
		for j, to := range places {
			sorted[to] = e[j*st]
		}
		if st == 1 {
			copy(e, sorted)
			continue
		}
		for i, v := range sorted {
			e[i*st] = v
		}
	}
}

// rankMax is the longest run whose places fxRanksAVX2 works out: it compares every key
// with every other, 16 a vector, in up to 4 vectors.
const rankMax = 64

// runPlaces is the place of each of a run's keys in the run sorted stably (the keys below
// it, and those equal to it before it): by fxRanksAVX2 for a run of up to rankMax keys where
// it runs, else from the keys' counts (runPlacesGo). wk.places holds rankMax at least.
func runPlaces(wk *fxWork, keys []byte) []int32 {
	places := wk.places[:len(keys)]
	if !haveAVX2 || len(keys) > rankMax {
		return runPlacesGo(wk, keys, places)
	}
	if cap(keys) < (len(keys)+15)&^15 { // it reads whole vectors of keys
		keys = wk.runKeys[:copy(wk.runKeys[:], keys)]
	}
	fxRanksAVX2(&places[0], &keys[0], len(keys))
	return places
}

// runPlacesGo is runPlaces's Go twin: each key's place from where its key starts (counts),
// the keys in order.
func runPlacesGo(wk *fxWork, keys []byte, places []int32) []int32 {
	c, least := counts(wk, keys)
	for j, k := range keys {
		i := int32(k) - least
		places[j] = c[i]
		c[i]++
	}
	return places
}

// netMax is the longest run of 8-bit luma sorted in registers, by fxSortBytesAVX2.
const netMax = 256

// sortBytes is keys (up to netMax of them) sorted, in wk.sorted: by fxSortBytesAVX2, which
// reads whole vectors of keys (from a copy where keys' slice does not hold them). Its Go
// twin is the counting (histogram and layOut) that sorts a longer run.
func sortBytes(wk *fxWork, keys []byte) []byte {
	if cap(keys) < netLanes(len(keys)) {
		keys = wk.runKeys[:copy(wk.runKeys[:], keys)]
	}
	fxSortBytesAVX2(&wk.sorted[0], &keys[0], len(keys))
	return wk.sorted[:len(keys)]
}

// netLanes is how many lanes fxSortBytesAVX2 reads n keys from: 32, 64, 96, 128, 192 or
// 256.
func netLanes(n int) int {
	switch {
	case n > 192:
		return 256
	case n > 128:
		return 192
	}
	return (n + 31) &^ 31
}

// histogram is how many of keys are each key from the least of them to the greatest
// (keyRange's), from the least: on footage a run's keys span much less than the range.
func histogram(wk *fxWork, keys []byte) (c []int32, least int32) {
	lo, hi := keyRange(keys)
	c = wk.counts[:hi-lo+1]
	clear(c)
	for _, k := range keys {
		c[int32(k)-lo]++
	}
	return c, lo
}

// keyRange is the least and the greatest of keys (not empty): 32 a group by fxKeyRangeAVX2
// where it runs (a loop in Go waits on each comparison).
func keyRange(keys []byte) (lo, hi int32) {
	lo, hi = int32(keys[0]), int32(keys[0])
	if g := len(keys) / 32; haveAVX2 && g > 0 {
		l, h := fxKeyRangeAVX2(&keys[0], g)
		lo, hi, keys = int32(l), int32(h), keys[32*g:]
	}
	return keyRangeGo(keys, lo, hi)
}

// keyRangeGo is keyRange's Go twin: lo and hi widened to hold keys.
func keyRangeGo(keys []byte, lo, hi int32) (int32, int32) {
	for _, k := range keys {
		lo, hi = min(lo, int32(k)), max(hi, int32(k))
	}
	return lo, hi
}

// layOutPast is how many values past the keys layOut may write.
const layOutPast = 8

// layOut sets out to the keys from least on, each as many times as c counts it, in order,
// as float32: by fxLayOutAVX2 where it runs, 8 values a store, so that it may write up to
// layOutPast values past them (out holds them); a Go loop stores each value alone.
func layOut(out []float32, c []int32, least int32) {
	if haveAVX2 && len(c) > 0 {
		_ = out[len(out)-1]
		fxLayOutAVX2(&out[0], &c[0], len(c), float32(least))
		return
	}
	layOutGo(out, c, least)
}

// layOutGo is layOut's Go twin: it writes nothing past the keys.
func layOutGo(out []float32, c []int32, least int32) {
	j := 0
	for v, n := range c {
		fv := float32(least + int32(v))
		same := out[j : j+int(n)]
		for k := range same {
			same[k] = fv
		}
		j += int(n)
	}
}

// counts is where each key from the least of keys to the greatest starts in keys sorted
// (the number of keys below it), from the least.
func counts(wk *fxWork, keys []byte) (c []int32, least int32) {
	c, least = histogram(wk, keys)
	// The running sum in a register: adding up in place waits for each store.
	sum := int32(0)
	for k, v := range c {
		c[k] = sum
		sum += v
	}
	return c, least
}

// evenBytes sets out[i] to src[2i] (src holds them): whole groups of 32 by fxEvenBytesAVX2
// where it runs, as far as src holds a group's 64.
func evenBytes(out, src []byte) {
	if g := min(len(out)/32, len(src)/64); haveAVX2 && g > 0 {
		fxEvenBytesAVX2(&out[0], &src[0], g)
		out, src = out[32*g:], src[64*g:]
	}
	evenBytesGo(out, src)
}

// evenBytesGo is evenBytes's Go twin.
func evenBytesGo(out, src []byte) {
	for i := range out {
		out[i] = src[2*i]
	}
}

// widen8 sets out[i] to src[i]: whole groups of 8 by fxWiden8AVX2 where it runs.
func widen8(out []float32, src []byte) {
	src = src[:len(out)]
	if haveAVX2 {
		if g := len(out) / 8; g > 0 {
			fxWiden8AVX2(&out[0], &src[0], g)
			out, src = out[8*g:], src[8*g:]
		}
	}
	widen8Go(out, src)
}

// widen8Go is widen8's Go twin.
func widen8Go(out []float32, src []byte) {
	src = src[:len(out)]
	for i, v := range src {
		out[i] = float32(v)
	}
}

// rgbChroma are the chroma offsets u, v (BT.709 Cb and Cr, full range, in code values) of
// R'G'B' code values r, g, b. Twin: fxRGBChroma.
func rgbChroma(r, g, b float32) (u, v float32) {
	l := fxLuma(r, g, b)
	return float32((b - l) * 0.53890924), float32((r - l) * 0.63500127) // 1/1.8556, 1/1.5748
}

// hueFloor is the least saturation key (chroma 4 codes from neutral, 3% of the way to full)
// at which a pixel has a hue: below it the hue is noise. On footage the greys' chroma lies
// within 2 codes of neutral (vtest.avi's pavement and walls, a quarter of its frame, have
// saturation keys 0 to 4), and at 4 codes one code of rounding still turns the hue by up to
// 14° (10 keys); a grey's hue key would be 0, red. Twin: TK_HUE_FLOOR.
const hueFloor = 8

// noHue is the hue key of a pixel without a hue (saturation below hueFloor): above every hue
// range (sortRange).
const noHue = 255

// chromaKey is the saturation or hue key (the file's comment) of chroma offsets u, v.
// Twin: fxChromaKey.
func chromaKey(key int32, u, v float32) byte {
	sat := byte(255)
	if s := float32(math.Sqrt(float64(float32(u*u)+float32(v*v)))) * 2; s < 255 {
		sat = byte(int32(s))
	}
	if key == overlay.SortSaturation {
		return sat
	}
	if sat < hueFloor {
		return noHue
	}
	x, y := v, -u // the angle from +Cr toward −Cb
	var base int32
	var q float32
	switch {
	case y >= 0 && x > 0:
		base, q = 0, y/(x+y)
	case x <= 0 && y > 0:
		base, q = 1, -x/(y-x)
	case y <= 0 && x < 0:
		base, q = 2, -y/(-x-y)
	default:
		base, q = 3, x/(x-y)
	}
	return byte(min(base*64+int32(q*64), noHue-1))
}
