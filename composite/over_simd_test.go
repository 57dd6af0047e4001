package composite

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The assembly twins (over_amd64.s) must give the Go twins' bits exactly: these tests run
// both on the same inputs and compare every byte, including the samples outside the span,
// which the assembly rewrites and must leave as they were.

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

// randomPixel returns a layer pixel (colour channels in code values), with the values that
// take the edge cases of the blend: transparent, opaque, alpha a little over 1 (float
// rounding in the layer), colour over alpha or below 0 (the blend saturates), alpha 0 with
// colour, and denormals.
func randomPixel(rng *rand.Rand) [Channels]float32 {
	a := float32(rng.Float64())
	c := func() float32 { return a * float32(rng.Float64()) * 255 }
	switch rng.IntN(12) {
	case 0, 1:
		return [Channels]float32{}
	case 2:
		a = 1
	case 3:
		a = math.Nextafter32(1, 2)
	case 4:
		return [Channels]float32{float32(rng.Float64())*600 - 100, float32(rng.Float64()) * 600, float32(rng.Float64())*600 - 300, a}
	case 5:
		return [Channels]float32{float32(rng.Float64()) * 255, 0, float32(rng.Float64()) * 255, 0}
	case 6:
		return [Channels]float32{1e-40, 3e-39, 0, 2e-39}
	}
	return [Channels]float32{c(), c(), c(), a}
}

// fillRows fills rows [y0, y1) of t with random pixels over [x0, x1) and zeroes elsewhere (as
// drawing leaves a tile), touching that span.
func fillRows(rng *rand.Rand, t *Tile, y0, y1, x0, x1 int) {
	for y := y0; y < y1; y++ {
		for x := 0; x < TileSize; x++ {
			p := [Channels]float32{}
			if x >= x0 && x < x1 {
				p = randomPixel(rng)
			}
			t.SetPixel(x, y, p)
		}
		t.Span[y] = Span{}
		if x0 < x1 {
			t.Touch(y, x0, x1)
		}
	}
}

// TestTilesMatchGo composites random tiles of every width the assembly takes (multiples of
// 16) and odd and even heights, with random spans in every row, onto YUV420P and NV12
// samples, with the assembly and with the Go twins, and compares the samples and the tiles
// left behind; over, add and screen (which the assembly makes as it reads the layer, the
// Go twins in a pass before), in limited and full range.
func TestTilesMatchGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(11, 12))
	spaces := []Space{YCbCrSpace(BT709, Limited), YCbCrSpace(BT601, Full)}
	for w := 16; w <= TileSize; w += 16 {
		for _, h := range []int{1, 2, 7, 33, 64} {
			for i := range 60 {
				tile := &Tile{}
				tile.Reset(0, 0, w, h)
				mode := Blend(i % 3)
				sp := spaces[i/3%2]
				for y := range h {
					x0 := rng.IntN(w)
					x1 := x0 + rng.IntN(w-x0+1)
					if rng.IntN(5) == 0 {
						x1 = x0
					}
					fillRows(rng, tile, y, y+1, x0, x1)
				}
				tile.Blend(&sp, mode)
				cw, ch := w/2, (h+1)/2
				y, u, v, uv := randomBytes(rng, w*h), randomBytes(rng, cw*ch), randomBytes(rng, cw*ch), randomBytes(rng, 2*cw*ch)
				run := func(simd bool) ([][]byte, [2]Tile) {
					p := &YUV420P{Y: bytes.Clone(y), U: bytes.Clone(u), V: bytes.Clone(v), StrideY: w, StrideU: cw, StrideV: cw, W: w, H: h}
					n := &NV12{Y: bytes.Clone(y), UV: bytes.Clone(uv), StrideY: w, StrideUV: 2 * cw, W: w, H: h}
					tp, tn := *tile, *tile
					withAVX2(simd, func() {
						p.Over(&tp)
						n.Over(&tn)
					})
					return [][]byte{p.Y, p.U, p.V, n.Y, n.UV}, [2]Tile{tp, tn}
				}
				want, wantTiles := run(false)
				got, gotTiles := run(true)
				for i, name := range []string{"YUV420P Y", "YUV420P U", "YUV420P V", "NV12 Y", "NV12 UV"} {
					if !bytes.Equal(got[i], want[i]) {
						t.Fatalf("%dx%d tile, %s: %s differs: AVX2\n%v, Go\n%v", w, h, mode, name, got[i], want[i])
					}
				}
				if gotTiles != wantTiles {
					t.Fatalf("%dx%d tile, %s: the tiles left behind differ", w, h, mode)
				}
			}
		}
	}
}

