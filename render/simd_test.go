package render

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

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

// randomBoxRun returns rows [y0, y0+n) and the bounds of their three runs of columns, for
// boxRows and boxCornerRows, and a fill colour or nil.
func randomBoxRun(rng *rand.Rand) (xs []int, y0, n int, fill *layerColor) {
	xs = []int{rng.IntN(ts + 1), rng.IntN(ts + 1), rng.IntN(ts + 1), rng.IntN(ts + 1)}
	slices.Sort(xs)
	y0, n = randomRows(rng)
	if rng.IntN(4) != 0 {
		c := randomColor(rng)
		fill = &c
	}
	return xs, y0, n, fill
}

func TestBoxRowsMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(23, 24))
	var band planarColors
	for range 3000 {
		for x := range ts {
			c := randomColor(rng)
			for ch := range c {
				band[ch][x] = c[ch]
			}
		}
		xs, y0, n, fc := randomBoxRun(rng)
		twinTiles(t, rng, fmt.Sprintf("rows [%d, %d) columns %v fill %v", y0, y0+n, xs, fc), func(tl *composite.Tile) {
			boxRows(tl, y0, y0+n, xs[0], xs[1], xs[2], xs[3], &band, fc)
		})
	}
}

func TestOverMaskMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(39, 40))
	m := make([]byte, ts*ts, ts*ts+overlay.MaskSlack)
	for range 3000 {
		for i := range m {
			m[i] = byte(rng.IntN(256))
		}
		y0, rows := randomRows(rng)
		x0 := rng.IntN(ts)
		n := 1 + rng.IntN(ts-x0)
		stride := n + rng.IntN(ts-n+1)
		mo := rng.IntN(len(m) - (rows-1)*stride - n + 1) // the mask's first byte
		c := randomColor(rng)
		twinTiles(t, rng, fmt.Sprintf("rows [%d, %d) columns [%d, %d) stride %d colour %v", y0, y0+rows, x0, x0+n, stride, c), func(tl *composite.Tile) {
			overMask(tl, y0*ts+x0, m[mo:], stride, n, rows, &c)
		})
	}
}

// randomSegment returns the ends of a segment near a tile: long, short, a point,
// axis-aligned, or far.
func randomSegment(rng *rand.Rand) (ax, ay, bx, by float32) {
	p := func() float32 { return float32(rng.Float64()*120 - 30) }
	ax, ay, bx, by = p(), p(), p(), p()
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
	return
}

// randomWidth returns a stroke width, thinner than a pixel or not.
func randomWidth(rng *rand.Rand) float32 {
	if rng.IntN(3) == 0 {
		return float32(rng.Float64())
	}
	return float32(rng.Float64() * 12)
}

// randomTileAt places t at a random origin with a random size.
func randomTileAt(rng *rand.Rand, t *composite.Tile) {
	t.Reset(ts*rng.IntN(4), ts*rng.IntN(4), 1+rng.IntN(ts), 1+rng.IntN(ts))
}

// randomStrokeSegment returns a segment near the tile t.
func randomStrokeSegment(rng *rand.Rand, t *composite.Tile) (x0, y0, x1, y1 float32) {
	ax, ay, bx, by := randomSegment(rng)
	x0, y0 = ax+float32(t.X0), ay+float32(t.Y0)
	x1, y1 = x0+(bx-ax), y0+(by-ay)
	if rng.IntN(8) == 0 {
		y1 = y0 // a horizontal segment: BandX's flat case
	}
	return
}

// randomRows returns rows [row0, row0+n) within a tile.
func randomRows(rng *rand.Rand) (row0, n int) {
	row0 = rng.IntN(ts)
	return row0, 1 + rng.IntN(ts-row0)
}

func TestSegmentSpansMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(27, 28))
	tile := &composite.Tile{}
	for range 20000 {
		randomTileAt(rng, tile)
		x0, y0, x1, y1 := randomStrokeSegment(rng, tile)
		r := sdf.Reach(randomWidth(rng))
		row0, n := randomRows(rng)
		twinSpans(t, n, func() string {
			return fmt.Sprintf("tile at (%d, %d) %dx%d, segment (%g, %g)-(%g, %g) reach %g, rows from %d",
				tile.X0, tile.Y0, tile.W, tile.H, x0, y0, x1, y1, r, row0)
		}, func(sp *rowSpans) bool { segmentSpans(sp, tile, row0, n, x0, y0, x1, y1, r); return true })
	}
}

