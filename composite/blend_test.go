package composite

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ycc is a Y'CbCr encoding in float64, written from the standard's definitions (not from
// Space), for the reference: Y' = off + sy·(Kr·R' + Kg·G' + Kb·B'), Cb = 128 + sc·Pb,
// Cr = 128 + sc·Pr.
type ycc struct{ kr, kb, sy, sc, off float64 }

func yccOf(m Matrix, r Range) ycc {
	k := map[Matrix][2]float64{BT709: {0.2126, 0.0722}, BT601: {0.299, 0.114}, BT2020: {0.2627, 0.0593}}[m]
	if r == Full {
		return ycc{k[0], k[1], 255, 255, 0}
	}
	return ycc{k[0], k[1], 219, 224, 16}
}

func (e ycc) encode(c [3]float64) [3]float64 {
	y := e.kr*c[0] + (1-e.kr-e.kb)*c[1] + e.kb*c[2]
	return [3]float64{e.off + e.sy*y, 128 + e.sc*(c[2]-y)/(2*(1-e.kb)), 128 + e.sc*(c[0]-y)/(2*(1-e.kr))}
}

func (e ycc) decode(s [3]float64) [3]float64 {
	y := (s[0] - e.off) / e.sy
	pb, pr := (s[1]-128)/e.sc, (s[2]-128)/e.sc
	r, b := y+2*(1-e.kr)*pr, y+2*(1-e.kb)*pb
	return [3]float64{r, (y - e.kr*r - e.kb*b) / (1 - e.kr - e.kb), b}
}

// blendRef is the blend of premultiplied layer colour l (alpha a) onto frame colour f, in
// R'G'B', per channel: add, screen exactly (per channel), or screen as trackink does it (one
// alpha, the layer's luma with the given weights).
func blendRef(mode string, f, l [3]float64, a float64, kr, kb float64) [3]float64 {
	var out [3]float64
	luma := kr*l[0] + (1-kr-kb)*l[1] + kb*l[2]
	for i := range out {
		switch mode {
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
// colours, add and screen, in Y'CbCr frames of each matrix and range and in RGBA, and holds
// every sample to the blend done in float64 R'G'B' (frame decoded from its samples, the
// result encoded again) within one code value: the frame is 16 × 2 pixels, one colour per
// 2×2 block (so that the 4:2:0 chroma blend sees one colour), with the Go twins and, where
// there is AVX2, the vectorised composite. Colours stay clear of saturation, where the clamp
// in Y'CbCr and the one in R'G'B' differ (the package comment's limit). Screen is exact for
// grey layers and holds to its one-alpha formula for coloured ones.
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
		}{{BlendAdd, "add", false}, {BlendScreen, "screen", true}, {BlendScreen, "screen-luma", false}} {
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
// the layer as it is; add and screen keep a covered pixel's alpha above 0 so the composite
// does not skip it, even a black one's. (applyBlend screens R'G'B' layers only: a Y'CbCr
// screen is the 4:2:0 composite's.)
func TestBlendOverIsUnchanged(t *testing.T) {
	ycc, rgb := YCbCrSpace(BT709, Limited), RGBASpace()
	for _, tc := range []struct {
		b  Blend
		sp *Space
	}{{BlendOver, &ycc}, {BlendAdd, &ycc}, {BlendOver, &rgb}, {BlendAdd, &rgb}, {BlendScreen, &rgb}} {
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
	if _, err := ParseBlend("multiply"); err == nil {
		t.Error("blend multiply was accepted")
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

// TestBlendRowAVX2MatchesGo: Tile.applyBlend gives the same bits with the AVX2 rows as with the Go
// rows, for add (which it makes on Y'CbCr layers), on random layers (a quarter of the pixels
// uncovered, some colours far off) with random spans, short and long, in limited and full
// range.
func TestBlendRowAVX2MatchesGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(26, 3))
	for _, sp := range []Space{YCbCrSpace(BT709, Limited), YCbCrSpaceDepth(BT2020, Full, 10)} {
		for range 20 {
			var a, g Tile
			a.W, a.H = TileSize, TileSize
			for y := range TileSize {
				// Short spans too: a stroke's rows are a few pixels wide.
				x0 := rng.IntN(TileSize)
				n := TileSize - x0
				if rng.IntN(2) == 0 {
					n = min(n, 8)
				}
				x1 := x0 + rng.IntN(n+1)
				a.Touch(y, x0, x1)
				for x := x0; x < x1; x++ { // a row is zero outside its span
					if rng.IntN(4) == 0 {
						continue
					}
					al := rng.Float32()
					c := sp.Color(rng.Float32()*al, rng.Float32()*al, rng.Float32()*al, al)
					c[0] += (rng.Float32() - 0.5) * 40
					a.SetPixel(x, y, c)
				}
			}
			a.Blend(&sp, BlendAdd)
			g = a
			a.applyBlend()
			haveAVX2 = false
			g.applyBlend()
			haveAVX2 = true
			for c := range a.Planes {
				for i := range a.Planes[c] {
					if math.Float32bits(a.Planes[c][i]) != math.Float32bits(g.Planes[c][i]) {
						t.Fatalf("plane %d pixel %d: %v with AVX2, %v in Go", c, i, a.Planes[c][i], g.Planes[c][i])
					}
				}
			}
		}
	}
}
