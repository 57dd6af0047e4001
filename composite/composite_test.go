package composite

import (
	"bytes"
	"encoding/binary"
	"fmt"
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
	// Solve the 3×3 system Y−off = yR r + yG g + yB b, Cb−cOff = ..., Cr−cOff = ...
	m := [3][3]float64{
		{float64(k.yR), float64(k.yG), float64(k.yB)},
		{float64(k.cbR), float64(k.cbG), float64(k.cbB)},
		{float64(k.crR), float64(k.crG), float64(k.crB)},
	}
	v := [3]float64{y - float64(k.yOff), cb - float64(k.cOff), cr - float64(k.cOff)}
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
		float64(k.cOff) + float64(k.cbR)*r + float64(k.cbG)*g + float64(k.cbB)*b,
		float64(k.cOff) + float64(k.crR)*r + float64(k.crG)*g + float64(k.crB)*b
}

// planarFrame is a planar 4:2:0 test frame of either depth: the surface, and its samples
// read back as integers (luma w wide, chroma cw wide).
type planarFrame struct {
	surface HostSurface
	depth   int
	planes  [3][]byte
	widths  [3]int
}

// newPlanarFrame returns a w × h YUV420P (depth 8) or YUV420P10 (depth 10) of random samples,
// luma kept in the legal range when rg is limited (as a decoder gives it).
func newPlanarFrame(rng *rand.Rand, w, h, depth int, m Matrix, rg Range) *planarFrame {
	cw, ch := (w+1)/2, (h+1)/2
	size := (depth + 7) / 8
	pf := &planarFrame{depth: depth, widths: [3]int{w, cw, cw}}
	top := 1<<depth - 1
	for i, n := range []int{w * h, cw * ch, cw * ch} {
		pf.planes[i] = make([]byte, n*size)
		for j := 0; j < n; j++ {
			v := rng.IntN(top + 1)
			if i == 0 && rg == Limited {
				v = 16<<(depth-8) + v%(219<<(depth-8)+1)
			}
			pf.set(i, j, v)
		}
	}
	y, u, v := pf.planes[0], pf.planes[1], pf.planes[2]
	if depth == 8 {
		pf.surface = &YUV420P{Y: y, U: u, V: v, StrideY: w, StrideU: cw, StrideV: cw, W: w, H: h, Matrix: m, Range: rg}
	} else {
		pf.surface = &YUV420P10{Y: y, U: u, V: v, StrideY: 2 * w, StrideU: 2 * cw, StrideV: 2 * cw, W: w, H: h, Matrix: m, Range: rg}
	}
	return pf
}

func (pf *planarFrame) set(plane, i, v int) {
	if pf.depth == 8 {
		pf.planes[plane][i] = byte(v)
		return
	}
	binary.LittleEndian.PutUint16(pf.planes[plane][2*i:], uint16(v))
}

// at returns sample (x, y) of a plane.
func (pf *planarFrame) at(plane, x, y int) float64 {
	i := y*pf.widths[plane] + x
	if pf.depth == 8 {
		return float64(pf.planes[plane][i])
	}
	return float64(binary.LittleEndian.Uint16(pf.planes[plane][2*i:]))
}

func (pf *planarFrame) clone() *planarFrame {
	c := *pf
	for i := range c.planes {
		c.planes[i] = bytes.Clone(pf.planes[i])
	}
	return &c
}

