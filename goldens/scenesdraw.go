package goldens

import (
	"trackink/knn"
	"trackink/overlay"
)

// The scenes of the drawing options beyond the basic look (overlay/look.go: fades, smoothed
// trails, boxes from points, blend modes) and the looks built of them, after the others.
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
			Name: "point-styles", Width: 480, Height: 300,
			About: "--point-style dot, ring, cross, plus, square, diamond (columns) at radius 2.5, 4, 7.3 and 12 (rows), " +
				"opaque on the left half of each cell, at 0.6 on the right: anti-aliased, nothing drawn twice where arms cross",
			Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
				for i, style := range overlay.PointStyles {
					for j, r := range []float32{2.5, 4, 7.3, 12} {
						x, y := 40.3+float32(i)*75, 40.6+float32(j)*70
						p.AddPoint(style, x-14, y, r, cyan)
						p.AddPoint(style, x+16, y, r, rgba(1, 0.55, 0.1, 0.6))
					}
				}
				return nil
			},
		},
		Scene{
			Name: "links-electric", Width: 960, Height: 540,
			About: "--link-style electric: each straight link a jagged arc of joined pieces (a function of the two ids and the frame), fading with length",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LinkStyle, st.LinkFade, st.LinkOpacity, st.FillOpacity = "electric", overlay.Auto, 1, 0.05
			}),
		},
		Scene{
			Name: "links-wave", Width: 960, Height: 540,
			About: "--link-shape wave: each straight link a travelling sine (joined pieces, a function of the ends, the two ids and the frame), " +
				"fewer cycles on short links, fading with length",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LinkShape, st.LinkAmp, st.LinkFade, st.LinkOpacity, st.FillOpacity = "wave", 6, overlay.Auto, 1, 0.05
			}),
		},
		Scene{
			Name: "links-s-dashed", Width: 960, Height: 540,
			About: "--link-shape s with dashed links: the dashes run on across the pieces' joints " +
				"(a period stretched to a whole number a piece)",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LinkShape, st.LinkStyle, st.LinkOpacity, st.FillOpacity, st.Bend = "s", "dashed", 0.8, 0.05, 0.4
			}),
		},
		Scene{
			Name: "links-elastic-dotted", Width: 960, Height: 540,
			About: "--link-shape elastic with dotted, flowing links: a damped wave from each link's lower id",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LinkShape, st.LinkStyle, st.LinkFlow, st.LinkAmp, st.LinkOpacity, st.FillOpacity = "elastic", "dotted", 1.5, 8, 0.9, 0.05
			}),
		},
		Scene{
			Name: "links-spiral-gradient", Width: 960, Height: 540,
			About: "--link-shape spiral --link-turns 1.5 --link-color gradient: a curl round each link's lower id ending on the other point, " +
				"run from one end's colour to the other's, with a halo",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LinkShape, st.LinkTurns, st.LinkGradient, st.LinkOpacity, st.LineWidth, st.FillOpacity, st.Palette, st.Halo =
					"spiral", 1.5, true, 1, 2, 0.05, "neon", 1.5
			}),
		},
		Scene{
			Name: "links-swirl-dashed", Width: 960, Height: 540,
			About: "--link-shape swirl with dashed links: each link a field line whose bends hook back, travelling with the frame; " +
				"the dashes run on across the pieces' joints",
			Draw: lookScene("default", func(st *overlay.Style) {
				st.LinkShape, st.LinkStyle, st.LinkAmp, st.LinkOpacity, st.FillOpacity = "swirl", "dashed", 6, 0.9, 0.05
			}),
		},
		Scene{
			Name: "overlay-opacity", Width: 320, Height: 180,
			About: "--overlay-opacity 0.5: two overlapping opaque boxes (orange under cyan), a thick magenta line " +
				"over both and a ring: the whole layer at half opacity, so where they overlap only the top one shows (no orange " +
				"through the cyan, no cyan through the line), the checkerboard through all; the label at the bottom at full opacity",
			Draw: overlayOpacityScene,
		},
	)
	for _, look := range []string{"default", "clean", "hud", "plexus", "neon"} {
		Scenes = append(Scenes, Scene{
			Name: "vtest-" + look, Width: footageW, Height: footageH, Footage: 240,
			About: "the " + look + " look on real footage: frame 240 of OpenCV's vtest.avi (pedestrians), drawn in its Y'CbCr, " +
				"with trackink's own tracks (track --detect people)",
			Draw: footageScene(look, nil, 240),
		})
	}
	Scenes = append(Scenes, Scene{
		Name: "vtest-blend-add", Width: footageW, Height: footageH, Footage: 240,
		About: "--blend add on real footage (frame 240 of vtest.avi): the boxes, fills and links added onto the frame, " +
			"the labels composited over it after them, so that their text stays readable on pale ground",
		Draw: footageScene("default", func(st *overlay.Style) { st.Blend, st.FillOpacity = "add", 0.3 }, 240),
	})
	Scenes = append(Scenes, Scene{
		Name: "vtest-blend-multiply", Width: footageW, Height: footageH, Footage: 240,
		About: "--blend multiply on real footage (frame 240 of vtest.avi): the boxes' fills and outlines and the links " +
			"darken the frame by their luma without tinting it (white would keep it), the labels over it",
		Draw: footageScene("default", func(st *overlay.Style) { st.Blend, st.FillOpacity = "multiply", 0.3 }, 240),
	})
	Scenes = append(Scenes, Scene{
		Name: "vtest-blend-lighten", Width: footageW, Height: footageH, Footage: 240,
		About: "--blend lighten on real footage (frame 240 of vtest.avi): the overlay shows only where it is lighter than " +
			"the frame (over the dark clothes and floor, not the pale walls), the labels over it",
		Draw: footageScene("default", func(st *overlay.Style) { st.Blend, st.FillOpacity = "lighten", 0.3 }, 240),
	})
}

