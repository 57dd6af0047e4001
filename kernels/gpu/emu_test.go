package gpu

import (
	"encoding/binary"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"trackink/composite"
	"trackink/goldens"
	"trackink/kernels/device"
	"trackink/overlay"
	"trackink/sdf"
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

// EmuTolerance10 is EmuTolerance for 10-bit frames, in 10-bit code values. The layer then
// holds 10-bit code values (below 1024), four times the 8-bit ones, and FP16's 11
// significant bits round them by at most 2⁻² = 0.25 code values; four stages round at most
// four times, so the layer differs by under one code value, and the output by at most 2:
// half an 8-bit code value. TestEmuMatchesCPU measures it on YUV420P10 and P010 frames.
const EmuTolerance10 = 2

// EmuTolerancePick is EmuTolerance for --blend lighten and darken: they fade the layer in
// over a sixteenth of the luma's range (composite's pickRamp), a slope that scales the FP16
// layer's rounding of the luma difference (under half a code value) by the colours'
// difference over a sixteenth, so that where a saturated layer's luma meets the frame's an
// R', G' or B' sample may differ by 2, the goldens' Tolerance. (Y'CbCr frames keep
// EmuTolerance: Y' itself changes little across the fade, and each chroma sample is a
// block's mean.)
const EmuTolerancePick = 2

// EmuTolerance10Pick is EmuTolerance10 for --blend lighten and darken, doubled as
// EmuTolerancePick doubles EmuTolerance: the fade's slope scales the FP16 layer's rounding
// alike, and in 10-bit code values (a quarter of an 8-bit one) it shows in Y'CbCr samples
// too. TestEmuMatchesCPU found 3 in 5 of 300 runs, always on those blends and 10-bit frames.
const EmuTolerance10Pick = 2 * EmuTolerance10

// TestGoldensOnEmu renders every golden scene on the emulated device and compares it with
// the stored picture.
func TestGoldensOnEmu(t *testing.T) {
	for _, s := range goldens.Scenes {
		t.Run(s.Name, func(t *testing.T) {
			emu := func(o overlay.BackendOptions) (overlay.Backend, error) {
				return New(device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}), o)
			}
			if s.Footage > 0 {
				footageOnEmu(t, s, emu)
				return
			}
			img, err := goldens.Render(s, 0, emu)
			if err != nil {
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

// footageOnEmu holds a scene drawn on real footage by the emulated device to the CPU's
// drawing within EmuTolerance in the frame's own Y'CbCr samples (the golden, converted to
// RGB, would scale a difference of one code value up to three).
func footageOnEmu(t *testing.T, s goldens.Scene, emu overlay.NewBackend) {
	if _, err := os.Stat(goldens.Footage); err != nil {
		// The GPU kit carries no footage; setup installs it wherever the tests are made.
		t.Skipf("%s draws on %s, not installed here", s.Name, goldens.Footage)
	}
	cpu, err := goldens.FootageFrame(s.Footage)
	if err != nil {
		t.Fatal(err)
	}
	dev, _ := goldens.FootageFrame(s.Footage)
	if err := goldens.DrawOn(s, cpu, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := goldens.DrawOn(s, dev, 0, emu); err != nil {
		t.Fatal(err)
	}
	for i, pl := range [][2][]byte{{cpu.Y, dev.Y}, {cpu.U, dev.U}, {cpu.V, dev.V}} {
		worst, over := diffBytes(pl[0], pl[1], EmuTolerance)
		t.Logf("%s plane %d: largest difference %d code values, %d samples over %d", s.Name, i, worst, over, EmuTolerance)
		if over > 0 {
			t.Errorf("%s plane %d: %d samples differ from the CPU's by more than %d (largest %d)", s.Name, i, over, EmuTolerance, worst)
		}
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
		p.Blend = composite.Blend(i % len(composite.BlendNames()))                     // every mode: blendPixel against Tile.Blend
		p.Transparency = [...]float32{0, 0.5, 0.8, 0}[i/len(composite.BlendNames())%4] // every mode faded (--overlay-opacity)
		if i%2 == 1 {
			p.Glow = sdf.NewGlow(float32(rng.Float64()*16), float32(rng.Float64()))
		}
		fa, fb := randomFrame(rng, w, h)
		if err := cpu.Draw(fa.frame, p); err != nil {
			t.Fatal(err)
		}
		if err := g.Draw(fb.frame, p); err != nil {
			t.Fatal(err)
		}
		tol := fa.tolerance()
		if p.Blend == composite.BlendLighten || p.Blend == composite.BlendDarken {
			tol = EmuTolerancePick
			if fa.shift >= 0 {
				tol = EmuTolerance10Pick
			}
		}
		worst, over := fa.diff(fb, tol)
		_, differ := fa.diff(fb, 0)
		t.Logf("scene %d: %dx%d %s: largest difference %d, %d of %d samples differ", i, w, h, fa.name, worst, differ, len(fa.samples()))
		if over > 0 {
			t.Errorf("scene %d (%dx%d %s, %s, transparency %g, %d boxes %d lines %d curves %d labels): %d samples differ by more than %d (largest %d)",
				i, w, h, fa.name, p.Blend, p.Transparency, len(p.Boxes), len(p.Lines), len(p.Curves), len(p.Labels), over, tol, worst)
		}
	}
}

// testFrame is a frame with random content, and its planes for comparison.
type testFrame struct {
	name   string
	frame  composite.Surface
	planes [][]byte
	// shift is where a 10-bit frame's words hold their sample (0, or 6 for P010); -1 for an
	// 8-bit frame, whose samples are bytes.
	shift int
}

// samples returns the frame's samples, plane after plane: its bytes, or the 10-bit values
// of its words.
func (f testFrame) samples() []int {
	var s []int
	for _, p := range f.planes {
		if f.shift < 0 {
			for _, b := range p {
				s = append(s, int(b))
			}
			continue
		}
		for i := 0; i+1 < len(p); i += 2 {
			s = append(s, int(binary.LittleEndian.Uint16(p[i:]))>>f.shift)
		}
	}
	return s
}

// tolerance is the largest difference allowed between the CPU and the emulated device on f.
func (f testFrame) tolerance() int {
	if f.shift < 0 {
		return EmuTolerance
	}
	return EmuTolerance10
}

// diff returns the largest difference between the samples of f and g, and how many differ
// by more than tol.
func (f testFrame) diff(g testFrame, tol int) (worst, over int) {
	a, b := f.samples(), g.samples()
	for i := range a {
		d := max(a[i]-b[i], b[i]-a[i])
		worst = max(worst, d)
		if d > tol {
			over++
		}
	}
	return worst, over
}

// randomFrame returns two identical frames of a random format (RGBA, YUV420P, NV12,
// YUV420P10, P010), stride padding, matrix, range and content: one for each backend. The
// content is noise (10-bit frames: any 10-bit value, P010's low bits zero), so that a pixel a
// backend should not have touched but did shows.
func randomFrame(rng *rand.Rand, w, h int) (testFrame, testFrame) {
	kind := rng.Intn(5)
	pad := rng.Intn(3) * 7
	m, r := composite.Matrix(rng.Intn(3)), composite.Range(rng.Intn(2))
	cw, ch := (w+1)/2, (h+1)/2
	shift := -1
	switch kind {
	case 3:
		shift = 0
	case 4:
		shift = 6
	}
	if shift >= 0 {
		pad *= 2 // 10-bit rows hold whole words
	}
	plane := func(n int) ([]byte, []byte) {
		a := make([]byte, n)
		rng.Read(a)
		for i := 0; shift >= 0 && i+1 < n; i += 2 {
			binary.LittleEndian.PutUint16(a[i:], uint16(rng.Intn(1024))<<shift)
		}
		return a, append([]byte(nil), a...)
	}
	pair := func(name string, mk func(planes ...[]byte) composite.Surface, sizes ...int) (testFrame, testFrame) {
		var a, b [][]byte
		for _, n := range sizes {
			pa, pb := plane(n)
			a, b = append(a, pa), append(b, pb)
		}
		return testFrame{name, mk(a...), a, shift}, testFrame{name, mk(b...), b, shift}
	}
	switch kind {
	case 0:
		return pair("rgba", func(p ...[]byte) composite.Surface {
			return &composite.RGBA{Pix: p[0], Stride: 4*w + pad, W: w, H: h}
		}, (4*w+pad)*h)
	case 1:
		return pair("yuv420p", func(p ...[]byte) composite.Surface {
			return &composite.YUV420P{Y: p[0], U: p[1], V: p[2], StrideY: w + pad, StrideU: cw + pad, StrideV: cw + pad, W: w, H: h, Matrix: m, Range: r}
		}, (w+pad)*h, (cw+pad)*ch, (cw+pad)*ch)
	case 2:
		return pair("nv12", func(p ...[]byte) composite.Surface {
			return &composite.NV12{Y: p[0], UV: p[1], StrideY: w + pad, StrideUV: 2*cw + pad, W: w, H: h, Matrix: m, Range: r}
		}, (w+pad)*h, (2*cw+pad)*ch)
	case 3:
		return pair("yuv420p10", func(p ...[]byte) composite.Surface {
			return &composite.YUV420P10{Y: p[0], U: p[1], V: p[2], StrideY: 2*w + pad, StrideU: 2*cw + pad, StrideV: 2*cw + pad, W: w, H: h, Matrix: m, Range: r}
		}, (2*w+pad)*h, (2*cw+pad)*ch, (2*cw+pad)*ch)
	default:
		return pair("p010", func(p ...[]byte) composite.Surface {
			return &composite.P010{Y: p[0], UV: p[1], StrideY: 2*w + pad, StrideUV: 4*cw + pad, W: w, H: h, Matrix: m, Range: r}
		}, (2*w+pad)*h, (4*cw+pad)*ch)
	}
}

// randomScene draws primitives that reach past the frame's edges, with widths from
// sub-pixel to wide, translucent colours, zero-length lines, straight and sharply bent
// curves, degenerate boxes, labels with any bytes and box effects.
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
		if rng.Intn(3) == 0 {
			l.Color1, l.Gradient = color(), true
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
		lw, lh := p.Font.LabelSize(text)
		p.Labels = append(p.Labels, overlay.Label{X: int(coord(w)), Y: int(coord(h)), W: lw, H: lh, Text: text, Color: color(), Background: color()})
	}
	p.Effects = randomEffects(rng, w, h, coord)
	return p
}
