package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"trackink/composite"
	"trackink/overlay"
	"trackink/sdf"
)

// testFrame is a w × h frame of noise in the given format, and its samples as three planes of
// ints for the reference.
func testFrame(format string, w, h int, seed uint64) composite.HostSurface {
	rng := rand.New(rand.NewPCG(seed, 1))
	cw, ch := (w+1)/2, (h+1)/2
	fill := func(p []byte) []byte {
		for i := range p {
			p[i] = byte(rng.IntN(256))
		}
		return p
	}
	fill10 := func(n int, shift uint) []byte {
		p := make([]byte, 2*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint16(p[2*i:], uint16(rng.IntN(1024))<<shift)
		}
		return p
	}
	switch format {
	case "rgba":
		p := fill(make([]byte, 4*w*h))
		for i := 3; i < len(p); i += 4 {
			p[i] = 255
		}
		return &composite.RGBA{Pix: p, Stride: 4 * w, W: w, H: h}
	case "yuv420p":
		return &composite.YUV420P{Y: fill(make([]byte, w*h)), U: fill(make([]byte, cw*ch)), V: fill(make([]byte, cw*ch)),
			StrideY: w, StrideU: cw, StrideV: cw, W: w, H: h}
	case "nv12":
		return &composite.NV12{Y: fill(make([]byte, w*h)), UV: fill(make([]byte, 2*cw*ch)), StrideY: w, StrideUV: 2 * cw, W: w, H: h}
	case "yuv420p10":
		return &composite.YUV420P10{Y: fill10(w*h, 0), U: fill10(cw*ch, 0), V: fill10(cw*ch, 0),
			StrideY: 2 * w, StrideU: 2 * cw, StrideV: 2 * cw, W: w, H: h, Range: composite.Full}
	case "p010":
		return &composite.P010{Y: fill10(w*h, 6), UV: fill10(2*cw*ch, 6), StrideY: 2 * w, StrideUV: 4 * cw, W: w, H: h}
	}
	panic(format)
}

