package overlay

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"trackink/internal/field"
	"trackink/internal/fonts"
	"trackink/scene"
)

// testFont returns the label font at 14 px.
func testFont(t testing.TB) *Font {
	t.Helper()
	f, err := NewFont(14)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestLabelsStayInsideTheFrame(t *testing.T) {
	font := testFont(t)
	const w, h = 320, 240
	for _, tc := range []struct {
		name string
		box  scene.Box
	}{
		{"top-left corner", scene.Box{ID: 1, X: -5, Y: -3, W: 40, H: 60}},
		{"right edge", scene.Box{ID: 22, X: 300, Y: 100, W: 40, H: 60, Class: "bicycle", Score: 0.5, HasScore: true}},
		{"bottom", scene.Box{ID: 3, X: 100, Y: 235, W: 40, H: 60}},
	} {
		var p Primitives
		p.AddBoxLabel(&tc.box, TrackColor(tc.box.ID), 2, font, w, h)
		if len(p.Labels) != 1 {
			t.Fatalf("%s: %d labels", tc.name, len(p.Labels))
		}
		l := p.Labels[0]
		lw, lh := font.LabelSize(l.Text)
		if l.X < 0 || l.Y < 0 || l.X+lw > w || l.Y+lh > h {
			t.Errorf("%s: label %q at (%d,%d) size %dx%d leaves the %dx%d frame", tc.name, l.Text, l.X, l.Y, lw, lh, w, h)
		}
	}
	var p Primitives
	p.AddBoxLabel(&scene.Box{ID: 1, X: 400, Y: 10, W: 10, H: 10}, TrackColor(1), 2, font, w, h)
	if len(p.Labels) != 0 {
		t.Errorf("a box outside the frame got a label")
	}
}

func TestLabelText(t *testing.T) {
	font := testFont(t)
	var p Primitives
	p.AddBoxLabel(&scene.Box{ID: 42, X: 10, Y: 50, W: 10, H: 10, Class: "car", Score: 0.876, HasScore: true}, TrackColor(42), 2, font, 200, 200)
	p.AddBoxLabel(&scene.Box{ID: 7, X: 10, Y: 50, W: 10, H: 10}, TrackColor(7), 2, font, 200, 200)
	p.AddBoxLabel(&scene.Box{ID: scene.NoID, X: 10, Y: 50, W: 10, H: 10, Class: "car", Score: 0.5, HasScore: true}, TrackColor(1), 2, font, 200, 200)
	p.AddBoxLabel(&scene.Box{ID: scene.NoID, X: 10, Y: 50, W: 10, H: 10}, TrackColor(1), 2, font, 200, 200)
	if len(p.Labels) != 3 {
		t.Fatalf("%d labels, want 3: an untracked box without class or score has none", len(p.Labels))
	}
	for i, want := range []string{"#42 car 0.88", "#7", "car 0.50"} {
		if got := string(p.Labels[i].Text); got != want {
			t.Errorf("label %d: %q, want %q", i, got, want)
		}
	}
}

// Every built-in look, with every palette, gives its labels text that reaches WCAG's
// 4.5:1 against the label's background over any picture under it (the background is
// translucent: over black and over white, the extremes). The default look's labels reached
// 2.2:1 with the tableau20 palette's mid-tones.
func TestLabelsAreLegible(t *testing.T) {
	for look, preset := range presets {
		for _, name := range Palettes() {
			s := preset.style()
			s.Palette = name
			p, _ := palette(name)
			worst, at := math.Inf(1), ""
			for i := range p {
				c := paletteColor(p, i)
				bg, fg, _ := labelColors(c, &s)
				for _, under := range []float32{0, 1} {
					// Premultiplied background over a grey picture, text opaque.
					mix := func(v float32) float64 { return float64(v+(1-bg.A)*under) * 255 }
					b := relativeLuminance(mix(bg.R), mix(bg.G), mix(bg.B))
					f := relativeLuminance(float64(fg.R)*255, float64(fg.G)*255, float64(fg.B)*255)
					if r := (max(b, f) + 0.05) / (min(b, f) + 0.05); r < worst {
						worst, at = r, fmt.Sprintf("#%06x over %v", p[i], under)
					}
				}
			}
			if worst < minTextContrast {
				t.Errorf("look %s, palette %s: labels contrast %.2f:1 (%s), want at least %.1f:1", look, name, worst, at, minTextContrast)
			}
		}
	}
}

// TestLabelAnchors: each anchor puts a label where its name says, the offset moves it, and
// an outside label that would leave the frame turns inside (its offset mirrored).
func TestLabelAnchors(t *testing.T) {
	const w, h, lw, lh = 320, 240, 30, 10
	// Stroke 2: the outline's outer edges are x 99, 141 and y 99, 161; its inner ones y 101, 159.
	box := scene.Box{X: 100, Y: 100, W: 40, H: 60}
	for _, tc := range []struct {
		anchor string
		box    scene.Box
		dx, dy int
		x, y   int
	}{
		{"top-left", box, 0, 0, 99, 89},
		{"top", box, 0, 0, 105, 89},
		{"top-right", box, 0, 0, 111, 89},
		{"left", box, 0, 0, 69, 125},
		{"centre", box, 0, 0, 105, 125},
		{"right", box, 0, 0, 141, 125},
		{"bottom-left", box, 0, 0, 99, 161},
		{"bottom", box, 0, 0, 105, 161},
		{"bottom-right", box, 0, 0, 111, 161},
		{"inside-top-left", box, 0, 0, 99, 101},
		{"inside-top", box, 0, 0, 105, 101},
		{"inside-left", box, 0, 0, 99, 125},
		{"inside-right", box, 0, 0, 111, 125},
		{"inside-bottom-right", box, 0, 0, 111, 149},
		{"right", box, 5, -3, 146, 122},
		{"bottom", box, -4, 6, 101, 167},
		// Off the frame's top: inside the box, the offset mirrored (4 px down from its edge).
		{"top-left", scene.Box{X: 100, Y: 5, W: 40, H: 60}, 0, -4, 99, 10},
		{"bottom", scene.Box{X: 100, Y: 170, W: 40, H: 60}, 0, 0, 105, 229 - lh},
		{"right", scene.Box{X: 280, Y: 100, W: 30, H: 60}, 0, 0, 311 - lw, 125},
		{"left", scene.Box{X: 10, Y: 100, W: 30, H: 60}, 0, 0, 9, 125},
		// Kept inside the frame whatever the offset.
		{"top-left", box, -500, 0, 0, 89},
		// The default place, moved by the offset.
		{"auto", box, 3, 2, 102, 91},
	} {
		place, ok := parseAnchor(tc.anchor)
		if !ok {
			t.Fatalf("%s: not an anchor", tc.anchor)
		}
		lp := labelPlacer{stroke: 2, anchor: place, dx: tc.dx, dy: tc.dy}
		if place < 0 {
			place = placeAbove
		}
		if x, y, _ := lp.at(&tc.box, place, lw, lh, w, h); x != tc.x || y != tc.y {
			t.Errorf("%s %+v offset %d,%d: at (%d,%d), want (%d,%d)", tc.anchor, tc.box, tc.dx, tc.dy, x, y, tc.x, tc.y)
		}
	}
	for _, bad := range []string{"middle", "inside-centre", "Top", "top-"} {
		if _, ok := parseAnchor(bad); ok {
			t.Errorf("%q taken as an anchor", bad)
		}
	}
}

// TestAnchoredLabelsMirror: an anchored label that would cover another is mirrored, its
// offset with it, unless LabelsOverlap; every label keeps its anchor where there is room.
func TestAnchoredLabelsMirror(t *testing.T) {
	f := &scene.Frame{Index: 1, Boxes: []scene.Box{
		{ID: 1, X: 100, Y: 100, W: 60, H: 80, Class: "pedestrian"},
		{ID: 2, X: 130, Y: 100, W: 60, H: 80, Class: "pedestrian"},
		{ID: 3, X: 300, Y: 20, W: 40, H: 40, Class: "pedestrian"},
	}}
	for _, tc := range []struct {
		overlap bool
		want2   string // where track 2's label sits: below its box, or above it
	}{{false, "above"}, {true, "below"}} {
		st := DefaultStyle()
		st.LabelAnchor, st.LabelOffset, st.LabelsOverlap = "bottom", [2]float32{0, 4}, tc.overlap
		b := newTestBuilder(t, st, 400, 400)
		var p Primitives
		b.Build(&p, f, nil)
		stroke := b.style.BoxStroke
		l1, l2, l3 := p.Labels[0], p.Labels[1], p.Labels[2]
		if want := int(100+80+stroke/2) + 4; l1.Y != want || l3.Y != int(20+40+stroke/2)+4 {
			t.Errorf("overlap %v: tracks 1 and 3's labels at y %d, %d: want 4 px below their boxes (%d)", tc.overlap, l1.Y, l3.Y, want)
		}
		above := int(100-stroke/2) - 4 - l2.H
		got := map[bool]string{true: "above", false: "below"}[l2.Y == above]
		if got != tc.want2 {
			t.Errorf("overlap %v: track 2's label at y %d (above its box is %d): %s, want %s", tc.overlap, l2.Y, above, got, tc.want2)
		}
	}
}

// TestLabelOutlineColors: with an outline the background keeps its opacity (0: bare text,
// where without one it is raised until the text reads), and the outline is black round
// white text and white round black text (auto), black or white against a chosen text
// colour by contrast, or the style's colour; auto text is black or white against a chosen
// outline colour (white text on a yellow outline barely read); the builder gives the labels
// the outline.
func TestLabelOutlineColors(t *testing.T) {
	c := scene.Color{R: 200, G: 60, B: 40, A: 255}
	black, white := Premul(opaque(0x000000), 1), Premul(opaque(0xffffff), 1)
	for _, tc := range []struct {
		name          string
		outline       float32
		opacity       float32
		text, lineCol string
		bare          bool
		fg, line      RGBA
	}{
		{"bare, auto", 2, 0, "", "", true, white, black},
		{"no outline: the plate comes back", 0, 0, "", "", false, white, RGBA{}},
		{"black text", 1.5, 0, "black", "", true, black, white},
		{"yellow text", 2, 0, "yellow", "", true, Premul(opaque(0xffff00), 1), black},
		{"navy text", 2, 0, "navy", "", true, Premul(opaque(0x000080), 1), white},
		{"chosen colour", 2, 0.5, "", "red", false, black, Premul(opaque(0xff0000), 1)},
		// A chosen outline colour, not the plate, decides auto text: dark round yellow.
		{"yellow outline on a plate", 16, 0.85, "", "yellow", false, black, Premul(opaque(0xffff00), 1)},
		{"yellow outline, bare", 2, 0, "", "yellow", true, black, Premul(opaque(0xffff00), 1)},
		{"navy outline", 2, 0, "", "navy", true, white, Premul(opaque(0x000080), 1)},
		{"chosen text and outline", 2, 0, "yellow", "yellow", true, Premul(opaque(0xffff00), 1), Premul(opaque(0xffff00), 1)},
	} {
		st := DefaultStyle()
		st.LabelOutline, st.LabelOpacity = tc.outline, tc.opacity
		if tc.text != "" {
			st.LabelTextColor, _ = ParseOptionalColor(tc.text)
		}
		if tc.lineCol != "" {
			st.LabelOutlineColor, _ = ParseOptionalColor(tc.lineCol)
		}
		bg, fg, line := labelColors(c, &st)
		if (bg.A == 0) != tc.bare || fg != tc.fg || line != tc.line {
			t.Errorf("%s: background %v, text %v, outline %v; want bare %v, text %v, outline %v", tc.name, bg, fg, line, tc.bare, tc.fg, tc.line)
		}
		if tc.name == "chosen colour" && bg.A != 0.5 {
			t.Errorf("%s: background opacity %g, want the style's 0.5", tc.name, bg.A)
		}
		bl := newTestBuilder(t, st, 640, 360)
		f := scene.Frame{Boxes: []scene.Box{{ID: 3, X: 100, Y: 100, W: 50, H: 80, Class: "person"}}}
		var p Primitives
		bl.Build(&p, &f, nil)
		if len(p.Labels) != 1 || p.Labels[0].Outline != tc.outline || p.Labels[0].OutlineColor != tc.line {
			t.Errorf("%s: labels %+v, want one outlined %g in %v", tc.name, p.Labels, tc.outline, tc.line)
		}
	}
}

// TestLabelTextAgainstOutline: with a chosen outline colour, auto text is black or white
// against what surrounds the glyphs, the outline over the plate weighed by the outline's
// alpha and its width against the label's padding (7 px at size 30). A transparent or thin
// outline on an opaque yellow plate once got white text, chosen against the outline alone.
func TestLabelTextAgainstOutline(t *testing.T) {
	black, white := Premul(opaque(0x000000), 1), Premul(opaque(0xffffff), 1)
	for _, tc := range []struct {
		name           string
		plate, outline string
		width, opacity float32
		want           RGBA
	}{
		{"transparent navy outline, opaque yellow plate", "yellow", "#00008000", 2, 1, black},
		{"0.5 px navy outline, opaque yellow plate", "yellow", "navy", 0.5, 1, black},
		{"2 px half-transparent navy, opaque yellow plate", "yellow", "#00008080", 2, 1, black},
		{"navy outline as wide as the padding", "yellow", "navy", 7, 1, white},
		{"16 px navy outline covers the plate", "yellow", "navy", 16, 1, white},
		{"navy outline, no plate", "yellow", "navy", 0.5, 0, white},
		{"yellow outline, no plate", "navy", "yellow", 2, 0, black},
		{"1 px yellow outline, opaque navy plate", "navy", "yellow", 1, 1, white},
		{"wide yellow outline, opaque navy plate", "navy", "yellow", 12, 1, black},
		{"wide yellow outline, faint navy plate", "navy", "yellow", 12, 0.2, black},
		{"transparent yellow outline, opaque navy plate", "navy", "#ffff0000", 16, 1, white},
	} {
		st := DefaultStyle()
		st.LabelSize, st.LabelOutline, st.LabelOpacity = 30, tc.width, tc.opacity
		st.LabelColor, _ = ParseOptionalColor(tc.plate)
		st.LabelOutlineColor, _ = ParseOptionalColor(tc.outline)
		if _, fg, _ := labelColors(scene.Color{R: 200, G: 60, B: 40, A: 255}, &st); fg != tc.want {
			t.Errorf("%s: text %v, want %v", tc.name, fg, tc.want)
		}
	}
}

// TestLabelTemplatesMustBeUTF8: a label template (--label, or a --class-label's) or a camera
// name (--camera-name) that is not UTF-8 is refused, naming its field (the flag), as the --label-words and --label-lines
// files and style files are; it was drawn as replacement boxes without a word. Valid UTF-8,
// letters, CJK and emoji, passes.
func TestLabelTemplatesMustBeUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, format, class, camera string
		field                       string // "" for none
	}{
		{"stray bytes", "bad\xff\xfe #{id}", "", "", "LabelFormat"},
		{"a cut sequence", "p\xc3 {id}", "", "", "LabelFormat"},
		{"a surrogate", "\xed\xa0\x80{id}", "", "", "LabelFormat"},
		{"an overlong slash", "\xc0\xaf{id}", "", "", "LabelFormat"},
		{"inside a field's braces", "{id\xff}", "", "", "LabelFormat"},
		{"a class's template", "#{id}", "p\xff {id}", "", "ClassLabels"},
		{"a camera's name", "#{id}", "", "CAM\xff 1", "Camera.Name"},
		{"letters, CJK, emoji", "Ünï行😀 #{id}", "peatón {id}", "Cámara 東", ""},
	} {
		st := DefaultStyle()
		st.LabelFormat = tc.format
		if tc.class != "" {
			st.ClassLabels = map[string]string{"person": tc.class}
		}
		st.Camera.Name = tc.camera
		err := st.Validate()
		var fe *field.Error
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%s: %v, want none", tc.name, err)
		case tc.field != "" && (!errors.As(err, &fe) || fe.Field != "overlay.Style."+tc.field || !strings.Contains(err.Error(), "not UTF-8")):
			t.Errorf("%s: %v, want %s refused: not UTF-8", tc.name, err, tc.field)
		}
	}
}

