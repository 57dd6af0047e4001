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

// randomPixel returns a premultiplied pixel, with the values that take the edge cases of the
// blend: transparent, opaque, alpha a little over 1 (float rounding in the layer), colour
// over alpha (the blend saturates), alpha 0 with colour, and denormals.
func randomPixel(rng *rand.Rand) [4]float32 {
	a := float32(rng.Float64())
	switch rng.IntN(12) {
	case 0, 1:
		return [4]float32{}
	case 2:
		a = 1
	case 3:
		a = math.Nextafter32(1, 2)
	case 4:
		return [4]float32{float32(rng.Float64()) * 2, float32(rng.Float64()) * 2, float32(rng.Float64()) * 2, a}
	case 5:
		return [4]float32{float32(rng.Float64()), 0, float32(rng.Float64()), 0}
	case 6:
		return [4]float32{1e-40, 3e-39, 0, 2e-39}
	}
	return [4]float32{a * float32(rng.Float64()), a * float32(rng.Float64()), a * float32(rng.Float64()), a}
}

// randomRow fills a tile row of 4·TileSize floats (including beyond any span, which the
// assembly must not blend).
func randomRow(rng *rand.Rand) []float32 {
	row := make([]float32, 4*TileSize)
	for x := 0; x < TileSize; x++ {
		p := randomPixel(rng)
		copy(row[4*x:], p[:])
	}
	return row
}

var allCoeffs = func() (ks []Fixed16) {
	for _, m := range []Matrix{BT709, BT601} {
		for _, rg := range []Range{Limited, Full} {
			ks = append(ks, FixedCoefficients(m, rg))
		}
	}
	return ks
}()

// tileWidths are the widths of edge tiles worth trying: narrower than a group, around one and
// two groups (of pixels and of chroma blocks), odd, and whole.
var tileWidths = []int{1, 2, 5, 7, 8, 9, 15, 16, 17, 23, 31, 32, 33, 47, 63, 64}

// TestLumaSpanMatchesGo checks every span [x0, x1) of every tile width in tileWidths.
func TestLumaSpanMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range allCoeffs {
		kl := lumaCoeffs{k.YOff, k.YR, k.YG, k.YB}
		for _, w := range tileWidths {
			for x0 := 0; x0 < w; x0++ {
				for x1 := x0 + 1; x1 <= w; x1++ {
					row := randomRow(rng)[:4*w]
					dst := randomBytes(rng, w)
					want, got := bytes.Clone(dst), bytes.Clone(dst)
					withAVX2(false, func() { lumaSpan(want, row, x0, x1, &kl) })
					withAVX2(true, func() { lumaSpan(got, row, x0, x1, &kl) })
					if !bytes.Equal(got, want) {
						t.Fatalf("width %d span [%d, %d): AVX2\n%v, Go\n%v, from\n%v", w, x0, x1, got, want, dst)
					}
				}
			}
		}
	}
}

