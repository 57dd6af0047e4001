package render

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The effects' AVX2 twins (effects_amd64.s) must give their Go twins' bits exactly: these
// tests run both on the same random rows, every length to a few groups past 8 and several
// starts, and compare everything, the bytes past the row included (left as they were).

// fxTestPlanes are a plane of each sample layout the assembly takes: bytes, 10-bit words,
// P010's words (value << 6).
func fxTestPlanes(rng *rand.Rand, n int) []fxPlane {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	w, p := make([]byte, 2*n), make([]byte, 2*n)
	for i := range n {
		v := rng.IntN(1024)
		w[2*i], w[2*i+1] = byte(v), byte(v>>8)
		v <<= 6
		p[2*i], p[2*i+1] = byte(v), byte(v>>8)
	}
	return []fxPlane{
		{p: b, stride: n, step: 1, max: 255, w: n, h: 1},
		{p: w, stride: 2 * n, step: 2, wide: true, max: 1023, w: n, h: 1},
		{p: p, stride: 2 * n, step: 2, wide: true, shift: 6, max: 1023, w: n, h: 1},
	}
}

// fxTestValue is an effect value or coverage: 0, 1, in range, or beyond the samples' range.
func fxTestValue(rng *rand.Rand, hi float32) float32 {
	switch rng.IntN(5) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return hi * 1.5
	}
	return float32(rng.Float64()) * hi
}

func TestEffectBlendAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 1))
	const size = 64
	points := []*fxPoint{nil, {op: fxInvert, a: 251}, {op: fxThreshold, a: 125.5, b: 235, c: 16},
		{op: fxThreshold, a: float32(math.Inf(1)), b: 128, c: 128}, {op: fxTint, a: 0.6, b: 90.25}, {op: fxTint}}
	for n := range 41 {
		for _, x0 := range []int{0, 1, 7, 13} {
			for _, q := range points {
				for k, pl := range fxTestPlanes(rng, size) {
					e, cov := make([]float32, n), make([]float32, n)
					for i := range n {
						e[i], cov[i] = fxTestValue(rng, pl.max), fxTestValue(rng, 1)
						if cov[i] > 1 {
							cov[i] = float32(rng.Float64())
						}
					}
					got, want := pl, pl
					got.p, want.p = slices.Clone(pl.p), slices.Clone(pl.p)
					withAVX2(true, func() { got.blendRow(e, q, cov, x0, 0) })
					withAVX2(false, func() { want.blendRow(e, q, cov, x0, 0) })
					if !bytes.Equal(got.p, want.p) {
						t.Fatalf("n %d, start %d, point %+v, plane %d: the AVX2 blend differs from the Go blend", n, x0, q, k)
					}
				}
			}
		}
	}
}

func TestEffectSlideAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 2))
	const size = 64
	for n := range 41 {
		for _, x0 := range []int{0, 3, 16} {
			for _, rows := range [][2]int{{0, 1}, {1, -1}, {1, 1}, {-1, 0}} {
				for k := range 3 {
					// Two rows of each layout: a plane of the first test plane's layout,
					// two rows high.
					a, b := fxTestPlanes(rng, size)[k], fxTestPlanes(rng, size)[k]
					pl := a
					pl.p, pl.h = append(slices.Clone(a.p), b.p...), 2
					col := make([]int32, n)
					for i := range col {
						col[i] = rng.Int32N(1<<20) - 1<<19
					}
					got, want := slices.Clone(col), slices.Clone(col)
					buf := make([]int32, n)
					withAVX2(true, func() { pl.slide(got, x0, rows[0], rows[1], buf) })
					withAVX2(false, func() { pl.slide(want, x0, rows[0], rows[1], buf) })
					if !slices.Equal(got, want) {
						t.Fatalf("n %d, start %d, rows %v, plane %d: the AVX2 column sums differ from Go's", n, x0, rows, k)
					}
				}
			}
		}
	}
}