// refEffects applies fx to f the slow, obvious way, sample by sample: the effect computed
// straight from a copy of the frame (each blur window and pixelate cell summed whole), as
// the kernel does.
func refEffects(f composite.HostSurface, fx []overlay.EffectBox) {
	var fr fxFrame
	if err := effectsFrame(f, &fr); err != nil {
		panic(err)
	}
	var src [3][][]int32
	for k := range 3 {
		pl := &fr.pl[k]
		src[k] = make([][]int32, pl.h)
		for y := range src[k] {
			src[k][y] = make([]int32, pl.w)
			pl.load(src[k][y], 0, y)
		}
	}
	at := func(k, x, y int) float32 {
		pl := &fr.pl[k]
		return float32(src[k][min(max(y, 0), pl.h-1)][min(max(x, 0), pl.w-1)])
	}
	w, h := fr.pl[0].w, fr.pl[0].h
	cov := func(b *overlay.EffectBox, x, y int) float32 {
		if x >= w || y >= h {
			return 0
		}
		d := sdf.RoundBox(float32(x)+0.5, float32(y)+0.5, b.X+b.W/2, b.Y+b.H/2, b.W/2, b.H/2, b.Radius)
		c := sdf.Coverage(d)
		if b.Feather > 1 {
			// Feathered: 0 half a pixel outside the edge, rising linearly to 1 Feather px further in.
			c = min(max((0.5-d)/b.Feather, 0), 1)
		}
		return c * (1 - b.Transparency)
	}
	for i := range fx {
		b := &fx[i]
		for k := range 3 {
			pl := &fr.pl[k]
			for y := range pl.h {
				for x := range pl.w {
					var c float32
					if pl.sub == 1 {
						c = cov(b, x, y)
					} else {
						n := min(2, w-2*x) * min(2, h-2*y)
						c = ((cov(b, 2*x, 2*y) + cov(b, 2*x, 2*y+1)) + (cov(b, 2*x+1, 2*y) + cov(b, 2*x+1, 2*y+1))) * (1 / float32(n))
					}
					if c == 0 {
						continue
					}
					s := at(k, x, y)
					var e float32
					switch b.Kind {
					case overlay.EffectInvert:
						e = pl.black + pl.white - s
					case overlay.EffectBlur:
						r := fxRadius(b.Strength, pl.sub)
						var sum, n int
						for yy := max(y-r, 0); yy <= min(y+r, pl.h-1); yy++ {
							for xx := max(x-r, 0); xx <= min(x+r, pl.w-1); xx++ {
								sum += int(src[k][yy][xx])
								n++
							}
						}
						e = float32(sum) * (1 / float32(n))
					case overlay.EffectGaussian:
						// Tap by tap, as the kernel: the weights counted, the window clipped.
						w := gaussTaps(gaussRadii(b.Strength, pl.sub))
						R := len(w) / 2
						var num, dx, dy int64
						for yy := max(y-R, 0); yy <= min(y+R, pl.h-1); yy++ {
							dy += w[yy-y+R]
							for xx := max(x-R, 0); xx <= min(x+R, pl.w-1); xx++ {
								num += w[yy-y+R] * w[xx-x+R] * int64(src[k][yy][xx])
							}
						}
						for xx := max(x-R, 0); xx <= min(x+R, pl.w-1); xx++ {
							dx += w[xx-x+R]
						}
						e = float32(float64(num) / float64(dx*dy))
					case overlay.EffectPixelate:
						cs := fxCell(b.Strength, pl.sub)
						ox, oy := floorDiv(int(sdf.Floor(b.X)), pl.sub), floorDiv(int(sdf.Floor(b.Y)), pl.sub)
						x0, y0 := ox+floorDiv(x-ox, cs)*cs, oy+floorDiv(y-oy, cs)*cs
						var sum, n int
						for yy := max(y0, 0); yy < min(y0+cs, pl.h); yy++ {
							for xx := max(x0, 0); xx < min(x0+cs, pl.w); xx++ {
								sum += int(src[k][yy][xx])
								n++
							}
						}
						e = float32(sum) / float32(n)
					case overlay.EffectZoom:
						sub := float32(pl.sub)
						cx, cy := (b.X+b.W/2)/sub, (b.Y+b.H/2)/sub
						inv := 1 / b.Strength
						sx := cx + float32(((float32(x)+0.5)-cx)*inv) - 0.5
						sy := cy + float32(((float32(y)+0.5)-cy)*inv) - 0.5
						fx, fy := sdf.Floor(sx), sdf.Floor(sy)
						ax, ay := sx-fx, sy-fy
						top := at(k, int(fx), int(fy)) + float32(ax*(at(k, int(fx)+1, int(fy))-at(k, int(fx), int(fy))))
						bot := at(k, int(fx), int(fy)+1) + float32(ax*(at(k, int(fx)+1, int(fy)+1)-at(k, int(fx), int(fy)+1)))
						e = top + float32(ay*(bot-top))
					case overlay.EffectThreshold, overlay.EffectTint:
						if fr.rgb {
							l := fxLuma(at(0, x, y), at(1, x, y), at(2, x, y))
							t := [3]float32{b.Tint.R * 255, b.Tint.G * 255, b.Tint.B * 255}
							if b.Kind == overlay.EffectTint {
								e = s + float32(b.Strength*((t[k]-fxLuma(t[0], t[1], t[2]))-(s-l)))
							} else if l >= b.Strength*255 {
								e = 255
							}
						} else if b.Kind == overlay.EffectTint {
							e = s
							if pl.chroma {
								e = s + float32(b.Strength*(fr.space.Color(b.Tint.R, b.Tint.G, b.Tint.B, 1)[k]-s))
							}
						} else {
							e = pl.black
							if !pl.chroma && s >= pl.black+float32(b.Strength*(pl.white-pl.black)) {
								e = pl.white
							}
						}
					}
					cur := make([]int32, 1)
					pl.load(cur, x, y)
					v := float32(cur[0]) + float32(c*(e-float32(cur[0])))
					v = min(max(v+0.5, 0), pl.max)
					i := y*pl.stride + x*pl.step
					if pl.wide {
						binary.LittleEndian.PutUint16(pl.p[i:], uint16(v)<<pl.shift)
					} else {
						pl.p[i] = byte(v)
					}
				}
			}
		}
	}
}

