package goldens

import "trackink/overlay"

// The scenes of the dash and link options of the node-pack parity items: --dash, --link-style sparkle, --jitter.
func init() {
	Scenes = append(Scenes,
		Scene{
			Name: "dash-sized", Width: 480, Height: 300,
			About: "--dash: dashed lines (24 px dashes, 8 px gaps) and dotted ones (10 px between dots) at widths 1, 2, 4, 8 (rows): " +
				"the same dash and gap lengths whatever the width, caps included; dashed and dotted boxes (--dash 16,6) at strokes 1, 3, 6",
			Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
				for i, wd := range []float32{1, 2, 4, 8} {
					y := 20.5 + float32(i)*26
					p.Lines = append(p.Lines,
						overlay.Line{X0: 20.25, Y0: y, X1: 230, Y1: y + 3, Width: wd, Color: white, Dash: overlay.DashSized("dashed", wd, 24, 8)},
						overlay.Line{X0: 250, Y0: y + 3, X1: 460.5, Y1: y, Width: wd, Color: orange, Dash: overlay.DashSized("dotted", wd, 24, 10)})
				}
				for i, sw := range []float32{1, 3, 6} {
					x := 20.5 + float32(i)*155
					p.Boxes = append(p.Boxes,
						overlay.Box{X: x, Y: 135.5, W: 130, H: 60, Radius: 8, Stroke: sw, StrokeColor: cyan, Dash: overlay.DashSized("dashed", sw, 16, 6)},
						overlay.Box{X: x, Y: 215.5, W: 130, H: 60, Radius: 0, Stroke: sw, StrokeColor: orange, Dash: overlay.DashSized("dotted", sw, 16, 6)})
				}
				return nil
			},
		},
		Scene{
			Name: "dash-look", Width: 960, Height: 540,
			About: "--look hud --dash 18,10 --box-style dashed: long dashes on the links and the box outlines alike, from the style",
			Draw: lookScene("hud", func(st *overlay.Style) {
				st.BoxStyle, st.Dash = "dashed", [2]float32{18, 10}
			}),
		},
		Scene{
			Name: "links-sparkle", Width: 960, Height: 540,
			About: "--link-style sparkle --line-width 3 --palette neon on points: soft dots scattered along each link " +
				"(a faint wide disk under each core), no halo about them while the points keep theirs",
			Draw: trackScene("default", func(st *overlay.Style) {
				st.LinkStyle, st.LineWidth, st.LinkOpacity, st.Palette = "sparkle", 3, 1, "neon"
			}, false),
		},
		Scene{
			Name: "links-sparkle-gradient", Width: 960, Height: 540,
			About: "--link-style sparkle with --link-color gradient:#ffffff,#ff2bd6 on the straight links (each dot the colour at its place) " +
				"and --curve-width 2 --bend 0.3 (dots along the curves, in the mean colour)",
			Draw: trackScene("default", func(st *overlay.Style) {
				st.LinkStyle, st.LineWidth, st.CurveWidth, st.Bend, st.LinkOpacity = "sparkle", 2.5, 2, 0.3, 1
				st.LinkGradient = true
				st.LinkGradientColors[0], _ = overlay.ParseOptionalColor("#ffffff")
				st.LinkGradientColors[1], _ = overlay.ParseOptionalColor("#ff2bd6")
			}, false),
		},
		Scene{
			Name: "jitter-crowd", Width: 960, Height: 540,
			About: "--jitter 14 --trail 8: each track's box, label, point, links and trail moved together by its own constant offset " +
				"within 14 px (the two untracked boxes stay put), so overlapping boxes part",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.Jitter, st.Trail = 14, 8
			}),
		},
	)
}