// TestYCbCrOverEqualsRGBOver composites random tiles onto random frames and checks every
// sample against the reference: convert the frame to R'G'B', composite there (per pixel,
// then averaged over each chroma block), convert back. Within one code value of the frame's
// depth, for every matrix and range, 8- and 10-bit.
func TestYCbCrOverEqualsRGBOver(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	for _, depth := range []int{8, 10} {
		for _, m := range []Matrix{BT709, BT601, BT2020} {
			for _, rg := range []Range{Limited, Full} {
				// An odd-sized frame, so that the edge tiles have lone chroma columns and rows.
				const w, h = 77, 69
				k := coeffsFor(m, rg, depth)
				top := math.Ldexp(1, depth) - 1
				f := newPlanarFrame(rng, w, h, depth, m, rg)
				orig := f.clone()
				var layers []*rgbaLayer
				for _, tr := range [][4]int{{0, 0, 64, 64}, {64, 0, w - 64, 64}, {0, 64, 64, h - 64}, {64, 64, w - 64, h - 64}} {
					tl, rgba := randomTile(rng, f.surface.Space(), tr[0], tr[1], tr[2], tr[3])
					f.surface.Over(tl)
					layers = append(layers, rgba)
				}
				layer := func(x, y int) [4]float32 { return layers[(y/64)*2+x/64][(y%64)*TileSize+x%64] }
				// over composites layer pixel (x, y) onto the original frame there, in R'G'B'.
				over := func(x, y int) (r, g, b float64) {
					p := layer(x, y)
					r, g, b = ycbcrToRGB(k, orig.at(0, x, y), orig.at(1, x/2, y/2), orig.at(2, x/2, y/2))
					a := float64(p[3])
					return float64(p[0]) + (1-a)*r, float64(p[1]) + (1-a)*g, float64(p[2]) + (1-a)*b
				}
				name := fmt.Sprintf("%d-bit %v %v", depth, m, rg)
				for y := 0; y < h; y++ {
					for x := 0; x < w; x++ {
						r, g, b := over(x, y)
						wantY, _, _ := rgbToYCbCr(k, r, g, b)
						if got := f.at(0, x, y); math.Abs(got-math.Max(0, math.Min(top, wantY))) > 1 {
							t.Fatalf("%s: Y at (%d,%d) = %v, want %.2f", name, x, y, got, wantY)
						}
					}
				}
				for cy := 0; cy < (h+1)/2; cy++ {
					for cx := 0; cx < (w+1)/2; cx++ {
						var sr, sg, sb float64
						n := 0
						for y := 2 * cy; y < min(2*cy+2, h); y++ {
							for x := 2 * cx; x < min(2*cx+2, w); x++ {
								r, g, b := over(x, y)
								sr, sg, sb = sr+r, sg+g, sb+b
								n++
							}
						}
						// The frame's own Y differs per pixel, but its chroma is shared; average the
						// composited R'G'B' and take the chroma of the mean.
						_, wantU, wantV := rgbToYCbCr(k, sr/float64(n), sg/float64(n), sb/float64(n))
						gotU, gotV := f.at(1, cx, cy), f.at(2, cx, cy)
						if math.Abs(gotU-math.Max(0, math.Min(top, wantU))) > 1 || math.Abs(gotV-math.Max(0, math.Min(top, wantV))) > 1 {
							t.Fatalf("%s: chroma at (%d,%d) = %v,%v, want %.2f,%.2f", name, cx, cy, gotU, gotV, wantU, wantV)
						}
					}
				}
			}
		}
	}
}

