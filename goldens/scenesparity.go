package goldens

import (
	"trackink/overlay"
	"trackink/scene"
)

// The scenes of the small look options: label anchors and offsets, point outlines and fills, gradient links between chosen colours.
func init() {
	Scenes = append(Scenes,
		Scene{
			Name: "labels-anchor-right", Width: 960, Height: 540,
			About: "--label-anchor right --label-offset 4,0 on --box-from radius boxes with invisible outlines: " +
				"coordinates beside each point, mirrored to the left where they would cover another label",
			Draw: trackScene("default", func(st *overlay.Style) {
				st.BoxFrom, st.BoxRadius, st.BoxOpacity, st.FillOpacity = "radius", 6, 0, 0
				st.LabelAnchor, st.LabelOffset, st.LabelFormat = "right", [2]float32{4, 0}, "{x:.0f},{y:.0f}"
			}, false),
		},
		Scene{
			Name: "labels-anchor-bottom", Width: 960, Height: 540,
			About: "--label-anchor bottom --label-offset 0,3: class tags centred under the boxes, " +
				"mirrored above a box where they would cover another, turned inside at the frame's bottom",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LabelAnchor, st.LabelOffset, st.LabelFormat = "bottom", [2]float32{0, 3}, "{class}"
			}),
		},
		Scene{
			Name: "labels-outline", Width: 960, Height: 540, LabelSize: 20,
			About: "--label-opacity 0 --label-outline 2: bare label text outlined 2 px in the auto colour (black round the white " +
				"text), the outline glyphs drawn before the text's",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LabelOpacity, st.LabelOutline, st.FillOpacity = 0, 2, 0.3
			}),
		},
		Scene{
			Name: "labels-outline-wide", Width: 480, Height: 270, LabelSize: 12,
			About: "--label-outline 4 --label-text-color black on the plates: a white outline (auto, against the black text), " +
				"4 px past 3 px of padding, into tiles the plates do not reach",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LabelOutline, st.LabelTextColor = 4, overlay.OptionalColor{C: scene.Color{A: 255}, Set: true}
			}),
		},
		Scene{
			Name: "point-stroke-fill", Width: 480, Height: 300,
			About: "--point-stroke and --point-fill-opacity: ring, square, diamond, cross, plus (columns) with outlines 1 px, " +
				"auto (half the radius), 5 px (rows) at radius 12, each filled at 0.35 on the left and auto on the right: " +
				"the fill covered once up to the outline, the outline's outer edge where it was",
			Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
				for i, style := range []string{"ring", "square", "diamond", "cross", "plus"} {
					for j, sw := range []float32{1, overlay.Auto, 5} {
						x, y := 48.3+float32(i)*95, 50.6+float32(j)*95
						p.AddShapedPoint(style, x-20, y, 12, sw, 0.35, cyan)
						p.AddShapedPoint(style, x+20, y, 12, sw, overlay.Auto, orange)
					}
				}
				return nil
			},
		},
		Scene{
			Name: "links-gradient-chosen", Width: 960, Height: 540,
			About: "--link-color gradient:#ffffff,#ff2bd6: every straight link from white at its lower track id's end " +
				"to magenta at its higher's, whatever the tracks' own colours; points in their own",
			Draw: trackScene("default", func(st *overlay.Style) {
				st.LinkGradient, st.LinkOpacity, st.LineWidth = true, 1, 3
				st.LinkGradientColors[0], _ = overlay.ParseOptionalColor("#ffffff")
				st.LinkGradientColors[1], _ = overlay.ParseOptionalColor("#ff2bd6")
			}, false),
		},
	)
}
