package goldens

import (
	"math"

	"trackink/curves"
	"trackink/internal/fonts"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
)

// Scene is one golden picture: a frame size and what is drawn on it.
type Scene struct {
	Name          string
	Width, Height int
	// What the scene exercises, for the reader of a failure.
	About string
	// Draw fills the primitives; font places labels.
	Draw func(p *overlay.Primitives, font *overlay.Font, w, h int) error
	// Font is the font file the labels are set in (Go Medium when it has no path), and
	// LabelSize their size (0: the default at the scene's height).
	Font      fonts.File
	LabelSize int
	// Footage, when not 0, is the frame of the real footage (footage.go) the scene draws on,
	// instead of the checkerboard.
	Footage int
}

// NewFont returns the font the scene's labels are set in.
func (s Scene) NewFont() (*overlay.Font, error) {
	size := s.LabelSize
	if size == 0 {
		size = overlay.DefaultStyle().ForHeight(s.Height).LabelSize
	}
	var tf *overlay.Typeface
	if s.Font.Path != "" {
		path, err := s.Font.Find()
		if err != nil {
			return nil, err
		}
		if tf, err = overlay.LoadTypeface(path); err != nil {
			return nil, err
		}
	}
	return overlay.NewFontOf(tf, size)
}

func rgba(r, g, b, a float32) overlay.RGBA { return overlay.RGBA{R: r * a, G: g * a, B: b * a, A: a} }

var (
	white  = rgba(1, 1, 1, 1)
	orange = rgba(1, 0.55, 0.1, 1)
	cyan   = rgba(0.1, 0.8, 0.9, 1)
)

