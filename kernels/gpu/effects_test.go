package gpu

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"trackink/composite"
	"trackink/kernels/internal/clayout"
	"trackink/overlay"
)

// TestEffectsEmuMatchCPU runs every box effect on the emulated device and the CPU
// (matchFrameChanges), with overlapping boxes, boxes past the frame's edge and rounded
// corners, and a tracker's garbage.
func TestEffectsEmuMatchCPU(t *testing.T) {
	matchFrameChanges(t, overlay.EffectNames(), func(name string) overlay.Primitives { return effectBoxes(name, 0, 0) })
}

// TestEffectsFeatherEmuMatchCPU is TestEffectsEmuMatchCPU with the effects feathered
// (EffectBox.Feather: a ramp within the boxes, one wider than the smaller boxes' halves)
// and mixed with the picture (EffectBox.Transparency).
func TestEffectsFeatherEmuMatchCPU(t *testing.T) {
	for _, c := range []struct{ feather, opacity float32 }{{0.5, 1}, {6, 1}, {30, 1}, {0, 0.35}, {6, 0.8}, {0, 0}} {
		t.Run(fmt.Sprintf("feather%g/opacity%g", c.feather, c.opacity), func(t *testing.T) {
			matchFrameChanges(t, overlay.EffectNames(), func(name string) overlay.Primitives {
				return effectBoxes(name, c.feather, 1-c.opacity)
			})
		})
	}
}

// TestGaussianSigmasEmuMatchCPU is TestEffectsEmuMatchCPU's Gaussian across its sigma
// range: sigma 1 (a box of radius 0), 17, and 50, whose window reaches past the whole
// 97×61 frame (the column sums tk_effects_gauss leaves span every column of it).
func TestGaussianSigmasEmuMatchCPU(t *testing.T) {
	for _, sigma := range []float32{1, 17, 50} {
		t.Run(fmt.Sprint(sigma), func(t *testing.T) {
			matchFrameChanges(t, []string{"gaussian"}, func(name string) overlay.Primitives {
				p := effectBoxes(name, 0, 0)
				for i := range p.Effects {
					if p.Effects[i].Kind == overlay.EffectGaussian {
						p.Effects[i].Strength = sigma
					}
				}
				return p
			})
		})
	}
}

// TestSortDescendingEmuMatchCPU is TestEffectsEmuMatchCPU's pixel sort brightest first
// (EffectBox.SortDescending), along rows and columns.
func TestSortDescendingEmuMatchCPU(t *testing.T) {
	matchFrameChanges(t, []string{"sort"}, func(name string) overlay.Primitives {
		p := effectBoxes(name, 0, 0)
		for i := range p.Effects {
			p.Effects[i].SortDescending = 1
		}
		return p
	})
}

// TestSortOptionsEmuMatchCPU is TestEffectsEmuMatchCPU's pixel sort keyed by saturation
// and by hue (EffectBox.SortKey), and with a shortest run (SortMinRun), along rows and
// columns, ascending and descending; and by hue ranges that wrap through red (each box's
// range swapped: low above high).
func TestSortOptionsEmuMatchCPU(t *testing.T) {
	for _, c := range []struct {
		name        string
		key, minRun int32
		wrap        bool
	}{{"saturation", overlay.SortSaturation, 0, false}, {"hue", overlay.SortHue, 0, false}, {"luma/min-run", overlay.SortLuma, 5, false},
		{"hue/min-run", overlay.SortHue, 4, false}, {"hue/wrapped", overlay.SortHue, 0, true}, {"hue/wrapped/min-run", overlay.SortHue, 3, true}} {
		t.Run(c.name, func(t *testing.T) {
			matchFrameChanges(t, []string{"sort"}, func(name string) overlay.Primitives {
				p := effectBoxes(name, 0, 0)
				for i := range p.Effects {
					e := &p.Effects[i]
					e.SortKey, e.SortMinRun, e.SortDescending = c.key, c.minRun, int32(i%2)
					if c.wrap {
						e.SortLo, e.SortHi = e.SortHi, e.SortLo
					}
				}
				return p
			})
		})
	}
}

