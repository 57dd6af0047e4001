package composite

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// ycc is a Y'CbCr encoding in float64, written from the standard's definitions (not from
// Space), for the reference: Y' = off + sy·(Kr·R' + Kg·G' + Kb·B'), Cb = 128 + sc·Pb,
// Cr = 128 + sc·Pr.
type ycc struct{ kr, kb, sy, sc, off, co float64 }

func yccOf(m Matrix, r Range) ycc { return yccOfDepth(m, r, 8) }

// yccOfDepth is yccOf at 8 or 10 bits (BT.2100's scaling of limited range's 16, 219, 224
// and 128; full range spans 0..2^depth − 1).
func yccOfDepth(m Matrix, r Range, depth int) ycc {
	k := map[Matrix][2]float64{BT709: {0.2126, 0.0722}, BT601: {0.299, 0.114}, BT2020: {0.2627, 0.0593}}[m]
	sc := float64(int(1) << (depth - 8))
	if r == Full {
		top := float64(int(1)<<depth - 1)
		return ycc{k[0], k[1], top, top, 0, 128 * sc}
	}
	return ycc{k[0], k[1], 219 * sc, 224 * sc, 16 * sc, 128 * sc}
}

func (e ycc) encode(c [3]float64) [3]float64 {
	y := e.kr*c[0] + (1-e.kr-e.kb)*c[1] + e.kb*c[2]
	return [3]float64{e.off + e.sy*y, e.co + e.sc*(c[2]-y)/(2*(1-e.kb)), e.co + e.sc*(c[0]-y)/(2*(1-e.kr))}
}

func (e ycc) decode(s [3]float64) [3]float64 {
	y := (s[0] - e.off) / e.sy
	pb, pr := (s[1]-e.co)/e.sc, (s[2]-e.co)/e.sc
	r, b := y+2*(1-e.kr)*pr, y+2*(1-e.kb)*pb
	return [3]float64{r, (y - e.kr*r - e.kb*b) / (1 - e.kr - e.kb), b}
}

// blendRef is the blend of premultiplied layer colour l (alpha a) onto frame colour f, in
// R'G'B', per channel: add, screen and multiply exactly (per channel), or screen and
// multiply as trackink does them (one alpha, the layer's luma with the given weights);
// lighten and darken, the layer over the frame where its luma is above (below) the frame's.
func blendRef(mode string, f, l [3]float64, a float64, kr, kb float64) [3]float64 {
	var out [3]float64
	lumaOf := func(c [3]float64) float64 { return kr*c[0] + (1-kr-kb)*c[1] + kb*c[2] }
	luma := lumaOf(l)
	for i := range out {
		switch mode {
		case "multiply":
			out[i] = f[i] * (1 - a + l[i])
		case "multiply-luma":
			out[i] = f[i] * (1 - a + luma)
		case "lighten", "darken": // faded in over pickRamp of the lumas' difference
			d := luma/a - lumaOf(f)
			if mode == "darken" {
				d = -d
			}
			s := min(max(d/pickRamp, 0), 1)
			out[i] = s*l[i] + (1-a*s)*f[i]
		case "add":
			out[i] = f[i] + l[i]
		case "screen": // 1 − (1 − f)(1 − l)
			out[i] = 1 - (1-f[i])*(1-l[i])
		case "screen-luma":
			out[i] = l[i] + (1-luma)*f[i]
		}
	}
	return out
}

// TestBlendMatchesFloatReference composites random translucent colours onto random frame
// colours, in each mode, in Y'CbCr frames of each matrix and range and in RGBA, and holds
// every sample to the blend done in float64 R'G'B' (frame decoded from its samples, the
// result encoded again) within one code value: the frame is 16 × 2 pixels, one colour per
// 2×2 block (so that the 4:2:0 chroma blend sees one colour), with the Go twins and, where
// there is AVX2, the vectorised composite. Colours stay clear of saturation, where the clamp
// in Y'CbCr and the one in R'G'B' differ (the package comment's limit). Screen and multiply
// are exact for grey layers and hold to their one-alpha formulas for coloured ones; lighten
// and darken to their fade near ties of the lumas.
func TestBlendMatchesFloatReference(t *testing.T) {
	paths := []bool{false}
	if haveAVX2 {
		paths = append(paths, true)
	}
	for _, simd := range paths {
		withAVX2(simd, func() { testBlendMatchesFloatReference(t, simd) })
	}
}