// TestOverMatchesGo composites random tiles onto whole frames of odd and even sizes, every
// matrix and range, YUV420P and NV12, with and without the assembly, and compares the frames.
func TestOverMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(15, 16))
	for _, size := range [][2]int{{77, 69}, {128, 128}, {200, 131}, {131, 64}, {9, 5}, {1, 1}, {65, 3}, {80, 80}} {
		w, h := size[0], size[1]
		cw, ch := (w+1)/2, (h+1)/2
		for _, m := range []Matrix{BT709, BT601} {
			for _, rg := range []Range{Limited, Full} {
				var tiles []Tile
				for y := 0; y < h; y += TileSize {
					for x := 0; x < w; x += TileSize {
						tl, _ := randomTile(rng, YCbCrSpace(m, rg), x, y, min(TileSize, w-x), min(TileSize, h-y))
						tiles = append(tiles, *tl)
					}
				}
				y, u, v, uv := randomBytes(rng, w*h), randomBytes(rng, cw*ch), randomBytes(rng, cw*ch), randomBytes(rng, 2*cw*ch)
				frames := func() (HostSurface, HostSurface, func() [][]byte) {
					p := &YUV420P{Y: bytes.Clone(y), U: bytes.Clone(u), V: bytes.Clone(v), StrideY: w, StrideU: cw, StrideV: cw, W: w, H: h, Matrix: m, Range: rg}
					n := &NV12{Y: bytes.Clone(y), UV: bytes.Clone(uv), StrideY: w, StrideUV: 2 * cw, W: w, H: h, Matrix: m, Range: rg}
					return p, n, func() [][]byte { return [][]byte{p.Y, p.U, p.V, n.Y, n.UV} }
				}
				wantP, wantN, want := frames()
				gotP, gotN, got := frames()
				over := func(f HostSurface) {
					for _, tl := range tiles {
						f.Over(&tl) // a copy: Over clears it
					}
				}
				withAVX2(false, func() {
					over(wantP)
					over(wantN)
				})
				withAVX2(true, func() {
					over(gotP)
					over(gotN)
				})
				for i, name := range []string{"YUV420P Y", "YUV420P U", "YUV420P V", "NV12 Y", "NV12 UV"} {
					if !bytes.Equal(got()[i], want()[i]) {
						t.Errorf("%dx%d %v %v: %s differs", w, h, m, rg, name)
					}
				}
			}
		}
	}
}

// BenchmarkOverSpans composites a tile of short random spans (the edges of boxes and strokes),
// where the groups are mostly partly used.
func BenchmarkOverSpans(b *testing.B) {
	for _, simd := range []bool{false, true} {
		b.Run(fmt.Sprintf("avx2=%v", simd), func(b *testing.B) {
			if simd {
				needAVX2(b)
			}
			const w, h = 128, 128
			f := &YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4), StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
			rng := rand.New(rand.NewPCG(3, 3))
			tile := &Tile{}
			tile.Reset(64, 64, 64, 64)
			sp := f.Space()
			for y := 0; y < 64; y++ {
				x0 := rng.IntN(60)
				x1 := x0 + 1 + rng.IntN(min(12, 64-x0))
				for x := x0; x < x1; x++ {
					tile.SetPixel(x, y, sp.Color(0.1, 0.05, 0.02, 0.2))
				}
				tile.Touch(y, x0, x1)
			}
			withAVX2(simd, func() {
				for b.Loop() {
					tl := *tile
					f.Over(&tl)
				}
			})
		})
	}
}

// onEdge returns a layer value c that, blended with alpha a onto sample s, lands within a few
// float32 steps of a rounding edge (c + (1 − a)·s + 0.5 near an integer), where operations
// done in another order than blend's (or fused) would round to another byte.
func onEdge(rng *rand.Rand, s byte, a float32) float32 {
	t := float32((1 - a) * float32(s))
	edge := float32(rng.IntN(256)) - 0.5
	return nudge(rng, edge-t)
}

// nudge moves x by up to three float32 steps, up or down.
func nudge(rng *rand.Rand, x float32) float32 {
	toward := float32(math.Inf(2*rng.IntN(2) - 1))
	for range rng.IntN(4) {
		x = math.Nextafter32(x, toward)
	}
	return x
}

// twinsAgreeOnNV12 composites copies of tile onto 64 × 2 NV12 samples y and uv with the Go
// twins and with the assembly, and fails the test where the samples differ.
func twinsAgreeOnNV12(t *testing.T, what string, tile *Tile, y, uv []byte) {
	t.Helper()
	run := func(simd bool) ([]byte, []byte) {
		f := &NV12{Y: bytes.Clone(y), UV: bytes.Clone(uv), StrideY: TileSize, StrideUV: TileSize, W: TileSize, H: 2}
		tl := *tile
		withAVX2(simd, func() { f.Over(&tl) })
		return f.Y, f.UV
	}
	wantY, wantUV := run(false)
	gotY, gotUV := run(true)
	if !bytes.Equal(gotY, wantY) || !bytes.Equal(gotUV, wantUV) {
		t.Fatalf("%s: luma AVX2 %v, Go %v; chroma AVX2 %v, Go %v", what, gotY, wantY, gotUV, wantUV)
	}
}

