package gpu

import (
	"testing"
	"unsafe"

	"trackink/kernels/internal/clayout"
	"trackink/overlay"
)

func TestLayoutMatchesC(t *testing.T) {
	var p tkParams
	var l tkLabel
	var g tkGlyph
	want := []struct {
		name string
		got  uintptr
	}{
		{"sizeof TkParams", unsafe.Sizeof(p)}, {"sizeof TkLabel", unsafe.Sizeof(l)}, {"sizeof TkGlyph", unsafe.Sizeof(g)},
		{"sizeof TkBox", unsafe.Sizeof(overlay.Box{})}, {"sizeof TkLine", unsafe.Sizeof(overlay.Line{})},
		{"sizeof TkCurve", unsafe.Sizeof(overlay.Curve{})}, {"sizeof TkScan", unsafe.Sizeof(tkScan{})},
		{"capEntries", unsafe.Offsetof(p.CapEntries)}, {"boxes", unsafe.Offsetof(p.Boxes)},
		{"chordStart", unsafe.Offsetof(p.ChordStart)}, {"binItems", unsafe.Offsetof(p.BinItems)},
		{"status", unsafe.Offsetof(p.Status)}, {"scans", unsafe.Offsetof(p.Scans)},
		{"plane0", unsafe.Offsetof(p.Plane0)}, {"stride0", unsafe.Offsetof(p.Stride0)},
		{"space", unsafe.Offsetof(p.Space)},
		{"label color", unsafe.Offsetof(l.Color)}, {"label background", unsafe.Offsetof(l.Background)},
		{"glyph mask", unsafe.Offsetof(g.Mask)}, {"glowRadius", unsafe.Offsetof(p.GlowRadius)},
		{"line color1", unsafe.Offsetof(overlay.Line{}.Color1)}, {"line gradient", unsafe.Offsetof(overlay.Line{}.Gradient)},
		{"echoLayers", unsafe.Offsetof(p.EchoLayers)}, {"echoOffset", unsafe.Offsetof(p.EchoOffset)},
		{"transparency", unsafe.Offsetof(p.Transparency)}, {"binFill", unsafe.Offsetof(p.BinFill)},
	}
	for i, w := range want {
		if c := clayout.Entry(i); c != int(w.got) {
			t.Errorf("%s: C says %d, Go %d", w.name, c, w.got)
		}
	}
	if clayout.Entry(len(want)) != -1 {
		t.Errorf("clayout has entries this test does not check")
	}
}
