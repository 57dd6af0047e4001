package render

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"trackink/composite"
	"trackink/overlay"
)

// TestSortLine: runs of keys in the range are sorted by key, stably, long runs (counting
// sort) as short ones (insertion sort, or with AVX2 each key compared with every other, and
// 8-bit luma sorted in registers); keys outside the range stay, and split the runs.
// A line of items moves each sample's planes whole, equal keys in their order; a line of
// 8-bit luma, whose samples are their keys, gives the same keys. Each along a row and
// along a column (every third value), with the AVX2 routines where they run and without.
func TestSortLine(t *testing.T) {
	sortLineCases := []struct {
		avx    bool // where the machine has it
		stride int
	}{{false, 1}, {false, 3}, {true, 1}, {true, 3}}
	check := func(keys []int32, lo, hi int32) []int32 {
		t.Helper()
		// Where each position's sample comes from: each run ordered by slices.SortStableFunc.
		pos := make([]int32, len(keys))
		for i := range pos {
			pos[i] = int32(i)
		}
		for i := 0; i < len(keys); {
			if keys[i] < lo || keys[i] > hi {
				i++
				continue
			}
			s := i
			for i < len(keys) && keys[i] >= lo && keys[i] <= hi {
				i++
			}
			slices.SortStableFunc(pos[s:i], func(a, b int32) int { return int(keys[a] - keys[b]) })
		}
		want := make([]int32, len(keys))
		for i, p := range pos {
			want[i] = keys[p]
		}
		k8 := make([]byte, len(keys))
		for i, k := range keys {
			k8[i] = byte(k)
		}
		for _, c := range sortLineCases {
			avx, stride := c.avx && haveAVX2, c.stride
			var wk fxWork
			// Items: two planes, a sample's position and its key.
			e := [2][]float32{make([]float32, stride*len(keys)), make([]float32, stride*len(keys))}
			for i, k := range keys {
				e[0][i*stride], e[1][i*stride] = float32(i), float32(k)
			}
			ln := sortLine{e: [3][]float32{e[0], e[1]}, planes: 2, bits: 12, stride: stride}
			withAVX2(avx, func() { ln.sortRuns(k8, lo, hi, &wk) })
			for i, p := range pos {
				if e[0][i*stride] != float32(p) || e[1][i*stride] != float32(keys[p]) {
					t.Fatalf("items, AVX2 %v, stride %d: keys %v in %d..%d: position %d holds sample %g (key %g), want %d",
						avx, stride, keys, lo, hi, i, e[0][i*stride], e[1][i*stride], p)
				}
			}
			if hi > 255 {
				continue
			}
			// 8-bit luma.
			ln = sortLine{e: [3][]float32{make([]float32, stride*len(keys))}, planes: 1, stride: stride, self: true}
			for i, k := range keys {
				ln.e[0][i*stride] = float32(k)
			}
			withAVX2(avx, func() { ln.sortRuns(k8, lo, hi, &wk) })
			for i, k := range want {
				if ln.e[0][i*stride] != float32(k) {
					t.Fatalf("8-bit, AVX2 %v, stride %d: keys %v in %d..%d: position %d holds %g, want %d", avx, stride, keys, lo, hi, i, ln.e[0][i*stride], k)
				}
			}
		}
		return want
	}
	for _, c := range []struct {
		keys   []int32
		lo, hi int32
		want   []int32 // the keys in their new order
	}{
		{[]int32{5, 3, 4}, 0, 255, []int32{3, 4, 5}},
		{[]int32{5, 3, 9, 4, 2}, 0, 8, []int32{3, 5, 9, 2, 4}}, // 9 is out: two runs
		{[]int32{1, 7, 6, 0}, 2, 7, []int32{1, 6, 7, 0}},
		{[]int32{255, 0, 255, 3}, 0, 256, []int32{0, 3, 255, 255}}, // full-range 10-bit white
		{[]int32{255, 0, 255, 3}, 256, 256, []int32{255, 0, 255, 3}},
		{[]int32{}, 0, 255, []int32{}},
	} {
		if got := check(c.keys, c.lo, c.hi); !slices.Equal(got, c.want) {
			t.Errorf("keys %v in %d..%d: the reference gives %v, want %v", c.keys, c.lo, c.hi, got, c.want)
		}
	}
	// Runs short and long, of few distinct keys and many, in order or not.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		keys := make([]int32, rng.IntN(400))
		spread := 1 + rng.IntN(256)
		for i := range keys {
			keys[i] = int32(rng.IntN(spread))
		}
		if rng.IntN(4) == 0 {
			slices.Sort(keys[:len(keys)/2])
		}
		lo, hi := int32(rng.IntN(100)), int32(100+rng.IntN(156))
		if rng.IntN(4) == 0 {
			lo, hi = 0, 255
		}
		check(keys, lo, hi)
	}
}