// TestChromaSpanMatchesGo checks every span of whole blocks [b0, b1) of every tile width in
// tileWidths, planar and interleaved, for two-row and one-row blocks.
func TestChromaSpanMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(13, 14))
	for _, k := range allCoeffs {
		for _, mean := range []float32{0.25, 0.5} {
			kc := chromaCoeffs{k.CbR, k.CbG, k.CbB, k.CrR, k.CrG, k.CrB, mean}
			for _, step := range []int{1, 2} {
				for _, w := range tileWidths {
					nb := w / 2
					for b0 := 0; b0 < nb; b0++ {
						for b1 := b0 + 1; b1 <= nb; b1++ {
							r0, r1 := randomRow(rng)[:4*w], randomRow(rng)[:4*w]
							if mean == 0.5 {
								clear(r1) // the row below an odd bottom edge
							}
							cw := (w + 1) / 2
							plane := randomBytes(rng, 2*cw*step)
							want, got := bytes.Clone(plane), bytes.Clone(plane)
							run := func(p []byte) {
								u, v := p[:(cw-1)*step+1], p[cw*step:cw*step+(cw-1)*step+1]
								if step == 2 {
									u, v = p[:2*cw-1], p[1:2*cw]
								}
								chromaSpan(u, v, step, r0, r1, b0, b1, &kc)
							}
							withAVX2(false, func() { run(want) })
							withAVX2(true, func() { run(got) })
							if !bytes.Equal(got, want) {
								t.Fatalf("step %d mean %g width %d blocks [%d, %d): AVX2\n%v, Go\n%v, from\n%v",
									step, mean, w, b0, b1, got, want, plane)
							}
						}
					}
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
		var tiles []*Tile
		for y := 0; y < h; y += TileSize {
			for x := 0; x < w; x += TileSize {
				tiles = append(tiles, randomTile(rng, x, y, min(TileSize, w-x), min(TileSize, h-y)))
			}
		}
		for _, m := range []Matrix{BT709, BT601} {
			for _, rg := range []Range{Limited, Full} {
				y, u, v, uv := randomBytes(rng, w*h), randomBytes(rng, cw*ch), randomBytes(rng, cw*ch), randomBytes(rng, 2*cw*ch)
				frames := func() (HostSurface, HostSurface, func() [][]byte) {
					p := &YUV420P{Y: bytes.Clone(y), U: bytes.Clone(u), V: bytes.Clone(v), StrideY: w, StrideU: cw, StrideV: cw, W: w, H: h, Matrix: m, Range: rg}
					n := &NV12{Y: bytes.Clone(y), UV: bytes.Clone(uv), StrideY: w, StrideUV: 2 * cw, W: w, H: h, Matrix: m, Range: rg}
					return p, n, func() [][]byte { return [][]byte{p.Y, p.U, p.V, n.Y, n.UV} }
				}
				wantP, wantN, want := frames()
				gotP, gotN, got := frames()
				withAVX2(false, func() {
					for _, tl := range tiles {
						wantP.Over(tl)
						wantN.Over(tl)
					}
				})
				withAVX2(true, func() {
					for _, tl := range tiles {
						gotP.Over(tl)
						gotN.Over(tl)
					}
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
			for y := 0; y < 64; y++ {
				x0 := rng.IntN(60)
				x1 := x0 + 1 + rng.IntN(min(12, 64-x0))
				for x := x0; x < x1; x++ {
					copy(tile.Pix[(y*TileSize+x)*4:], []float32{0.1, 0.05, 0.02, 0.2})
				}
				tile.Touch(y, x0, x1)
			}
			withAVX2(simd, func() {
				for b.Loop() {
					f.Over(tile)
				}
			})
		})
	}
}

// nudge returns how much to add to a term of a blend16 sum (dst, α, the terms exactly) to
// bring it onto a code value's rounding edge, where float32 sums done in another order (or
// fused) than the Go twin's would round to another byte.
func nudge(dst byte, a float32, terms ...float64) float64 {
	v := float64(dst)*float64(one-int32(a*one)) + one/2
	for _, t := range terms {
		v += t
	}
	if f := math.Mod(v, one); f < one/2 {
		return -f
	} else {
		return one - f
	}
}

// TestNearRoundingMatchesGo runs both twins on pixels (and blocks) nudged so that every result
// lies on a rounding edge: this catches float operations done in another order than the Go
// twin's, which random inputs show only about once in 100 000 samples.
func TestNearRoundingMatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(17, 18))
	opaque := func() [4]float32 {
		for {
			if p := randomPixel(rng); p[3] != 0 {
				return p
			}
		}
	}
	for i := range 256 {
		k := allCoeffs[i%len(allCoeffs)]
		kl := lumaCoeffs{k.YOff, k.YR, k.YG, k.YB}
		kc := chromaCoeffs{k.CbR, k.CbG, k.CbB, k.CrR, k.CrG, k.CrB, 0.25}
		row, r0, r1 := make([]float32, 4*TileSize), make([]float32, 4*TileSize), make([]float32, 4*TileSize)
		y, uv := randomBytes(rng, TileSize), randomBytes(rng, TileSize)
		for x := 0; x < TileSize; x++ {
			// Move blue so that the luma sum lands on the edge.
			p := opaque()
			p[2] += float32(nudge(y[x], p[3], float64(p[3])*float64(kl.off), float64(p[0])*float64(kl.r),
				float64(p[1])*float64(kl.g), float64(p[2])*float64(kl.b)) / float64(kl.b))
			copy(row[4*x:], p[:])
		}
		for b := 0; b < TileSize/2; b++ {
			// Move the first pixel's blue (Cb) or red (Cr) so that the sum lands on the edge.
			q := [4][4]float32{opaque(), randomPixel(rng), randomPixel(rng), randomPixel(rng)}
			var s [4]float64
			for _, p := range q {
				for c := range s {
					s[c] += float64(p[c]) / 4
				}
			}
			a := (q[0][3] + q[1][3] + q[2][3] + q[3][3]) * 0.25
			if b%2 == 0 {
				q[0][2] += float32(nudge(uv[2*b], a, s[3]*128*one, s[0]*float64(kc.cbR), s[1]*float64(kc.cbG), s[2]*float64(kc.cbB)) / float64(kc.cbB/4))
			} else {
				q[0][0] += float32(nudge(uv[2*b+1], a, s[3]*128*one, s[0]*float64(kc.crR), s[1]*float64(kc.crG), s[2]*float64(kc.crB)) / float64(kc.crR/4))
			}
			copy(r0[8*b:], q[0][:])
			copy(r0[8*b+4:], q[1][:])
			copy(r1[8*b:], q[2][:])
			copy(r1[8*b+4:], q[3][:])
		}
		wantY, gotY, wantUV, gotUV := bytes.Clone(y), bytes.Clone(y), bytes.Clone(uv), bytes.Clone(uv)
		withAVX2(false, func() {
			lumaSpan(wantY, row, 0, TileSize, &kl)
			chromaSpan(wantUV, wantUV[1:], 2, r0, r1, 0, TileSize/2, &kc)
		})
		withAVX2(true, func() {
			lumaSpan(gotY, row, 0, TileSize, &kl)
			chromaSpan(gotUV, gotUV[1:], 2, r0, r1, 0, TileSize/2, &kc)
		})
		if !bytes.Equal(gotY, wantY) || !bytes.Equal(gotUV, wantUV) {
			t.Fatalf("row %d: luma AVX2 %v, Go %v; chroma AVX2 %v, Go %v", i, gotY, wantY, gotUV, wantUV)
		}
	}
}