// TestNearRoundingMatchesGo runs both twins on pixels (and blocks) whose results lie on a
// rounding edge: this catches float operations done in another order than the Go twin's,
// which random inputs show only rarely.
func TestNearRoundingMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(17, 18))
	tile := &Tile{}
	tile.Reset(0, 0, TileSize, 2)
	for i := range 256 {
		fillRows(rng, tile, 0, 2, 0, TileSize)
		y, uv := randomBytes(rng, 2*TileSize), randomBytes(rng, TileSize)
		for x := 0; x < TileSize; x++ {
			p := tile.Pixel(x, 0)
			p[0] = onEdge(rng, y[x], p[Alpha])
			tile.SetPixel(x, 0, p)
		}
		for b := 0; b < TileSize/2; b++ {
			// Move the block's top left Cb (even blocks) or Cr (odd blocks) so that the mean
			// lands on the edge.
			c := 1 + b%2
			sum := func(k int) float32 {
				p, q, r, s := tile.Pixel(2*b, 0), tile.Pixel(2*b, 1), tile.Pixel(2*b+1, 0), tile.Pixel(2*b+1, 1)
				return (p[k] + q[k]) + (r[k] + s[k])
			}
			a := sum(Alpha) * 0.25
			want := onEdge(rng, uv[2*b+c-1], a) * 4
			p := tile.Pixel(2*b, 0)
			p[c] += want - sum(c)
			tile.SetPixel(2*b, 0, p)
		}
		twinsAgreeOnNV12(t, fmt.Sprintf("row %d", i), tile, y, uv)
	}
}

// nearEdge returns x moved so that f(x), a sample before its rounding (v + 0.5, truncated),
// lies within a few float32 steps of a rounding edge (v + 0.5 an integer): a few secant
// steps toward the nearest edge, then a few steps of one float32 either way. Where f is
// flat (a clamp) x stays where it got.
func nearEdge(rng *rand.Rand, x float32, f func(float32) float32) float32 {
	edge := float32(math.Round(float64(f(x)))) - 0.5
	for range 4 {
		v := f(x)
		slope := f(x+1) - v
		if v == edge || slope == 0 || math.IsInf(float64((edge-v)/slope), 0) {
			break
		}
		x += (edge - v) / slope
	}
	return nudge(rng, x)
}

// TestScreenNearRoundingMatchesGo is TestNearRoundingMatchesGo for screen: each pixel's luma
// is moved so that its screened sample, (t + s) + α′·(o0 − s), lies on a rounding edge, and
// each block's top left Cb (even blocks) or Cr (odd blocks) so that its screened mean does.
func TestScreenNearRoundingMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(26, 19))
	for _, sp := range []Space{YCbCrSpace(BT709, Limited), YCbCrSpace(BT2020, Full)} {
		tile := &Tile{}
		tile.Reset(0, 0, TileSize, 2)
		tile.Blend(&sp, BlendScreen)
		k := tile.blend.k
		for i := range 128 {
			fillRows(rng, tile, 0, 2, 0, TileSize)
			y, uv := randomBytes(rng, 2*TileSize), randomBytes(rng, TileSize)
			for x := range TileSize {
				for r := range 2 {
					p := tile.Pixel(x, r)
					if p[Alpha] == 0 {
						continue
					}
					s := float32(y[r*TileSize+x])
					p[0] = nearEdge(rng, p[0], func(c0 float32) float32 {
						t, a2 := k.screenLuma(c0, p[Alpha])
						return (t + s) + float32(a2*(k.o[0]-s))
					})
					tile.SetPixel(x, r, p)
				}
			}
			for b := range TileSize / 2 {
				c := 1 + b%2
				px := func() [4][Channels]float32 {
					return [4][Channels]float32{tile.Pixel(2*b, 0), tile.Pixel(2*b, 1), tile.Pixel(2*b+1, 0), tile.Pixel(2*b+1, 1)}
				}
				q := px()
				sum := func(f func(p [Channels]float32) float32) float32 {
					return (f(q[0]) + f(q[1])) + (f(q[2]) + f(q[3]))
				}
				a := sum(func(p [Channels]float32) float32 { return p[Alpha] })
				a2 := sum(func(p [Channels]float32) float32 { _, v := k.screenLuma(p[0], p[Alpha]); return v })
				if a2 == 0 {
					continue
				}
				rest := (q[1][c] + (q[2][c] + q[3][c])) // not chromaRow's order: only a guide
				s := float32(uv[2*b+c-1])
				p := q[0]
				p[c] = nearEdge(rng, p[c], func(v float32) float32 {
					sc := (v + rest) + float32(k.o[c]*(a2-a))
					return sc*0.25 + float32((1-a2*0.25)*s)
				})
				tile.SetPixel(2*b, 0, p)
			}
			twinsAgreeOnNV12(t, fmt.Sprintf("Y' offset %v, row %d", sp.M[0][3], i), tile, y, uv)
		}
	}
}
