package gpu

import (
	"math/rand"
	"path/filepath"
	"testing"
	"time"

	"trackink/composite"
	"trackink/goldens"
	"trackink/overlay"
)

// EmuTolerance is the largest difference, in 8-bit code values, between the emulated
// device's picture and the CPU's. The kernels compute every coverage value bit for bit as
// the CPU does; they differ only in storing the layer as FP16 between stages (the CPU keeps
// FP32). FP16 keeps 11 significant bits: a layer value (the frame's components in code
// values, below 256) is rounded by at most 2⁻⁴ = 0.06 code values, and four stages round at
// most four times, so the layer differs by well under half a code value, and after the final
// rounding to a byte the output differs by at most 1. TestGoldensOnEmu and TestEmuMatchesCPU
// measure it.
const EmuTolerance = 1

// TestGoldensOnEmu renders every golden scene on the emulated device and compares it with
// the stored picture.
func TestGoldensOnEmu(t *testing.T) {
	for _, s := range goldens.Scenes {
		t.Run(s.Name, func(t *testing.T) {
			g := newTestGPU(t, false)
			f := testFont(t, overlay.DefaultStyle().ForHeight(s.Height).LabelSize)
			p := overlay.Primitives{Font: f}
			if err := s.Draw(&p, f, s.Width, s.Height); err != nil {
				t.Fatal(err)
			}
			img := goldens.Checkerboard(s.Width, s.Height)
			if err := g.Draw(&composite.RGBA{Pix: img.Pix, Stride: img.Stride, W: s.Width, H: s.Height}, &p); err != nil {
				t.Fatal(err)
			}
			want, err := goldens.ReadPNG(filepath.Join("..", "..", "goldens", "testdata", s.Name+".png"))
			if err != nil {
				t.Fatal(err)
			}
			worst, over := diffBytes(img.Pix, want.Pix, EmuTolerance)
			t.Logf("%s: largest difference %d code values, %d bytes over %d", s.Name, worst, over, EmuTolerance)
			if over > 0 {
				t.Errorf("%s: %d bytes differ from the golden by more than %d (largest %d)", s.Name, over, EmuTolerance, worst)
			}
		})
	}
}

func testSeed(t *testing.T) int64 {
	seed := *seedFlag
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	t.Logf("seed %d (rerun with -seed=%d)", seed, seed)
	return seed
}

func TestEmuMatchesCPU(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed(t)))
	cpu := newTestCPU(t)
	f := testFont(t, 12)
	// One backend for all scenes: sizes change (recapture), data changes (replay), and each
	// frame must leave the layer clear for the next.
	g := newTestGPU(t, false)
	for i := 0; i < 24; i++ {
		w, h := 16+rng.Intn(300), 16+rng.Intn(240)
		p := randomScene(rng, w, h, f)
		fa, fb := randomFrame(rng, w, h)
		if err := cpu.Draw(fa.frame, p); err != nil {
			t.Fatal(err)
		}
		if err := g.Draw(fb.frame, p); err != nil {
			t.Fatal(err)
		}
		worst, over := diffBytes(fa.bytes(), fb.bytes(), EmuTolerance)
		_, differ := diffBytes(fa.bytes(), fb.bytes(), 0)
		t.Logf("scene %d: %dx%d %s: largest difference %d, %d of %d bytes differ", i, w, h, fa.name, worst, differ, len(fa.bytes()))
		if over > 0 {
			t.Errorf("scene %d (%dx%d %s, %d boxes %d lines %d curves %d labels): %d bytes differ by more than %d (largest %d)",
				i, w, h, fa.name, len(p.Boxes), len(p.Lines), len(p.Curves), len(p.Labels), over, EmuTolerance, worst)
		}
	}
}

// testFrame is a frame with random content, and its bytes for comparison.
type testFrame struct {
	name   string
	frame  composite.Surface
	planes [][]byte
}

func (f testFrame) bytes() []byte {
	var b []byte
	for _, p := range f.planes {
		b = append(b, p...)
	}
	return b
}

