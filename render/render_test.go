package render

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/image/vector"

	"trackink/composite"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
	"trackink/sdf"
)

// floatFrame keeps the composited layer in FP32 (onto a transparent frame), so tests can
// check coverage without 8-bit rounding. It also counts the tiles composited.
type floatFrame struct {
	w, h  int
	pix   []float32 // premultiplied RGBA
	tiles atomic.Int64
}

func newFloatFrame(w, h int) *floatFrame {
	return &floatFrame{w: w, h: h, pix: make([]float32, 4*w*h)}
}

func (f *floatFrame) Size() (int, int) { return f.w, f.h }

// Space is premultiplied R'G'B' as it is (0..1).
func (f *floatFrame) Space() composite.Space {
	return composite.Space{M: [3][4]float32{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}}
}

func (f *floatFrame) Over(t *composite.Tile) {
	f.tiles.Add(1)
	for y := 0; y < t.H; y++ {
		s := t.Span[y]
		for x := int(s.X0); x < int(s.X1); x++ {
			src := t.Pixel(x, y)
			dst := f.pix[((t.Y0+y)*f.w+t.X0+x)*4:]
			k := 1 - src[3]
			for c := 0; c < 4; c++ {
				dst[c] = src[c] + k*dst[c]
			}
		}
	}
	t.Clear()
}

func (f *floatFrame) alpha(x, y int) float32 { return f.pix[(y*f.w+x)*4+3] }

func (f *floatFrame) alphaSum() float64 {
	s := 0.0
	for i := 3; i < len(f.pix); i += 4 {
		s += float64(f.pix[i])
	}
	return s
}

