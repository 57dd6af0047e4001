package composite

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// rgbaLayer is a tile's pixels as premultiplied R'G'B'A (components 0..1), row-major with a
// stride of TileSize: what the tile holds before it is carried into a Space.
type rgbaLayer [TileSize * TileSize][4]float32

// randomTile returns a tile of random premultiplied pixels in space sp, some transparent and
// some opaque, zero outside each row's span (as drawing leaves it), and the same pixels in
// R'G'B'A.
func randomTile(rng *rand.Rand, sp Space, x0, y0, w, h int) (*Tile, *rgbaLayer) {
	t, rgba := &Tile{}, &rgbaLayer{}
	t.Reset(x0, y0, w, h)
	for y := 0; y < h; y++ {
		lo, hi := rng.IntN(w), w
		for x := lo; x < hi; x++ {
			if rng.IntN(5) == 0 {
				continue
			}
			a := float32(rng.Float64())
			if rng.IntN(4) == 0 {
				a = 1
			}
			p := [4]float32{a * float32(rng.Float64()), a * float32(rng.Float64()), a * float32(rng.Float64()), a}
			rgba[y*TileSize+x] = p
			t.SetPixel(x, y, sp.Color(p[0], p[1], p[2], p[3]))
		}
		t.Touch(y, lo, hi)
	}
	return t, rgba
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return b
}

// ycbcrToRGB inverts the matrix without clamping, so that over in R'G'B' can be computed
// for any Y'CbCr input.
func ycbcrToRGB(k coeffs, y, cb, cr float64) (r, g, b float64) {
	// Solve the 3×3 system Y−off = yR r + yG g + yB b, Cb−128 = ..., Cr−128 = ...
	m := [3][3]float64{
		{float64(k.yR), float64(k.yG), float64(k.yB)},
		{float64(k.cbR), float64(k.cbG), float64(k.cbB)},
		{float64(k.crR), float64(k.crG), float64(k.crB)},
	}
	v := [3]float64{y - float64(k.yOff), cb - 128, cr - 128}
	det := func(m [3][3]float64) float64 {
		return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	}
	d := det(m)
	var out [3]float64
	for c := 0; c < 3; c++ {
		mc := m
		for row := 0; row < 3; row++ {
			mc[row][c] = v[row]
		}
		out[c] = det(mc) / d
	}
	return out[0], out[1], out[2]
}

func rgbToYCbCr(k coeffs, r, g, b float64) (y, cb, cr float64) {
	return float64(k.yOff) + float64(k.yR)*r + float64(k.yG)*g + float64(k.yB)*b,
		128 + float64(k.cbR)*r + float64(k.cbG)*g + float64(k.cbB)*b,
		128 + float64(k.crR)*r + float64(k.crG)*g + float64(k.crB)*b
}