// Scenes are the golden scenes, each aimed at something that breaks renderers.
var Scenes = []Scene{
	{
		Name: "lines-angles", Width: 320, Height: 320,
		About: "lines at 48 angles with sub-pixel endpoints, 0.5 to 6 px wide",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			for i := 0; i < 48; i++ {
				a := float64(i) * 2 * math.Pi / 48
				r0, r1 := 30.0+float64(i%3)*0.37, 150.0-float64(i%5)*0.29
				cx, cy := 160.25, 159.7
				width := float32(0.5 + float64(i%8)*0.75)
				p.Lines = append(p.Lines, overlay.Line{
					X0: float32(cx + r0*math.Cos(a)), Y0: float32(cy + r0*math.Sin(a)),
					X1: float32(cx + r1*math.Cos(a)), Y1: float32(cy + r1*math.Sin(a)),
					Width: width, Color: white})
			}
			return nil
		},
	},
	{
		Name: "line-widths", Width: 400, Height: 260,
		About: "widths 0.5 to 40 px, horizontal and slanted, translucent overlaps",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			x := float32(12.5)
			for _, wd := range []float32{0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 13, 21, 40} {
				p.Lines = append(p.Lines, overlay.Line{X0: x, Y0: 20.3, X1: x + 30, Y1: 240.6, Width: wd, Color: rgba(0.9, 0.9, 1, 0.8)})
				x += wd + 14
			}
			p.Lines = append(p.Lines, overlay.Line{X0: 10, Y0: 130.5, X1: 390, Y1: 129.5, Width: 3, Color: rgba(1, 0.3, 0.2, 0.6)})
			return nil
		},
	},
	{
		Name: "zero-length", Width: 200, Height: 120,
		About: "zero-length segments (dots) from 0.5 to 30 px at sub-pixel positions",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			x := float32(8.3)
			for i, wd := range []float32{0.5, 1, 1.5, 2, 3, 4.5, 7, 11, 18, 30} {
				y := float32(30.5 + float64(i%2)*0.25)
				p.Lines = append(p.Lines, overlay.Line{X0: x, Y0: y, X1: x, Y1: y, Width: wd, Color: orange})
				p.Lines = append(p.Lines, overlay.Line{X0: x + 0.5, Y0: 85, X1: x + 0.5, Y1: 85, Width: wd, Color: cyan})
				x += wd + 6
			}
			return nil
		},
	},
	{
		Name: "curves", Width: 480, Height: 360,
		About: "quadratic links with tiny, large, negative and huge bends, collinear control points, a long flat curve",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			add := func(ax, ay, bx, by, bend, width float32, c overlay.RGBA) {
				cx, cy := curves.Control(ax, ay, bx, by, bend)
				p.Curves = append(p.Curves, overlay.Curve{X0: ax, Y0: ay, X1: cx, Y1: cy, X2: bx, Y2: by, Width: width, Color: c})
			}
			for i, bend := range []float32{0, 0.01, 0.1, 0.3, 0.6, 1.5, 4} {
				y := 30 + float32(i)*40
				add(20.5, y, 200.3, y+10.25, bend, 2, white)
				add(460, y+5, 280, y, -bend, 1, orange)
			}
			// Collinear control point beyond an end: the curve doubles back on itself.
			p.Curves = append(p.Curves, overlay.Curve{X0: 40, Y0: 330, X1: 470, Y1: 330.5, X2: 200, Y2: 330.25, Width: 5, Color: rgba(0.3, 0.9, 0.3, 0.6)})
			// A huge bend on a short link, and a sub-pixel one.
			add(240, 180, 250, 181, 12, 1.5, cyan)
			add(100, 300, 100.4, 300.3, 0.3, 3, white)
			return nil
		},
	},
	{
		Name: "links-dashed", Width: 480, Height: 360,
		About: "dashed and dotted lines and curves, 0.5 to 8 px wide: dashes even by arc length along bends, round dots, translucent dashes that meet at chords",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			for i, wd := range []float32{0.5, 1, 2, 4, 8} {
				y := 20.5 + float32(i)*22
				p.Lines = append(p.Lines,
					overlay.Line{X0: 10.25, Y0: y, X1: 230, Y1: y + 3.5, Width: wd, Color: white, Dash: overlay.DashFor("dashed", wd)},
					overlay.Line{X0: 250, Y0: y + 4, X1: 470.5, Y1: y, Width: wd, Color: orange, Dash: overlay.DashFor("dotted", wd)})
			}
			add := func(ax, ay, bx, by, bend, width float32, c overlay.RGBA, style string) {
				cx, cy := curves.Control(ax, ay, bx, by, bend)
				p.Curves = append(p.Curves, overlay.Curve{X0: ax, Y0: ay, X1: cx, Y1: cy, X2: bx, Y2: by, Width: width, Color: c,
					Dash: overlay.DashFor(style, width)})
			}
			for i, bend := range []float32{0.1, 0.3, 0.6} {
				y := 160 + float32(i)*45
				add(20.5, y, 220.3, y+10.25, bend, 2+float32(i), cyan, "dashed")
				add(460, y+5, 260, y, -bend, 1.5+float32(i), white, "dotted")
			}
			// A tight loop, a translucent dashed curve doubling back on itself, a custom
			// pattern, a zero-length dashed line (a dot) and a sub-pixel dashed curve.
			add(120, 330, 150, 331, 6, 3, orange, "dashed")
			p.Curves = append(p.Curves, overlay.Curve{X0: 200, Y0: 335, X1: 470, Y1: 335.5, X2: 300, Y2: 335.25, Width: 6,
				Color: rgba(0.3, 0.9, 0.3, 0.6), Dash: overlay.Dash{On: 10, Period: 16}})
			p.Lines = append(p.Lines, overlay.Line{X0: 40.5, Y0: 320.5, X1: 40.5, Y1: 320.5, Width: 8, Color: cyan, Dash: overlay.DashFor("dashed", 8)})
			add(60, 340, 90, 340, 0.5, 0.75, white, "dotted")
			return nil
		},
	},
	{
		Name: "boxes-styles", Width: 480, Height: 300,
		About: "corner brackets (lengths 0.1 to 0.5), dashed and dotted outlines on square, rounded and round boxes, strokes 1 to 6 px, fills",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			fill := rgba(0.2, 0.5, 1, 0.2)
			x := float32(10.5)
			for i, br := range []float32{0.1, 0.25, 0.4, 0.5} {
				bw, bh := float32(90), float32(60+10*i)
				p.Boxes = append(p.Boxes, overlay.Box{X: x, Y: 10.3, W: bw, H: bh, Radius: float32(i) * 8, Stroke: 1 + float32(i),
					Fill: fill, StrokeColor: white, Bracket: br})
				x += bw + 25
			}
			for row, style := range []string{"dashed", "dotted"} {
				x := float32(10.25)
				for i, round := range []float32{0, 0.3, 1} {
					stroke := []float32{1, 3, 6}[i]
					bw, bh := float32(120), float32(80)
					p.Boxes = append(p.Boxes, overlay.Box{X: x, Y: 105.5 + float32(row)*100, W: bw, H: bh, Radius: round * min(bw, bh) / 2,
						Stroke: stroke, Fill: fill, StrokeColor: orange, Dash: overlay.DashFor(style, stroke)})
					x += bw + 30
				}
			}
			// Sub-pixel strokes, a tiny box, no fill.
			p.Boxes = append(p.Boxes,
				overlay.Box{X: 440.5, Y: 105.5, W: 34, H: 80, Radius: 4, Stroke: 0.5, StrokeColor: cyan, Dash: overlay.DashFor("dashed", 0.5)},
				overlay.Box{X: 440.2, Y: 210.5, W: 6, H: 8, Radius: 1, Stroke: 1, StrokeColor: cyan, Dash: overlay.DashFor("dotted", 1)},
				overlay.Box{X: 440, Y: 230, W: 34, H: 60, Radius: 10, Stroke: 2, StrokeColor: cyan, Bracket: 0.2})
			return nil
		},
	},
	{
		Name: "boxes-roundness", Width: 420, Height: 200,
		About: "rounded boxes with roundness 0, 0.25, 0.5, 1, translucent fill and strokes 0 to 8 px",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			// Top row: fill with strokes 0, 1, 3, 8 px; bottom row: stroke only, 8, 3, 1, 0.5 px.
			strokes := [2][4]float32{{0, 1, 3, 8}, {8, 3, 1, 0.5}}
			for i, round := range []float32{0, 0.25, 0.5, 1} {
				for j := range 2 {
					x, y := 15.5+float32(i)*100, 15.25+float32(j)*95
					bw, bh := float32(80), float32(70.5)
					c := overlay.TrackColor(i*2 + j)
					fill := overlay.Premul(c, 0.35)
					if j == 1 {
						fill = overlay.RGBA{}
					}
					p.Boxes = append(p.Boxes, overlay.Box{X: x, Y: y, W: bw, H: bh, Radius: round * min(bw, bh) / 2,
						Stroke: strokes[j][i], Fill: fill, StrokeColor: overlay.Premul(c, 1)})
				}
			}
			return nil
		},
	},
	{
		Name: "overlapping-fills", Width: 300, Height: 200,
		About: "translucent fills overlapping in both orders: the later one must show on top",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			red, blue := rgba(1, 0.1, 0.1, 0.5), rgba(0.1, 0.2, 1, 0.5)
			p.Boxes = append(p.Boxes,
				overlay.Box{X: 10, Y: 20, W: 90, H: 90, Fill: red, Stroke: 2, StrokeColor: white},
				overlay.Box{X: 55.5, Y: 65.5, W: 90, H: 90, Fill: blue, Stroke: 2, StrokeColor: white},
				overlay.Box{X: 200.5, Y: 65.5, W: 90, H: 90, Radius: 20, Fill: blue},
				overlay.Box{X: 155, Y: 20, W: 90, H: 90, Radius: 20, Fill: red},
			)
			return nil
		},
	},
	{
		Name: "off-frame", Width: 256, Height: 192,
		About: "boxes, lines, curves and labels partly and wholly outside the frame",
		Draw: func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
			for _, b := range []scene.Box{
				{ID: 1, X: -40, Y: 30, W: 80, H: 60}, {ID: 2, X: 220, Y: -30, W: 70, H: 90},
				{ID: 3, X: 100, Y: 160, W: 60, H: 80}, {ID: 4, X: 300, Y: 50, W: 40, H: 40},
				{ID: 5, X: -100, Y: -100, W: 50, H: 50},
			} {
				c := overlay.TrackColor(b.ID)
				p.Boxes = append(p.Boxes, overlay.Box{X: b.X, Y: b.Y, W: b.W, H: b.H, Radius: 6, Stroke: 2,
					Fill: overlay.Premul(c, 0.3), StrokeColor: overlay.Premul(c, 1)})
				p.AddBoxLabel(&b, c, 2, font, w, h)
			}
			p.Lines = append(p.Lines,
				overlay.Line{X0: -50, Y0: 100, X1: 300, Y1: 120, Width: 3, Color: white},
				overlay.Line{X0: -50, Y0: -50, X1: -10, Y1: 300, Width: 8, Color: white}, // wholly off
				overlay.Line{X0: 128, Y0: -20, X1: 140, Y1: 250, Width: 1.5, Color: orange})
			cx, cy := curves.Control(-30, 170, 290, 20, 0.4)
			p.Curves = append(p.Curves, overlay.Curve{X0: -30, Y0: 170, X1: cx, Y1: cy, X2: 290, Y2: 20, Width: 2.5, Color: cyan})
			return nil
		},
	},
	{
		Name: "labels-edges", Width: 360, Height: 200,
		About: "labels at every frame edge, moved inside; classes, scores and ids of all lengths",
		Draw: func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
			for _, b := range []scene.Box{
				{ID: 7, X: 2, Y: 1, W: 60, H: 70, Class: "person", Score: 0.97, HasScore: true},
				{ID: 12345, X: 300, Y: 60, W: 50, H: 60, Class: "bicycle"},
				{ID: 3, X: 150, Y: 170, W: 60, H: 50, Score: 0.5, HasScore: true},
				{ID: 42, X: 120, Y: 60, W: 80, H: 60, Class: "car", Score: 0.333, HasScore: true},
				{ID: 9, X: -30, Y: 120, W: 60, H: 50, Class: "dog"},
			} {
				c := overlay.TrackColor(b.ID)
				p.Boxes = append(p.Boxes, overlay.Box{X: b.X, Y: b.Y, W: b.W, H: b.H, Radius: 4, Stroke: 2,
					Fill: overlay.Premul(c, 0.2), StrokeColor: overlay.Premul(c, 1)})
				p.AddBoxLabel(&b, c, 2, font, w, h)
			}
			return nil
		},
	},
	{
		Name: "thin-features", Width: 240, Height: 120,
		About: "sub-pixel boxes and strokes: coverage scales with size instead of vanishing or bloating",
		Draw: func(p *overlay.Primitives, _ *overlay.Font, w, h int) error {
			x := float32(10.3)
			for _, s := range []float32{0.1, 0.25, 0.5, 0.75, 1, 1.5} {
				p.Boxes = append(p.Boxes, overlay.Box{X: x, Y: 10.5, W: s, H: 40, Fill: white})
				p.Boxes = append(p.Boxes, overlay.Box{X: x + 12, Y: 10.5, W: 25, H: 40, Stroke: s, StrokeColor: orange})
				p.Boxes = append(p.Boxes, overlay.Box{X: x, Y: 70.2, W: 30, H: s, Fill: cyan})
				x += 38
			}
			return nil
		},
	},
	{
		Name: "odd-size", Width: 641, Height: 479,
		About: "a 641×479 frame (partial edge tiles, odd chroma) with the seed scene scaled down",
		Draw:  seedScene,
	},
	{
		Name: "trails", Width: 960, Height: 540,
		About: "the seed scene sped up 8×, with 30-frame trails: smooth, fading, seamless where pieces join",
		Draw: func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
			seed := scene.NewSeed(w, h)
			st := seedStyle(h)
			st.Trail, st.Labels, st.FillOpacity = 30, false, 0.08
			b, err := overlay.NewBuilder(st, font, w, h)
			if err != nil {
				return err
			}
			var f scene.Frame
			for n := 1; n <= 60; n++ {
				seed.Frame(8*n, &f) // 8× faster, so that 30 frames make a visible path
				f.Index = n
				b.Build(p, &f, nil)
			}
			return nil
		},
	},
	{
		Name: "look-default", Width: 960, Height: 540,
		About: "the default look on 20 tracks: boxes with labels out of each other's way, straight links, points",
		Draw:  lookScene("default", nil),
	},
	{
		Name: "look-clean", Width: 960, Height: 540,
		About: "the clean look: boxes and labels coloured by class (three classes), no links",
		Draw:  lookScene("clean", nil),
	},
	{
		Name: "look-plexus", Width: 960, Height: 540,
		About: "the plexus look: neon links and points with 20-frame trails, thin boxes, no labels",
		Draw:  lookScene("plexus", nil),
	},
	{
		Name: "look-hud", Width: 960, Height: 540,
		About: "the hud look: corner brackets and labels by class, dashed links",
		Draw:  lookScene("hud", nil),
	},
	{
		Name: "look-styles", Width: 960, Height: 540,
		About: "the default look with dotted box outlines and dotted links, straight and curved",
		Draw: lookScene("default", func(st *overlay.Style) {
			st.BoxStyle, st.LinkStyle = "dotted", "dotted"
			st.CurveWidth = overlay.Auto
		}),
	},
	{
		Name: "labels-colors", Width: 960, Height: 540,
		About: "a label template with every field, {word} from a list, untracked boxes, element colours and opacities",
		Draw: lookScene("default", func(st *overlay.Style) {
			st.LabelFormat = "{word}#{id} {class} {score:.1f} f{frame} age{age} {x:.0f},{y:.0f} {w:.0f}x{h:.0f}"
			st.LabelWords = []string{"Ava ", "Bo ", "Cy "}
			st.BoxColor, _ = overlay.ParseOptionalColor("#ffffffcc")
			st.LinkColor, _ = overlay.ParseOptionalColor("#00e5ff")
			st.LabelColor, _ = overlay.ParseOptionalColor("#101418")
			st.LabelTextColor, _ = overlay.ParseOptionalColor("#ffd400")
			st.FillOpacity, st.LabelOpacity, st.PointOpacity = 0.05, 0.7, 0.5
		}),
	},
	{
		Name: "labels-scripts", Width: 640, Height: 400, Font: fonts.DejaVuSans, LabelSize: 22,
		About: "labels set in DejaVu Sans: Latin with kerning, Cyrillic, Greek, Hebrew, Arabic and Persian joined right to left " +
			"amid left-to-right ids and scores, lam-alef, and CJK, which neither DejaVu Sans nor Go Medium has, as hollow boxes",
		Draw: classLabels([]string{"Wave café", "автобус", "πεζός", "מכונית", "سيارة", "الإسعاف", "پیاده\u200cرو", "行人"}),
	},
	{
		Name: "labels-cjk", Width: 640, Height: 280, Font: fonts.DroidSansFallback, LabelSize: 22,
		About: "labels set in Droid Sans Fallback: Chinese, Japanese and Korean, and the Latin letters it lacks from Go Medium",
		Draw:  classLabels([]string{"行人", "汽车 car", "自転車", "자동차", "トラック"}),
	},
	{
		Name: "seed-small", Width: 960, Height: 540,
		About: "the seed benchmark scene at a quarter of 4K: k = 5 links, curves, boxes, labels",
		Draw:  seedScene,
	},
}