// TestSortEffectMatchesStableSort holds pixel sort's values (phase 1, before the blend) to
// the rule, worked out the obvious way: on a random frame of every format, boxes along rows
// and along columns, wide and narrow key ranges, at odd sizes and over the frame's edge,
// each line's runs of keys in the range sorted by slices.SortStableFunc, every plane's
// sample moving with its key; ascending and descending (EffectBox.SortDescending); keyed by
// luma, saturation and hue (EffectBox.SortKey: on 4:2:0, every pixel of a block keyed by
// its chroma sample); with a shortest run (EffectBox.SortMinRun: shorter runs stay; 4:2:0
// chroma's half, rounded up).
func TestSortEffectMatchesStableSort(t *testing.T) {
	const w, h = 61, 37
	boxes := []overlay.EffectBox{
		{X: 3.5, Y: 2.2, W: 40.4, H: 30.1, SortLo: 0.2, SortHi: 0.9},
		{X: 20, Y: 9, W: 40, H: 27, SortLo: 0.1, SortHi: 0.6, SortColumns: 1},
		{X: -3, Y: 20.6, W: 70, H: 30, SortLo: 0, SortHi: 1},
		{X: 11, Y: -4, W: 50, H: 60, SortLo: 0, SortHi: 1, SortColumns: 1},
		{X: 1, Y: 1, W: 58, H: 33, SortLo: 0.45, SortHi: 0.55},
		{X: 1, Y: 1, W: 58, H: 33, SortLo: 0.3, SortHi: 0.3, SortColumns: 1},
	}
	for i := range boxes {
		boxes[i].Kind = overlay.EffectSort
		desc := boxes[i]
		desc.SortDescending = 1
		boxes = append(boxes, desc)
	}
	for _, key := range []int32{overlay.SortSaturation, overlay.SortHue} {
		for _, b := range boxes[:12] {
			b.SortKey = key
			boxes = append(boxes, b)
		}
	}
	for i, b := range boxes[:24] {
		b.SortMinRun = int32(3 + i%3*4) // 3, 7, 11: odd, so chroma's rounds up
		boxes = append(boxes, b)
	}
	// Hue ranges that wrap through red (low above high), rows and columns, either order,
	// with a shortest run; and one whose ends round to the same key (every hue).
	for i, r := range [][2]float32{{0.9, 0.1}, {0.7, 0.3}, {0.99, 0.6}, {0.502, 0.5}, {0.001, 0}} {
		for d := range int32(2) {
			boxes = append(boxes, overlay.EffectBox{X: 1, Y: 1, W: 58, H: 33, Kind: overlay.EffectSort, SortKey: overlay.SortHue,
				SortLo: r[0], SortHi: r[1], SortColumns: int32(i % 2), SortDescending: d, SortMinRun: int32(i%2) * 5})
		}
	}
	for _, format := range []string{"rgba", "yuv420p", "nv12", "yuv420p10", "p010"} {
		for seed := range uint64(3) {
			fr := testFrame(format, w, h, seed)
			if seed == 2 { // long runs of equal and near keys: a smooth picture
				smoothFrame(fr)
			}
			var sc effectsScratch
			if err := effectsFrame(fr, &sc.f); err != nil {
				t.Fatal(err)
			}
			sc.prepare(boxes, w, h)
			var wk fxWork
			for i := range boxes {
				r := &sc.rects[i]
				sc.computeEffect(&boxes[i], r, &wk)
				want := refSort(&sc.f, r, &boxes[i])
				for k := range 3 {
					x0, y0, x1, y1 := r.plane(&sc.f.pl[k])
					got := sc.arena[r.off[k] : r.off[k]+(x1-x0)*(y1-y0)]
					if !slices.Equal(got, want[k]) {
						t.Errorf("%s seed %d box %d (descending %d, key %d, min run %d) plane %d: values differ from a stable sort",
							format, seed, i, boxes[i].SortDescending, boxes[i].SortKey, boxes[i].SortMinRun, k)
					}
				}
			}
		}
	}
}

