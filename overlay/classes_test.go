package overlay

import (
	"slices"
	"testing"

	"trackink/scene"
)

// TestClassColors: with ColorBy class the classes of Style.Classes take palette colours in
// their order, so MOT17's pedestrian and reflection, which hash to the same colour, differ;
// a class's own colour (ClassColors) wins, with ColorBy track too; a class Classes lacks
// takes its hashed colour.
func TestClassColors(t *testing.T) {
	pal := palettes[DefaultPalette]
	if classIndex("pedestrian")%len(pal) != classIndex("reflection")%len(pal) {
		t.Log("pedestrian and reflection no longer hash to one colour: the first check below proves less")
	}
	f := &scene.Frame{Index: 1, Boxes: []scene.Box{
		{ID: 1, X: 10, Y: 10, W: 20, H: 20, Class: "pedestrian"},
		{ID: 2, X: 50, Y: 10, W: 20, H: 20, Class: "reflection"},
		{ID: 3, X: 90, Y: 10, W: 20, H: 20, Class: "car"},
		{ID: 4, X: 130, Y: 10, W: 20, H: 20, Class: "boat"},
	}}
	stroke := func(st Style) []RGBA {
		var p Primitives
		newTestBuilder(t, st, 200, 100).Build(&p, f, nil)
		var c []RGBA
		for _, b := range p.Boxes {
			c = append(c, b.StrokeColor)
		}
		return c
	}
	palette := func(i int) RGBA { return Premul(paletteColor(pal, i), 1) }
	st := DefaultStyle()
	st.ColorBy, st.BoxOpacity = ByClass, 1
	st.Classes = []string{"pedestrian", "reflection", "car"}
	c := stroke(st)
	if c[0] != palette(0) || c[1] != palette(1) || c[2] != palette(2) {
		t.Errorf("classes in order: %v, want palette colours 0, 1, 2", c[:3])
	}
	if c[3] != palette(classIndex("boat")) {
		t.Errorf("a class not listed: %v, want its hashed colour", c[3])
	}
	red := scene.Color{R: 255, A: 255}
	st.ClassColors = map[string]scene.Color{"car": red}
	if c := stroke(st); c[2] != Premul(red, 1) || c[0] != palette(0) {
		t.Errorf("class colours: %v", c)
	}
	st.ColorBy = ByTrack
	if c := stroke(st); c[2] != Premul(red, 1) || c[0] != palette(1) {
		t.Errorf("class colours with colour by track: %v", c)
	}
}

// TestForClasses: the tracks' classes are numbered as given, and the class colours naming
// classes the tracks lack are returned, sorted, for a warning.
func TestForClasses(t *testing.T) {
	red, blue := scene.Color{R: 255, A: 255}, scene.Color{B: 255, A: 255}
	for _, tc := range []struct {
		name    string
		colors  map[string]scene.Color
		classes []string
		lacking []string
	}{
		{"no class colours", nil, []string{"person", "car"}, nil},
		{"all present", map[string]scene.Color{"car": red}, []string{"person", "car"}, nil},
		{"two lacking", map[string]scene.Color{"truck": red, "bus": blue, "car": red}, []string{"car"}, []string{"bus", "truck"}},
		{"tracks without classes", map[string]scene.Color{"car": red}, nil, []string{"car"}},
	} {
		s := Style{ClassColors: tc.colors}
		lacking := s.ForClasses(tc.classes)
		if !slices.Equal(lacking, tc.lacking) || !slices.Equal(s.Classes, tc.classes) {
			t.Errorf("%s: lacking %q, classes %q; want %q, %q", tc.name, lacking, s.Classes, tc.lacking, tc.classes)
		}
	}
}