// twinSpans runs spans (which reports whether it set any) with the Go twins and with AVX2,
// and compares their first n rows.
func twinSpans(t *testing.T, n int, what func() string, spans func(*rowSpans) bool) {
	t.Helper()
	var want, got rowSpans
	var okWant, okGot bool
	withAVX2(false, func() { okWant = spans(&want) })
	withAVX2(true, func() { okGot = spans(&got) })
	if okGot != okWant {
		t.Fatalf("%s: %v, Go twin %v", what(), okGot, okWant)
	}
	for j := range n {
		if got[j] != want[j] {
			t.Fatalf("%s: row %d span %v, Go twin %v", what(), j, got[j], want[j])
		}
	}
}

func TestSlabSpansMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(53, 54))
	tile := &composite.Tile{}
	for range 20000 {
		randomTileAt(rng, tile)
		x0, y0, x1, y1 := randomStrokeSegment(rng, tile)
		if rng.IntN(8) == 0 {
			x1 = x0 // vertical: slabSpans takes the Go twin
		}
		ch := chord{x0: x0, y0: y0, x1: x1, y1: y1, turn0: float32(rng.Float64()), turn1: 1}
		r := sdf.Reach(randomWidth(rng)) + float32(rng.Float64()*20)
		row0, n := randomRows(rng)
		var rows [2][2]int // Go twin's, AVX2's: the first row with a span and one past the last
		i := 0
		what := func() string {
			return fmt.Sprintf("tile at (%d, %d) %dx%d, chord %+v reach %g, rows from %d", tile.X0, tile.Y0, tile.W, tile.H, ch, r, row0)
		}
		twinSpans(t, n, what, func(sp *rowSpans) bool {
			lo, hi, ok := slabSpans(sp, tile, row0, n, &ch, r)
			rows[i], i = [2]int{lo, hi}, i+1
			for j, s := range sp[:n] {
				if s[0] < s[1] && (j < lo || j >= hi) {
					t.Fatalf("%s: row %d has span %v, outside the rows returned [%d, %d)", what(), j, s, lo, hi)
				}
			}
			return ok
		})
		if rows[0] != rows[1] && (rows[0][0] < rows[0][1] || rows[1][0] < rows[1][1]) {
			t.Fatalf("%s: spans in rows %v, Go twin %v", what(), rows[1], rows[0])
		}
	}
}

// randomSpans returns the spans of some random segment's rows [row0, row0+n) in t, as the
// stages make them.
func randomSpans(rng *rand.Rand, t *composite.Tile, row0, n int) *rowSpans {
	var sp rowSpans
	x0, y0, x1, y1 := randomStrokeSegment(rng, t)
	segmentSpansGo(&sp, t, row0, n, x0, y0, x1, y1, sdf.Reach(randomWidth(rng)))
	return &sp
}

// randomTileSegment returns a segment near the tile t.
func randomTileSegment(rng *rand.Rand, t *composite.Tile) sdf.Seg {
	x0, y0, x1, y1 := randomStrokeSegment(rng, t)
	return sdf.NewSeg(x0, y0, x1, y1)
}

// randomGlow returns no glow, or one of up to 20 px at any opacity.
func randomGlow(rng *rand.Rand) sdf.Glow {
	if rng.IntN(3) == 0 {
		return sdf.Glow{}
	}
	return sdf.NewGlow(float32(rng.Float64()*20), float32(rng.Float64()))
}

func TestStrokeSegmentRowsMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(29, 30))
	tile := &composite.Tile{}
	for range 3000 {
		randomTileAt(rng, tile)
		row0, n := randomRows(rng)
		spans := randomSpans(rng, tile, row0, n)
		s := randomTileSegment(rng, tile)
		w, c, g := randomWidth(rng), randomColor(rng), randomGlow(rng)
		var end *layerColor // a gradient line, one time in two
		if rng.IntN(2) == 0 {
			e := randomColor(rng)
			end = &e
		}
		twinTiles(t, rng, fmt.Sprintf("segment %+v width %g glow %+v gradient to %v, rows [%d, %d)", s, w, g, end, row0, row0+n), func(tl *composite.Tile) {
			tl.Reset(tile.X0, tile.Y0, tile.W, tile.H)
			strokeSegmentRows(tl, spans, row0, n, &s, w, &c, end, &g)
		})
	}
}

