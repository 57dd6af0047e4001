package render

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"trackink/composite"
	"trackink/overlay"
)

// benchCamera is the camera look of --look cctv at 2160 lines.
var benchCamera = overlay.CameraPass{Scanlines: 0.25, Vignette: 0.5, Aberration: 6, Grain: 0.06, Seed: 1, Frame: 1}

// BenchmarkCamera4K runs the camera stage alone on a 3840×2160 frame of each 8-bit format
// with two workers (the budget: 4 ms a frame on two cores), without a tint and with
// one, and with colour grain (--grain-color 0.04) and without: grain alone, luma's, then both.
func BenchmarkCamera4K(b *testing.B) {
	const w, h = 3840, 2160
	tinted := benchCamera
	tinted.Tint, tinted.TintStrength = [3]float32{0, 1, 0}, 1
	grain := overlay.CameraPass{Grain: 0.06, Seed: 1, Frame: 1}
	colour := grain
	colour.GrainColor = 0.04
	passes := map[string]overlay.CameraPass{"": benchCamera, "-tint": tinted, "-grain": grain, "-grain-color": colour}
	for _, format := range []string{"yuv420p", "nv12", "yuv420p-tint", "nv12-tint", "yuv420p-grain", "yuv420p-grain-color",
		"nv12-grain", "nv12-grain-color", "rgba-grain", "rgba-grain-color"} {
		b.Run(format, func(b *testing.B) {
			f, variant, _ := strings.Cut(format, "-")
			if variant != "" {
				variant = "-" + variant
			}
			fr := testFrame(f, w, h, 1)
			r := newRenderer(b, 2)
			p := overlay.Primitives{Camera: passes[variant]}
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				p.Camera.Frame++
				cpu += cpuDraw(b, r, fr, &p)
			}
			reportCPU(b, cpu)
		})
	}
}

// TestCamera8MatchesGo holds the AVX2 loops (planar and NV12's pairs) to the Go loops, bit
// for bit, on random rows of every length to 40 and a 4K row, with gains, black levels and
// grain that reach both clamps.
func TestCamera8MatchesGo(t *testing.T) {
	avx2Rows(t, 3, 3840, func(rng *rand.Rand, n int) {
		src := make([]byte, n)
		cols := make([]int32, n)
		for x := range src {
			src[x] = byte(rng.IntN(256))
			cols[x] = int32(rng.IntN(1<<15 + 1))
		}
		ry, c, amp := int32(rng.IntN(1<<15+1)), int32(rng.IntN(129)), int32(rng.IntN(600))*int32(rng.IntN(2))
		base := rng.Uint32()
		a, b := bytes.Clone(src), bytes.Clone(src)
		camera8(a, src, cols, base, ry, c, amp)
		camera8Go(b, src, cols, base, ry, c, amp)
		if !bytes.Equal(a, b) {
			t.Fatalf("n %d, ry %d, c %d, amp %d: AVX2 %v, Go %v", n, ry, c, amp, a, b)
		}
		// NV12's pairs: the even samples from src, the odd from src reversed.
		odd := slices.Clone(src)
		slices.Reverse(odd)
		a, b = bytes.Clone(src), bytes.Clone(src)
		camera8Pairs(a, src, odd, cols, base, ry, c, amp)
		camera8PairsGo(b, src, odd, cols, base, ry, c, amp)
		if !bytes.Equal(a, b) {
			t.Fatalf("pairs: n %d, ry %d, c %d, amp %d: AVX2 %v, Go %v", n, ry, c, amp, a, b)
		}
	})
}

// avx2Rows runs check on 20 random rows of every length to 40 and 20 of length long, from
// a generator seeded with seed and seed + 1: the AVX2 loops' tests against their Go twins.
func avx2Rows(t *testing.T, seed uint64, long int, check func(rng *rand.Rand, n int)) {
	t.Helper()
	needAVX2(t)
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for n := range 42 {
		if n == 41 { // the lengths to 40, then long
			n = long
		}
		for range 20 {
			check(rng, n)
		}
	}
}

