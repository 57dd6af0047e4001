package goldens

import (
	"trackink/overlay"
	"trackink/sdf"
)

// The scenes of --glow and --link-color gradient, after the others.
func init() {
	Scenes = append(Scenes,
		Scene{
			Name: "glow", Width: 640, Height: 360,
			About: "--glow 10 --glow-opacity 0.6 on every kind: box outlines (solid, rounded and filled, dashed, brackets; a box without " +
				"outline and a label have none), lines 1, 3 and 0.5 px and dashed, a gradient line, curves, a fading trail, " +
				"points (dot, ring, square), one across a tile edge; a soft falloff from each stroke's edge, no rim, none on labels",
			Draw: glowScene,
		},
		Scene{
			Name: "links-gradient", Width: 960, Height: 540,
			About: "--link-color gradient: each straight link runs from one end's track colour to the other's (the neon palette, links at opacity 1, 3 px)",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LinkGradient, st.LinkOpacity, st.LineWidth, st.FillOpacity, st.Palette = true, 1, 3, 0.05, "neon"
			}),
		},
	)
}

func glowScene(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	magenta, green, yellow := rgba(1, 0.2, 0.8, 1), rgba(0.3, 1, 0.4, 1), rgba(1, 0.9, 0.2, 0.8)
	p.Glow = sdf.NewGlow(10, 0.6)
	p.Boxes = append(p.Boxes,
		overlay.Box{X: 30.5, Y: 40.5, W: 100, H: 70, Stroke: 2, StrokeColor: cyan},
		overlay.Box{X: 170.25, Y: 40.5, W: 100, H: 70, Radius: 16, Stroke: 3, StrokeColor: magenta, Fill: rgba(1, 0.2, 0.8, 0.2)},
		overlay.Box{X: 310.5, Y: 40.5, W: 100, H: 70, Radius: 6, Stroke: 2, StrokeColor: green, Dash: overlay.DashFor("dashed", 2)},
		overlay.Box{X: 450.5, Y: 40.5, W: 100, H: 70, Radius: 4, Stroke: 3, StrokeColor: orange, Bracket: 0.2},
		overlay.Box{X: 580.5, Y: 40.5, W: 40, H: 70, Fill: rgba(0.1, 0.8, 0.9, 0.5)}, // no outline: no glow
	)
	p.Lines = append(p.Lines,
		overlay.Line{X0: 30.5, Y0: 150.5, X1: 300.5, Y1: 150.5, Width: 1, Color: cyan},
		overlay.Line{X0: 30.5, Y0: 180.5, X1: 300.5, Y1: 200.25, Width: 3, Color: orange},
		overlay.Line{X0: 30.5, Y0: 225.5, X1: 300.5, Y1: 225.5, Width: 0.5, Color: white},
		overlay.Line{X0: 30.5, Y0: 250.5, X1: 300.5, Y1: 250.5, Width: 2, Color: green, Dash: overlay.DashFor("dashed", 2)},
		overlay.Line{X0: 30.5, Y0: 285.5, X1: 300.5, Y1: 320.5, Width: 4, Color: rgba(1, 0.2, 0.2, 1), Color1: rgba(0.2, 0.4, 1, 1), Gradient: true},
	)
	p.Curves = append(p.Curves,
		overlay.Curve{X0: 340, Y0: 160, X1: 430, Y1: 250, X2: 520, Y2: 160, Width: 3, Color: magenta},
		overlay.Curve{X0: 340, Y0: 320, X1: 380, Y1: 270, X2: 420, Y2: 300, Width: 2.5, Color: yellow, Fade0: 0.9, Fade1: 0.5},
		overlay.Curve{X0: 420, Y0: 300, X1: 460, Y1: 330, X2: 500, Y2: 280, Width: 2.5, Color: yellow, Fade0: 0.5, Fade1: 0, Joined: true},
	)
	p.AddPoint("dot", 560.5, 170.5, 5, cyan)
	p.AddPoint("ring", 600.5, 170.5, 7, orange)
	p.AddPoint("square", 560.5, 230.5, 6, green)
	p.AddPoint("dot", 600.25, 255.75, 3, white) // across the tile edge at y = 256
	text := []byte("no glow on labels")
	lw, lh := font.LabelSize(text)
	p.Labels = append(p.Labels, overlay.Label{X: 520, Y: 320, W: lw, H: lh, Text: text, Color: white, Background: rgba(0.1, 0.1, 0.1, 0.85)})
	return nil
}
