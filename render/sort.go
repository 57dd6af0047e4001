package render

import (
	"trackink/overlay"
)

// Pixel sort (overlay.EffectSort), phase 1: along each row (or column) of the box's
// rectangle, the runs of pixels whose key lies in the box's range are sorted by key,
// darkest first, pixels of equal key keeping their order (a stable sort); the pixels outside
// the range stay. A pixel's key is its luma in 8-bit code values (10-bit luma >> 2; an RGBA
// pixel's BT.709 luma, truncated). A pixel moves whole: on R'G'B' its three components, on
// Y'CbCr its Y'; the 4:2:0 chroma samples are sorted the same way on their own rows (or
// columns), each keyed by the luma of its block's top-left pixel, Cb and Cr together.
// Twin: fxSort (kernels/effects.cu), which finds each sample's source by counting.

// sortRange is the box's key range [lo, hi] in 8-bit luma codes: SortLo and SortHi of the
// way from black to white, rounded. Twin: fxSortRange.
func sortRange(b *overlay.EffectBox, pl *fxPlane) (lo, hi int32) {
	black, white := pl.black, pl.white
	if pl.wide {
		black, white = black/4, white/4
	}
	lo = int32(black + float32(b.SortLo*(white-black)) + 0.5)
	hi = int32(black + float32(b.SortHi*(white-black)) + 0.5)
	// Full-range 10-bit white, 1023/4, rounds to 256: above every key, as 255 is.
	return lo, min(hi, 255)
}

// sortEffect is phase 1 of pixel sort for box b: its values over rectangle r in each plane.
func (sc *effectsScratch) sortEffect(b *overlay.EffectBox, r *fxRect, wk *fxWork) {
	if r.x1 <= r.x0 || r.y1 <= r.y0 {
		return
	}
	lo, hi := sortRange(b, &sc.f.pl[0])
	if b.SortColumns == 0 {
		sc.sortRows(r, wk, lo, hi)
		return
	}
	sc.sortColumns(r, wk, lo, hi)
}

// sortRows is sortEffect along rows: each row of a plane loaded, keyed, sorted and its
// values gathered straight into the arena.
func (sc *effectsScratch) sortRows(r *fxRect, wk *fxWork, lo, hi int32) {
	f := &sc.f
	n := r.x1 - r.x0
	wk.a, wk.b, wk.c = grow(wk.a, n), grow(wk.b, n), grow(wk.c, n)
	wk.lineKeys, wk.perm = grow(wk.lineKeys, n), grow(wk.perm, n)
	rows := [3][]int32{wk.a, wk.b, wk.c}
	for y := r.y0; y < r.y1; y++ {
		if y+2 < r.y1 {
			sc.prefetchRows(r, y+2)
		}
		o := (y - r.y0) * n
		if f.rgb {
			for k := range 3 {
				f.pl[k].load(rows[k], r.x0, y)
			}
			sortKeys(wk.lineKeys, f, wk.a, wk.b, wk.c)
			sortLine(wk.perm, wk.lineKeys, lo, hi, &wk.counts)
			for k := range 3 {
				gather(sc.arena[r.off[k]+o:r.off[k]+o+n], rows[k], wk.perm)
			}
			continue
		}
		f.pl[0].load(wk.a, r.x0, y)
		keys := wk.a // 8-bit luma: the samples are the keys
		if f.pl[0].wide {
			sortKeys(wk.lineKeys, f, wk.a, nil, nil)
			keys = wk.lineKeys
		}
		sortLine(wk.perm, keys, lo, hi, &wk.counts)
		gather(sc.arena[r.off[0]+o:r.off[0]+o+n], wk.a, wk.perm)
		if y%2 != 0 {
			continue
		}
		// The chroma row under this luma row, keyed by its blocks' top-left pixels.
		cx0, cy0, cx1, _ := r.plane(&f.pl[1])
		cn := cx1 - cx0
		// In place where the keys are lineKeys: key x reads entry 2x, not yet overwritten.
		ck := wk.lineKeys[:cn]
		for x := range ck {
			ck[x] = keys[2*x]
		}
		perm := wk.perm[:cn]
		sortLine(perm, ck, lo, hi, &wk.counts)
		oc := (y/2 - cy0) * cn
		for k := 1; k < 3; k++ {
			f.pl[k].load(wk.b[:cn], cx0, y/2)
			gather(sc.arena[r.off[k]+oc:r.off[k]+oc+cn], wk.b[:cn], perm)
		}
	}
}