func frameBytes(f composite.HostSurface) [][]byte {
	switch d := f.(type) {
	case *composite.RGBA:
		return [][]byte{d.Pix}
	case *composite.YUV420P:
		return [][]byte{d.Y, d.U, d.V}
	case *composite.NV12:
		return [][]byte{d.Y, d.UV}
	case *composite.YUV420P10:
		return [][]byte{d.Y, d.U, d.V}
	case *composite.P010:
		return [][]byte{d.Y, d.UV}
	}
	panic(f)
}

// effectScene is overlapping boxes of every effect, one at an odd position, one over the
// frame's edge, one rounded.
func effectScene(kind overlay.Effect, strength float32) []overlay.EffectBox {
	s := overlay.EffectStrength(kind, strength)
	tint := overlay.RGBA{R: 0.9, G: 0.2, B: 0.1, A: 1}
	return []overlay.EffectBox{
		{X: 10.3, Y: 7.6, W: 40.5, H: 30.2, Radius: 6, Kind: kind, Strength: s, Tint: tint},
		{X: 35, Y: 20, W: 30, H: 31, Radius: 0, Kind: kind, Strength: s, Tint: tint},
		{X: 80.5, Y: 50.5, W: 40, H: 30, Radius: 15, Kind: kind, Strength: s, Tint: tint},
		{X: 2.2, Y: 45.7, W: 12.6, H: 9.1, Radius: 2, Kind: overlay.EffectInvert, Strength: s, Tint: tint},
		// Mostly left of the frame: a zoom about its centre samples only columns below 0.
		{X: -100, Y: 60, W: 104, H: 12, Kind: kind, Strength: s, Tint: tint},
	}
}

// TestEffectsMatchReference holds every effect, in every frame format the CPU composites
// onto, at odd sizes and positions, with overlapping boxes, to the sample-by-sample
// reference: the same bytes.
func TestEffectsMatchReference(t *testing.T) {
	for _, format := range []string{"rgba", "yuv420p", "nv12", "yuv420p10", "p010"} {
		for _, kind := range []overlay.Effect{overlay.EffectInvert, overlay.EffectBlur, overlay.EffectPixelate,
			overlay.EffectThreshold, overlay.EffectZoom, overlay.EffectTint, overlay.EffectGaussian} {
			for _, c := range []struct{ strength, feather, opacity float32 }{
				{0, 0, 1}, {3, 0, 1}, {0, 6, 1}, {0, 0.5, 1}, {0, 40, 1}, {0, 0, 0.4}, {3, 6, 0.7}, {0, 0, 0},
			} {
				strength := c.strength
				if strength != 0 && (kind == overlay.EffectInvert || kind == overlay.EffectThreshold || kind == overlay.EffectTint) {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%g/feather%g/opacity%g", format, kind, strength, c.feather, c.opacity), func(t *testing.T) {
					fx := effectScene(kind, strength)
					for i := range fx {
						fx[i].Feather, fx[i].Transparency = c.feather, 1-c.opacity
					}
					matchReference(t, format, fx, c.opacity > 0)
				})
			}
		}
	}
}