// classLabels draws a box for each class name, two to a row, labelled "#id class score".
func classLabels(classes []string) func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	return func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
		rows := (len(classes) + 1) / 2
		bh := float32(h)/float32(rows) - 40
		for i, class := range classes {
			b := scene.Box{ID: i + 1, Class: class, Score: 0.9 - float32(i)*0.07, HasScore: true,
				X: 20 + float32(i%2)*float32(w)/2, Y: 36 + float32(i/2)*(bh+40), W: float32(w)/2 - 40, H: bh}
			c := overlay.TrackColor(b.ID)
			p.Boxes = append(p.Boxes, overlay.Box{X: b.X, Y: b.Y, W: b.W, H: b.H, Radius: 4, Stroke: 2,
				Fill: overlay.Premul(c, 0.2), StrokeColor: overlay.Premul(c, 1)})
			p.AddBoxLabel(&b, c, 2, font, w, h)
		}
		return nil
	}
}

// seedScene draws frame 1 of the seed scene at the golden's size, in the seed look, with
// links from the k-nearest-neighbour graph.
func seedScene(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	f := &scene.Seed(w, h, 1)[0]
	g, err := knn.New(knn.Options{K: knn.DefaultK})
	if err != nil {
		return err
	}
	defer g.Close()
	edges, err := g.Update(f.Points)
	if err != nil {
		return err
	}
	b, err := overlay.NewBuilder(seedStyle(h), font, w, h)
	if err != nil {
		return err
	}
	b.Build(p, f, edges)
	return nil
}