// TestYCbCrOverEqualsRGBOver composites random tiles onto random frames and checks every
// sample against the reference: convert the frame to R'G'B', composite there (per pixel,
// then averaged over each chroma block), convert back. Within one code value.
func TestYCbCrOverEqualsRGBOver(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	for _, m := range []Matrix{BT709, BT601} {
		for _, rg := range []Range{Limited, Full} {
			// An odd-sized frame, so that the edge tiles have lone chroma columns and rows.
			const w, h = 77, 69
			k := coeffsFor(m, rg)
			f := &YUV420P{Y: randomBytes(rng, w*h), U: randomBytes(rng, 39*35), V: randomBytes(rng, 39*35),
				StrideY: w, StrideU: 39, StrideV: 39, W: w, H: h, Matrix: m, Range: rg}
			if rg == Limited { // keep the frame in the legal range, as a decoder gives it
				for i := range f.Y {
					f.Y[i] = 16 + f.Y[i]%220
				}
			}
			orig := &YUV420P{Y: bytes.Clone(f.Y), U: bytes.Clone(f.U), V: bytes.Clone(f.V)}
			var layers []*rgbaLayer
			for _, tr := range [][4]int{{0, 0, 64, 64}, {64, 0, w - 64, 64}, {0, 64, 64, h - 64}, {64, 64, w - 64, h - 64}} {
				tl, rgba := randomTile(rng, f.Space(), tr[0], tr[1], tr[2], tr[3])
				f.Over(tl)
				layers = append(layers, rgba)
			}
			layer := func(x, y int) [4]float32 { return layers[(y/64)*2+x/64][(y%64)*TileSize+x%64] }
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					p := layer(x, y)
					cy, cx := y/2, x/2
					r, g, b := ycbcrToRGB(k, float64(orig.Y[y*w+x]), float64(orig.U[cy*39+cx]), float64(orig.V[cy*39+cx]))
					a := float64(p[3])
					r, g, b = float64(p[0])+(1-a)*r, float64(p[1])+(1-a)*g, float64(p[2])+(1-a)*b
					wantY, _, _ := rgbToYCbCr(k, r, g, b)
					if got := float64(f.Y[y*w+x]); math.Abs(got-math.Max(0, math.Min(255, wantY))) > 1 {
						t.Fatalf("%v %v: Y at (%d,%d) = %v, want %.2f", m, rg, x, y, got, wantY)
					}
				}
			}
			for cy := 0; cy < 35; cy++ {
				for cx := 0; cx < 39; cx++ {
					var sr, sg, sb float64
					n := 0
					for y := 2 * cy; y < min(2*cy+2, h); y++ {
						for x := 2 * cx; x < min(2*cx+2, w); x++ {
							p := layer(x, y)
							r, g, b := ycbcrToRGB(k, float64(orig.Y[y*w+x]), float64(orig.U[cy*39+cx]), float64(orig.V[cy*39+cx]))
							a := float64(p[3])
							sr += float64(p[0]) + (1-a)*r
							sg += float64(p[1]) + (1-a)*g
							sb += float64(p[2]) + (1-a)*b
							n++
						}
					}
					// The frame's own Y differs per pixel, but its chroma is shared; average the
					// composited R'G'B' and take the chroma of the mean.
					_, wantU, wantV := rgbToYCbCr(k, sr/float64(n), sg/float64(n), sb/float64(n))
					gotU, gotV := float64(f.U[cy*39+cx]), float64(f.V[cy*39+cx])
					if math.Abs(gotU-math.Max(0, math.Min(255, wantU))) > 1 || math.Abs(gotV-math.Max(0, math.Min(255, wantV))) > 1 {
						t.Fatalf("%v %v: chroma at (%d,%d) = %v,%v, want %.2f,%.2f", m, rg, cx, cy, gotU, gotV, wantU, wantV)
					}
				}
			}
		}
	}
}

func TestNV12MatchesYUV420P(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const w, h = 64, 50
	y, u, v := randomBytes(rng, w*h), randomBytes(rng, 32*25), randomBytes(rng, 32*25)
	uv := make([]byte, 64*25)
	for i := range u {
		uv[2*i], uv[2*i+1] = u[i], v[i]
	}
	p := &YUV420P{Y: bytes.Clone(y), U: u, V: v, StrideY: w, StrideU: 32, StrideV: 32, W: w, H: h, Matrix: BT601}
	n := &NV12{Y: bytes.Clone(y), UV: uv, StrideY: w, StrideUV: 64, W: w, H: h, Matrix: BT601}
	tile, _ := randomTile(rng, p.Space(), 0, 0, w, h)
	copied := *tile
	p.Over(tile)
	n.Over(&copied)
	if !bytes.Equal(p.Y, n.Y) {
		t.Fatal("luma differs")
	}
	for i := range p.U {
		if n.UV[2*i] != p.U[i] || n.UV[2*i+1] != p.V[i] {
			t.Fatalf("chroma sample %d: NV12 %d,%d, YUV420P %d,%d", i, n.UV[2*i], n.UV[2*i+1], p.U[i], p.V[i])
		}
	}
}

func TestRGBAOverTransparentGivesTheLayer(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const w, h = 40, 30
	f := &RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
	tile, rgba := randomTile(rng, f.Space(), 0, 0, w, h)
	f.Over(tile)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for c := 0; c < 4; c++ {
				want := math.Round(float64(rgba[y*TileSize+x][c]) * 255)
				if got := float64(f.Pix[y*f.Stride+4*x+c]); got != want {
					t.Fatalf("(%d,%d) channel %d: %v, want %v", x, y, c, got, want)
				}
			}
		}
	}
}