func TestEffectRowsAVX2MatchGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 3))
	for n := range 41 {
		col := make([]int32, n)
		for i := range col {
			col[i] = rng.Int32() // sums that wrap, as int32 arithmetic does
		}
		p0 := rng.Int32()
		gotP, wantP := make([]int32, n+1), make([]int32, n+1)
		gotP[0], wantP[0] = p0, p0
		withAVX2(true, func() { prefix(gotP, col) })
		withAVX2(false, func() { prefix(wantP, col) })
		if !slices.Equal(gotP, wantP) {
			t.Fatalf("n %d: the AVX2 prefix sums differ from Go's", n)
		}

		hi, lo, recip := make([]int32, n), make([]int32, n), make([]float32, n)
		top, bot := make([]float32, n), make([]float32, n)
		for i := range n {
			hi[i], lo[i] = rng.Int32N(1<<24), rng.Int32N(1<<24)
			recip[i] = 1 / float32(1+rng.IntN(40000))
			top[i], bot[i] = fxTestValue(rng, 1023), fxTestValue(rng, 1023)
		}
		gotO, wantO := make([]float32, n+3), make([]float32, n+3)
		withAVX2(true, func() { boxOut(gotO[:n], hi, lo, recip) })
		withAVX2(false, func() { boxOut(wantO[:n], hi, lo, recip) })
		if !slices.Equal(gotO, wantO) {
			t.Fatalf("n %d: the AVX2 window means differ from Go's", n)
		}
		fy := float32(rng.Float64())
		withAVX2(true, func() { lerpRow(gotO[:n], top, bot, fy) })
		withAVX2(false, func() { lerpRow(wantO[:n], top, bot, fy) })
		if !slices.Equal(gotO, wantO) {
			t.Fatalf("n %d: the AVX2 interpolation differs from Go's", n)
		}

		// Coverage rows: a row's columns capped, and chroma means of two rows (or one).
		c0, c1 := make([]float32, n), make([]float32, n)
		for i := range n {
			c0[i], c1[i] = min(fxTestValue(rng, 1), 1), min(fxTestValue(rng, 1), 1)
		}
		capY := min(fxTestValue(rng, 1), 1)
		withAVX2(true, func() { capRow(gotO[:n], c0, capY) })
		withAVX2(false, func() { capRow(wantO[:n], c0, capY) })
		if !slices.Equal(gotO, wantO) {
			t.Fatalf("n %d: the AVX2 capped coverage differs from Go's", n)
		}
		for rows := 1; rows <= 2; rows++ {
			nc := (n + 1) / 2
			withAVX2(true, func() { chromaCoverage(gotO[:nc], c0, c1, rows) })
			withAVX2(false, func() { chromaCoverage(wantO[:nc], c0, c1, rows) })
			if !slices.Equal(gotO, wantO) {
				t.Fatalf("n %d, %d rows: the AVX2 chroma coverage differs from Go's", n, rows)
			}
		}
	}
}

func TestEffectZoomAcrossAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 4))
	for n := range 41 {
		for _, zoom := range []float64{1, 1.3, 2, 7.5} {
			var z zoomCols
			z.i0, z.i1, z.w = make([]int32, n), make([]int32, n), make([]float32, n)
			for x := range n {
				s := float64(x)/zoom + 0.25
				z.i0[x], z.i1[x], z.w[x] = int32(s), int32(s)+1, float32(rng.Float64())
			}
			z.plan()
			if !z.fast {
				t.Fatalf("n %d, zoom %g: the plan is not fast", n, zoom)
			}
			row := make([]float32, n+10)
			for i := range row {
				row[i] = float32(rng.IntN(1024))
			}
			got, want := make([]float32, n+2), make([]float32, n+2)
			withAVX2(true, func() { z.across(got[:n], row) })
			withAVX2(false, func() { z.across(want[:n], row) })
			if !slices.Equal(got, want) {
				t.Fatalf("n %d, zoom %g: the AVX2 interpolation across differs from Go's", n, zoom)
			}
		}
	}
}

func TestEffectWidenAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 5))
	for n := range 41 {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.IntN(256))
		}
		got, want := make([]float32, n+3), make([]float32, n+3)
		withAVX2(true, func() { widen8(got[:n], src) })
		widen8Go(want[:n], src)
		if !slices.Equal(got, want) {
			t.Fatalf("n %d: the AVX2 samples %v differ from Go's %v", n, got, want)
		}
	}
}

// TestSortEvenKeysAVX2MatchGo: every other key of a row (the chroma's keys, evenBytes),
// rows of every length to a few groups past 64, as many keys as the row holds and fewer.
func TestSortEvenKeysAVX2MatchGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 10))
	for n := 1; n < 300; n++ {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.IntN(256))
		}
		for _, m := range []int{(n + 1) / 2, n / 3} {
			got, want := make([]byte, m+3), make([]byte, m+3)
			withAVX2(true, func() { evenBytes(got[:m], src) })
			evenBytesGo(want[:m], src)
			if !bytes.Equal(got, want) {
				t.Fatalf("n %d, m %d: the AVX2 keys %v differ from Go's %v", n, m, got, want)
			}
		}
	}
}

