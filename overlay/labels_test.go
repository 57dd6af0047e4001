package overlay

import (
	"fmt"
	"math"
	"testing"

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
				bg, fg := labelColors(c, &s)
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