func testBlendMatchesFloatReference(t *testing.T, simd bool) {
	rng := rand.New(rand.NewPCG(26, 2))
	type block struct {
		f, l [3]float64
		a    float64
	}
	for _, sp := range []struct {
		name string
		m    Matrix
		r    Range
		rgba bool
	}{{"bt709 limited", BT709, Limited, false}, {"bt601 full", BT601, Full, false}, {"bt2020 limited", BT2020, Limited, false}, {"rgba", BT709, Full, true}} {
		for _, mode := range []struct {
			blend Blend
			ref   string
			grey  bool
		}{{BlendAdd, "add", false}, {BlendScreen, "screen", true}, {BlendScreen, "screen-luma", false},
			{BlendMultiply, "multiply", true}, {BlendMultiply, "multiply-luma", false}, {BlendLighten, "lighten", false}, {BlendDarken, "darken", false}} {
			const w, h = 16, 2
			var blocks [w / 2]block
			tile := &Tile{W: w, H: h}
			e := yccOf(sp.m, sp.r)
			var space Space
			if sp.rgba {
				space = RGBASpace()
			} else {
				space = YCbCrSpace(sp.m, sp.r)
			}
			yuv := &YUV420P{Y: make([]byte, w*h), U: make([]byte, w/2), V: make([]byte, w/2), StrideY: w, StrideU: w / 2, StrideV: w / 2,
				W: w, H: h, Matrix: sp.m, Range: sp.r}
			rgba := &RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
			for b := range blocks {
				bl := &blocks[b]
				bl.a = 0.2 + 0.8*rng.Float64()
				grey := rng.Float64()
				for i := range 3 {
					bl.f[i] = 0.15 + 0.35*rng.Float64()
					bl.l[i] = (0.05 + 0.4*rng.Float64()) * bl.a
					if mode.grey {
						bl.l[i] = (0.05 + 0.4*grey) * bl.a
					}
				}
				// The frame's samples, and the frame colour they decode to.
				if sp.rgba {
					for i := range 3 {
						v := byte(math.Round(bl.f[i] * 255))
						bl.f[i] = float64(v) / 255
						for _, x := range []int{2 * b, 2*b + 1} {
							for y := range h {
								rgba.Pix[y*rgba.Stride+4*x+i] = v
							}
						}
					}
				} else {
					s := e.encode(bl.f)
					q := [3]float64{math.Round(s[0]), math.Round(s[1]), math.Round(s[2])}
					bl.f = e.decode(q)
					for y := range h {
						yuv.Y[y*w+2*b], yuv.Y[y*w+2*b+1] = byte(q[0]), byte(q[0])
					}
					yuv.U[b], yuv.V[b] = byte(q[1]), byte(q[2])
				}
				c := space.Color(float32(bl.l[0]), float32(bl.l[1]), float32(bl.l[2]), float32(bl.a))
				for _, x := range []int{2 * b, 2*b + 1} {
					for y := range h {
						tile.SetPixel(x, y, c)
					}
				}
			}
			for y := range h {
				tile.Touch(y, 0, w)
			}
			tile.Blend(&space, mode.blend)
			kr, kb := e.kr, e.kb
			if sp.rgba {
				kr, kb = 0.2126, 0.0722
				rgba.Over(tile)
			} else {
				yuv.Over(tile)
			}
			for b, bl := range blocks {
				want := blendRef(mode.ref, bl.f, bl.l, bl.a, kr, kb)
				var got, ref [3]float64
				if sp.rgba {
					for i := range 3 {
						got[i], ref[i] = float64(rgba.Pix[4*2*b+i]), want[i]*255
					}
				} else {
					got = [3]float64{float64(yuv.Y[2*b]), float64(yuv.U[b]), float64(yuv.V[b])}
					ref = e.encode(want)
				}
				for i := range 3 {
					if math.Abs(got[i]-ref[i]) > 1 {
						t.Errorf("avx2=%v, %s %s, block %d (frame %.3f, layer %.3f at alpha %.2f): channel %d is %v, want %.2f",
							simd, sp.name, mode.ref, b, bl.f, bl.l, bl.a, i, got[i], ref[i])
					}
				}
			}
		}
	}
}

