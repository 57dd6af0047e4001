package render

import (
	"math"
	"testing"

	"trackink/curves"
	"trackink/overlay"
	"trackink/sdf"
)

// TestDashesEvenByArcLength: along strongly bent curves, where equal parameter steps are far
// from equal lengths, the dashes fall at equal arc lengths. Walking the flattened curve, the
// middle of every dash is on the stroke (distance 0) and the middle of every gap is half a
// gap from the nearest dash, measured over all the chords as the curves stage does.
func TestDashesEvenByArcLength(t *testing.T) {
	for _, tc := range []struct {
		name string
		bend float32
		dash overlay.Dash
	}{
		{"dashed, bend 0.6", 0.6, overlay.DashFor("dashed", 2)},
		{"dotted, bend 1.5", 1.5, overlay.DashFor("dotted", 3)},
		{"long dashes, bend −0.3", -0.3, overlay.Dash{On: 14, Period: 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cx, cy := curves.Control(20, 300, 420, 320, tc.bend)
			c := overlay.Curve{X0: 20, Y0: 300, X1: cx, Y1: cy, X2: 420, Y2: 320, Width: 2, Dash: tc.dash}
			var b bins
			b.flatten([]overlay.Curve{c}, 2000, 2000, &sdf.Glow{})
			ch := b.chords
			last := &ch[len(ch)-1]
			total := last.s0 + curves.ChordLen(last.x0, last.y0, last.x1, last.y1)
			// at returns the point at arc length s along the chords.
			at := func(s float32) (x, y float32) {
				for i := range ch {
					l := curves.ChordLen(ch[i].x0, ch[i].y0, ch[i].x1, ch[i].y1)
					if s <= ch[i].s0+l || i == len(ch)-1 {
						f := (s - ch[i].s0) / l
						return ch[i].x0 + f*(ch[i].x1-ch[i].x0), ch[i].y0 + f*(ch[i].y1-ch[i].y0)
					}
				}
				panic("unreachable")
			}
			dist := func(x, y float32) float32 {
				d2 := float32(math.MaxFloat32)
				for i := range ch {
					seg := sdf.NewSeg(ch[i].x0, ch[i].y0, ch[i].x1, ch[i].y1)
					l := curves.ChordLen(ch[i].x0, ch[i].y0, ch[i].x1, ch[i].y1)
					d2 = min(d2, seg.DashDist2(x, y, l, ch[i].s0, tc.dash.On, tc.dash.Period))
				}
				return sdf.Sqrt(d2)
			}
			halfGap := (tc.dash.Period - tc.dash.On) / 2
			n := 0
			for s := float32(0); s+tc.dash.Period <= total; s += tc.dash.Period {
				if d := dist(at(s + tc.dash.On/2)); d > 1e-3 {
					t.Errorf("dash at arc length %g: %g from the stroke", s, d)
				}
				// Across the gap the curve bends away, so the straight distance to the
				// dashes either side is a little under half the gap.
				if d := dist(at(s + tc.dash.On + halfGap)); d > halfGap+1e-3 || d < 0.97*halfGap {
					t.Errorf("gap after arc length %g: %g from the dashes, want %g", s, d, halfGap)
				}
				n++
			}
			if want := int(total / tc.dash.Period); n != want || n < 10 {
				t.Errorf("%d periods checked along %g px, want %d", n, total, want)
			}
		})
	}
}

// TestBracketGeometry: corner brackets cover the outline within the bracket length of each
// corner, on every side and in every quadrant, and nothing in the middle of the sides.
func TestBracketGeometry(t *testing.T) {
	for _, tc := range []struct {
		name          string
		w, h, r, frac float32
	}{
		{"square corners, a quarter", 200, 100, 0, 0.25},
		{"rounded, a tenth", 160, 120, 20, 0.1},
		{"bracket shorter than the rounding: the rounded corner", 100, 100, 30, 0.05},
		{"half: the whole outline", 80, 60, 10, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := overlay.Box{X: 0, Y: 0, W: tc.w, H: tc.h, Radius: tc.r, Stroke: 2, Bracket: tc.frac}
			hx, hy := tc.w/2, tc.h/2
			o := boxOutline(&b, hx, hy)
			gap := func(x, y float32) float32 {
				return sdf.DashGap(sdf.RoundBoxArc(x, y, hx, hy, hx, hy, tc.r)-o.phase, o.on, o.period)
			}
			// The bracket's end on each side, from the corner: the bracket length, or the
			// rounding where that is longer.
			ex, ey := max(tc.frac*tc.w, tc.r), max(tc.frac*tc.h, tc.r)
			for _, sx := range []float32{-1, 1} {
				for _, sy := range []float32{-1, 1} {
					for _, k := range []float32{0, 0.5, 0.99, 1.01, 1.5, 3} {
						// Along the horizontal side, k bracket ends from the corner.
						x := hx + sx*(hx-min(k*ex, hx))
						want := k*ex <= ex || tc.frac == 0.5
						if got := gap(x, hy+sy*hy) == 0; got != want && k*ex < hx {
							t.Errorf("quadrant (%g, %g), top/bottom at %g ends: covered %v, want %v", sx, sy, k, got, want)
						}
						y := hy + sy*(hy-min(k*ey, hy))
						if got := gap(hx+sx*hx, y) == 0; got != want && k*ey < hy {
							t.Errorf("quadrant (%g, %g), left/right at %g ends: covered %v, want %v", sx, sy, k, got, want)
						}
					}
				}
			}
		})
	}
}