// randomFrame returns two identical frames of a random format, stride padding and
// content: one for each backend. The content is noise, so that a pixel a backend should
// not have touched but did shows.
func randomFrame(rng *rand.Rand, w, h int) (testFrame, testFrame) {
	kind := rng.Intn(3)
	pad := rng.Intn(3) * 7
	m, r := composite.Matrix(rng.Intn(2)), composite.Range(rng.Intn(2))
	cw, ch := (w+1)/2, (h+1)/2
	plane := func(n int) ([]byte, []byte) {
		a := make([]byte, n)
		rng.Read(a)
		return a, append([]byte(nil), a...)
	}
	switch kind {
	case 0:
		a, b := plane((4*w + pad) * h)
		return testFrame{"rgba", &composite.RGBA{Pix: a, Stride: 4*w + pad, W: w, H: h}, [][]byte{a}},
			testFrame{"rgba", &composite.RGBA{Pix: b, Stride: 4*w + pad, W: w, H: h}, [][]byte{b}}
	case 1:
		ya, yb := plane((w + pad) * h)
		ua, ub := plane((cw + pad) * ch)
		va, vb := plane((cw + pad) * ch)
		mk := func(y, u, v []byte) *composite.YUV420P {
			return &composite.YUV420P{Y: y, U: u, V: v, StrideY: w + pad, StrideU: cw + pad, StrideV: cw + pad, W: w, H: h, Matrix: m, Range: r}
		}
		return testFrame{"yuv420p", mk(ya, ua, va), [][]byte{ya, ua, va}}, testFrame{"yuv420p", mk(yb, ub, vb), [][]byte{yb, ub, vb}}
	default:
		ya, yb := plane((w + pad) * h)
		uva, uvb := plane((2*cw + pad) * ch)
		mk := func(y, uv []byte) *composite.NV12 {
			return &composite.NV12{Y: y, UV: uv, StrideY: w + pad, StrideUV: 2*cw + pad, W: w, H: h, Matrix: m, Range: r}
		}
		return testFrame{"nv12", mk(ya, uva), [][]byte{ya, uva}}, testFrame{"nv12", mk(yb, uvb), [][]byte{yb, uvb}}
	}
}

// randomScene draws primitives that reach past the frame's edges, with widths from
// sub-pixel to wide, translucent colours, zero-length lines, straight and sharply bent
// curves, degenerate boxes and labels with any bytes.
func randomScene(rng *rand.Rand, w, h int, f *overlay.Font) *overlay.Primitives {
	p := &overlay.Primitives{Font: f}
	coord := func(n int) float32 { return float32(rng.Float64()*float64(n)*1.4 - float64(n)*0.2) }
	width := func() float32 {
		if rng.Intn(4) == 0 {
			return float32(rng.Float64())
		}
		return float32(rng.Float64() * 12)
	}
	color := func() overlay.RGBA {
		a := float32(rng.Float64())
		if rng.Intn(3) == 0 {
			a = 1
		}
		return overlay.RGBA{R: float32(rng.Float64()) * a, G: float32(rng.Float64()) * a, B: float32(rng.Float64()) * a, A: a}
	}
	for range rng.Intn(12) {
		bw, bh := float32(rng.Float64()*float64(w)/2), float32(rng.Float64()*float64(h)/2)
		if rng.Intn(5) == 0 {
			bw = float32(rng.Float64()) // thinner than a pixel
		}
		b := overlay.Box{X: coord(w), Y: coord(h), W: bw, H: bh, Radius: float32(rng.Float64()) * min(bw, bh) / 2}
		if rng.Intn(3) > 0 {
			b.Stroke, b.StrokeColor = width(), color()
		}
		if rng.Intn(3) > 0 {
			b.Fill = color()
		}
		p.Boxes = append(p.Boxes, b)
	}
	for range rng.Intn(20) {
		l := overlay.Line{X0: coord(w), Y0: coord(h), Width: width(), Color: color()}
		l.X1, l.Y1 = l.X0, l.Y0
		if rng.Intn(6) > 0 {
			l.X1, l.Y1 = coord(w), coord(h)
		}
		p.Lines = append(p.Lines, l)
	}
	for range rng.Intn(16) {
		c := overlay.Curve{X0: coord(w), Y0: coord(h), X2: coord(w), Y2: coord(h), Width: width(), Color: color()}
		bend := float32(rng.NormFloat64())
		if rng.Intn(5) == 0 {
			bend = 0 // collinear control point
		}
		c.X1, c.Y1 = (c.X0+c.X2)/2-(c.Y2-c.Y0)*bend, (c.Y0+c.Y2)/2+(c.X2-c.X0)*bend
		if rng.Intn(3) == 0 {
			c.Fade0, c.Fade1 = float32(rng.Float64()), float32(rng.Float64())
		}
		if n := len(p.Curves); n > 0 && rng.Intn(3) == 0 {
			// A trail: this curve continues the last one from its end point.
			prev := p.Curves[n-1]
			c.X0, c.Y0, c.Joined = prev.X2, prev.Y2, true
		}
		p.Curves = append(p.Curves, c)
	}
	for range rng.Intn(5) {
		text := make([]byte, rng.Intn(12))
		for i := range text {
			text[i] = byte(32 + rng.Intn(95))
			if rng.Intn(10) == 0 {
				text[i] = byte(rng.Intn(256))
			}
		}
		p.Labels = append(p.Labels, overlay.Label{X: int(coord(w)), Y: int(coord(h)), Text: text, Color: color(), Background: color()})
	}
	return p
}
