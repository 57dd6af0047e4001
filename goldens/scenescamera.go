package goldens

import "trackink/overlay"

// The camera look's scene (--scanlines, --vignette, --aberration, --grain), after the
// others; the footage golden footage-cctv shows --look cctv on real video.
func init() {
	Scenes = append(Scenes, Scene{
		Name: "camera", Width: 640, Height: 360,
		About: "the camera look on an R'G'B' frame: scanlines 0.3 (alternate rows), a vignette 0.7 darkening the corners, " +
			"aberration 6 px (red right, blue left of the white bars, green and the greys in place), grain 0.1 of frame 7 with " +
			"seed 3, over boxes, lines and a label, all drawn before it",
		Draw: cameraScene,
	}, Scene{
		Name: "camera-grain-color", Width: 320, Height: 180,
		About: "colour grain 0.08 (--grain-color) of frame 7 with seed 3 on an R'G'B' frame, alone: the greys and the " +
			"boxes speckled in hue (red, green, blue, magenta specks), their brightness kept; no luma grain",
		Draw: func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
			p.Camera = overlay.CameraPass{GrainColor: 0.08, Seed: 3, Frame: 7}
			p.Boxes = append(p.Boxes,
				overlay.Box{X: 20.5, Y: 20.5, W: 120, H: 140, Fill: rgba(0.5, 0.5, 0.5, 1)},
				overlay.Box{X: 170.5, Y: 40.5, W: 120, H: 100, Radius: 8, Stroke: 3, StrokeColor: cyan, Fill: rgba(0.9, 0.5, 0.1, 0.6)},
			)
			return nil
		},
	})
}

func cameraScene(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	p.Camera = overlay.CameraPass{Scanlines: 0.3, Vignette: 0.7, Aberration: 6, Grain: 0.1, Seed: 3, Frame: 7}
	p.Boxes = append(p.Boxes,
		overlay.Box{X: 60.5, Y: 60.5, W: 160, H: 110, Radius: 8, Stroke: 3, StrokeColor: cyan, Fill: rgba(0.1, 0.8, 0.9, 0.2)},
		overlay.Box{X: 400.5, Y: 180.5, W: 180, H: 120, Stroke: 2, StrokeColor: orange, Fill: rgba(0.9, 0.5, 0.1, 0.3)},
		overlay.Box{X: 280, Y: 40, W: 20, H: 280, Fill: white}, // white bars: the fringes show at their edges
		overlay.Box{X: 330, Y: 40, W: 6, H: 280, Fill: white},
	)
	p.Lines = append(p.Lines, overlay.Line{X0: 20.5, Y0: 330.5, X1: 620.5, Y1: 250.5, Width: 3, Color: rgba(1, 0.2, 0.8, 1)})
	text := []byte("CAM 01  2025-01-01 00:00:00")
	lw, lh := font.LabelSize(text)
	p.Labels = append(p.Labels, overlay.Label{X: 10, Y: 10, W: lw, H: lh, Text: text, Color: white, Background: rgba(0, 0, 0, 0.85)})
	return nil
}