// lookBuilder returns a Builder for w × h frames in a built-in look changed by edit, and the
// look's link graph (k = 3 nearest unless it names another) within its reach, as
// overlay.Drawer would search, for the scenes that build frame after frame.
func lookBuilder(look string, edit func(*overlay.Style), font *overlay.Font, w, h int) (*overlay.Builder, *knn.Graph, error) {
	st, _ := overlay.Preset(look)
	if edit != nil {
		edit(&st)
	}
	st = st.ForHeight(h)
	b, err := overlay.NewBuilder(st, font, w, h)
	if err != nil {
		return nil, nil, err
	}
	g, err := knn.New(knn.Options{K: 3, Hysteresis: knn.DefaultHysteresis, MaxDist: float64(st.LinkReach) * float64(w),
		Graph: st.LinkGraph})
	return b, g, err
}

// overlayOpacityScene is the master opacity's scene (--overlay-opacity, Primitives.Transparency).
func overlayOpacityScene(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	p.Transparency = 0.5
	p.Boxes = append(p.Boxes,
		overlay.Box{X: 20.5, Y: 20.5, W: 130, H: 100, Fill: rgba(0.95, 0.55, 0.1, 1)},
		overlay.Box{X: 90.5, Y: 50.5, W: 130, H: 100, Radius: 10, Fill: rgba(0.1, 0.8, 0.9, 1)},
		overlay.Box{X: 240.5, Y: 30.5, W: 60, H: 60, Radius: 30, Stroke: 6, StrokeColor: white},
	)
	p.Lines = append(p.Lines, overlay.Line{X0: 10.5, Y0: 140.5, X1: 300.5, Y1: 20.5, Width: 8, Color: rgba(1, 0.2, 0.8, 1)})
	text := []byte("ID 7  full opacity")
	lw, lh := font.LabelSize(text)
	p.Labels = append(p.Labels, overlay.Label{X: 10, Y: h - lh - 6, W: lw, H: lh, Text: text, Color: white, Background: rgba(0, 0, 0, 0.85)})
	return nil
}