// sortColumns is sortEffect along columns: the rectangle's samples of every plane loaded,
// then each column keyed, sorted and gathered.
func (sc *effectsScratch) sortColumns(r *fxRect, wk *fxWork, lo, hi int32) {
	f := &sc.f
	n, m := r.x1-r.x0, r.y1-r.y0
	for k := range 3 {
		pl := &f.pl[k]
		px0, py0, px1, py1 := r.plane(pl)
		wk.sortSrc[k] = grow(wk.sortSrc[k], (px1-px0)*(py1-py0))
		for y := py0; y < py1; y++ {
			pl.load(wk.sortSrc[k][(y-py0)*(px1-px0):(y-py0+1)*(px1-px0)], px0, y)
		}
	}
	wk.keys = grow(wk.keys, n*m)
	sortKeys(wk.keys, f, wk.sortSrc[0], wk.sortSrc[1], wk.sortSrc[2])
	full := lumaPlane
	if f.rgb {
		full = rgbPlanes
	}
	sc.sortAlongColumns(r, wk, full, wk.keys, n, m, lo, hi)
	if f.rgb {
		return
	}
	// Chroma: keyed by the luma of each block's top-left pixel.
	cx0, cy0, cx1, cy1 := r.plane(&f.pl[1])
	cn, cm := cx1-cx0, cy1-cy0
	wk.keysC = grow(wk.keysC, cn*cm)
	for y := range cm {
		for x := range cn {
			wk.keysC[y*cn+x] = wk.keys[(2*(cy0+y)-r.y0)*n+2*(cx0+x)-r.x0]
		}
	}
	sc.sortAlongColumns(r, wk, chromaPlanes, wk.keysC, cn, cm, lo, hi)
}

// The planes sorted together: those of full resolution, and 4:2:0 chroma.
var lumaPlane, rgbPlanes, chromaPlanes = []int{0}, []int{0, 1, 2}, []int{1, 2}

// sortKeys sets keys to the sort keys of the samples y (Y', or R' with g and b of an RGBA
// frame): 8-bit luma codes.
func sortKeys(keys []int32, f *fxFrame, y, g, b []int32) {
	switch {
	case f.rgb:
		g, b = g[:len(y)], b[:len(y)]
		for i := range keys {
			keys[i] = int32(fxLuma(float32(y[i]), float32(g[i]), float32(b[i])))
		}
	case f.pl[0].wide:
		for i, v := range y[:len(keys)] {
			keys[i] = v >> 2
		}
	default:
		copy(keys, y)
	}
}

// gather sets e[i] to src[perm[i]].
func gather(e []float32, src, perm []int32) {
	perm = perm[:len(e)]
	for i, j := range perm {
		e[i] = float32(src[j])
	}
}

// sortAlongColumns sorts the n × m samples of planes ks (loaded in wk.sortSrc) by keys
// along columns, writing each plane's values into the arena.
func (sc *effectsScratch) sortAlongColumns(r *fxRect, wk *fxWork, ks []int, keys []int32, n, m int, lo, hi int32) {
	wk.lineKeys, wk.perm = grow(wk.lineKeys, m), grow(wk.perm, m)
	for x := range n {
		for i := range m {
			wk.lineKeys[i] = keys[x+i*n]
		}
		sortLine(wk.perm, wk.lineKeys, lo, hi, &wk.counts)
		for _, k := range ks {
			src := wk.sortSrc[k]
			e := sc.arena[r.off[k] : r.off[k]+n*m]
			for i, j := range wk.perm {
				e[x+i*n] = float32(src[x+int(j)*n])
			}
		}
	}
}

// sortLine sets perm[i] to the position whose sample lands at i: each maximal run of keys
// within [lo, hi] sorted by key, stably; every other position its own.
func sortLine(perm, keys []int32, lo, hi int32, counts *[257]int32) {
	n := len(keys)
	for i := 0; i < n; {
		if keys[i] < lo || keys[i] > hi {
			perm[i] = int32(i)
			i++
			continue
		}
		s := i
		for i < n && keys[i] >= lo && keys[i] <= hi {
			i++
		}
		run, out := keys[s:i], perm[s:i]
		if len(run) < 32 {
			// Insertion sort: a short run costs less than clearing the counts.
			for j := range run {
				out[j] = int32(s + j)
				for q := j; q > 0 && keys[out[q-1]] > keys[out[q]]; q-- {
					out[q-1], out[q] = out[q], out[q-1]
				}
			}
			continue
		}
		// A counting sort over the keys of the range only.
		c := counts[:hi-lo+2]
		clear(c)
		for _, k := range run {
			c[k-lo+1]++
		}
		for k := 1; k < len(c); k++ {
			c[k] += c[k-1]
		}
		for j, k := range run {
			out[c[k-lo]] = int32(s + j)
			c[k-lo]++
		}
	}
}
