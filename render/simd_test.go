package render

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// The AVX2 twins (simd_amd64.s) must give the Go twins' bits exactly: these tests run both
// on the same inputs, every run length and start within a tile row, and compare every float
// of the tile or row, those outside the run included (which must be left as they were).

// withAVX2 runs f with the assembly switched on or off.
func withAVX2(on bool, f func()) {
	saved := haveAVX2
	haveAVX2 = on
	defer func() { haveAVX2 = saved }()
	f()
}

func needAVX2(t testing.TB) {
	if !haveAVX2 {
		t.Skip("no AVX2 on this machine: only the Go twins run")
	}
}

// randomColor returns a premultiplied layer colour: translucent, opaque, transparent, or one
// whose 1 − A rounds (A near 1, denormal channels).
func randomColor(rng *rand.Rand) layerColor {
	a := float32(rng.Float64())
	switch rng.IntN(6) {
	case 0:
		a = 1
	case 1:
		a = 0
	case 2:
		a = math.Nextafter32(1, 0)
	case 3:
		return layerColor{1e-40, 2e-39, 0.5, 3e-39}
	}
	return layerColor{a * float32(rng.Float64()) * 255, a * float32(rng.Float64()) * 255, a * float32(rng.Float64()) * 255, a}
}

// randomCoverage returns a coverage: 0, 1, or between.
func randomCoverage(rng *rand.Rand) float32 {
	switch rng.IntN(4) {
	case 0:
		return 0
	case 1:
		return 1
	}
	return float32(rng.Float64())
}

// randomPlanes fills every plane of t with random values.
func randomPlanes(rng *rand.Rand, t *composite.Tile) {
	for p := range t.Planes {
		for i := range t.Planes[p] {
			t.Planes[p][i] = float32(rng.Float64()) * 255
		}
	}
}

// sameTiles fails at the first float of the tiles' planes whose bits differ.
func sameTiles(t *testing.T, what string, got, want *composite.Tile) {
	t.Helper()
	for p := range got.Planes {
		if i := firstDifference(got.Planes[p][:], want.Planes[p][:]); i >= 0 {
			t.Fatalf("%s: plane %d pixel %d is %g, Go twin %g", what, p, i, got.Planes[p][i], want.Planes[p][i])
		}
	}
}

// firstDifference returns the first index where a and b differ in bits, or -1.
func firstDifference(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// eachRun calls f with every run [x0, x1) of a tile row, x1 ≥ x0 (empty ones too).
func eachRun(f func(x0, x1 int)) {
	for x0 := 0; x0 <= ts; x0++ {
		for x1 := x0; x1 <= ts; x1++ {
			f(x0, x1)
		}
	}
}

// randomTile is a tile of random planes, made once: twinTiles starts from it.
var randomTile = func() *composite.Tile {
	t := &composite.Tile{}
	randomPlanes(rand.New(rand.NewPCG(1, 2)), t)
	return t
}()

// twinTiles runs blend on two copies of a random tile, with the Go twins and with AVX2, and
// compares them.
func twinTiles(t *testing.T, rng *rand.Rand, what string, blend func(t *composite.Tile)) {
	t.Helper()
	want, got := &composite.Tile{}, &composite.Tile{}
	*want = *randomTile
	for p := range want.Planes { // fresh values in the rows the tests draw in
		for _, y := range []int{5, ts - 1} {
			for x := range ts {
				want.Planes[p][y*ts+x] = float32(rng.Float64()) * 255
			}
		}
	}
	*got = *want
	withAVX2(false, func() { blend(want) })
	withAVX2(true, func() { blend(got) })
	sameTiles(t, what, got, want)
}

func TestOverSpanMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(21, 22))
	eachRun(func(x0, x1 int) {
		c := randomColor(rng)
		twinTiles(t, rng, fmt.Sprintf("span [%d, %d) colour %v", x0, x1, c), func(tl *composite.Tile) {
			overSpan(tl, 5*ts+x0, x1-x0, &c)
		})
	})
}

func TestOverColorsMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(23, 24))
	var band planarColors
	eachRun(func(x0, x1 int) {
		for x := range ts {
			c := randomColor(rng)
			for ch := range c {
				band[ch][x] = c[ch]
			}
		}
		twinTiles(t, rng, fmt.Sprintf("run [%d, %d)", x0, x1), func(tl *composite.Tile) {
			overColors(tl, ts*(ts-1)+x0, x1-x0, &band, x0)
		})
	})
}

func TestOverCoverageMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(25, 26))
	var cov rowBuf
	eachRun(func(x0, x1 int) {
		for i := range cov {
			cov[i] = randomCoverage(rng)
		}
		c := randomColor(rng)
		twinTiles(t, rng, fmt.Sprintf("run [%d, %d) colour %v", x0, x1, c), func(tl *composite.Tile) {
			overCoverage(tl, ts*(ts-1)+x0, cov[:x1-x0], &c)
		})
	})
}

func TestOverMaskMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(39, 40))
	eachRun(func(x0, x1 int) {
		m := make([]byte, ts, ts+overlay.MaskSlack)
		for i := range m {
			m[i] = byte(rng.IntN(256))
		}
		c := randomColor(rng)
		twinTiles(t, rng, fmt.Sprintf("run [%d, %d) colour %v", x0, x1, c), func(tl *composite.Tile) {
			overMask(tl, ts*(ts-1)+x0, m[x0:x1], &c)
		})
	})
}

// randomSegment returns a segment near a tile: long, short, a point, axis-aligned, or far.
func randomSegment(rng *rand.Rand) sdf.Seg {
	p := func() float32 { return float32(rng.Float64()*120 - 30) }
	ax, ay, bx, by := p(), p(), p(), p()
	switch rng.IntN(6) {
	case 0:
		bx, by = ax, ay
	case 1:
		by = ay
	case 2:
		bx = ax
	case 3:
		bx, by = ax+float32(rng.Float64()), ay+float32(rng.Float64())
	case 4:
		ax, bx = ax+3000, bx+3000.25
	}
	return sdf.NewSeg(ax, ay, bx, by)
}

// randomWidth returns a stroke width, thinner than a pixel or not.
func randomWidth(rng *rand.Rand) float32 {
	if rng.IntN(3) == 0 {
		return float32(rng.Float64())
	}
	return float32(rng.Float64() * 12)
}

func TestSegmentCoverageMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 28))
	for range 20 {
		for n := 1; n <= ts; n++ {
			s := randomSegment(rng)
			px0, py := float32(rng.IntN(100)-20)+0.5, float32(rng.IntN(100)-20)+0.5
			w := randomWidth(rng)
			var want, got rowBuf
			withAVX2(false, func() { segmentCoverage(&want, n, &s, px0, py, w) })
			withAVX2(true, func() { segmentCoverage(&got, n, &s, px0, py, w) })
			if i := firstDifference(got[:n], want[:n]); i >= 0 {
				t.Fatalf("segment %+v width %g, %d pixels from (%g, %g): pixel %d is %g, Go twin %g", s, w, n, px0, py, i, got[i], want[i])
			}
		}
	}
}

func TestNearestChordMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(29, 30))
	var d2, op rowBuf
	eachRun(func(x0, x1 int) {
		for i := range d2 {
			d2[i], op[i] = float32(rng.Float64()*40), float32(rng.Float64())
			if rng.IntN(4) == 0 {
				d2[i] = math.MaxFloat32
			}
		}
		s := randomSegment(rng)
		px0, py, opacity := float32(rng.IntN(60)+x0)+0.5, float32(rng.IntN(60))+0.5, float32(rng.Float64())
		wantD, wantOp, gotD, gotOp := d2, op, d2, op
		withAVX2(false, func() { nearestChord(wantD[x0:x1], wantOp[x0:x1], &s, px0, py, opacity) })
		withAVX2(true, func() { nearestChord(gotD[x0:x1], gotOp[x0:x1], &s, px0, py, opacity) })
		if i := firstDifference(gotD[:], wantD[:]); i >= 0 {
			t.Fatalf("run [%d, %d) segment %+v: d2[%d] is %g, Go twin %g", x0, x1, s, i, gotD[i], wantD[i])
		}
		if i := firstDifference(gotOp[:], wantOp[:]); i >= 0 {
			t.Fatalf("run [%d, %d) segment %+v: op[%d] is %g, Go twin %g", x0, x1, s, i, gotOp[i], wantOp[i])
		}
	})
}

func TestStrokeCoverageMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(31, 32))
	var d2, op rowBuf
	eachRun(func(x0, x1 int) {
		for i := range d2 {
			d2[i], op[i] = float32(rng.Float64()*50), float32(rng.Float64())
			if rng.IntN(5) == 0 {
				d2[i] = math.MaxFloat32
			}
		}
		w := randomWidth(rng)
		var want, got rowBuf
		withAVX2(false, func() { strokeCoverage(&want, d2[x0:x1], op[x0:x1], w) })
		withAVX2(true, func() { strokeCoverage(&got, d2[x0:x1], op[x0:x1], w) })
		if i := firstDifference(got[:x1-x0], want[:x1-x0]); i >= 0 {
			t.Fatalf("run [%d, %d) width %g: pixel %d is %g, Go twin %g", x0, x1, w, i, got[i], want[i])
		}
	})
}

// TestTwinsAreTheScalarRules: the Go twins are the per-pixel functions the kernels mirror.
func TestTwinsAreTheScalarRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	s := randomSegment(rng)
	var cov rowBuf
	segmentCoverageGo(&cov, ts, &s, 0.5, 7.5, 2.5)
	for x := range ts {
		want := sdf.Coverage(sdf.Stroke(sdf.Sqrt(s.Dist2(float32(x)+0.5, 7.5)), 2.5)) * sdf.ThinScale(2.5)
		if cov[x] != want {
			t.Fatalf("pixel %d: %g, want %g", x, cov[x], want)
		}
	}
	a, b := &composite.Tile{}, &composite.Tile{}
	randomPlanes(rng, a)
	*b = *a
	c := randomColor(rng)
	overCoverageGo(a, 3, cov[:10], &c)
	for j := range 10 {
		over(b, 3+j, &c, cov[j])
	}
	if !slices.Equal(a.Planes[0][:], b.Planes[0][:]) {
		t.Fatal("overCoverageGo is not over per pixel")
	}
}

// randomBox returns a box's centre, half size and radius near a tile, and a row through or
// near it: rows above the corners' centres (qy > 0) and between them (qy ≤ 0).
func randomBox(rng *rand.Rand) (cx, cy, hx, hy, r, py float32) {
	hx, hy = float32(rng.Float64()*40), float32(rng.Float64()*40)
	if rng.IntN(8) == 0 {
		hx, hy = 0.5, 0.5
	}
	r = float32(rng.Float64()) * min(hx, hy)
	if rng.IntN(4) == 0 {
		r = 0
	}
	cx, cy = float32(rng.Float64()*80-8), float32(rng.Float64()*80-8)
	py = float32(rng.IntN(100)-18) + 0.5
	return
}

func TestRoundBoxDistMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(35, 36))
	for range 40 {
		for n := 1; n <= ts; n++ {
			cx, cy, hx, hy, r, py := randomBox(rng)
			px0 := float32(rng.IntN(80)-10) + 0.5
			var want, got rowBuf
			withAVX2(false, func() { roundBoxDist(&want, n, px0, py, cx, cy, hx, hy, r) })
			withAVX2(true, func() { roundBoxDist(&got, n, px0, py, cx, cy, hx, hy, r) })
			if i := firstDifference(got[:n], want[:n]); i >= 0 {
				t.Fatalf("box (%g, %g) ± (%g, %g) r %g, row %g, %d pixels from %g: pixel %d is %g, Go twin %g",
					cx, cy, hx, hy, r, py, n, px0, i, got[i], want[i])
			}
		}
	}
}

func TestBoxShadeMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(37, 38))
	var d rowBuf
	eachRun(func(x0, x1 int) {
		for i := range d {
			d[i] = float32(rng.Float64()*8 - 4)
		}
		stroke := randomWidth(rng)
		b := boxProfile{fillColor: randomColor(rng), strokeColor: randomColor(rng), e: max(stroke, 1)/2 + 0.5,
			half: max(stroke, 1) * 0.5, thin: sdf.ThinScale(stroke)}
		if rng.IntN(3) == 0 {
			b.fillColor, b.e = layerColor{}, 0.5
		}
		twinTiles(t, rng, fmt.Sprintf("run [%d, %d) profile %+v", x0, x1, b), func(tl *composite.Tile) {
			boxShade(tl, ts*(ts-1)+x0, d[:x1-x0], &b)
		})
	})
}
