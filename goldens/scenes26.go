package goldens

import "trackink/overlay"

// The scenes of the drawing options of issue 26 (overlay/look.go and the looks built of
// them), after the others.
func init() {
	Scenes = append(Scenes,
		Scene{
			Name: "look-neon", Width: 960, Height: 540,
			About: "the neon look: neon outlines, links fading with length and smoothed 30-frame trails added onto the frame",
			Draw:  lookScene("neon", nil),
		},
		Scene{
			Name: "points-box-from", Width: 960, Height: 540,
			About: "point tracks without boxes: --box-from age boxes growing over 30 frames (12 frames in: 0.4 of --box-radius), " +
				"links fading with length, 20-frame trails smoothed over 3 positions either side, screened",
			Draw: trackScene("default", func(st *overlay.Style) {
				st.BoxFrom, st.BoxRadius, st.LinkFade = "age", 40, overlay.Auto
				st.Trail, st.TrailSmooth, st.Blend = 20, 3, "screen"
			}, false),
		},
		Scene{
			Name: "links-electric", Width: 960, Height: 540,
			About: "--link-style electric: each straight link a jagged arc of joined pieces (a function of the two ids and the frame), fading with length",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LinkStyle, st.LinkFade, st.LinkOpacity, st.FillOpacity = "electric", overlay.Auto, 1, 0.05
			}),
		},
	)
}