// matchReference draws fx on a 111×77 test frame of format and fails unless it gives the
// reference's bytes, and changes the frame exactly when changes says.
func matchReference(t *testing.T, format string, fx []overlay.EffectBox, changes bool) {
	t.Helper()
	const w, h = 111, 77
	got, want := testFrame(format, w, h, 7), testFrame(format, w, h, 7)
	r := newRenderer(t, 2)
	draw(t, r, got, &overlay.Primitives{Effects: fx})
	refEffects(want, fx)
	gb, wb := frameBytes(got), frameBytes(want)
	for i := range gb {
		if !bytes.Equal(gb[i], wb[i]) {
			n := 0
			for j := range gb[i] {
				if gb[i][j] != wb[i][j] {
					n++
				}
			}
			t.Fatalf("plane %d: %d bytes differ from the reference", i, n)
		}
	}
	if changed := !bytes.Equal(gb[0], frameBytes(testFrame(format, w, h, 7))[0]); changed != changes {
		t.Fatalf("the effect changed the frame: %v, want %v", changed, changes)
	}
}

// TestGaussianSigmasMatchReference holds the Gaussian to the tap-by-tap reference across
// its sigma range, 8- and 10-bit: a single box of radius 0 (sigma 1), uneven widths, and
// sigma 50, whose window (radii 49, 49, 50) reaches past the whole 111×77 frame from every
// sample and whose sums are the largest (the CPU's int32 and float64 bounds).
func TestGaussianSigmasMatchReference(t *testing.T) {
	for _, format := range []string{"yuv420p", "p010"} {
		for _, sigma := range []float32{1, 1.5, 7.3, 17, 50} {
			t.Run(fmt.Sprintf("%s/%g", format, sigma), func(t *testing.T) {
				matchReference(t, format, effectScene(overlay.EffectGaussian, sigma), true)
			})
		}
	}
}

// TestFxCover holds the effect's coverage at distances d from the box's edge (negative
// inside) to its ramp and opacity: with no feather (0 or up to 1 px) and opacity 1
// sdf.Coverage's bits, the fill's anti-aliased edge; with a feather of F px, 0 half a pixel
// outside the edge rising linearly to 1 at F − 0.5 px inside; all of it times the opacity.
func TestFxCover(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct {
		feather, opacity, d, want float32
	}{
		{0, 1, 1, 0}, {0, 1, 0.5, 0}, {0, 1, 0.25, 0.25}, {0, 1, 0, 0.5}, {0, 1, -0.3, 0.8}, {0, 1, -0.5, 1}, {0, 1, -100, 1},
		{1, 1, 0, 0.5}, {0.5, 1, 0, 0.5}, {0.5, 1, -0.5, 1},
		{10, 1, 0.5, 0}, {10, 1, 0, 0.05}, {10, 1, -4.5, 0.5}, {10, 1, -9.5, 1}, {10, 1, -20, 1}, {10, 1, 3, 0},
		{4, 1, -1.5, 0.5}, {4, 1, -3.5, 1}, {4096, 1, -2047.5, 0.5},
		{0, 0.5, -100, 0.5}, {0, 0.5, 0, 0.25}, {0, 0.5, 2, 0}, {0, 0, -100, 0},
		{10, 0.4, -4.5, 0.2}, {10, 0.4, -50, 0.4}, {10, 0, -50, 0},
	} {
		ramp := max(c.feather, 1)
		got := fxCover(c.d, ramp, c.opacity)
		if math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("feather %g, opacity %g, distance %g: coverage %g, want %g", c.feather, c.opacity, c.d, got, c.want)
		}
		if c.feather <= 1 && c.opacity == 1 && math.Float32bits(got) != math.Float32bits(sdf.Coverage(c.d)) {
			t.Errorf("feather %g, distance %g: coverage %g, not sdf.Coverage's %g", c.feather, c.d, got, sdf.Coverage(c.d))
		}
	}
	if got := fxCover(nan, 3, 1); got == got {
		t.Errorf("NaN distance: coverage %g, want NaN (the box is skipped before)", got)
	}
}

