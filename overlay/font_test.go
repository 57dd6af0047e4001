package overlay

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"trackink/internal/fonts"
)

func fontOf(t *testing.T, file fonts.File, size int) *Font {
	t.Helper()
	tf, err := LoadTypeface(file.Need(t))
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFontOf(tf, size)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// glyphsOf lays text out and returns its glyphs' numbers.
func glyphsOf(f *Font, text string) []int32 {
	var ids []int32
	for _, g := range f.Layout(nil, &Label{Text: []byte(text)}) {
		ids = append(ids, g.Glyph)
	}
	return ids
}

func TestFallbackAndTofu(t *testing.T) {
	goFont, err := NewFont(20)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		font    *Font
		text    string
		faces   []int8 // the face of each glyph: 0 the typeface, 1 Go Medium, -1 the tofu
		missing []rune
	}{
		{"go medium has latin, greek, cyrillic", goFont, "aΩЖ", []int8{0, 0, 0}, nil},
		{"go medium lacks cjk", goFont, "a行", []int8{0, -1}, []rune{'行'}},
		{"dejavu has arabic", fontOf(t, fonts.DejaVuSans, 20), "ab سيارة", []int8{0, 0, 0, 0, 0, 0, 0, 0}, nil},
		{"droid lacks latin letters: go medium's", fontOf(t, fonts.DroidSansFallback, 20), "行a", []int8{0, 1}, nil},
		{"neither has it", fontOf(t, fonts.DejaVuSans, 20), "a行人行\U000F0000", []int8{0, -1, -1, -1, -1}, []rune{'行', '人', 0xF0000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var faces []int8
			for _, id := range glyphsOf(tc.font, tc.text) {
				faces = append(faces, tc.font.glyphs[id].face)
			}
			if !slices.Equal(faces, tc.faces) {
				t.Errorf("faces %v, want %v", faces, tc.faces)
			}
			if !slices.Equal(tc.font.Missing(), tc.missing) {
				t.Errorf("missing %U, want %U", tc.font.Missing(), tc.missing)
			}
		})
	}
}

// TestTofuIsAHollowBox checks that a missing character is drawn, not left out: a box whose
// edges are opaque and whose inside is empty.
func TestTofuIsAHollowBox(t *testing.T) {
	f, err := NewFont(24)
	if err != nil {
		t.Fatal(err)
	}
	mask, w, h := f.Glyph(0)
	if w < 3 || h < 4 || f.Width([]byte("行")) <= w {
		t.Fatalf("tofu %dx%d, advance %d", w, h, f.Width([]byte("行")))
	}
	at := func(x, y int) byte { return mask[y*w+x] }
	if at(0, 0) != 0xff || at(w-1, h-1) != 0xff || at(w/2, 0) != 0xff || at(0, h/2) != 0xff || at(w/2, h/2) != 0 {
		t.Errorf("the tofu is not a hollow box: %v", mask[:w*h])
	}
}

func TestKerning(t *testing.T) {
	dejavu := fontOf(t, fonts.DejaVuSans, 40)
	if kerned, apart := dejavu.Width([]byte("AV")), dejavu.Width([]byte("A"))+dejavu.Width([]byte("V")); kerned >= apart {
		t.Errorf("DejaVu Sans: AV is %d px wide, A and V %d px: no kerning", kerned, apart)
	}
	// Go Medium is laid out without kerning (its glyphs as they always were): it has none.
	var buf sfnt.Buffer
	for a := ' '; a <= '~'; a++ {
		for b := ' '; b <= '~'; b++ {
			x, _ := goMedium.f.GlyphIndex(&buf, a)
			y, _ := goMedium.f.GlyphIndex(&buf, b)
			if k, err := goMedium.f.Kern(&buf, x, y, fixed.I(40), font.HintingFull); err == nil && k != 0 {
				t.Fatalf("Go Medium kerns %q%q by %v", a, b, k)
			}
		}
	}
}

// TestGlyphsRasterisedOnce checks that a font rasterises a character once, and that laying
// out text it has seen allocates nothing, whatever the script.
func TestGlyphsRasterisedOnce(t *testing.T) {
	f := fontOf(t, fonts.DejaVuSans, 30)
	l := Label{Text: []byte("#5 سيارة 0.62 автобус 行")}
	var placed []PlacedGlyph
	placed = f.Layout(placed, &l)
	n := f.Glyphs()
	if allocs := testing.AllocsPerRun(20, func() {
		f.LabelSize(l.Text)
		placed = f.Layout(placed[:0], &l)
	}); allocs != 0 {
		t.Errorf("%v allocations a layout, want 0", allocs)
	}
	if f.Glyphs() != n || len(f.Missing()) != 1 {
		t.Errorf("%d glyphs after laying the text out again, %d before; missing %U", f.Glyphs(), n, f.Missing())
	}
}

func TestLoadTypefaceErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	notFont := filepath.Join(dir, "notes.ttf")
	os.WriteFile(notFont, []byte("not a font at all"), 0o644)
	for _, path := range []string{filepath.Join(dir, "nope.ttf"), notFont, dir} {
		if _, err := LoadTypeface(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("LoadTypeface(%s): %v, want an error naming the file", path, err)
		}
	}
}

// TestLoadTypefaceNameHint: a font given by a name that is no file (--font "go mono") is
// told the built-in font's name, as a mistyped colour or look is; a path is not.
func TestLoadTypefaceNameHint(t *testing.T) {
	for _, c := range []struct{ font, want string }{
		{"Go Mon", `(did you mean "Go Mono", the built-in monospace font?)`},
		{"go mono", `(did you mean "Go Mono", the built-in monospace font?)`},
		{"Arial", `(give a font file's path, or "Go Mono" for the built-in monospace font)`},
		{filepath.Join(t.TempDir(), "Go Mon"), ""},
	} {
		_, err := LoadTypeface(c.font)
		if err == nil || !strings.Contains(err.Error(), c.font) || !strings.HasSuffix(err.Error(), c.want) ||
			c.want == "" && strings.Contains(err.Error(), "Go Mono") {
			t.Errorf("LoadTypeface(%q): %v, want an error naming it and ending %q", c.font, err, c.want)
		}
	}
}

// TestLoadTypefaceOnce: a font file is read once; asking again for its path (validation,
// then each renderer) gives the same Typeface.
func TestLoadTypefaceOnce(t *testing.T) {
	path := fonts.DejaVuSans.Need(t)
	a, err := LoadTypeface(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadTypeface(path)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same font file loaded twice gave two Typefaces")
	}
}

// TestLabelOutlineGlyphs: an outlined label lays out its outline glyphs first, then the
// same text glyphs as without the outline; each outline mask, grown by ⌈r⌉ a side, covers
// every pixel within r of a pixel the glyph covers and none r + 1 or more from all of them,
// and is the same glyph the next time.
func TestLabelOutlineGlyphs(t *testing.T) {
	f, err := NewFont(24)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []float32{1, 2.5, 4} {
		plain := Label{X: 40, Y: 30, Text: []byte("Hg@8")}
		lined := plain
		lined.Outline = r
		text := f.Layout(nil, &plain)
		got := f.Layout(nil, &lined)
		k := len(text)
		if len(got) != 2*k || !slices.Equal(got[k:], text) {
			t.Fatalf("r %g: %d glyphs, the last %d %v; want %d outline glyphs, then %v", r, len(got), k, got[k:], k, text)
		}
		if again := f.Layout(nil, &lined); !slices.Equal(again, got) {
			t.Errorf("r %g: a second layout made other outline glyphs", r)
		}
		m := int(math.Ceil(float64(r)))
		for i, o := range got[:k] {
			g := text[i]
			gm, gw, gh := f.Glyph(g.Glyph)
			om, ow, oh := f.Glyph(o.Glyph)
			if o.X != g.X-m || o.Y != g.Y-m || ow != gw+2*m || oh != gh+2*m {
				t.Fatalf("r %g glyph %d: outline %dx%d at (%d, %d), want %dx%d at (%d, %d)", r, i, ow, oh, o.X, o.Y, gw+2*m, gh+2*m, g.X-m, g.Y-m)
			}
			for y := range oh {
				for x := range ow {
					near := math.Inf(1) // distance to the nearest pixel the glyph covers fully
					some := math.Inf(1) // to the nearest it covers at all
					for sy := range gh {
						for sx := range gw {
							d := math.Hypot(float64(x-m-sx), float64(y-m-sy))
							if v := gm[sy*gw+sx]; v == 255 {
								near = min(near, d)
							} else if v == 0 {
								continue
							}
							some = min(some, d)
						}
					}
					v := om[y*ow+x]
					if near <= float64(r) && v != 255 || some >= float64(r)+1 && v != 0 {
						t.Fatalf("r %g glyph %d: outline (%d, %d) is %d, %.2f px from a covered pixel, %.2f from any", r, i, x, y, v, near, some)
					}
				}
			}
		}
	}
}