// TestLabelTextKeepsUTF8 checks that a label's text reaches the font as the UTF-8 the user
// wrote, from the template and from every field that holds text: each character one glyph,
// an emoji one hollow box. The template's literal text was once copied a byte at a time as
// code points, which drew "Ünï" as "Ã\u009cnÃ¯".
func TestLabelTextKeepsUTF8(t *testing.T) {
	font := fontOf(t, fonts.DroidSansFallback, 20) // CJK, with Go Medium for the Latin letters
	box := &scene.Box{ID: 3, Class: "peatón"}
	for _, tc := range []struct {
		name, tmpl, word, line, want string
		missing                      []rune
	}{
		{"latin-1 letters", "Ünï #{id}", "", "", "Ünï #3", nil},
		{"beside braces and fields", "{{Ç}}{class}ß", "", "", "{Ç}peatónß", nil},
		{"cjk", "行人 {id}", "", "", "行人 3", nil},
		{"emoji: one hollow box", "😀{id}", "", "", "😀3", []rune{'😀'}},
		{"words and lines files", "{word} {line}", "çà", "línea 日本", "çà línea 日本", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := parseLabelFormat(tc.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			text := f.appendLabel(nil, &labelValues{box: box, word: tc.word, line: tc.line})
			if string(text) != tc.want {
				t.Errorf("text %q, want %q", text, tc.want)
			}
			font.ForgetMissing()
			if n, want := len(glyphsOf(font, string(text))), utf8.RuneCount(text); n != want {
				t.Errorf("%d glyphs for %q, want %d: one a character", n, text, want)
			}
			if !slices.Equal(font.Missing(), tc.missing) {
				t.Errorf("missing %U, want %U", font.Missing(), tc.missing)
			}
		})
	}
}