// smoothFrame rewrites fr's samples as slow gradients with a little noise, quantised, so
// that lines hold long runs of keys in a range with many equal keys.
func smoothFrame(fr composite.HostSurface) {
	var f fxFrame
	if err := effectsFrame(fr, &f); err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for k := range 3 {
		pl := &f.pl[k]
		for y := range pl.h {
			for x := range pl.w {
				v := int(pl.max) * (x + 2*y + k*7) / (pl.w + 2*pl.h + 14)
				v = min(max(v+rng.IntN(5)-2, 0), int(pl.max)) &^ 3
				i := y*pl.stride + x*pl.step
				if pl.wide {
					binary.LittleEndian.PutUint16(pl.p[i:], uint16(v)<<pl.shift)
				} else {
					pl.p[i] = byte(v)
				}
			}
		}
	}
}

// refSort is pixel sort's values over rectangle r of box b, per plane, by the rule: a pixel
// of saturation below hueFloor (grey) lies in no hue range.
func refSort(f *fxFrame, r *fxRect, b *overlay.EffectBox) [3][]float32 {
	lo, hi := sortRange(b, &f.pl[0])
	if b.SortKey == overlay.SortHue && b.SortLo <= b.SortHi {
		lo, hi = int32(float32(b.SortLo*255)+0.5), int32(float32(b.SortHi*255)+0.5)
	}
	sample := func(k, x, y int) int32 {
		v := make([]int32, 1)
		f.pl[k].load(v, x, y)
		return v[0]
	}
	key := func(x, y int) int32 { // of the pixel at (x, y)
		if b.SortKey != overlay.SortLuma {
			var u, v float32
			if f.rgb {
				u, v = rgbChroma(float32(sample(0, x, y)), float32(sample(1, x, y)), float32(sample(2, x, y)))
			} else { // the block's chroma sample
				sh := 0
				if f.pl[1].wide {
					sh = 2
				}
				u, v = float32(sample(1, x/2, y/2)>>sh-128), float32(sample(2, x/2, y/2)>>sh-128)
			}
			if b.SortKey == overlay.SortHue && chromaKey(overlay.SortSaturation, u, v) < hueFloor {
				return -1 // no hue: out of every range
			}
			return int32(chromaKey(b.SortKey, u, v))
		}
		if f.rgb {
			return int32(fxLuma(float32(sample(0, x, y)), float32(sample(1, x, y)), float32(sample(2, x, y))))
		}
		if f.pl[0].wide {
			return sample(0, x, y) >> 2
		}
		return sample(0, x, y)
	}
	var out [3][]float32
	for k := range 3 {
		pl := &f.pl[k]
		x0, y0, x1, y1 := r.plane(pl)
		n, m := x1-x0, y1-y0
		out[k] = make([]float32, n*m)
		// Each line: the positions (x, y) along it in order.
		lines, along := m, n
		if b.SortColumns != 0 {
			lines, along = n, m
		}
		for l := range lines {
			pos := make([][2]int, along) // rectangle coordinates
			for i := range pos {
				pos[i] = [2]int{i, l}
				if b.SortColumns != 0 {
					pos[i] = [2]int{l, i}
				}
			}
			keys := make([]int32, along)
			for i, p := range pos {
				keys[i] = key((x0+p[0])*pl.sub, (y0+p[1])*pl.sub)
			}
			src := make([]int, along) // where each position's sample comes from
			for i := range src {
				src[i] = i
			}
			in := func(i int) bool { return keys[i] >= lo && keys[i] <= hi }
			order := func(k int32) int32 { return k }
			if b.SortKey == overlay.SortHue && b.SortLo > b.SortHi {
				// A wrapped hue range, as the user means it: the hues from low up and from red
				// (0) to high, a run sorted from low's hue on round through red to high's.
				wlo, whi := int32(float32(b.SortLo*255)+0.5), int32(float32(b.SortHi*255)+0.5)
				in = func(i int) bool { return keys[i] >= wlo || keys[i] >= 0 && keys[i] <= whi }
				order = func(k int32) int32 { return (k - wlo) & 255 }
			}
			for i := 0; i < along; {
				if !in(i) {
					i++
					continue
				}
				s := i
				for i < along && in(i) {
					i++
				}
				if i-s < (int(b.SortMinRun)+pl.sub-1)/pl.sub {
					continue
				}
				slices.SortStableFunc(src[s:i], func(a, c int) int {
					if b.SortDescending != 0 {
						return int(order(keys[c]) - order(keys[a]))
					}
					return int(order(keys[a]) - order(keys[c]))
				})
			}
			for i, p := range pos {
				q := pos[src[i]]
				out[k][p[1]*n+p[0]] = float32(sample(k, x0+q[0], y0+q[1]))
			}
		}
	}
	return out
}