// randomDistances fills d2 and op as a stroke in progress leaves them: distances, some far.
func randomDistances(rng *rand.Rand, d2, op *tileField) {
	for i := range d2 {
		d2[i], op[i] = float32(rng.Float64()*40), float32(rng.Float64())
		if rng.IntN(4) == 0 {
			d2[i] = math.MaxFloat32
		}
	}
}

func TestNearestChordRowsMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(31, 32))
	tile := &composite.Tile{}
	var wantD, wantOp, gotD, gotOp tileField
	for range 3000 {
		randomTileAt(rng, tile)
		row0, n := randomRows(rng)
		spans := randomSpans(rng, tile, row0, n)
		s := randomTileSegment(rng, tile)
		opacity := float32(rng.Float64())
		randomDistances(rng, &wantD, &wantOp)
		gotD, gotOp = wantD, wantOp
		wop, gop := &wantOp, &gotOp
		if rng.IntN(3) == 0 { // a stroke of one opacity: op is neither kept nor touched
			wop, gop = nil, nil
		}
		var wantU, gotU [ts]composite.Span // the stroke's spans so far: some empty (noSpan), some not
		for y := range wantU {
			wantU[y] = noSpan
			if rng.IntN(2) == 0 {
				x0 := int32(rng.IntN(ts))
				wantU[y] = composite.Span{X0: x0, X1: x0 + 1 + int32(rng.IntN(ts-int(x0)))}
			}
		}
		gotU = wantU
		withAVX2(false, func() { nearestChordRows(&wantD, wop, &wantU, tile, spans[:], row0, n, &s, opacity) })
		withAVX2(true, func() { nearestChordRows(&gotD, gop, &gotU, tile, spans[:], row0, n, &s, opacity) })
		if gotU != wantU {
			t.Fatalf("segment %+v rows [%d, %d): the stroke's spans %v, Go twin %v", s, row0, row0+n, gotU, wantU)
		}
		if i := firstDifference(gotD[:], wantD[:]); i >= 0 {
			t.Fatalf("segment %+v rows [%d, %d): d2[%d] is %g, Go twin %g", s, row0, row0+n, i, gotD[i], wantD[i])
		}
		if i := firstDifference(gotOp[:], wantOp[:]); i >= 0 {
			t.Fatalf("segment %+v rows [%d, %d): op[%d] is %g, Go twin %g", s, row0, row0+n, i, gotOp[i], wantOp[i])
		}
	}
}

func TestStrokeRowsMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(33, 34))
	tile := &composite.Tile{}
	var op, wantD, gotD tileField
	for range 3000 {
		randomTileAt(rng, tile)
		row0, n := randomRows(rng)
		var spans [ts]composite.Span
		for j, sp := range randomSpans(rng, tile, row0, n)[:n] {
			spans[row0+j] = composite.Span{X0: sp[0], X1: sp[1]}
		}
		randomDistances(rng, &wantD, &op)
		gotD = wantD
		w, c, g := randomWidth(rng), randomColor(rng), randomGlow(rng)
		opp, opacity := &op, float32(rng.Float64()) // per-pixel opacities, or one time in three one for all
		if rng.IntN(3) == 0 {
			opp = nil
		}
		twinTiles(t, rng, fmt.Sprintf("width %g glow %+v opacity %v/%g, rows [%d, %d)", w, g, opp != nil, opacity, row0, row0+n), func(tl *composite.Tile) {
			tl.Reset(tile.X0, tile.Y0, tile.W, tile.H)
			d2 := &wantD
			if haveAVX2 {
				d2 = &gotD
			}
			strokeRows(tl, d2, opp, &spans, row0, row0+n, w, &c, &g, opacity)
		})
		if i := firstDifference(gotD[:], wantD[:]); i >= 0 {
			t.Fatalf("width %g rows [%d, %d): d2[%d] is %g, Go twin %g", w, row0, row0+n, i, gotD[i], wantD[i])
		}
	}
}