func newRenderer(t testing.TB, workers int) *Renderer {
	t.Helper()
	r, err := New(overlay.BackendOptions{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func draw(t testing.TB, r *Renderer, f composite.Surface, p *overlay.Primitives) {
	t.Helper()
	if err := r.Draw(f, p); err != nil {
		t.Fatal(err)
	}
}

// newBuilder returns a builder of w × h frames in a built-in look.
func newBuilder(t testing.TB, look string, w, h int) *overlay.Builder {
	t.Helper()
	st, ok := overlay.Preset(look)
	if !ok {
		t.Fatalf("no look %q", look)
	}
	st = st.ForHeight(h)
	font, err := overlay.NewFont(st.LabelSize)
	if err != nil {
		t.Fatal(err)
	}
	b, err := overlay.NewBuilder(st, font, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var white = overlay.RGBA{R: 1, G: 1, B: 1, A: 1}

func TestBoxCoverageSumsToArea(t *testing.T) {
	r := newRenderer(t, 2)
	// Boxes thinner than a pixel are drawn one pixel wide at coverage × size, like strokes.
	for _, tc := range []struct {
		name       string
		x, y, w, h float32
		radius     float32
	}{
		{"integer", 10, 20, 100, 50, 0},
		{"sub-pixel", 10.3, 20.7, 99.45, 50.2, 0},
		{"across tiles", 30.5, 40.25, 200.5, 150.75, 0},
		{"rounded", 10.3, 20.7, 80, 60, 12},
		{"pill", 5.5, 5.5, 120, 40, 20},
		{"thin", 50.2, 50, 0.6, 30, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFloatFrame(300, 250)
			p := &overlay.Primitives{Boxes: []overlay.Box{{X: tc.x, Y: tc.y, W: tc.w, H: tc.h, Radius: tc.radius, Fill: white}}}
			draw(t, r, f, p)
			want := float64(tc.w*tc.h) - (4-math.Pi)*float64(tc.radius*tc.radius)
			if got := f.alphaSum(); math.Abs(got-want) > 0.002*want+0.01 {
				t.Errorf("summed coverage %.3f, area %.3f", got, want)
			}
		})
	}
}

func TestLineCoverageSumsToLengthTimesWidth(t *testing.T) {
	r := newRenderer(t, 2)
	// Angles of irrational slope: at a rational one (45°) the pixel centres keep one offset
	// from the line all along it, and point sampling of the profile aliases (±10% at 45°
	// for a 1 px line); elsewhere the offsets spread and the sum converges.
	for _, width := range []float32{0.5, 1, 2.5, 10, 40} {
		for _, angle := range []float64{0, 0.1, 0.5, 0.7, 1.2, math.Pi / 2, 2.5, 4} {
			length := 250.0
			x0, y0 := float32(280.3), float32(280.6)
			x1 := x0 + float32(length*math.Cos(angle))
			y1 := y0 + float32(length*math.Sin(angle))
			f := newFloatFrame(560, 560)
			draw(t, r, f, &overlay.Primitives{Lines: []overlay.Line{{X0: x0, Y0: y0, X1: x1, Y1: y1, Width: width, Color: white}}})
			// A stroke thinner than a pixel is drawn one pixel wide at coverage × width.
			w := math.Max(float64(width), 1)
			want := (length*w + math.Pi*w*w/4) * math.Min(float64(width), 1)
			if got := f.alphaSum(); math.Abs(got-want) > 0.005*want {
				t.Errorf("width %g angle %.2f: summed coverage %.2f, want %.2f", width, angle, got, want)
			}
		}
	}
}

// randomScene returns boxes, lines and curves scattered over a w × h frame, partly off it.
func randomScene(rng *rand.Rand, w, h int) *overlay.Primitives {
	p := &overlay.Primitives{}
	c := func() overlay.RGBA {
		a := float32(0.2 + 0.8*rng.Float64())
		return overlay.RGBA{R: float32(rng.Float64()) * a, G: float32(rng.Float64()) * a, B: float32(rng.Float64()) * a, A: a}
	}
	x := func() float32 { return float32(rng.Float64()*float64(w)*1.2 - 0.1*float64(w)) }
	y := func() float32 { return float32(rng.Float64()*float64(h)*1.2 - 0.1*float64(h)) }
	for range 8 {
		bw, bh := float32(5+rng.Float64()*80), float32(5+rng.Float64()*80)
		p.Boxes = append(p.Boxes, overlay.Box{X: x(), Y: y(), W: bw, H: bh, Radius: float32(rng.Float64()) * min(bw, bh) / 2,
			Stroke: float32(rng.Float64() * 6), Fill: c(), StrokeColor: c()})
	}
	for range 12 {
		p.Lines = append(p.Lines, overlay.Line{X0: x(), Y0: y(), X1: x(), Y1: y(), Width: float32(0.3 + rng.Float64()*12), Color: c()})
	}
	for range 8 {
		p.Curves = append(p.Curves, overlay.Curve{X0: x(), Y0: y(), X1: x(), Y1: y(), X2: x(), Y2: y(), Width: float32(0.3 + rng.Float64()*8), Color: c()})
	}
	return p
}

func TestMirrorSymmetry(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	const w, h = 203, 157
	p := randomScene(rng, w, h)
	m := &overlay.Primitives{}
	mx := func(x float32) float32 { return w - x }
	for _, b := range p.Boxes {
		b.X = w - b.X - b.W
		m.Boxes = append(m.Boxes, b)
	}
	for _, l := range p.Lines {
		l.X0, l.X1 = mx(l.X0), mx(l.X1)
		m.Lines = append(m.Lines, l)
	}
	for _, c := range p.Curves {
		c.X0, c.X1, c.X2 = mx(c.X0), mx(c.X1), mx(c.X2)
		m.Curves = append(m.Curves, c)
	}
	r := newRenderer(t, 2)
	a, b := newFloatFrame(w, h), newFloatFrame(w, h)
	draw(t, r, a, p)
	draw(t, r, b, m)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for c := 0; c < 4; c++ {
				va, vb := a.pix[(y*w+x)*4+c], b.pix[(y*w+w-1-x)*4+c]
				if math.Abs(float64(va-vb)) > 2e-4 {
					t.Fatalf("pixel (%d,%d) channel %d: %g, mirrored %g", x, y, c, va, vb)
				}
			}
		}
	}
}

// TestFillsAgreeWithVector compares filled shapes with golang.org/x/image/vector, which
// computes exact area coverage of a flattened path (arcs are given to it as many short
// cubics, so that its flattening is finer than the tolerance here). The distance-based
// coverage differs from exact area most at a sharp corner, where it takes the nearer edge's
// ramp instead of the product of both (at most 1/8 there), and where an edge runs at 45° to
// the pixel grid, where the exact area is not linear in the distance (at most about 0.05).
func TestFillsAgreeWithVector(t *testing.T) {
	const w, h = 160, 120
	for _, tc := range []struct {
		name            string
		x, y, bw, bh, r float32
		worst           float64
	}{
		{"rectangle", 20.3, 15.6, 100.4, 70.25, 0, 0.13},
		{"rounded", 20.3, 15.6, 100.4, 70.25, 18, 0.05},
		{"circle", 40.5, 20.5, 60, 60, 30, 0.05},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFloatFrame(w, h)
			draw(t, newRenderer(t, 1), f, &overlay.Primitives{Boxes: []overlay.Box{{X: tc.x, Y: tc.y, W: tc.bw, H: tc.bh, Radius: tc.r, Fill: white}}})
			z := vector.NewRasterizer(w, h)
			x0, y0, x1, y1, r := tc.x, tc.y, tc.x+tc.bw, tc.y+tc.bh, tc.r
			z.MoveTo(x0+r, y0)
			z.LineTo(x1-r, y0)
			arc(z, x1-r, y0+r, r, -math.Pi/2)
			z.LineTo(x1, y1-r)
			arc(z, x1-r, y1-r, r, 0)
			z.LineTo(x0+r, y1)
			arc(z, x0+r, y1-r, r, math.Pi/2)
			z.LineTo(x0, y0+r)
			arc(z, x0+r, y0+r, r, math.Pi)
			z.ClosePath()
			mask := image.NewAlpha(image.Rect(0, 0, w, h))
			z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
			worst, sum := 0.0, 0.0
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					d := math.Abs(float64(f.alpha(x, y)) - float64(mask.Pix[y*mask.Stride+x])/255)
					worst = max(worst, d)
					sum += d
				}
			}
			if worst > tc.worst {
				t.Errorf("largest coverage difference %.3f (allowed %.2f)", worst, tc.worst)
			}
			// Beyond the corners, the differences are the 8-bit rounding of the mask.
			if sum > 2+float64(tc.bw+tc.bh)*2*0.01 {
				t.Errorf("summed coverage difference %.2f px", sum)
			}
		})
	}
}

