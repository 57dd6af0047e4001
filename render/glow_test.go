package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"trackink/curves"
	"trackink/overlay"
	"trackink/sdf"
)

// TestGlowCrossesTiles draws, alone, a line, a point, a curve and a box outline whose
// strokes lie in one row or column of tiles and whose glow reaches into the next, and
// compares every pixel's coverage with the glow computed straight from the distance field
// over the whole frame: the bins must list each primitive in the tiles its glow reaches,
// or the glow is cut off at the tile's edge.
func TestGlowCrossesTiles(t *testing.T) {
	const w, h = 256, 192
	g := sdf.NewGlow(12, 0.7)
	white := overlay.RGBA{R: 1, G: 1, B: 1, A: 1}
	curve := overlay.Curve{X0: 140, Y0: 20, X1: 190, Y1: 90, X2: 240, Y2: 30, Width: 3, Color: white}
	box := overlay.Box{X: 70.5, Y: 75.25, W: 50, H: 40, Radius: 6, Stroke: 3, StrokeColor: white}
	line := overlay.Line{X0: 10.3, Y0: 58.2, X1: 120.7, Y1: 60.1, Width: 2, Color: white}
	point := overlay.Line{X0: 124.2, Y0: 100.4, X1: 124.2, Y1: 100.4, Width: 6, Color: white}
	// lineCover is a line's coverage with its glow at pixel centre (px, py).
	lineCover := func(l overlay.Line) func(px, py float32) float32 {
		s := sdf.NewSeg(l.X0, l.Y0, l.X1, l.Y1)
		return func(px, py float32) float32 { return strokeCover(s.Dist2(px, py), l.Width, sdf.ThinScale(l.Width), &g) }
	}
	for _, tc := range []struct {
		name string
		p    overlay.Primitives
		// want is the coverage at a pixel centre; across names a pixel in the next tile
		// that the glow, and only the glow, must light.
		want   func(px, py float32) float32
		across [2]int
	}{
		{"line", overlay.Primitives{Lines: []overlay.Line{line}}, lineCover(line), [2]int{60, 66}},
		{"point", overlay.Primitives{Lines: []overlay.Line{point}}, lineCover(point), [2]int{130, 100}},
		{"curve", overlay.Primitives{Curves: []overlay.Curve{curve}}, func(px, py float32) float32 {
			n := curves.Chords(curve.X0, curve.Y0, curve.X1, curve.Y1, curve.X2, curve.Y2, curves.Tolerance)
			d2 := float32(1e30)
			for k := range n {
				ax, ay, bx, by := curves.Chord(curve.X0, curve.Y0, curve.X1, curve.Y1, curve.X2, curve.Y2, k, n)
				s := sdf.NewSeg(ax, ay, bx, by)
				d2 = min(d2, s.Dist2(px, py))
			}
			return strokeCover(d2, curve.Width, 1, &g)
		}, [2]int{190, 66}},
		{"box outline", overlay.Primitives{Boxes: []overlay.Box{box}}, func(px, py float32) float32 {
			d := sdf.RoundBox(px, py, box.X+box.W/2, box.Y+box.H/2, box.W/2, box.H/2, box.Radius)
			if d >= sdf.Reach(box.Stroke)+g.Radius {
				return 0
			}
			sd := sdf.Abs(d) - sdf.HalfWidth(box.Stroke)
			return g.Cover(sdf.Coverage(sd), sd)
		}, [2]int{129, 95}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRenderer(t, 2)
			f := newFloatFrame(w, h)
			p := tc.p
			p.Glow = g
			draw(t, r, f, &p)
			for y := range h {
				for x := range w {
					want := tc.want(float32(x)+0.5, float32(y)+0.5)
					if got := f.alpha(x, y); got != want {
						t.Fatalf("pixel (%d, %d): coverage %g, the distance field's glow %g", x, y, got, want)
					}
				}
			}
			x, y := tc.across[0], tc.across[1]
			if f.alpha(x, y) < 0.01 {
				t.Errorf("pixel (%d, %d) in the next tile: coverage %g, want the glow", x, y, f.alpha(x, y))
			}
		})
	}
}

// TestGlowSlabsTakeTheNearestChord: with a glow a curve's chord is taken only near where it
// can be nearest (slabSpans); the coverage must be what taking every chord over its whole
// reach gives, bit for bit: random runs of joined curves with sharp turns, cusps, curves
// whose ends do not meet, fades, widths and glows, each drawn alone and compared pixel by
// pixel with the minimum over all of the stroke's chords.
func TestGlowSlabsTakeTheNearestChord(t *testing.T) {
	const w, h = 200, 150
	rng := rand.New(rand.NewPCG(51, 52))
	r := newRenderer(t, 2)
	coord := func(n int) float32 { return float32(rng.Float64()*float64(n)*1.2 - float64(n)*0.1) }
	for range 60 {
		g := sdf.NewGlow(float32(1+rng.Float64()*20), float32(0.2+rng.Float64()*0.8))
		width := float32(rng.Float64() * 6)
		var cs []overlay.Curve
		x, y := coord(w), coord(h)
		for i := range 1 + rng.IntN(5) {
			c := overlay.Curve{X0: x, Y0: y, X1: coord(w), Y1: coord(h), X2: coord(w), Y2: coord(h), Width: width,
				Color: overlay.RGBA{R: 1, G: 1, B: 1, A: 1}, Joined: i > 0, Fade0: float32(rng.Float64()), Fade1: float32(rng.Float64())}
			if rng.IntN(4) == 0 { // a cusp: the control point on the chord, beyond the end
				c.X1, c.Y1 = c.X2+(c.X2-c.X0), c.Y2+(c.Y2-c.Y0)
			}
			if rng.IntN(5) == 0 { // a joined curve that starts elsewhere
				c.X0, c.Y0 = coord(w), coord(h)
			}
			cs = append(cs, c)
			x, y = c.X2, c.Y2
		}
		f := newFloatFrame(w, h)
		draw(t, r, f, &overlay.Primitives{Curves: cs, Glow: g})
		// The chords as the bin stage makes them, in order, and the strict minimum.
		type seg struct {
			s  sdf.Seg
			op float32
		}
		var segs []seg
		for i := range cs {
			c := &cs[i]
			n := curves.Chords(c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, curves.Tolerance)
			for k := range n {
				ax, ay, bx, by := curves.Chord(c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, k, n)
				segs = append(segs, seg{sdf.NewSeg(ax, ay, bx, by), chordOpacity(c, k, n)})
			}
		}
		for py := range h {
			for px := range w {
				d2, op := float32(math.MaxFloat32), float32(0)
				for _, s := range segs {
					if d := s.s.Dist2(float32(px)+0.5, float32(py)+0.5); d < d2 {
						d2, op = d, s.op
					}
				}
				want := strokeCover(d2, width, sdf.ThinScale(width), &g) * op
				if got := f.alpha(px, py); got != want {
					t.Fatalf("curves %+v glow %+v: pixel (%d, %d) coverage %g, nearest chord's %g", cs, g, px, py, got, want)
				}
			}
		}
	}
}