// randomBox returns a box's centre, half size and radius near a tile, so that the tile's rows
// pass above the corners' centres (qy > 0) and between them (qy ≤ 0).
func randomBox(rng *rand.Rand) (cx, cy, hx, hy, r float32) {
	hx, hy = float32(rng.Float64()*40), float32(rng.Float64()*40)
	if rng.IntN(8) == 0 {
		hx, hy = 0.5, 0.5
	}
	r = float32(rng.Float64()) * min(hx, hy)
	if rng.IntN(4) == 0 {
		r = 0
	}
	cx, cy = float32(rng.Float64()*80-8), float32(rng.Float64()*80-8)
	return
}

// randomBoxShader returns the shader of a random box near the tile t (randomBox), with a
// random outline, glow and colours.
func randomBoxShader(rng *rand.Rand, t *composite.Tile) boxShader {
	cx, cy, hx, hy, r := randomBox(rng)
	stroke, g := randomWidth(rng), randomGlow(rng)
	return boxShader{t: t, cy: cy + float32(t.Y0), hy: hy, boxProfile: boxProfile{fillColor: randomColor(rng), strokeColor: randomColor(rng),
		cx: cx + float32(t.X0), hx: hx, r: r, e: max(stroke, 1)/2 + 0.5 + g.Radius, half: max(stroke, 1) * 0.5, thin: sdf.ThinScale(stroke), glow: g}}
}

func TestBoxCornerRowsMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(45, 46))
	tile := &composite.Tile{}
	for range 3000 {
		randomTileAt(rng, tile)
		sh := randomBoxShader(rng, tile)
		xs, y0, n, fc := randomBoxRun(rng)
		twinTiles(t, rng, fmt.Sprintf("box %+v rows [%d, %d) columns %v", sh.boxProfile, y0, y0+n, xs), func(tl *composite.Tile) {
			tl.Reset(tile.X0, tile.Y0, tile.W, tile.H)
			sh.t = tl
			boxCornerRows(&sh, y0, y0+n, xs[0], xs[1], xs[2], xs[3], fc)
		})
	}
}

func TestBoxColumnsMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(49, 50))
	tile := &composite.Tile{}
	for range 3000 {
		randomTileAt(rng, tile)
		sh := randomBoxShader(rng, tile)
		x0 := rng.IntN(ts + 1)
		x1 := x0 + rng.IntN(ts+1-x0)
		py := float32(tile.Y0+rng.IntN(ts)) + 0.5 // any row: the distance is RoundBox's
		var want, got planarColors
		for ch := range want { // columns outside [x0, x1) keep what they held
			for x := range want[ch] {
				want[ch][x] = float32(rng.Float64())
			}
		}
		got = want
		withAVX2(false, func() { sh.columns(&want, x0, x1, py) })
		withAVX2(true, func() { sh.columns(&got, x0, x1, py) })
		for ch := range want {
			if i := firstDifference(got[ch][:], want[ch][:]); i >= 0 {
				t.Fatalf("box %+v row %g columns [%d, %d): channel %d column %d is %g, Go twin %g", sh.boxProfile, py, x0, x1, ch, i, got[ch][i], want[ch][i])
			}
		}
	}
}

// TestParamOffsets pins the parameter blocks' layouts that simd_amd64.s reads by offset.
func TestParamOffsets(t *testing.T) {
	var sp strokeParams
	var pp profileParams
	var cp cornerParams
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"strokeParams.half", unsafe.Offsetof(sp.half), 28},
		{"strokeParams.color", unsafe.Offsetof(sp.color), 36},
		{"strokeParams.glow.Inv", unsafe.Offsetof(sp.glow) + unsafe.Offsetof(sp.glow.Inv), 56},
		{"strokeParams.dc", unsafe.Offsetof(sp.dc), 64},
		{"strokeParams.gradient", unsafe.Offsetof(sp.gradient), 80},
		{"profileParams.glow.Inv", unsafe.Offsetof(pp.glow) + unsafe.Offsetof(pp.glow.Inv), 28},
		{"boxProfile.glow.Inv", unsafe.Offsetof(cp.glow) + unsafe.Offsetof(cp.glow.Inv), 60},
		{"cornerParams.cy", unsafe.Offsetof(cp.cy), 68},
		{"cornerParams.left", unsafe.Offsetof(cp.left), 84},
		{"cornerParams.fill", unsafe.Offsetof(cp.fill), 96},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d, the assembly reads %d", c.name, c.got, c.want)
		}
	}
}