// TestBlendOverIsUnchanged: Tile.applyBlend with over, and any mode on pixels of alpha 0, leaves
// the layer as it is; add, screen and multiply keep a covered pixel's alpha above 0 so the composite
// does not skip it, even a black one's. (applyBlend screens R'G'B' layers only: a Y'CbCr
// screen is the 4:2:0 composite's.)
func TestBlendOverIsUnchanged(t *testing.T) {
	ycc, rgb := YCbCrSpace(BT709, Limited), RGBASpace()
	for _, tc := range []struct {
		b  Blend
		sp *Space
	}{{BlendOver, &ycc}, {BlendAdd, &ycc}, {BlendOver, &rgb}, {BlendAdd, &rgb}, {BlendScreen, &rgb}, {BlendMultiply, &ycc}, {BlendMultiply, &rgb}} {
		for _, c := range [][Channels]float32{tc.sp.Color(0.2, 0.3, 0.1, 0.5), tc.sp.Color(0, 0, 0, 0.5)} {
			var tile Tile
			tile.W, tile.H = 2, 1
			tile.SetPixel(1, 0, c)
			tile.Touch(0, 0, 2)
			tile.Blend(tc.sp, tc.b)
			tile.applyBlend()
			if got := tile.Pixel(0, 0); got != ([Channels]float32{}) {
				t.Errorf("%s changed an empty pixel: %v", tc.b, got)
			}
			got := tile.Pixel(1, 0)
			if tc.b == BlendOver && got != c || tc.b != BlendOver && !(got[Alpha] > 0) {
				t.Errorf("%s: %v from %v", tc.b, got, c)
			}
		}
	}
	if _, err := ParseBlend("difference"); err == nil || err.Error() != `blend "difference": want over, add, screen, multiply, lighten, darken` {
		t.Errorf("blend difference: %v", err)
	}
}

// BenchmarkTileBlend times applyBlend's pass on a full tile: add on a Y'CbCr layer, and add
// and screen on an R'G'B' one (a Y'CbCr screen is made by the 4:2:0 composite, in no pass).
func BenchmarkTileBlend(b *testing.B) {
	ycc, rgb := YCbCrSpace(BT709, Limited), RGBASpace()
	var t Tile
	t.W, t.H = TileSize, TileSize
	for _, tc := range []struct {
		name string
		m    Blend
		sp   *Space
	}{{"add", BlendAdd, &ycc}, {"add-rgba", BlendAdd, &rgb}, {"screen-rgba", BlendScreen, &rgb}} {
		sp, m := tc.sp, tc.m
		c := sp.Color(0.2, 0.3, 0.1, 0.5)
		b.Run(tc.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				for y := range TileSize {
					for x := range TileSize {
						t.SetPixel(x, y, c)
					}
					t.Touch(y, 0, TileSize)
				}
				t.Blend(sp, m)
				b.StartTimer()
				t.applyBlend()
			}
		})
	}
}

// TestBlendRowAVX2MatchesGo: Tile.applyBlend gives the same bits with the AVX2 rows as with the
// Go rows, for add and multiply (which it makes on Y'CbCr layers), and Tile.pick the same
// for lighten and darken over an 8-bit frame (its right edge inside the tile too, where the
// rows that would read past it take the Go loop), on random layers (a quarter of the
// pixels uncovered, some colours far off) with random spans, short and long, in limited and
// full range, the frame's luma near the layer's in half the pixels (the fade).
func TestBlendRowAVX2MatchesGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(26, 3))
	for _, mode := range []Blend{BlendAdd, BlendMultiply, BlendLighten, BlendDarken} {
		for _, sp := range []Space{YCbCrSpace(BT709, Limited), YCbCrSpaceDepth(BT2020, Full, 10), YCbCrSpace(BT601, Full)} {
			if mode.picks() && sp.M[1][3] != 128 {
				continue // pick's rows are the assembly's on 8-bit frames only
			}
			for n := range 20 {
				var a, g Tile
				a.W, a.H = TileSize, TileSize
				if n%4 == 3 {
					a.W = 37
				}
				luma := make([]byte, TileSize*TileSize)
				for y := range TileSize {
					// Short spans too: a stroke's rows are a few pixels wide.
					x0 := rng.IntN(a.W)
					n := a.W - x0
					if rng.IntN(2) == 0 {
						n = min(n, 8)
					}
					x1 := x0 + rng.IntN(n+1)
					a.Touch(y, x0, x1)
					for x := range TileSize {
						luma[y*TileSize+x] = byte(rng.IntN(256))
					}
					for x := x0; x < x1; x++ { // a row is zero outside its span
						if rng.IntN(4) == 0 {
							continue
						}
						al := rng.Float32()
						c := sp.Color(rng.Float32()*al, rng.Float32()*al, rng.Float32()*al, al)
						if mode.picks() && rng.IntN(2) == 0 && al > 0 {
							luma[y*TileSize+x] = byte(min(max(c[0]/al+float32(rng.IntN(21)-10), 0), 255))
						} else {
							c[0] += (rng.Float32() - 0.5) * 40
						}
						a.SetPixel(x, y, c)
					}
				}
				a.Blend(&sp, mode)
				g = a
				f := frameLuma{pix: luma, stride: TileSize, sf: bits8}
				apply := func(t *Tile) {
					if mode.picks() {
						t.pick(&f)
					} else {
						t.applyBlend()
					}
				}
				apply(&a)
				withAVX2(false, func() { apply(&g) })
				for c := range a.Planes {
					for i := range a.Planes[c] {
						if math.Float32bits(a.Planes[c][i]) != math.Float32bits(g.Planes[c][i]) {
							t.Fatalf("%s, width %d: plane %d pixel %d: %v with AVX2, %v in Go", mode, a.W, c, i, a.Planes[c][i], g.Planes[c][i])
						}
					}
				}
			}
		}
	}
}

