package overlay

import (
	"strings"
	"testing"

	"trackink/scene"
)

func newTestBuilder(t *testing.T, s Style, w, h int) *Builder {
	t.Helper()
	b, err := NewBuilder(s.ForHeight(h), testFont(t), w, h)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLabelFormat(t *testing.T) {
	tracked := scene.Box{ID: 42, X: 10.25, Y: 50, W: 30, H: 60.5, Class: "car", Score: 0.876, HasScore: true}
	bare := scene.Box{ID: 7, X: 10, Y: 50, W: 10, H: 10}
	untracked := scene.Box{ID: scene.NoID, X: 10, Y: 50, W: 10, H: 10, Class: "dog"}
	// Track 3 of each of two files, and an untracked box of the second.
	gt := scene.Box{ID: scene.MergedID(3, 0, 2), Source: 0, X: 10, Y: 50, W: 10, H: 10, Class: "person"}
	tracker := scene.Box{ID: scene.MergedID(3, 1, 2), Source: 1, X: 10, Y: 50, W: 10, H: 10}
	loose := scene.Box{ID: scene.NoID, Source: 1, X: 10, Y: 50, W: 10, H: 10}
	for _, tc := range []struct {
		format string
		box    scene.Box
		want   string
		files  int // tracks files drawn together (scene.Merge): box's Source names its file
	}{
		{"", tracked, "#42 car 0.88", 0},
		{"", bare, "#7", 0},
		{"", untracked, "dog", 0},
		{"{class} #{id}", tracked, "car #42", 0},
		{"id={id}  {score:.0f} {x:.1f},{y} {w}x{h:.1f}", tracked, "id=42 1 10.2,50 30x60.5", 0},
		{"f{frame} age {age}", tracked, "f9 age 3", 0},
		{"{word}-{id}", tracked, "fox-42", 0},
		{"{{{class}}}", tracked, "{car}", 0},
		{"#{id} {class}", bare, "#7", 0},
		{"{source} #{id}", bare, "#7", 0}, // no files: the seed scene, --detect
		{"{source} #{id}", gt, "gt #3", 2},
		{"{source} #{id}", tracker, "tracker #3", 2},
		{"{source} #{id}", loose, "tracker", 2},
		{"", tracker, "#3", 2},
		{"{class} {source}", gt, "person gt", 2},
	} {
		f, err := parseLabelFormat(tc.format)
		if err != nil {
			t.Fatalf("%q: %v", tc.format, err)
		}
		v := labelValues{box: &tc.box, frame: 9, age: 3, word: wordFor([]string{"fox"}, tc.box.ID), files: tc.files}
		if tc.files > 0 {
			v.source = []string{"gt", "tracker"}[tc.box.Source]
		}
		if got := string(f.appendLabel(nil, &v)); got != tc.want {
			t.Errorf("%q on %+v: %q, want %q", tc.format, tc.box, got, tc.want)
		}
	}
	for _, bad := range []string{"{nope}", "{id", "id}", "{class:.2f}", "{score:2}", "{score:.9f}"} {
		if _, err := parseLabelFormat(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestLabelWordsAreStable: a track keeps its word in every frame, and the words spread over
// the tracks.
func TestLabelWordsAreStable(t *testing.T) {
	words := []string{"alpha", "bravo", "charlie", "delta"}
	seen := map[string]bool{}
	for id := range 40 {
		w := wordFor(words, id)
		if w != wordFor(words, id) {
			t.Fatalf("track %d: the word changed", id)
		}
		seen[w] = true
	}
	if len(seen) != len(words) {
		t.Errorf("40 tracks took %d of %d words", len(seen), len(words))
	}
}

// TestLabelsMoveOutOfEachOthersWay: two boxes side by side whose labels would overlap above
// them; the second label takes another place, and keeps it in the next frame even when the
// first box has gone. With LabelsOverlap both stay above.
func TestLabelsMoveOutOfEachOthersWay(t *testing.T) {
	f := &scene.Frame{Index: 1, Boxes: []scene.Box{
		{ID: 2, X: 130, Y: 100, W: 60, H: 80, Class: "pedestrian"},
		{ID: 1, X: 100, Y: 100, W: 60, H: 80, Class: "pedestrian"},
	}}
	st := DefaultStyle()
	b := newTestBuilder(t, st, 400, 300)
	var p Primitives
	b.Build(&p, f, nil)
	l1, l2 := p.Labels[1], p.Labels[0] // track 1's label is second in paint order
	w1, h1 := b.font.LabelSize(l1.Text)
	w2, h2 := b.font.LabelSize(l2.Text)
	if l1.X < l2.X+w2 && l2.X < l1.X+w1 && l1.Y < l2.Y+h2 && l2.Y < l1.Y+h1 {
		t.Fatalf("labels overlap: %+v and %+v", l1, l2)
	}
	if l1.Y >= 100 {
		t.Errorf("track 1 (placed first) lost its place above the box: y %d", l1.Y)
	}
	moved := l2
	f2 := &scene.Frame{Index: 2, Boxes: f.Boxes[:1]}
	b.Build(&p, f2, nil)
	if p.Labels[0].X != moved.X || p.Labels[0].Y != moved.Y {
		t.Errorf("track 2's label jumped from (%d,%d) to (%d,%d) when track 1 left", moved.X, moved.Y, p.Labels[0].X, p.Labels[0].Y)
	}
	st.LabelsOverlap = true
	b = newTestBuilder(t, st, 400, 300)
	b.Build(&p, f, nil)
	if p.Labels[0].Y != p.Labels[1].Y {
		t.Errorf("with LabelsOverlap the labels are at y %d and %d, want both above", p.Labels[0].Y, p.Labels[1].Y)
	}
}

func TestColors(t *testing.T) {
	red := OptionalColor{scene.Color{R: 255, A: 255}, true}
	f := &scene.Frame{Index: 1,
		Boxes:  []scene.Box{{ID: 1, X: 10, Y: 10, W: 20, H: 20, Class: "car"}, {ID: 2, X: 50, Y: 10, W: 20, H: 20, Class: "car"}},
		Points: []scene.Point{{ID: 1, X: 20, Y: 30}, {ID: 2, X: 60, Y: 30}},
	}
	st := DefaultStyle()
	st.ColorBy = ByClass
	b := newTestBuilder(t, st, 200, 100)
	var p Primitives
	b.Build(&p, f, nil)
	if p.Boxes[0].StrokeColor != p.Boxes[1].StrokeColor || p.Lines[0].Color != p.Lines[1].Color {
		t.Errorf("colour by class: two cars differ: %+v %+v", p.Boxes[0].StrokeColor, p.Boxes[1].StrokeColor)
	}
	st = DefaultStyle()
	st.BoxColor, st.BoxOpacity, st.LabelTextColor = red, 0.5, red
	b = newTestBuilder(t, st, 200, 100)
	b.Build(&p, f, nil)
	if want := (RGBA{R: 0.5, A: 0.5}); p.Boxes[0].StrokeColor != want || p.Boxes[1].StrokeColor != want {
		t.Errorf("--box-color #ff0000 --box-opacity 0.5: %+v", p.Boxes[0].StrokeColor)
	}
	if p.Boxes[0].Fill == p.Boxes[1].Fill {
		t.Errorf("the fills took the box colour too")
	}
	if p.Labels[0].Color != (RGBA{R: 1, A: 1}) {
		t.Errorf("--label-text-color: %+v", p.Labels[0].Color)
	}
}

// TestPresetsAreValid: every preset validates and builds.
func TestPresetsAreValid(t *testing.T) {
	names, about := PresetNames()
	if len(names) < 3 || len(about) != len(names) {
		t.Fatalf("presets %v", names)
	}
	for _, n := range names {
		st, ok := Preset(n)
		if !ok {
			t.Fatalf("%s: not found", n)
		}
		if err := st.Validate(); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		newTestBuilder(t, st, 320, 240)
	}
	if _, ok := Preset("nope"); ok {
		t.Error("an unknown preset was found")
	}
	if strings.Contains(strings.Join(names, " "), "seed") {
		t.Error("the seed preset is listed: it is the benchmark's scene, not a look to offer")
	}
	if st, ok := Preset("seed"); !ok || st.Validate() != nil {
		t.Error("no valid seed preset: the benchmark's look")
	}
}

// TestColorNames: colour flags take CSS's basic names and orange in any case, hex as before,
// and a near miss is suggested.
func TestColorNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want scene.Color
	}{
		{"red", scene.Color{R: 255, A: 255}},
		{"RED", scene.Color{R: 255, A: 255}},
		{"Orange", scene.Color{R: 255, G: 165, A: 255}},
		{"green", scene.Color{G: 128, A: 255}}, // CSS's green; lime is full
		{"lime", scene.Color{G: 255, A: 255}},
		{"cyan", scene.Color{G: 255, B: 255, A: 255}},
		{"aqua", scene.Color{G: 255, B: 255, A: 255}},
		{"magenta", scene.Color{R: 255, B: 255, A: 255}},
		{"grey", scene.Color{R: 128, G: 128, B: 128, A: 255}},
		{"silver", scene.Color{R: 192, G: 192, B: 192, A: 255}},
		{"navy", scene.Color{B: 128, A: 255}},
		{"black", scene.Color{A: 255}},
		{"#00e5ff", scene.Color{G: 0xe5, B: 0xff, A: 255}},
		{"#FFFFFF80", scene.Color{R: 255, G: 255, B: 255, A: 0x80}},
	} {
		c, err := ParseOptionalColor(tc.in)
		if err != nil || !c.Set || c.C != tc.want {
			t.Errorf("%q: %v, %v, want %v", tc.in, c, err, tc.want)
		}
	}
	if len(ColorNames()) < 17 {
		t.Errorf("%d colour names, want CSS's 16 basic ones and orange at least", len(ColorNames()))
	}
	for _, tc := range []struct{ in, hint string }{
		{"rde", "(did you mean red?)"},
		{"Yelow", "(did you mean yellow?)"},
		{"purpel", "(did you mean purple?)"},
		{"#ff000", "or a name (aqua"},
		{"chartreuse", "or a name (aqua"},
	} {
		_, err := ParseOptionalColor(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.hint) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.hint)
		}
	}
}