// TestEffectsSkipGarbageBoxes: a box with a coordinate that is not finite, or millions of
// pixels off, changes nothing (it would otherwise mix NaN coverage into the frame).
func TestEffectsSkipGarbageBoxes(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	r := newRenderer(t, 2)
	for _, b := range []overlay.EffectBox{
		{X: nan, Y: 5, W: 20, H: 20}, {X: 5, Y: 5, W: inf, H: 20}, {X: -inf, Y: 5, W: inf, H: 20},
		{X: -1e30, Y: -1e30, W: 2e30, H: 2e30}, {X: 5, Y: nan, W: 20, H: 20},
	} {
		for _, kind := range []overlay.Effect{overlay.EffectInvert, overlay.EffectPixelate, overlay.EffectZoom} {
			b.Kind, b.Strength = kind, overlay.EffectStrength(kind, 0)
			got := testFrame("nv12", 64, 48, 3)
			draw(t, r, got, &overlay.Primitives{Effects: []overlay.EffectBox{b}})
			want := frameBytes(testFrame("nv12", 64, 48, 3))
			for i, p := range frameBytes(got) {
				if !bytes.Equal(p, want[i]) {
					t.Errorf("%+v changed plane %d", b, i)
				}
			}
		}
	}
}

// A box that reaches millions of px past the frame (a tracker's box held over the whole
// picture, as the readers allow up to ±1e7 px) takes its effect where it covers the frame,
// as a box just past the frame's edges does: a privacy blur must not vanish because the box
// is large. (Zoom is about the box's centre, so a larger box zooms elsewhere: left out.)
func TestEffectsOfFarReachingBoxes(t *testing.T) {
	const w, h = 64, 48
	r := newRenderer(t, 2)
	for _, tc := range []struct {
		name      string
		far, near overlay.EffectBox
	}{
		// -1e6 is a multiple of every pixelate cell, as -64 is: the cells line up alike.
		{"over the whole frame", overlay.EffectBox{X: -1e6, Y: -1e6, W: 2e6, H: 2e6}, overlay.EffectBox{X: -64, Y: -64, W: 192, H: 160}},
		{"far edges at 1e7", overlay.EffectBox{X: 10.5, Y: 5, W: 9999000, H: 9999990}, overlay.EffectBox{X: 10.5, Y: 5, W: 200, H: 200}},
	} {
		for _, name := range overlay.EffectNames() {
			kind, _ := overlay.ParseEffect(name)
			if kind == overlay.EffectNone || kind == overlay.EffectZoom {
				continue
			}
			far, near := tc.far, tc.near
			far.Kind, near.Kind = kind, kind
			far.Strength, near.Strength = overlay.EffectStrength(kind, 0), overlay.EffectStrength(kind, 0)
			far.Tint, near.Tint = overlay.RGBA{R: 1, G: 0.4, B: 0.1, A: 1}, overlay.RGBA{R: 1, G: 0.4, B: 0.1, A: 1}
			far.SortHi, near.SortHi = 1, 1
			got, want := testFrame("nv12", w, h, 3), testFrame("nv12", w, h, 3)
			draw(t, r, got, &overlay.Primitives{Effects: []overlay.EffectBox{far}})
			draw(t, r, want, &overlay.Primitives{Effects: []overlay.EffectBox{near}})
			if slices.EqualFunc(frameBytes(want), frameBytes(testFrame("nv12", w, h, 3)), bytes.Equal) {
				t.Fatalf("%s, %s: the near box changed nothing", tc.name, name)
			}
			for i, p := range frameBytes(got) {
				if !bytes.Equal(p, frameBytes(want)[i]) {
					t.Errorf("%s, %s: plane %d is not the near box's", tc.name, name, i)
				}
			}
		}
	}
}