// TestSemiPlanarMatchesPlanar: NV12 composites as YUV420P does, and P010 as YUV420P10 (its
// samples in the high bits of each word), sample for sample.
func TestSemiPlanarMatchesPlanar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const w, h = 64, 50
	for _, depth := range []int{8, 10} {
		p := newPlanarFrame(rng, w, h, depth, BT601, Limited)
		// The semi-planar frame's samples are read raw: P010's words hold the value << 6.
		shift := 0
		semi := &planarFrame{depth: depth, widths: [3]int{w, 64}}
		if depth == 8 {
			semi.planes = [3][]byte{bytes.Clone(p.planes[0]), make([]byte, 64*25)}
			semi.surface = &NV12{Y: semi.planes[0], UV: semi.planes[1], StrideY: w, StrideUV: 64, W: w, H: h, Matrix: BT601}
		} else {
			shift = 6
			semi.planes = [3][]byte{make([]byte, 2*w*h), make([]byte, 2*64*25)}
			semi.surface = &P010{Y: semi.planes[0], UV: semi.planes[1], StrideY: 2 * w, StrideUV: 128, W: w, H: h, Matrix: BT601}
			for i := 0; i < w*h; i++ {
				semi.set(0, i, int(p.at(0, i, 0))<<shift)
			}
		}
		for i := 0; i < 32*25; i++ {
			semi.set(1, 2*i, int(p.at(1, i, 0))<<shift)
			semi.set(1, 2*i+1, int(p.at(2, i, 0))<<shift)
		}
		tile, _ := randomTile(rng, p.surface.Space(), 0, 0, w, h)
		copied := *tile
		p.surface.Over(tile)
		semi.surface.Over(&copied)
		for i := 0; i < w*h; i++ {
			if got, want := int(semi.at(0, i, 0))>>shift, int(p.at(0, i, 0)); got != want {
				t.Fatalf("%T: luma sample %d = %d, planar %d", semi.surface, i, got, want)
			}
		}
		for i := 0; i < 32*25; i++ {
			u, v := int(semi.at(1, 2*i, 0)), int(semi.at(1, 2*i+1, 0))
			if u>>shift != int(p.at(1, i, 0)) || v>>shift != int(p.at(2, i, 0)) || (u|v)&(1<<shift-1) != 0 {
				t.Fatalf("%T: chroma sample %d = %d,%d, planar %v,%v", semi.surface, i, u, v, p.at(1, i, 0), p.at(2, i, 0))
			}
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

// TestOpaqueWhiteGivesReferenceWhite: white is the range's top luma and neutral chroma, in
// every matrix: 235 and 128 in 8-bit limited range, 940 and 512 in 10-bit.
func TestOpaqueWhiteGivesReferenceWhite(t *testing.T) {
	for _, tc := range []struct {
		depth         int
		rg            Range
		wantY, wantUV float64
	}{{8, Limited, 235, 128}, {8, Full, 255, 128}, {10, Limited, 940, 512}, {10, Full, 1023, 512}} {
		for _, m := range []Matrix{BT709, BT601, BT2020} {
			f := newPlanarFrame(rand.New(rand.NewPCG(3, 4)), 2, 2, tc.depth, m, tc.rg)
			tile := &Tile{}
			tile.Reset(0, 0, 2, 2)
			sp := f.surface.Space()
			for i := 0; i < 2; i++ {
				for j := 0; j < 2; j++ {
					tile.SetPixel(j, i, sp.Color(1, 1, 1, 1))
				}
				tile.Touch(i, 0, 2)
			}
			f.surface.Over(tile)
			if f.at(0, 0, 0) != tc.wantY || f.at(0, 1, 1) != tc.wantY || f.at(1, 0, 0) != tc.wantUV || f.at(2, 0, 0) != tc.wantUV {
				t.Errorf("%d-bit %v %v: white gave Y %v U %v V %v", tc.depth, m, tc.rg, f.at(0, 0, 0), f.at(1, 0, 0), f.at(2, 0, 0))
			}
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
		{"yuv10 ok", &YUV420P10{Y: make([]byte, 30), U: make([]byte, 12), V: make([]byte, 12), StrideY: 10, StrideU: 6, StrideV: 6, W: 5, H: 3}, true},
		{"yuv10 8-bit strides", &YUV420P10{Y: make([]byte, 30), U: make([]byte, 12), V: make([]byte, 12), StrideY: 5, StrideU: 3, StrideV: 3, W: 5, H: 3}, false},
		{"p010 ok", &P010{Y: make([]byte, 30), UV: make([]byte, 24), StrideY: 10, StrideUV: 12, W: 5, H: 3}, true},
		{"p010 short UV", &P010{Y: make([]byte, 30), UV: make([]byte, 23), StrideY: 10, StrideUV: 12, W: 5, H: 3}, false},
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
			&YUV420P10{Y: make([]byte, 2*w*h), U: make([]byte, 2*cw*ch), V: make([]byte, 2*cw*ch), StrideY: 2 * w, StrideU: 2 * cw, StrideV: 2 * cw, W: w, H: h},
			&P010{Y: make([]byte, 2*w*h), UV: make([]byte, 4*cw*ch), StrideY: 2 * w, StrideUV: 4 * cw, W: w, H: h},
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