// TestSortManyLinesEmuMatchCPU is pixel sort with more lines than tk_effects_sort has threads
// (a 66 × 401 frame: 14 tiles of 128 threads, 1 792, against about 3 600 lines on RGBA and
// 5 400 on Y'CbCr frames from the 16 sort boxes), so that
// threads sort several lines each, in boxes that overlap (each sorts the frame as decoded),
// of every option, among boxes of other effects and empty ones (records of no lines): the
// samples must be the CPU's exactly.
func TestSortManyLinesEmuMatchCPU(t *testing.T) {
	matchFrameChangesAt(t, 66, 401, []string{"sort"}, func(string) overlay.Primitives {
		fx := []overlay.EffectBox{{X: 0, Y: 0, W: 66, H: 401, Kind: overlay.EffectBlur, Strength: 2}}
		for i := range 16 {
			fx = append(fx, overlay.EffectBox{X: float32(i%3) * 5, Y: float32(i) * 7, W: 66, H: 401, Kind: overlay.EffectSort,
				SortLo: 0.1 * float32(i%4), SortHi: 0.95 - 0.05*float32(i%3), SortColumns: int32(i / 2 % 2), SortDescending: int32(i % 2),
				SortKey: int32(i % 3), SortMinRun: int32(i % 4), Feather: float32(i % 2 * 9)})
			if i == 5 {
				fx = append(fx, overlay.EffectBox{X: 2000, Y: 2000, W: 5, H: 5, Kind: overlay.EffectSort, SortHi: 1},
					overlay.EffectBox{X: 10, Y: 10, W: 20, H: 20, Kind: overlay.EffectInvert})
			}
		}
		return overlay.Primitives{Effects: fx}
	})
}

// TestSortHueGreysEmuMatchCPU is pixel sort by hue on stripes of grey, near-grey, magenta-red
// and red (R'G'B' and 4:2:0 chroma), along rows and columns, through a wrapped range and
// every hue: the greys, in no hue range (render/sort.go hueFloor), stay on both backends,
// which give the same bytes.
func TestSortHueGreysEmuMatchCPU(t *testing.T) {
	cpu := newTestCPU(t)
	g := newTestGPU(t, false)
	const w, h = 48, 6
	rgbs := [][3]byte{{128, 128, 128}, {255, 0, 150}, {128, 128, 128}, {255, 0, 0}, {255, 0, 150}, {131, 128, 126}, {255, 0, 0}, {128, 128, 128}, {255, 0, 0}, {129, 127, 128}, {250, 10, 20}, {90, 90, 90}}
	chroma := [][2]byte{{128, 128}, {170, 230}, {128, 128}, {90, 240}, {170, 230}, {130, 127}, {90, 240}, {128, 128}, {90, 240}, {127, 131}, {110, 200}, {126, 128}}
	frames := func(format string) (testFrame, testFrame) {
		mk := func() testFrame {
			switch format {
			case "rgba":
				p := make([]byte, 4*w*h)
				for i := range w * h {
					copy(p[4*i:], rgbs[i%w/4][:])
					p[4*i+3] = 255
				}
				return testFrame{format, &composite.RGBA{Pix: p, Stride: 4 * w, W: w, H: h}, [][]byte{p}, -1}
			default:
				y, u, v := make([]byte, w*h), make([]byte, w*h/4), make([]byte, w*h/4)
				for i := range y {
					y[i] = 120
				}
				for i := range u {
					c := chroma[i%(w/2)/2]
					u[i], v[i] = c[0], c[1]
				}
				return testFrame{format, &composite.YUV420P{Y: y, U: u, V: v, StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}, [][]byte{y, u, v}, -1}
			}
		}
		return mk(), mk()
	}
	for _, format := range []string{"rgba", "yuv420p"} {
		for _, r := range [][2]float32{{0.9, 0.1}, {0, 1}, {0.3, 0.95}} {
			fa, fb := frames(format)
			orig, _ := frames(format)
			p := overlay.Primitives{Effects: []overlay.EffectBox{{X: 0, Y: 0, W: w, H: h, Kind: overlay.EffectSort,
				SortKey: overlay.SortHue, SortLo: r[0], SortHi: r[1]}}}
			if err := cpu.Draw(fa.frame, &p); err != nil {
				t.Fatal(err)
			}
			if err := g.Draw(fb.frame, &p); err != nil {
				t.Fatal(err)
			}
			if worst, over := fa.diff(fb, 0); over > 0 {
				t.Errorf("%s range %v: %d samples differ (largest %d)", format, r, over, worst)
			}
			if _, moved := fa.diff(orig, 0); moved == 0 && r[0] > r[1] {
				t.Errorf("%s range %v: nothing sorted (the red, magenta-red run should be)", format, r)
			}
		}
	}
}