// TestChromaKeys holds the saturation and hue keys to what they mean on R'G'B' colours:
// grey has saturation 0 and no hue (noHue), nor has a near-grey below hueFloor; the primaries and secondaries at full strength run in hue red, yellow,
// green, cyan, blue, magenta, each at the diamond angle of its BT.709 chroma (red just above
// 0, yellow just below a quadrant, ...); a colour's saturation grows with its strength, and
// a full primary's chroma (beyond 127.5 codes for red and blue) reaches 255.
func TestChromaKeys(t *testing.T) {
	key := func(k int32, r, g, b float32) int {
		u, v := rgbChroma(r, g, b)
		return int(chromaKey(k, u, v))
	}
	for _, grey := range []float32{0, 77, 255} {
		if s, h := key(overlay.SortSaturation, grey, grey, grey), key(overlay.SortHue, grey, grey, grey); s != 0 || h != noHue {
			t.Errorf("grey %g: saturation %d, hue %d, want 0, %d", grey, s, h, noHue)
		}
	}
	colours := []struct {
		name    string
		r, g, b float32
		hue     [2]int // the range its hue lies in
	}{
		{"red", 255, 0, 0, [2]int{1, 20}}, {"yellow", 255, 255, 0, [2]int{40, 63}}, {"green", 0, 255, 0, [2]int{64, 110}},
		{"cyan", 0, 255, 255, [2]int{128, 150}}, {"blue", 0, 0, 255, [2]int{170, 191}}, {"magenta", 255, 0, 255, [2]int{192, 250}},
	}
	last := -1
	for _, c := range colours {
		h := key(overlay.SortHue, c.r, c.g, c.b)
		if h < c.hue[0] || h > c.hue[1] || h <= last {
			t.Errorf("%s: hue %d, want in %v and above the colour before's %d", c.name, h, c.hue, last)
		}
		last = h
		// Half strength over mid grey: less saturated, the same hue within a step.
		half := key(overlay.SortSaturation, 64+c.r/2, 64+c.g/2, 64+c.b/2)
		full := key(overlay.SortSaturation, c.r, c.g, c.b)
		if !(half > 0 && half < full) {
			t.Errorf("%s: saturation %d at half strength, %d at full: want 0 < half < full", c.name, half, full)
		}
		if h2 := key(overlay.SortHue, 64+c.r/2, 64+c.g/2, 64+c.b/2); h2 < h-1 || h2 > h+1 {
			t.Errorf("%s: hue %d at half strength, %d at full", c.name, h2, h)
		}
	}
	if s := key(overlay.SortSaturation, 255, 0, 0); s != 255 {
		t.Errorf("red: saturation %d, want 255", s)
	}
	// Y'CbCr: the offsets from neutral in codes.
	for _, c := range []struct {
		k    int32
		u, v float32
		want int
	}{{overlay.SortSaturation, 3, 4, 10}, {overlay.SortSaturation, -100, 100, 255}, {overlay.SortHue, 0, 50, 0},
		{overlay.SortHue, -50, 50, 32}, {overlay.SortHue, -50, 0, 64}, {overlay.SortHue, 0, -50, 128}, {overlay.SortHue, 50, 0, 192},
		// Below hueFloor (8: 4 codes from neutral) no hue; at it, one.
		{overlay.SortHue, 2, 3, noHue}, {overlay.SortHue, 0, 3.9, noHue}, {overlay.SortHue, 0, 4, 0}, {overlay.SortHue, 0, -4, 128},
		{overlay.SortHue, 0.01, 50, 254}} {
		if got := int(chromaKey(c.k, c.u, c.v)); got != c.want {
			t.Errorf("key %d of u %g, v %g: %d, want %d", c.k, c.u, c.v, got, c.want)
		}
	}
}