// arc adds a quarter circle of radius r about (cx, cy) starting at angle a0 (clockwise on
// screen), as 16 cubics.
func arc(z *vector.Rasterizer, cx, cy, r float32, a0 float64) {
	const n = 16
	step := math.Pi / 2 / n
	k := 4.0 / 3 * math.Tan(step/4) * float64(r)
	for i := 0; i < n; i++ {
		a, b := a0+float64(i)*step, a0+float64(i+1)*step
		z.CubeTo(
			cx+float32(float64(r)*math.Cos(a)-k*math.Sin(a)), cy+float32(float64(r)*math.Sin(a)+k*math.Cos(a)),
			cx+float32(float64(r)*math.Cos(b)+k*math.Sin(b)), cy+float32(float64(r)*math.Sin(b)-k*math.Cos(b)),
			cx+float32(float64(r)*math.Cos(b)), cy+float32(float64(r)*math.Sin(b)))
	}
}

func TestSameBytesForAnyWorkerCount(t *testing.T) {
	const w, h = 641, 479
	tr := scene.Seed(w, h, 1)
	var want []byte
	for _, workers := range []int{1, 2, 5} {
		r := newRenderer(t, workers)
		var p overlay.Primitives
		newBuilder(t, "default", w, h).Build(&p, &tr[0], chainLinks(len(tr[0].Points)))
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw(t, r, &composite.RGBA{Pix: img.Pix, Stride: img.Stride, W: w, H: h}, &p)
		if want == nil {
			want = img.Pix
		} else if !bytes.Equal(img.Pix, want) {
			t.Fatalf("%d workers: output differs from 1 worker", workers)
		}
	}
}

// chainLinks links each point to the next: enough links to exercise lines and curves.
func chainLinks(n int) []knn.Edge {
	var l []knn.Edge
	for i := 0; i+1 < n; i++ {
		l = append(l, knn.Edge{A: int32(i), B: int32(i + 1)})
	}
	return l
}