// TestSortTransposeAVX2MatchesGo: a rectangle's keys a column a row (transposeBytes, for
// sorting along columns), of every width to a few groups past 32 and heights to past 16.
func TestSortTransposeAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 11))
	for n := 1; n < 100; n++ {
		for _, m := range []int{1, 7, 8, 9, 16, 23} {
			src := make([]byte, n*m)
			for i := range src {
				src[i] = byte(rng.IntN(256))
			}
			got, want := make([]byte, n*m), make([]byte, n*m)
			withAVX2(true, func() { transposeBytes(got, src, n, m) })
			transposeBytesGo(want, src, n, m, 0, 0)
			if !bytes.Equal(got, want) {
				t.Fatalf("%d × %d: the AVX2 transpose %v differs from Go's %v", n, m, got, want)
			}
		}
	}
}

// TestSortKeysAVX2MatchGo: the masks of a line's keys (sortMasks) and their least and
// greatest (keyRange).
func TestSortKeysAVX2MatchGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 6))
	for n := range 200 {
		keys := make([]byte, n)
		spread := 1 + rng.IntN(256)
		for i := range keys {
			keys[i] = byte(rng.IntN(spread))
		}
		lo := int32(rng.IntN(256))
		hi := lo + int32(rng.IntN(256-int(lo)))
		nw := (n + 63) / 64
		gotIn, gotDown, wantIn, wantDown := make([]uint64, nw), make([]uint64, nw), make([]uint64, nw), make([]uint64, nw)
		withAVX2(true, func() { sortMasks(gotIn, gotDown, keys, lo, hi) })
		withAVX2(false, func() { sortMasks(wantIn, wantDown, keys, lo, hi) })
		if !slices.Equal(gotIn, wantIn) || !slices.Equal(gotDown, wantDown) {
			t.Fatalf("n %d, keys in %d..%d: the AVX2 masks %x, %x differ from Go's %x, %x", n, lo, hi, gotIn, gotDown, wantIn, wantDown)
		}
		if n == 0 {
			continue
		}
		// And the keys' least and greatest.
		var gotLo, gotHi int32
		withAVX2(true, func() { gotLo, gotHi = keyRange(keys) })
		wantLo, wantHi := keyRangeGo(keys, int32(keys[0]), int32(keys[0]))
		if gotLo != wantLo || gotHi != wantHi {
			t.Fatalf("n %d: the AVX2 key range %d..%d, Go's %d..%d", n, gotLo, gotHi, wantLo, wantHi)
		}
	}
}

// TestSortLayOutAVX2MatchesGo: counted keys laid out (layOut), counts of 0 to a few
// stores, the values past the keys scratch.
func TestSortLayOutAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 7))
	for values := 1; values < 60; values++ {
		c := make([]int32, values)
		n := 0
		for v := range c {
			c[v] = int32(rng.IntN(1 + rng.IntN(20)))
			n += int(c[v])
		}
		least := int32(rng.IntN(257 - values))
		got, want := make([]float32, n+layOutPast), make([]float32, n)
		withAVX2(true, func() { layOut(got, c, least) })
		layOutGo(want, c, least)
		if !slices.Equal(got[:n], want) {
			t.Fatalf("counts %v from %d: the AVX2 layout %v differs from Go's %v", c, least, got[:n], want)
		}
	}
}

// TestSortPlacesAVX2MatchesGo: each key's place in its run sorted stably (runPlaces), every
// length up to rankMax, keys of a few codes (many equal) to all 256, the run at its slice's
// end (read from a copy) and with keys past it (read, not counted).
func TestSortPlacesAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 8))
	var wk fxWork
	wk.places = make([]int32, rankMax)
	for n := 1; n <= rankMax; n++ {
		for _, spread := range []int{1, 3, 40, 256} {
			line := make([]byte, n+16)
			for i := range line {
				line[i] = byte(rng.IntN(spread))
			}
			for _, keys := range [][]byte{line[:n:n], line[:n]} {
				want := runPlacesGo(&wk, keys, make([]int32, n))
				var got []int32
				withAVX2(true, func() { got = runPlaces(&wk, keys) })
				if !slices.Equal(got, want) {
					t.Fatalf("keys %v: the AVX2 places %v differ from Go's %v", keys, got, want)
				}
			}
		}
	}
}