func TestOpaqueWhiteGivesReferenceWhite(t *testing.T) {
	for _, tc := range []struct {
		rg            Range
		wantY, wantUV byte
	}{{Limited, 235, 128}, {Full, 255, 128}} {
		f := &YUV420P{Y: make([]byte, 4), U: make([]byte, 1), V: make([]byte, 1), StrideY: 2, StrideU: 1, StrideV: 1, W: 2, H: 2, Range: tc.rg}
		tile := &Tile{}
		tile.Reset(0, 0, 2, 2)
		sp := f.Space()
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				tile.SetPixel(j, i, sp.Color(1, 1, 1, 1))
			}
			tile.Touch(i, 0, 2)
		}
		f.Over(tile)
		if f.Y[0] != tc.wantY || f.Y[3] != tc.wantY || f.U[0] != tc.wantUV || f.V[0] != tc.wantUV {
			t.Errorf("%v: white gave Y %v U %d V %d", tc.rg, f.Y, f.U[0], f.V[0])
		}
	}
}

func TestTileClearLeavesItZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tile, _ := randomTile(rng, YCbCrSpace(BT709, Limited), 0, 0, 64, 64)
	tile.Clear()
	for y, s := range tile.Span {
		if s != (Span{}) {
			t.Fatalf("row %d keeps span %+v after Clear", y, s)
		}
	}
	for c := range tile.Planes {
		for i, v := range tile.Planes[c] {
			if v != 0 {
				t.Fatalf("plane %d [%d] = %g after Clear", c, i, v)
			}
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    interface{ Check() error }
		ok   bool
	}{
		{"yuv ok", &YUV420P{Y: make([]byte, 15), U: make([]byte, 6), V: make([]byte, 6), StrideY: 5, StrideU: 3, StrideV: 3, W: 5, H: 3}, true},
		{"yuv short V", &YUV420P{Y: make([]byte, 15), U: make([]byte, 6), V: make([]byte, 5), StrideY: 5, StrideU: 3, StrideV: 3, W: 5, H: 3}, false},
		{"nv12 stride", &NV12{Y: make([]byte, 15), UV: make([]byte, 12), StrideY: 5, StrideUV: 5, W: 5, H: 3}, false},
		{"rgba ok", &RGBA{Pix: make([]byte, 24), Stride: 8, W: 2, H: 3}, true},
	} {
		if err := tc.f.Check(); (err == nil) != tc.ok {
			t.Errorf("%s: Check() = %v", tc.name, err)
		}
	}
}

func BenchmarkOverYUV420PTile(b *testing.B) {
	const w, h = 128, 128
	f := &YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4), StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	tile, _ := randomTile(rand.New(rand.NewPCG(1, 1)), f.Space(), 64, 64, 64, 64)
	for b.Loop() {
		tl := *tile
		f.Over(&tl)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(64*64), "ns/px")
}

// BenchmarkOverYUV420PFilledTile is the common case in practice: a tile inside a translucent
// box fill, where the layer is one colour.
func BenchmarkOverYUV420PFilledTile(b *testing.B) {
	const w, h = 128, 128
	f := &YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4), StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	tile := &Tile{}
	tile.Reset(64, 64, 64, 64)
	sp := f.Space()
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			tile.SetPixel(x, y, sp.Color(0.1, 0.05, 0.02, 0.2))
		}
		tile.Touch(y, 0, 64)
	}
	for b.Loop() {
		tl := *tile
		f.Over(&tl)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(64*64), "ns/px")
}

// TestOverLeavesTheTileClear: compositing clears the tile as it reads it, on every format,
// with and without the assembly, for whole and edge tiles.
func TestOverLeavesTheTileClear(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const w, h = 101, 75
	cw, ch := (w+1)/2, (h+1)/2
	for _, simd := range []bool{false, true} {
		for _, f := range []HostSurface{
			&RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h},
			&YUV420P{Y: make([]byte, w*h), U: make([]byte, cw*ch), V: make([]byte, cw*ch), StrideY: w, StrideU: cw, StrideV: cw, W: w, H: h},
			&NV12{Y: make([]byte, w*h), UV: make([]byte, 2*cw*ch), StrideY: w, StrideUV: 2 * cw, W: w, H: h},
		} {
			for _, tr := range [][4]int{{0, 0, 64, 64}, {64, 64, w - 64, h - 64}} {
				tile, _ := randomTile(rng, f.Space(), tr[0], tr[1], tr[2], tr[3])
				withAVX2(simd && haveAVX2, func() { f.Over(tile) })
				if *tile != (Tile{X0: tile.X0, Y0: tile.Y0, W: tile.W, H: tile.H}) {
					t.Fatalf("%T (AVX2 %v), tile %v: not clear after Over", f, simd, tr)
				}
			}
		}
	}
}
