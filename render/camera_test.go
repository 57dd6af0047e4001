package render

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"trackink/composite"
	"trackink/overlay"
)

// benchCamera is the camera look of --look cctv at 2160 lines.
var benchCamera = overlay.CameraPass{Scanlines: 0.25, Vignette: 0.5, Aberration: 6, Grain: 0.06, Seed: 1, Frame: 1}

// BenchmarkCamera4K runs the camera stage alone on a 3840×2160 frame of each 8-bit format
// with two workers (the budget: 4 ms a frame on two cores).
func BenchmarkCamera4K(b *testing.B) {
	const w, h = 3840, 2160
	for _, format := range []string{"yuv420p", "nv12"} {
		b.Run(format, func(b *testing.B) {
			fr := testFrame(format, w, h, 1)
			r := newRenderer(b, 2)
			p := overlay.Primitives{Camera: benchCamera}
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
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range append(rangeTo(40), 3840) {
		for range 20 {
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
		}
	}
}

func rangeTo(n int) []int {
	s := make([]int, n+1)
	for i := range s {
		s[i] = i
	}
	return s
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

// TestCameraNV12MatchesYUV420P: the camera look on an NV12 frame changes its samples as on
// the YUV420P frame of the same samples (Cb and Cr interleaved or in planes of their own),
// with no aberration, some, and more than the frame is wide.
func TestCameraNV12MatchesYUV420P(t *testing.T) {
	const w, h = 123, 37
	r := newRenderer(t, 2)
	for _, ab := range []float32{0, 9, 301} {
		p := overlay.Primitives{Camera: overlay.CameraPass{Scanlines: 0.3, Vignette: 0.6, Aberration: ab, Grain: 0.1, Seed: 3, Frame: 4}}
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