// TestSortBytesAVX2MatchesGo: 8-bit luma runs of every length up to netMax sorted in
// registers (sortBytes) against their Go twin, the counting that sorts a longer run
// (histogram, layOutGo); keys of a few codes to all 256, 255 among them (the lanes past the
// keys hold 255 too), the run at its slice's end (read from a copy) and with keys past it.
func TestSortBytesAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 9))
	var wk fxWork
	for n := 1; n <= netMax; n++ {
		for _, spread := range []int{1, 3, 40, 256} {
			line := make([]byte, n+netMax)
			for i := range line {
				line[i] = byte(255 - rng.IntN(spread))
			}
			for _, keys := range [][]byte{line[:n:n], line[:n]} {
				c, least := histogram(&wk, keys)
				want := make([]float32, n)
				layOutGo(want, c, least)
				var got []byte
				withAVX2(true, func() { got = sortBytes(&wk, keys) })
				if len(got) != n {
					t.Fatalf("keys %v: %d sorted", keys, len(got))
				}
				for i, v := range got {
					if float32(v) != want[i] {
						t.Fatalf("keys %v: the AVX2 sort %v differs from Go's %v", keys, got, want)
					}
				}
			}
		}
	}
}

// TestGaussRowsAVX2MatchGo holds the Gaussian's AVX2 row loops to their Go twins: box sums
// from wrapping int32 prefix sums (and widened), int64 rows moved down, and the last pass's
// values, over the whole range of the sums (up to 2⁵², the float64 trick's bound).
func TestGaussRowsAVX2MatchGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(5, 9))
	for n := range 41 {
		line := make([]int32, 64*n) // 8 lines of 8n
		for i := range line {
			line[i] = rng.Int32()
		}
		got, want := slices.Clone(line), slices.Clone(line)
		var carry [24]int32
		withAVX2(true, func() { prefix3(got, &carry) })
		withAVX2(false, func() { prefix3(want, &carry) })
		if !slices.Equal(got, want) {
			t.Fatalf("n %d: the AVX2 prefix sums differ from Go's", n)
		}
		w := [3]int{1 + rng.IntN(20), 1 + rng.IntN(20), 1 + rng.IntN(20)}
		taps := max(0, len(line)/8-w[0]-w[1]-w[2])
		got64, want64 := make([]int64, taps), make([]int64, taps)
		got32, want32 := make([]int32, taps), make([]int32, taps)
		if taps > 0 {
			last := got[len(line)/8*7:]
			withAVX2(true, func() { boxTaps(got64, last, w[0], w[1], w[2]) })
			withAVX2(false, func() { boxTaps(want64, last, w[0], w[1], w[2]) })
			withAVX2(true, func() { boxTaps(got32, last, w[0], w[1], w[2]) })
			withAVX2(false, func() { boxTaps(want32, last, w[0], w[1], w[2]) })
		}
		if !slices.Equal(got64, want64) || !slices.Equal(got32, want32) {
			t.Fatalf("n %d: the AVX2 box sums differ from Go's", n)
		}
		gaussRowsMatch[int64](t, n, rng, 1<<50, 989901)
		gaussRowsMatch[int32](t, n, rng, 1<<29, 1449)
	}
}

// gaussRowsMatch holds slideRows and gaussOut on n sums of type T to their Go twins: sums
// moved down a row below 4·lim, weights' totals up to wmax.
func gaussRowsMatch[T gaussSum](t *testing.T, n int, rng *rand.Rand, lim int64, wmax int) {
	got, want := make([]T, n), make([]T, n)
	prev, add, sub := make([]T, n), make([]T, n), make([]T, n)
	dx := make([]float64, n)
	for i := range n {
		sub[i] = T(rng.Int64N(lim))
		prev[i], add[i] = sub[i]+T(rng.Int64N(2*lim)), T(rng.Int64N(2*lim))
		dx[i] = float64(1 + rng.IntN(wmax))
	}
	withAVX2(true, func() { slideRows(got, prev, add, sub) })
	withAVX2(false, func() { slideRows(want, prev, add, sub) })
	if !slices.Equal(got, want) {
		t.Fatalf("n %d, %T: the AVX2 rows moved down differ from Go's", n, got)
	}
	dy := float64(1 + rng.IntN(wmax))
	gotCur, wantCur := slices.Clone(prev), slices.Clone(prev)
	gotO, wantO := make([]float32, n), make([]float32, n)
	withAVX2(true, func() { gaussOut(gotO, gotCur, add, sub, dx, dy) })
	withAVX2(false, func() { gaussOut(wantO, wantCur, add, sub, dx, dy) })
	if !slices.Equal(gotCur, wantCur) || !slices.Equal(gotO, wantO) {
		t.Fatalf("n %d, %T: the AVX2 Gaussian values differ from Go's", n, got)
	}
}