// TestLabelsAtTheEdgeKeepApart: labels the frame's edge moves (an offset pushing them out,
// boxes at the edge) are kept apart where they are drawn, inside the frame. Every place of a
// label pushed past an edge is clamped onto the same line there, so avoidance among the
// places alone found none free and left a label on top of the one before it (at 1080p,
// --label-offset -200,-400 put track 7's label over track 6's at the top edge).
func TestLabelsAtTheEdgeKeepApart(t *testing.T) {
	for _, tc := range []struct {
		name   string
		w, h   int
		anchor string
		dx, dy float32
		boxes  []scene.Box
	}{
		{"top edge, offset up (tracks 6 and 7 of the 1080p repro)", 1920, 1080, "", -200, -400, []scene.Box{
			{ID: 6, X: 1654.6234, Y: 205.2359, W: 48.12286, H: 94.24086, Class: "person", Score: 0.648642, HasScore: true},
			{ID: 7, X: 1701.7239, Y: 211.67151, W: 51.180893, H: 90.24204, Class: "person", Score: 0.56597286, HasScore: true},
		}},
		{"right edge, three in a row", 640, 480, "", 400, 0, []scene.Box{
			{ID: 1, X: 500, Y: 200, W: 30, H: 40, Class: "car"},
			{ID: 2, X: 540, Y: 202, W: 30, H: 40, Class: "car"},
			{ID: 3, X: 580, Y: 204, W: 30, H: 40, Class: "car"},
		}},
		{"bottom edge, offset down", 640, 480, "", 0, 600, []scene.Box{
			{ID: 1, X: 100, Y: 300, W: 30, H: 40, Class: "pedestrian"},
			{ID: 2, X: 120, Y: 250, W: 30, H: 40, Class: "pedestrian"},
		}},
		// Five boxes past the left edge at one height fill the four places: the fifth, which
		// the edge moved with no offset, once kept its first over the first box's.
		{"left edge, no offset", 640, 480, "", 0, 0, []scene.Box{
			{ID: 1, X: -100, Y: 200, W: 110, H: 100, Class: "car"},
			{ID: 2, X: -98, Y: 200, W: 110, H: 100, Class: "car"},
			{ID: 3, X: -96, Y: 200, W: 110, H: 100, Class: "car"},
			{ID: 4, X: -94, Y: 200, W: 110, H: 100, Class: "car"},
			{ID: 5, X: -92, Y: 200, W: 110, H: 100, Class: "car"},
		}},
		{"top-left corner, anchored", 640, 480, "top-left", -500, -500, []scene.Box{
			{ID: 1, X: 40, Y: 40, W: 30, H: 40, Class: "pedestrian"},
			{ID: 2, X: 60, Y: 60, W: 30, H: 40, Class: "pedestrian"},
			{ID: 3, X: 80, Y: 80, W: 30, H: 40, Class: "pedestrian"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := DefaultStyle()
			st.LabelAnchor, st.LabelOffset = tc.anchor, [2]float32{tc.dx, tc.dy}
			b := newTestBuilder(t, st, tc.w, tc.h)
			var p Primitives
			for frame := 1; frame <= 3; frame++ { // and again with the places remembered
				b.Build(&p, &scene.Frame{Index: frame, Boxes: tc.boxes}, nil)
				if len(p.Labels) != len(tc.boxes) {
					t.Fatalf("%d labels for %d boxes", len(p.Labels), len(tc.boxes))
				}
				for i, l := range p.Labels {
					if l.X < 0 || l.Y < 0 || l.X+l.W > tc.w || l.Y+l.H > tc.h {
						t.Errorf("frame %d: label %q at (%d,%d) %dx%d leaves the frame", frame, l.Text, l.X, l.Y, l.W, l.H)
					}
					for _, o := range p.Labels[:i] {
						if l.X < o.X+o.W && o.X < l.X+l.W && l.Y < o.Y+o.H && o.Y < l.Y+l.H {
							t.Errorf("frame %d: label %q at (%d,%d) covers %q at (%d,%d)", frame, l.Text, l.X, l.Y, o.Text, o.X, o.Y)
						}
					}
				}
			}
		})
	}
}