// TestLabelInkIsLabelColors: the Builder's remembered label colours are labelColors's, for
// colours seen again, after the memory is cleared at maxInks, and with an outline.
func TestLabelInkIsLabelColors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		style func(*Style)
	}{
		{"plate", func(*Style) {}},
		{"outline", func(s *Style) { s.LabelOutline = 2 }},
		{"translucent", func(s *Style) { s.LabelOpacity = 0.4 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultStyle()
			tc.style(&s)
			b, err := NewBuilder(s.ForHeight(1080), nil, 1920, 1080)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3 * maxInks {
				c := scene.Color{R: uint8(i * 37), G: uint8(i * 11), B: uint8(i % 7 * 40), A: uint8(255 - i%3*60)}
				if i >= 2*maxInks {
					c = scene.Color{R: uint8(i % 5 * 50), G: 90, B: 200, A: 255} // seen again
				}
				bg, fg, line := b.labelInk(c)
				wbg, wfg, wline := labelColors(c, &b.style)
				if bg != wbg || fg != wfg || line != wline {
					t.Fatalf("colour %v: %v %v %v, labelColors gives %v %v %v", c, bg, fg, line, wbg, wfg, wline)
				}
				if len(b.inks) > maxInks {
					t.Fatalf("%d colours remembered, more than %d", len(b.inks), maxInks)
				}
			}
		})
	}
}

// BenchmarkBuildSeed4K builds the seed benchmark's frames at 4K (100 labelled boxes, links
// and trails): the host's share of every frame, whichever backend draws it.
func BenchmarkBuildSeed4K(b *testing.B) {
	w, h := scene.SeedWidth, scene.SeedHeight
	tracks := scene.Seed(w, h, 100)
	bl, err := NewBuilder(DefaultStyle().ForHeight(h), testFont(b), w, h)
	if err != nil {
		b.Fatal(err)
	}
	var p Primitives
	for i := 0; b.Loop(); i++ {
		p.Reset()
		bl.Build(&p, &tracks[i%len(tracks)], nil)
	}
}