// TestBlendModesByHand composites hand-worked pixels in multiply, lighten and darken onto
// an RGBA frame and 8- and 10-bit Y'CbCr 4:2:0 frames (with the Go twins and, where there
// is AVX2, the vectorised composite) and holds each to the blend worked in R'G'B', within one
// code value: multiply of a grey layer is R'G'B”s per-channel multiply, frame·(1 − α + α·L),
// exactly (white keeps the frame, black at full alpha makes it black); lighten and darken
// take the layer where its luma is above (below) the frame's, over the frame at its alpha,
// and keep the frame where not, whatever the layer's colour.
func TestBlendModesByHand(t *testing.T) {
	paths := []bool{false}
	if haveAVX2 {
		paths = append(paths, true)
	}
	grey := func(v float64) [3]float64 { return [3]float64{v, v, v} }
	over := func(f, l [3]float64, a float64) [3]float64 {
		return [3]float64{a*l[0] + (1-a)*f[0], a*l[1] + (1-a)*f[1], a*l[2] + (1-a)*f[2]}
	}
	cases := []struct {
		name  string
		mode  Blend
		frame [3]float64
		layer [3]float64 // unpremultiplied
		a     float64
		want  [3]float64
	}{
		// 0.4·(1 − 0.8 + 0.8·0.5) = 0.4·0.6
		{"multiply grey", BlendMultiply, [3]float64{0.4, 0.6, 0.2}, grey(0.5), 0.8, [3]float64{0.24, 0.36, 0.12}},
		{"multiply black", BlendMultiply, [3]float64{0.4, 0.6, 0.2}, grey(0), 1, grey(0)},
		{"multiply white", BlendMultiply, [3]float64{0.4, 0.6, 0.2}, grey(1), 1, [3]float64{0.4, 0.6, 0.2}},
		{"multiply translucent black", BlendMultiply, [3]float64{0.8, 0.3, 0.5}, grey(0), 0.25, [3]float64{0.6, 0.225, 0.375}},
		{"lighten on dark", BlendLighten, grey(0.2), grey(0.7), 1, grey(0.7)},
		{"lighten on bright", BlendLighten, [3]float64{0.9, 0.8, 0.9}, grey(0.7), 1, [3]float64{0.9, 0.8, 0.9}},
		// Red's luma (BT.709 0.2126, BT.2020 0.2627) is above 0.1 and below 0.4.
		{"lighten red on dark", BlendLighten, grey(0.1), [3]float64{1, 0, 0}, 0.5, over(grey(0.1), [3]float64{1, 0, 0}, 0.5)},
		{"lighten red on grey", BlendLighten, grey(0.4), [3]float64{1, 0, 0}, 0.5, grey(0.4)},
		// Near a tie the layer fades in: 0.03 of difference is 0.48 of pickRamp.
		{"lighten near a tie", BlendLighten, grey(0.47), grey(0.5), 1, grey(0.47 + 0.48*0.03)},
		{"darken near a tie", BlendDarken, grey(0.5), grey(0.47), 1, grey(0.5 - 0.48*0.03)},
		{"darken on dark", BlendDarken, grey(0.2), grey(0.7), 1, grey(0.2)},
		{"darken on bright", BlendDarken, [3]float64{0.9, 0.8, 0.9}, grey(0.3), 0.6, over([3]float64{0.9, 0.8, 0.9}, grey(0.3), 0.6)},
		{"darken red on grey", BlendDarken, grey(0.4), [3]float64{1, 0, 0}, 0.5, over(grey(0.4), [3]float64{1, 0, 0}, 0.5)},
		{"darken red on dark", BlendDarken, grey(0.1), [3]float64{1, 0, 0}, 0.5, grey(0.1)},
	}
	for _, simd := range paths {
		withAVX2(simd, func() {
			for _, f := range []string{"rgba", "yuv420p bt709 limited", "yuv420p10 bt2020 limited", "p010 bt709 full"} {
				for _, c := range cases {
					got, want, tol := blendByHand(f, c.mode, c.frame, c.layer, c.a, c.want)
					for i := range 3 {
						if math.Abs(got[i]-want[i]) > tol {
							t.Errorf("avx2=%v %s %s: channel %d is %v, want %.2f (all %v, want %.2f)", simd, f, c.name, i, got[i], want[i], got, want)
						}
					}
				}
			}
		})
	}
}