// effectBoxes are the boxes of TestEffectsEmuMatchCPU, of effect name, feathered and
// transparent.
func effectBoxes(name string, feather, transparency float32) overlay.Primitives {
	kind, _ := overlay.ParseEffect(name)
	s := overlay.EffectStrength(kind, 0)
	tint := overlay.RGBA{R: 0.2, G: 0.9, B: 0.4, A: 1}
	fx := []overlay.EffectBox{
		{X: 5.5, Y: 3.2, W: 40.4, H: 30.1, Radius: 7, Kind: kind, Strength: s, Tint: tint, SortLo: 0.2, SortHi: 0.9},
		{X: 30, Y: 20, W: 30, H: 35, Kind: kind, Strength: s, Tint: tint, SortLo: 0.1, SortHi: 0.6, SortColumns: 1},
		{X: 70.3, Y: 40.6, W: 40, H: 40, Radius: 12, Kind: kind, Strength: s, Tint: tint, SortLo: 0, SortHi: 1},
		{X: -4, Y: 44, W: 14, H: 9, Radius: 2, Kind: overlay.EffectInvert, Tint: tint},
		// Edges millions of px away, as the readers allow.
		{X: 60.5, Y: -1e6, W: 9999000, H: 1e6 + 30, Kind: kind, Strength: s, Tint: tint, SortLo: 0.2, SortHi: 0.8},
		// Garbage from a tracker, skipped by both.
		{X: float32(math.NaN()), Y: 4, W: 10, H: 10, Kind: overlay.EffectInvert},
		{X: -1e30, Y: -1e30, W: 2e30, H: 2e30, Kind: overlay.EffectInvert},
	}
	for i := range fx {
		fx[i].Feather, fx[i].Transparency = feather, transparency
	}
	return overlay.Primitives{Effects: fx}
}

// matchFrameChanges draws the primitives prims gives for each name, which change the frame
// itself (box effects, the camera look), on the emulated device and the CPU, on a frame of
// each format (random strides, matrix and range, 8- and 10-bit) at an odd size, alone and
// with a box drawn: the frame changes must be the CPU's samples exactly, the overlay within
// EmuTolerance.
func matchFrameChanges(t *testing.T, names []string, prims func(name string) overlay.Primitives) {
	matchFrameChangesAt(t, 97, 61, names, prims)
}

// matchFrameChangesAt is matchFrameChanges on a w × h frame.
func matchFrameChangesAt(t *testing.T, w, h int, names []string, prims func(name string) overlay.Primitives) {
	cpu := newTestCPU(t)
	g := newTestGPU(t, false)
	eachFormat(w, h, func(seed int64, format string) {
		for _, name := range names {
			for _, withBox := range []bool{false, true} {
				fa, fb := randomFrame(rand.New(rand.NewSource(seed)), w, h)
				p := prims(name)
				if withBox {
					p.Boxes = []overlay.Box{{X: 5.5, Y: 3.2, W: 40.4, H: 30.1, Radius: 7, Stroke: 1.5,
						StrokeColor: overlay.RGBA{R: 1, G: 1, B: 1, A: 1}, Fill: overlay.RGBA{R: 0.1, A: 0.2}}}
				}
				if err := cpu.Draw(fa.frame, &p); err != nil {
					t.Fatal(err)
				}
				if err := g.Draw(fb.frame, &p); err != nil {
					t.Fatal(err)
				}
				tol := 0
				if withBox {
					tol = fa.tolerance()
				}
				if worst, over := fa.diff(fb, tol); over > 0 {
					t.Errorf("%s %s (box %v): %d samples differ by more than %d (largest %d)", format, name, withBox, over, tol, worst)
				}
			}
		}
	})
}

// eachFormat calls f with the seed of the first random frame (randomFrame, w × h) of each of
// five formats, and the format's name.
func eachFormat(w, h int, f func(seed int64, format string)) {
	seen := map[string]bool{}
	for seed := int64(0); len(seen) < 5; seed++ {
		probe, _ := randomFrame(rand.New(rand.NewSource(seed)), w, h)
		if !seen[probe.name] {
			seen[probe.name] = true
			f(seed, probe.name)
		}
	}
}

