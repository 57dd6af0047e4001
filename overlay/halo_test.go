package overlay

import (
	"math"
	"testing"
)

// TestHaloContrast measures what the halo is for: a stroke of any palette colour, at the
// opacity a haloed look gives it, must differ from the picture under it by WCAG's 3:1 for
// graphics (2.1's success criterion 1.4.11) at its centre or at its halo's edge, on a
// picture of its own colour (where without a halo it vanishes: 1:1), on black, on white and
// on mid grey; a translucent stroke (links, 0.6 in the default look), which lets the
// picture through, by at least 2:1. Compositing is "over" in code values, as the
// renderer's.
func TestHaloContrast(t *testing.T) {
	for _, look := range []string{"default", "clean", "hud", "cctv"} {
		st, _ := Preset(look)
		if !st.haloed() {
			t.Fatalf("%s: no halo", look)
		}
		for _, kind := range []struct {
			name    string
			opacity float32
		}{{"box outline", st.BoxOpacity}, {"link", st.LinkOpacity}, {"point", st.PointOpacity}, {"trail", st.TrailOpacity}} {
			want := 3.0
			if kind.opacity < 1 {
				want = 2
			}
			for _, name := range Palettes() {
				for i := range palettes[name] {
					c := paletteColor(palettes[name], i)
					stroke := Premul(c, kind.opacity)
					halo := haloColor(stroke, st.HaloOpacity)
					for _, under := range [][3]float64{{float64(c.R), float64(c.G), float64(c.B)}, {0, 0, 0}, {255, 255, 255}, {128, 128, 128}} {
						var edge, centre [3]float64
						for k, v := range []float32{halo.R, halo.G, halo.B} {
							edge[k] = 255*float64(v) + (1-float64(halo.A))*under[k]
						}
						for k, v := range []float32{stroke.R, stroke.G, stroke.B} {
							centre[k] = 255*float64(v) + (1-float64(stroke.A))*edge[k]
						}
						got := max(contrast(centre, under), contrast(edge, under))
						if got < want {
							t.Errorf("%s look, %s of %s colour %v at opacity %g on %v: %.2f:1, want %g:1", look, kind.name, name, c, kind.opacity, under, got, want)
						}
					}
				}
			}
		}
	}
}

// contrast is WCAG's contrast ratio of two R'G'B' colours in code values.
func contrast(a, b [3]float64) float64 {
	la, lb := relativeLuminance(a[0], a[1], a[2]), relativeLuminance(b[0], b[1], b[2])
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}