// TestCameraParts checks each part of the camera look on a YUV420P frame: scanlines darken
// every other band of rows toward black by their amount and leave the others; the vignette
// leaves the centre and darkens the corners; the aberration moves Cr right and Cb left by
// half the px (rounded up) and leaves Y'; grain changes luma only, the same for the same
// frame number and seed, differently for another frame.
func TestCameraParts(t *testing.T) {
	const w, h = 64, 48
	r := newRenderer(t, 2)
	flat := func() *composite.YUV420P {
		f := &composite.YUV420P{Y: bytes.Repeat([]byte{200}, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
			StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
		for i := range f.U { // a vertical edge in chroma at chroma column 16
			f.U[i], f.V[i] = 100, 100
			if i%(w/2) >= 16 {
				f.U[i], f.V[i] = 160, 160
			}
		}
		return f
	}
	run := func(c overlay.CameraPass) *composite.YUV420P {
		f := flat()
		draw(t, r, f, &overlay.Primitives{Camera: c})
		return f
	}
	f := run(overlay.CameraPass{Scanlines: 0.5})
	if got, want := f.Y[0], byte(200); got != want {
		t.Errorf("scanlines: row 0 %d, want %d", got, want)
	}
	if got, want := f.Y[w], byte(16+(200-16)/2); got != want {
		t.Errorf("scanlines: row 1 %d, want %d (half-way to black)", got, want)
	}
	f = run(overlay.CameraPass{Vignette: 0.8})
	if c, corner := f.Y[h/2*w+w/2], f.Y[0]; c != 200 || corner > 80 {
		t.Errorf("vignette: centre %d (want 200), corner %d (want dark)", c, corner)
	}
	f = run(overlay.CameraPass{Aberration: 4}) // 2 chroma samples
	if f.V[17] != 100 || f.V[18] != 160 {
		t.Errorf("aberration: Cr row %v, want the edge 2 samples right", f.V[:w/2])
	}
	if f.U[13] != 100 || f.U[14] != 160 {
		t.Errorf("aberration: Cb row %v, want the edge 2 samples left", f.U[:w/2])
	}
	if !bytes.Equal(f.Y, flat().Y) {
		t.Error("aberration changed Y'")
	}
	g := overlay.CameraPass{Grain: 0.1, Seed: 5, Frame: 9}
	a, b := run(g), run(g)
	g.Frame++
	c := run(g)
	if !bytes.Equal(a.Y, b.Y) || bytes.Equal(a.Y, c.Y) || bytes.Equal(a.Y, flat().Y) {
		t.Error("grain: want the same frame twice and another for the next frame number")
	}
	if !bytes.Equal(a.U, flat().U) || !bytes.Equal(a.V, flat().V) {
		t.Error("grain changed chroma")
	}
}

// TestColorGrain checks --grain-color: on a Y'CbCr frame it changes Cb and Cr, each its own
// noise, within ± its fraction of the luma range and reaching near it, and leaves Y'; the
// same for the same frame number and seed, another for the next frame or seed; on an
// R'G'B' frame it changes the hue and leaves the BT.709 luma within a code value.
func TestColorGrain(t *testing.T) {
	const w, h = 64, 48
	r := newRenderer(t, 2)
	run := func(c overlay.CameraPass) *composite.YUV420P {
		f := &composite.YUV420P{Y: bytes.Repeat([]byte{120}, w*h), U: bytes.Repeat([]byte{128}, w*h/4), V: bytes.Repeat([]byte{128}, w*h/4),
			StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
		draw(t, r, f, &overlay.Primitives{Camera: c})
		return f
	}
	g := overlay.CameraPass{GrainColor: 0.05, Seed: 5, Frame: 9}
	a, b := run(g), run(g)
	if !bytes.Equal(a.U, b.U) || !bytes.Equal(a.V, b.V) {
		t.Error("the same frame twice differs")
	}
	if bytes.Equal(a.U, a.V) {
		t.Error("Cb and Cr took the same noise")
	}
	if !bytes.Equal(a.Y, bytes.Repeat([]byte{120}, w*h)) {
		t.Error("colour grain changed Y'")
	}
	limit := 0.05 * 219 // ± the fraction of the luma range, 8-bit limited range
	for name, pl := range map[string][]byte{"Cb": a.U, "Cr": a.V} {
		worst := 0.0
		for _, v := range pl {
			worst = max(worst, math.Abs(float64(v)-128))
		}
		if worst > limit+1 || worst < limit*0.8 {
			t.Errorf("%s: largest change %g, want up to %g and near it", name, worst, limit)
		}
	}
	for _, other := range []overlay.CameraPass{{GrainColor: 0.05, Seed: 5, Frame: 10}, {GrainColor: 0.05, Seed: 6, Frame: 9}} {
		if c := run(other); bytes.Equal(a.U, c.U) || bytes.Equal(a.V, c.V) {
			t.Errorf("seed %d frame %d: the same noise as seed 5 frame 9", other.Seed, other.Frame)
		}
	}

	// R'G'B': grey 120 everywhere; the hue moves, the luma stays.
	rgb := &composite.RGBA{Pix: bytes.Repeat([]byte{120, 120, 120, 255}, w*h), Stride: 4 * w, W: w, H: h}
	draw(t, r, rgb, &overlay.Primitives{Camera: overlay.CameraPass{GrainColor: 0.08, Seed: 5, Frame: 9}})
	moved := 0
	for i := 0; i < len(rgb.Pix); i += 4 {
		p := rgb.Pix[i : i+3]
		if l := overlay.CameraLuma(int32(p[0]), int32(p[1]), int32(p[2])); l < 119 || l > 121 {
			t.Fatalf("pixel %d: R'G'B' %v, luma %d, want 120 ± 1", i/4, p, l)
		}
		if p[0] != p[1] || p[1] != p[2] {
			moved++
		}
	}
	if moved < w*h*3/4 {
		t.Errorf("%d of %d pixels took a hue, want most", moved, w*h)
	}
}

// TestCameraNV12MatchesYUV420P: the camera look on an NV12 frame changes its samples as on
// the YUV420P frame of the same samples (Cb and Cr interleaved or in planes of their own),
// with no aberration, some, and more than the frame is wide, colour grain included.
func TestCameraNV12MatchesYUV420P(t *testing.T) {
	const w, h = 123, 37
	r := newRenderer(t, 2)
	for _, ab := range []float32{0, 9, 301} {
		p := overlay.Primitives{Camera: overlay.CameraPass{Scanlines: 0.3, Vignette: 0.6, Aberration: ab, Grain: 0.1, GrainColor: 0.07, Seed: 3, Frame: 4}}
		nv := testFrame("nv12", w, h, 7).(*composite.NV12)
		cw, ch := (w+1)/2, (h+1)/2
		yuv := &composite.YUV420P{Y: bytes.Clone(nv.Y), U: make([]byte, cw*ch), V: make([]byte, cw*ch),
			StrideY: w, StrideU: cw, StrideV: cw, W: w, H: h}
		for i := range yuv.U {
			yuv.U[i], yuv.V[i] = nv.UV[2*i], nv.UV[2*i+1]
		}
		draw(t, r, nv, &p)
		draw(t, r, yuv, &p)
		if !bytes.Equal(nv.Y, yuv.Y) {
			t.Errorf("aberration %g: Y' differs", ab)
		}
		for i := range yuv.U {
			if nv.UV[2*i] != yuv.U[i] || nv.UV[2*i+1] != yuv.V[i] {
				t.Fatalf("aberration %g: chroma sample %d: NV12 %d, %d; YUV420P %d, %d", ab, i, nv.UV[2*i], nv.UV[2*i+1], yuv.U[i], yuv.V[i])
			}
		}
	}
}

// TestCameraTintMatchesFloat holds the tint (overlay.CameraTint) to a float reference on
// random frames of every format, limited and full range, 8 and 10 bits: the picture toned
// with colour T is the frame's space's colour of y·T (y the pixel's luma fraction; a chroma
// sample's the luma at its block's top-left pixel; R'G'B': BT.709 luma), mixed with the
// original by the strength. Every sample within one code value.
func TestCameraTintMatchesFloat(t *testing.T) {
	const w, h = 37, 23
	r := newRenderer(t, 2)
	type frameCase struct {
		format string
		full   bool // yuv420p only
	}
	frames := []frameCase{{"yuv420p", false}, {"yuv420p", true}, {"nv12", false}, {"yuv420p10", true}, {"p010", false}, {"rgba", false}}
	tints := []struct {
		name string
		rgb  [3]float32
		s    float32
	}{
		{"surveillance green", [3]float32{0, 1, 0.8}, 1},
		{"lime half", [3]float32{0, 1, 0}, 0.5},
		{"white", [3]float32{1, 1, 1}, 1},
		{"orange 0.8", [3]float32{1, 0.55, 0.1}, 0.8},
		{"black", [3]float32{0, 0, 0}, 1},
		{"off", [3]float32{0, 1, 0}, 0},
	}
	for _, fc := range frames {
		for _, tc := range tints {
			name := fc.format
			if fc.full {
				name += " full"
			}
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				fr := testFrame(fc.format, w, h, 11)
				if y, ok := fr.(*composite.YUV420P); ok && fc.full {
					y.Range = composite.Full
				}
				var before, after fxFrame
				if err := effectsFrame(fr, &before); err != nil {
					t.Fatal(err)
				}
				orig := planeSamples(&before)
				draw(t, r, fr, &overlay.Primitives{Camera: overlay.CameraPass{Tint: tc.rgb, TintStrength: tc.s}})
				if err := effectsFrame(fr, &after); err != nil {
					t.Fatal(err)
				}
				got := planeSamples(&after)
				sp := before.space
				s := float64(tc.s)
				for k := range 3 {
					pl := &before.pl[k]
					for y := range pl.h {
						for x := range pl.w {
							var want float64
							if before.rgb {
								luma := (0.2126*float64(orig[0][y][x]) + 0.7152*float64(orig[1][y][x]) + 0.0722*float64(orig[2][y][x])) / 255
								want = float64(orig[k][y][x]) + s*(luma*float64(tc.rgb[k])*255-float64(orig[k][y][x]))
							} else {
								l := &before.pl[0]
								lf := (float64(orig[0][y*pl.sub][x*pl.sub]) - float64(l.black)) / float64(l.white-l.black)
								toned := sp.Color(float32(lf)*tc.rgb[0], float32(lf)*tc.rgb[1], float32(lf)*tc.rgb[2], 1)[k]
								want = float64(orig[k][y][x]) + s*(float64(toned)-float64(orig[k][y][x]))
							}
							want = min(max(want, 0), float64(pl.max))
							if d := float64(got[k][y][x]) - want; d > 1 || d < -1 {
								t.Fatalf("plane %d (%d, %d): %d from %d, want %.2f", k, x, y, got[k][y][x], orig[k][y][x], want)
							}
						}
					}
				}
			})
		}
	}
}

// planeSamples is each plane's samples, row by row.
func planeSamples(f *fxFrame) [3][][]int32 {
	var out [3][][]int32
	for k := range 3 {
		pl := &f.pl[k]
		out[k] = make([][]int32, pl.h)
		for y := range pl.h {
			out[k][y] = make([]int32, pl.w)
			pl.load(out[k][y], 0, y)
		}
	}
	return out
}

// TestCameraScanlinePeriod: the scanlines darken every other band of ScanlinePeriod rows,
// the first band kept; 0 takes the height / 540 (here 1 row).
func TestCameraScanlinePeriod(t *testing.T) {
	const w, h = 16, 48
	r := newRenderer(t, 2)
	for _, period := range []int{0, 1, 2, 3, 7, 48} {
		f := &composite.YUV420P{Y: bytes.Repeat([]byte{200}, w*h), U: bytes.Repeat([]byte{128}, w*h/4), V: bytes.Repeat([]byte{128}, w*h/4),
			StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
		draw(t, r, f, &overlay.Primitives{Camera: overlay.CameraPass{Scanlines: 0.5, ScanlinePeriod: period}})
		band := max(period, 1)
		for y := range h {
			want := byte(200)
			if (y/band)%2 == 1 {
				want = 16 + (200-16)/2
			}
			if got := f.Y[y*w]; got != want {
				t.Errorf("period %d: row %d is %d, want %d", period, y, got, want)
				break
			}
		}
	}
}

// TestTint8MatchesGo holds the tint's AVX2 loops (4:2:0 planar and NV12's pairs) to the Go
// loops, bit for bit, on random rows of every length to 40 and a 4K row, with constants
// that reach both clamps (moves of either sign).
func TestTint8MatchesGo(t *testing.T) {
	avx2Rows(t, 5, 1920, func(rng *rand.Rand, n int) {
		row, lrow := make([]byte, n), make([]byte, 2*n+rng.IntN(2))
		for x := range row {
			row[x] = byte(rng.IntN(256))
		}
		for x := range lrow {
			lrow[x] = byte(rng.IntN(256))
		}
		keep, c, b := int32(rng.IntN(1<<15+1)), int32(rng.IntN(129)+64), int32(rng.IntN(65))
		mb, mr := int32(rng.IntN(1<<16))-1<<15, int32(rng.IntN(1<<16))-1<<15
		a, g := bytes.Clone(row), bytes.Clone(row)
		tint8(a, lrow, 2, b, c, keep, mb)
		tint8Go(g, lrow, 0, 2, keep, mb, tintK(b, c, keep, mb))
		if !bytes.Equal(a, g) {
			t.Fatalf("n %d, keep %d, move %d: AVX2 %v, Go %v", n, keep, mb, a, g)
		}
		// NV12's pairs: an even row of interleaved bytes over a luma row as long or a
		// byte shorter (an odd width).
		pr := row[:n&^1]
		lp := lrow[:max(len(pr)-rng.IntN(2), 0)]
		a, g = bytes.Clone(pr), bytes.Clone(pr)
		tintPairs8(a, lp, 2, b, c, keep, mb, mr)
		tintPairs8Go(g, lp, 0, 2, keep, mb, mr, tintK(b, c, keep, mb), tintK(b, c, keep, mr))
		if !bytes.Equal(a, g) {
			t.Fatalf("pairs: n %d, keep %d, moves %d %d: AVX2 %v, Go %v", n, keep, mb, mr, a, g)
		}
	})
}