// seedStyle is the preset "seed" at height h.
func seedStyle(h int) overlay.Style {
	st, _ := overlay.Preset("seed")
	return st.ForHeight(h)
}

// lookScene draws 20 tracks of the seed scene (every fifth) sped up 4×, 12 frames in, in a built-in look
// changed by edit, with the k = 3 link graph; the boxes take three classes, and two are
// untracked.
func lookScene(look string, edit func(*overlay.Style)) func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	return trackScene(look, edit, true)
}

// trackScene is lookScene, with the boxes or (boxes false) with the points alone.
func trackScene(look string, edit func(*overlay.Style), boxes bool) func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
	return func(p *overlay.Primitives, font *overlay.Font, w, h int) error {
		b, g, err := lookBuilder(look, edit, font, w, h)
		if err != nil {
			return err
		}
		defer g.Close()
		seed := scene.NewSeed(w, h)
		var all, f scene.Frame
		classes := []string{"person", "car", "bicycle"}
		for n := 1; n <= 12; n++ {
			seed.Frame(4*n, &all) // 4× faster, so that trails show
			f = scene.Frame{Index: n}
			for i := 0; boxes && i < len(all.Boxes); i += 5 {
				bx := all.Boxes[i]
				bx.Class = classes[i/5%3]
				if i/5 == 7 || i/5 == 13 {
					bx.ID = scene.NoID
				}
				f.Boxes = append(f.Boxes, bx)
			}
			for i := 0; i < len(all.Points); i += 5 {
				f.Points = append(f.Points, all.Points[i])
			}
			edges, err := g.Update(f.Points)
			if err != nil {
				return err
			}
			b.Build(p, &f, edges)
		}
		return nil
	}
}