// TestEffectsLayoutMatchesC holds effects.go's records to kernels/effects.h's.
func TestEffectsLayoutMatchesC(t *testing.T) {
	var e tkEffects
	var pl tkFxPlane
	var b overlay.EffectBox
	var p tkParams
	var c tkCamera
	want := []struct {
		name string
		got  uintptr
	}{
		{"sizeof TkEffectBox", unsafe.Sizeof(b)}, {"sizeof TkFxPlane", unsafe.Sizeof(pl)},
		{"sizeof TkFxCopy", unsafe.Sizeof(tkFxCopy{})}, {"sizeof TkEffects", unsafe.Sizeof(e)},
		{"TkEffectBox kind", unsafe.Offsetof(b.Kind)}, {"TkEffectBox tint", unsafe.Offsetof(b.Tint)},
		{"TkFxPlane stride", unsafe.Offsetof(pl.Stride)}, {"TkFxPlane black", unsafe.Offsetof(pl.Black)},
		{"TkEffects boxes", unsafe.Offsetof(e.Boxes)}, {"TkEffects planes", unsafe.Offsetof(e.Planes)},
		{"TkEffects copies", unsafe.Offsetof(e.Copies)}, {"TkParams effects", unsafe.Offsetof(p.Effects)},
		{"sizeof TkCamera", unsafe.Sizeof(c)}, {"TkCamera amp", unsafe.Offsetof(c.Amp)},
		{"TkCamera shift", unsafe.Offsetof(c.Shift)}, {"TkCamera planes", unsafe.Offsetof(c.Planes)},
		{"TkCamera copies", unsafe.Offsetof(c.Copies)}, {"TkParams camera", unsafe.Offsetof(p.Camera)},
		{"TkEffectBox sortLo", unsafe.Offsetof(b.SortLo)}, {"TkEffectBox sortColumns", unsafe.Offsetof(b.SortColumns)},
		{"TkCamera tint", unsafe.Offsetof(c.Tint)}, {"TkCamera move", unsafe.Offsetof(c.Move)},
		{"TkEffectBox feather", unsafe.Offsetof(b.Feather)}, {"TkEffectBox transparency", unsafe.Offsetof(b.Transparency)},
		{"TkEffectBox sortDescending", unsafe.Offsetof(b.SortDescending)}, {"TkEffectBox sortKey", unsafe.Offsetof(b.SortKey)},
		{"TkEffectBox sortMinRun", unsafe.Offsetof(b.SortMinRun)},
		{"TkCamera ampC", unsafe.Offsetof(c.AmpC)}, {"TkCamera keyC", unsafe.Offsetof(c.KeyC)},
		{"sizeof TkFxGauss", unsafe.Sizeof(tkFxGauss{})}, {"TkFxGauss cols", unsafe.Offsetof(tkFxGauss{}.Cols)},
		{"TkEffects gauss", unsafe.Offsetof(e.Gauss)}, {"TkFxGauss r", unsafe.Offsetof(tkFxGauss{}.R)},
		{"sizeof TkFxSort", unsafe.Sizeof(tkFxSort{})}, {"TkFxSort cols", unsafe.Offsetof(tkFxSort{}.Cols)},
		{"TkFxSort first", unsafe.Offsetof(tkFxSort{}.First)}, {"TkEffects sort", unsafe.Offsetof(e.Sort)},
		{"TkEffects sortLines", unsafe.Offsetof(e.SortLines)},
	}
	for i, w := range want {
		if c := clayout.EffectsEntry(i); c != int(w.got) {
			t.Errorf("%s: C says %d, Go %d", w.name, c, w.got)
		}
	}
	if clayout.EffectsEntry(len(want)) != -1 {
		t.Errorf("clayout has entries this test does not check")
	}
}

// randomEffects are up to four effect boxes of any kind and strength in its range, placed
// by coord (which reaches past the frame's edges), for randomScene.
func randomEffects(rng *rand.Rand, w, h int, coord func(int) float32) []overlay.EffectBox {
	var fx []overlay.EffectBox
	for range rng.Intn(5) {
		bw, bh := 1+float32(rng.Float64()*float64(w)/2), 1+float32(rng.Float64()*float64(h)/2)
		kind := overlay.Effect(1 + rng.Intn(len(overlay.EffectNames())))
		s := [...]float32{overlay.EffectBlur: 1 + 9*float32(rng.Float64()), overlay.EffectPixelate: 2 + 30*float32(rng.Float64()),
			overlay.EffectThreshold: float32(rng.Float64()), overlay.EffectZoom: 1 + 3*float32(rng.Float64()),
			overlay.EffectTint: float32(rng.Float64()), overlay.EffectSort: 0, overlay.EffectGaussian: 1 + 7*float32(rng.Float64())}[kind]
		lo := float32(rng.Float64())
		fx = append(fx, overlay.EffectBox{X: coord(w), Y: coord(h), W: bw, H: bh, Radius: float32(rng.Float64()) * min(bw, bh) / 2,
			Kind: kind, Strength: overlay.EffectStrength(kind, s), SortLo: lo, SortHi: lo + float32(rng.Float64())*(1-lo),
			SortColumns: int32(rng.Intn(2)),
			Tint:        overlay.RGBA{R: float32(rng.Float64()), G: float32(rng.Float64()), B: float32(rng.Float64()), A: 1}})
	}
	return fx
}
