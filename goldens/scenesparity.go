package goldens

import "trackink/overlay"

// The scenes of the small look options: label anchors and offsets.
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
	)
}
