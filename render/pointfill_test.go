package render

import (
	"math"
	"testing"

	"trackink/overlay"
)

// TestPointFills: a ring's, square's and diamond's interior (--point-fill-opacity) is covered
// once at the fill's opacity from the centre to the outline, the outline (--point-stroke)
// lies over it opaque, and nothing is drawn beyond it. Pixels along the row through the
// centre, by their centre's distance from the point.
func TestPointFills(t *testing.T) {
	const r, stroke, fill = 12, 6, 0.4
	for _, tc := range []struct {
		style string
		// interior: x offsets (from the point's pixel) of pixels wholly inside the fill;
		// outline: wholly on the outline; outside: wholly outside.
		interior, outline, outside []int
	}{
		// A ring: its outline from radius 6 to 12.
		{"ring", []int{0, 2, 4}, []int{7, 9, 10}, []int{13, 20}},
		// A square: its outline from 6 to 12 from the centre.
		{"square", []int{0, 2, 4}, []int{7, 9, 10}, []int{13, 20}},
		// A diamond: its outline's centre line 15.6 from the centre along the axes, 3 px
		// either side (4.2 along an axis); its interior 8 px across from the centre to the
		// outline's inner edge (11.4 along an axis).
		{"diamond", []int{0, 3, 6, 9}, []int{14, 15}, []int{21, 25}},
	} {
		var p overlay.Primitives
		p.AddShapedPoint(tc.style, 32.5, 32.5, r, stroke, fill, white)
		f := newFloatFrame(64, 64)
		draw(t, newRenderer(t, 1), f, &p)
		for _, c := range []struct {
			xs   []int
			want float32
		}{{tc.interior, fill}, {tc.outline, 1}, {tc.outside, 0}} {
			for _, dx := range c.xs {
				for _, px := range [][2]int{{32 + dx, 32}, {32 - dx, 32}, {32, 32 + dx}} {
					if a := f.alpha(px[0], px[1]); math.Abs(float64(a-c.want)) > 0.01 {
						t.Errorf("%s: pixel %v (%d px from the centre): alpha %.3f, want %g", tc.style, px, dx, a, c.want)
					}
				}
			}
		}
	}
}