// TestSortHueLeavesGreys: greys and near-greys (saturation below hueFloor, whose hue is
// noise) lie in no hue range, so a hue sort leaves them where they are and sorts each run
// of colours between them on its own: the reds through a wrapped range ("0.9,0.1", magenta-
// red before red), and every hue ("0,1"). Grey's hue key was once 0, red's, so the greys
// sorted with the reds: grey, magenta-red, grey became one run.
func TestSortHueLeavesGreys(t *testing.T) {
	type rgb [3]byte
	grey, near, mred, red := rgb{128, 128, 128}, rgb{131, 128, 126}, rgb{255, 0, 150}, rgb{255, 0, 0}
	stripes := func(cs ...rgb) []rgb {
		var row []rgb
		for _, c := range cs {
			row = append(row, c, c, c, c)
		}
		return row
	}
	in := stripes(grey, mred, grey, red, mred, near, red, grey, red, near)
	for _, tc := range []struct {
		name   string
		lo, hi float32
		want   []rgb
	}{
		{"the reds, wrapped", 0.9, 0.1, stripes(grey, mred, grey, mred, red, near, red, grey, red, near)},
		{"every hue", 0, 1, stripes(grey, mred, grey, red, mred, near, red, grey, red, near)},
	} {
		for _, cols := range []int32{0, 1} {
			w, h := len(in), 3
			if cols != 0 {
				w, h = h, w
			}
			f := &composite.RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
			at := func(i, l int) []byte { // the i-th pixel of line l
				if cols != 0 {
					return f.Pix[4*(i*w+l):][:3]
				}
				return f.Pix[4*(l*w+i):][:3]
			}
			for i := 3; i < len(f.Pix); i += 4 {
				f.Pix[i] = 255
			}
			for l := range 3 {
				for i, c := range in {
					copy(at(i, l), c[:])
				}
			}
			r, err := New(overlay.BackendOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			p := overlay.Primitives{Effects: []overlay.EffectBox{{X: 0, Y: 0, W: float32(w), H: float32(h), Kind: overlay.EffectSort,
				SortKey: overlay.SortHue, SortLo: tc.lo, SortHi: tc.hi, SortColumns: cols}}}
			if err := r.Draw(f, &p); err != nil {
				t.Fatal(err)
			}
			r.Close()
			for l := range 3 {
				for i, c := range tc.want {
					if got := at(i, l); !bytes.Equal(got, c[:]) {
						t.Errorf("%s (columns %d): line %d pixel %d is %v, want %v", tc.name, cols, l, i, got, c)
					}
				}
			}
		}
	}
}
