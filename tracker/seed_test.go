package tracker

import (
	"math"
	"testing"

	"trackink/composite"
	"trackink/scene"
)

// seedFrame is a 640 × 360 mid-grey frame with two squares 120 px wide: at the left one of
// bright grey (a luma edge, no colour), at the right one of saturated colour as bright as
// the grey around it (a colour edge, no luma edge).
func seedFrame() (f *composite.YUV420P, grey, colour [4]float64) {
	const w, h = 640, 360
	f = newYUV420P(w, h)
	for i := range f.Y {
		f.Y[i] = 128
	}
	for i := range f.U {
		f.U[i], f.V[i] = 128, 128
	}
	grey, colour = [4]float64{100, 120, 220, 240}, [4]float64{400, 120, 520, 240}
	for y := 120; y < 240; y++ {
		for x := 100; x < 220; x++ {
			f.Y[y*w+x] = 200
		}
	}
	for y := 60; y < 120; y++ { // chroma rows of the colour square
		for x := 200; x < 260; x++ {
			f.U[y*w/2+x], f.V[y*w/2+x] = 90, 200
		}
	}
	return f, grey, colour
}

// onBorder is a point's distance from square s's outline (x0, y0, x1, y1: its pixels'
// edges); inside tells whether it is within s.
func onBorder(p scene.Point, s [4]float64) (d float64, inside bool) {
	x, y := float64(p.X)+0.5, float64(p.Y)+0.5 // pixel centres at whole numbers
	inside = x > s[0] && x < s[2] && y > s[1] && y < s[3]
	dx := max(s[0]-x, x-s[2], 0)
	dy := max(s[1]-y, y-s[3], 0)
	if inside {
		return min(x-s[0], s[2]-x, y-s[1], s[3]-y), true
	}
	return math.Hypot(dx, dy), false
}

// TestPointSeeds: each seed map puts the first frame's points where its picture has what
// it seeks and nowhere else: corners at the grey square's corners, edges along its
// outline, color inside the colour square, color-edges along the colour square's outline;
// none in the flat grey around them.
func TestPointSeeds(t *testing.T) {
	f, grey, colour := seedFrame()
	for _, c := range []struct {
		seed  string
		where func(p scene.Point) bool
		least int
	}{
		{SeedCorners, func(p scene.Point) bool {
			for _, cx := range []float64{grey[0], grey[2]} {
				for _, cy := range []float64{grey[1], grey[3]} {
					if math.Hypot(float64(p.X)+0.5-cx, float64(p.Y)+0.5-cy) <= 4 {
						return true
					}
				}
			}
			return false
		}, 4},
		{SeedEdges, func(p scene.Point) bool { d, _ := onBorder(p, grey); return d <= 3 }, 16},
		{SeedColor, func(p scene.Point) bool { _, in := onBorder(p, colour); return in }, 16},
		{SeedColorEdges, func(p scene.Point) bool { d, _ := onBorder(p, colour); return d <= 3 }, 16},
	} {
		t.Run(c.seed, func(t *testing.T) {
			o := DefaultOptions(Points)
			o.PointSeed = c.seed
			out := firstFrame(t, o, f)
			if len(out.Points) < c.least {
				t.Errorf("%d points, want at least %d", len(out.Points), c.least)
			}
			for _, p := range out.Points {
				if !c.where(p) {
					t.Errorf("point at (%.1f, %.1f): not where %s seeds", p.X, p.Y, c.seed)
				}
			}
		})
	}
}

// TestPointSeedSensitivity: with another map than corners, --sensitivity is the share of
// the frame's pixels a seed may be on: a map whose values rise across the frame seeds only
// in its strongest part, the larger the higher the sensitivity.
func TestPointSeedSensitivity(t *testing.T) {
	const w, h = 640, 360
	f := newYUV420P(w, h)
	for y := 0; y < h/2; y++ { // chroma rising left to right: saturation, no edge
		for x := 0; x < w/2; x++ {
			f.U[y*w/2+x], f.V[y*w/2+x] = 128, byte(128+x*100/(w/2))
		}
	}
	for i := range f.Y {
		f.Y[i] = 128
	}
	for _, c := range []struct {
		sens  float64
		least float32 // the leftmost point's x
	}{{0.1, 0.9 * w}, {0.25, 0.75 * w}, {0.5, 0.5 * w}} {
		o := DefaultOptions(Points)
		o.PointSeed, o.Sensitivity, o.MaxObjects = SeedColor, c.sens, 10000
		out := firstFrame(t, o, f)
		left := float32(w)
		for _, p := range out.Points {
			left = min(left, p.X)
		}
		if len(out.Points) == 0 || left < c.least-4 || left > c.least+40 {
			t.Errorf("sensitivity %g: %d points, the leftmost at x %.0f; want some, from about %.0f", c.sens, len(out.Points), left, c.least)
		}
	}
}

// firstFrame is what a new tracker with options o finds in frame f.
func firstFrame(t *testing.T, o Options, f *composite.YUV420P) *scene.Frame {
	tr, err := New(o, f.W, f.H)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tr.Step(f)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