// blendByHand composites layer colour l (unpremultiplied) at alpha a onto a 16 × 2 frame of
// format f, every pixel frame colour fr, in mode, and returns the top left pixel's samples
// (Y', Cb, Cr, or R', G', B'), those of want, and the tolerance: one code value.
func blendByHand(f string, mode Blend, fr, l [3]float64, a float64, want [3]float64) (got, ref [3]float64, tol float64) {
	const w, h = 16, 2
	tile := &Tile{W: w, H: h}
	var sp Space
	var surf HostSurface
	var read func() [3]float64
	switch f {
	case "rgba":
		sp = RGBASpace()
		pix := make([]byte, 4*w*h)
		for i := range w * h {
			for k := range 3 {
				pix[4*i+k] = byte(math.Round(fr[k] * 255))
			}
		}
		surf = &RGBA{Pix: pix, Stride: 4 * w, W: w, H: h}
		read = func() [3]float64 { return [3]float64{float64(pix[0]), float64(pix[1]), float64(pix[2])} }
		for k := range 3 {
			ref[k] = want[k] * 255
		}
	default:
		var m Matrix
		r, depth := Limited, 8
		if strings.Contains(f, "bt2020") {
			m = BT2020
		}
		if strings.Contains(f, "full") {
			r = Full
		}
		if strings.Contains(f, "10") {
			depth = 10
		}
		e := yccOfDepth(m, r, depth)
		sp = YCbCrSpaceDepth(m, r, depth)
		q := e.encode(fr)
		size := (depth + 7) / 8 // bytes a sample: 1, or 2 at 10 bits
		put := func(p []byte, v float64) {
			if size == 1 {
				p[0] = byte(math.Round(v))
			} else if f[0] == 'p' { // P010: the value in the high 10 bits
				binary.LittleEndian.PutUint16(p, uint16(math.Round(v))<<6)
			} else {
				binary.LittleEndian.PutUint16(p, uint16(math.Round(v)))
			}
		}
		get := func(p []byte) float64 {
			if size == 1 {
				return float64(p[0])
			} else if f[0] == 'p' {
				return float64(binary.LittleEndian.Uint16(p) >> 6)
			}
			return float64(binary.LittleEndian.Uint16(p))
		}
		y, u, v := make([]byte, w*h*size), make([]byte, w/2*size), make([]byte, w/2*size)
		for i := range w * h {
			put(y[i*size:], q[0])
		}
		for i := range w / 2 {
			put(u[i*size:], q[1])
			put(v[i*size:], q[2])
		}
		switch {
		case depth == 8:
			surf = &YUV420P{Y: y, U: u, V: v, StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h, Matrix: m, Range: r}
		case f[0] == 'p':
			uv := make([]byte, w*size)
			for i := range w / 2 {
				copy(uv[2*i*size:], u[i*size:(i+1)*size])
				copy(uv[(2*i+1)*size:], v[i*size:(i+1)*size])
			}
			u, v = uv, uv[size:]
			surf = &P010{Y: y, UV: uv, StrideY: w * size, StrideUV: w * size, W: w, H: h, Matrix: m, Range: r}
		default:
			surf = &YUV420P10{Y: y, U: u, V: v, StrideY: w * size, StrideU: w / 2 * size, StrideV: w / 2 * size, W: w, H: h, Matrix: m, Range: r}
		}
		read = func() [3]float64 { return [3]float64{get(y), get(u), get(v)} }
		ref = e.encode(want)
	}
	c := sp.Color(float32(l[0]*a), float32(l[1]*a), float32(l[2]*a), float32(a))
	for y := range h {
		for x := range w {
			tile.SetPixel(x, y, c)
		}
		tile.Touch(y, 0, w)
	}
	tile.Blend(&sp, mode)
	surf.Over(tile)
	return read(), ref, 1
}