// TestEffectsOverlapReadTheSource holds the documented rule for overlapping boxes: every
// effect reads the frame as decoded and later boxes paint over earlier ones, so two
// inverting boxes over the same pixels leave them inverted once (not restored), and where a
// pixelating box follows an inverting one, the pixels show cells of the source, not of the
// inverted picture.
func TestEffectsOverlapReadTheSource(t *testing.T) {
	const w, h = 64, 48
	r := newRenderer(t, 2)
	src := testFrame("yuv420p", w, h, 9).(*composite.YUV420P)
	inv := func(v byte) byte { return byte(min(max(251-int(v), 0), 255)) }
	twice := testFrame("yuv420p", w, h, 9).(*composite.YUV420P)
	box := overlay.EffectBox{X: 8, Y: 8, W: 40, H: 30, Kind: overlay.EffectInvert}
	draw(t, r, twice, &overlay.Primitives{Effects: []overlay.EffectBox{box, box}})
	if got, want := twice.Y[20*w+20], inv(src.Y[20*w+20]); got != want {
		t.Errorf("two inverting boxes: luma %d, want %d (inverted once; the source was %d)", got, want, src.Y[20*w+20])
	}
	cells := testFrame("yuv420p", w, h, 9).(*composite.YUV420P)
	pix := overlay.EffectBox{X: 8, Y: 8, W: 40, H: 30, Kind: overlay.EffectPixelate, Strength: 4}
	draw(t, r, cells, &overlay.Primitives{Effects: []overlay.EffectBox{box, pix}})
	// The 4 × 4 cell at (20, 20) is the mean of the source's samples there.
	sum := 0
	for y := 20; y < 24; y++ {
		for x := 20; x < 24; x++ {
			sum += int(src.Y[y*w+x])
		}
	}
	if got, want := int(cells.Y[21*w+22]), int(float32(sum)/16+0.5); got != want {
		t.Errorf("pixelate over invert: luma %d, want the source cell's mean %d", got, want)
	}
}

// gaussTaps are the Gaussian's 1-D weights for box radii rad, counted: w[R+d] is how many
// ways one offset from each box adds up to d.
func gaussTaps(rad [3]int) []int64 {
	R := rad[0] + rad[1] + rad[2]
	w := make([]int64, 2*R+1)
	for a := -rad[0]; a <= rad[0]; a++ {
		for b := -rad[1]; b <= rad[1]; b++ {
			for c := -rad[2]; c <= rad[2]; c++ {
				w[R+a+b+c]++
			}
		}
	}
	return w
}

// TestGaussRadii holds the three boxes to the Gaussian they stand for: their variance
// (each box of width w adds (w² − 1)/12) within a fraction of sigma² at every sigma in the
// range, luma and 4:2:0 chroma (sigma halved), and to a few worked values.
func TestGaussRadii(t *testing.T) {
	for _, c := range []struct {
		s    float32
		sub  int
		want [3]int
	}{{1, 1, [3]int{0, 0, 1}}, {5, 1, [3]int{4, 4, 5}}, {50, 1, [3]int{49, 49, 50}}, {10, 2, [3]int{4, 4, 5}}} {
		if got := gaussRadii(c.s, c.sub); got != c.want {
			t.Errorf("gaussRadii(%g, %d) = %v, want %v", c.s, c.sub, got, c.want)
		}
	}
	for s := float32(1); s <= 50; s += 0.25 {
		for _, sub := range []int{1, 2} {
			var v float64
			for _, r := range gaussRadii(s, sub) {
				v += (float64(2*r+1)*float64(2*r+1) - 1) / 12
			}
			sg := float64(s) / float64(sub)
			// Widths move in steps of 2: the variance can miss sigma² by up to about 2·wl/3.
			if d := math.Abs(v - sg*sg); d > 0.7*sg+1.5 {
				t.Errorf("sigma %g (sub %d): the boxes' variance is %.2f, sigma² %.2f", s, sub, v, sg*sg)
			}
		}
	}
}