// TestDrawAllocatesNothingInSteadyState: a frame allocates nothing once the first frames
// have sized the scratch: the seed look (boxes, lines, curves, points, labels), with a glow
// too (the glow widens every stroke's rows and spans), and with echo trails.
func TestDrawAllocatesNothingInSteadyState(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under the race detector are its runtime's")
	}
	const w, h = 1280, 720
	for _, c := range []struct {
		g    sdf.Glow
		echo overlay.EchoPass
	}{{}, {g: sdf.NewGlow(4, 0.5)}, {echo: overlay.EchoPass{Frames: 4, Decay: 0.6, Scale: 1}}} {
		g := c.g
		t.Run(fmt.Sprintf("glow %g echo %d", g.Radius, c.echo.Frames), func(t *testing.T) {
			tr := scene.Seed(w, h, 3)
			r := newRenderer(t, 2)
			b := newBuilder(t, "seed", w, h)
			var p overlay.Primitives
			fr := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
				StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
			links := chainLinks(100)
			n := 0
			frame := func() {
				b.Build(&p, &tr[n%3], links)
				p.Glow, p.Echo = g, c.echo
				n++
				if err := r.Draw(fr, &p); err != nil {
					t.Fatal(err)
				}
			}
			for range 3 + 3*c.echo.Frames {
				frame()
			}
			if allocs := testing.AllocsPerRun(10, frame); allocs != 0 {
				t.Errorf("%v allocations per frame, want 0", allocs)
			}
		})
	}
}

func TestEmptyTilesAreNotVisited(t *testing.T) {
	r := newRenderer(t, 2)
	f := newFloatFrame(640, 480)
	// A small box inside one tile, and nothing else.
	draw(t, r, f, &overlay.Primitives{Boxes: []overlay.Box{{X: 70, Y: 70, W: 20, H: 20, Fill: white}}})
	if n := f.tiles.Load(); n != 1 {
		t.Errorf("%d tiles composited, want 1", n)
	}
	f.tiles.Store(0)
	draw(t, r, f, &overlay.Primitives{})
	if n := f.tiles.Load(); n != 0 {
		t.Errorf("empty scene composited %d tiles", n)
	}
}

func TestOffFramePrimitivesDrawNothing(t *testing.T) {
	r := newRenderer(t, 2)
	f := newFloatFrame(200, 100)
	draw(t, r, f, &overlay.Primitives{
		Boxes:  []overlay.Box{{X: -500, Y: 10, W: 100, H: 50, Stroke: 3, Fill: white, StrokeColor: white}},
		Lines:  []overlay.Line{{X0: -50, Y0: -50, X1: -10, Y1: 300, Width: 4, Color: white}, {X0: 300, Y0: 0, X1: 900, Y1: 50, Width: 2, Color: white}},
		Curves: []overlay.Curve{{X0: -100, Y0: -100, X1: -50, Y1: -300, X2: -10, Y2: -10, Width: 3, Color: white}},
	})
	if n := f.tiles.Load(); n != 0 || f.alphaSum() != 0 {
		t.Errorf("off-frame primitives drew: %d tiles, coverage %g", n, f.alphaSum())
	}
}

func TestNonFiniteCoordinatesDrawNothing(t *testing.T) {
	r := newRenderer(t, 2)
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	f := newFloatFrame(200, 100)
	draw(t, r, f, &overlay.Primitives{
		Boxes:  []overlay.Box{{X: nan, Y: 10, W: 20, H: 20, Fill: white}, {X: 10, Y: 10, W: nan, H: 20, Stroke: 2, StrokeColor: white}},
		Lines:  []overlay.Line{{X0: nan, Y0: 10, X1: 50, Y1: 50, Width: 2, Color: white}, {X0: 10, Y0: 10, X1: nan, Y1: nan, Width: 2, Color: white}, {X0: -inf, Y0: 10, X1: -inf, Y1: 20, Width: 2, Color: white}},
		Curves: []overlay.Curve{{X0: 10, Y0: 10, X1: nan, Y1: 0, X2: 50, Y2: 50, Width: 2, Color: white}, {X0: 1e30, Y0: 0, X1: -1e30, Y1: 0, X2: 1e30, Y2: 5, Width: 2, Color: white}},
	})
	for i, v := range f.pix {
		if v != v {
			t.Fatalf("pixel value %d is NaN", i)
		}
	}
}

// TestDeviceFrameRefused: the CPU cannot reach GPU memory, so a device frame is an error
// that names the backend to use, not a crash.
func TestDeviceFrameRefused(t *testing.T) {
	r, err := New(overlay.BackendOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	err = r.Draw(&composite.DeviceNV12{Y: 1, UV: 1, StrideY: 64, StrideUV: 64, W: 64, H: 64}, &overlay.Primitives{})
	if err == nil || !strings.Contains(err.Error(), "cuda backend") {
		t.Errorf("Draw on a device frame: %v, want an error naming the cuda backend", err)
	}
}
