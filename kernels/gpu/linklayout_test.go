package gpu

import (
	"testing"
	"unsafe"

	"trackink/kernels/internal/clayout"
)

// TestLinksLayoutMatchesC holds linklayout.go's twins to links.h as the C compiler lays it
// out.
func TestLinksLayoutMatchesC(t *testing.T) {
	var pt tkPoint
	var g tkGrid
	var l tkLink
	var f tkLinkFrame
	var ls tkLinks
	var p tkParams
	want := []struct {
		name string
		got  uintptr
	}{
		{"sizeof TkPoint", unsafe.Sizeof(pt)}, {"sizeof TkCellPoint", unsafe.Sizeof(tkCellPoint{})},
		{"sizeof TkGrid", unsafe.Sizeof(g)}, {"sizeof TkLink", unsafe.Sizeof(l)}, {"sizeof TkEdge", unsafe.Sizeof(tkEdge{})},
		{"sizeof TkLinkScan", unsafe.Sizeof(tkLinkScan{})}, {"sizeof TkLinkFrame", unsafe.Sizeof(f)},
		{"sizeof TkLinks", unsafe.Sizeof(ls)}, {"point color", unsafe.Offsetof(pt.Color)},
		{"grid minX", unsafe.Offsetof(g.MinX)}, {"grid nx", unsafe.Offsetof(g.Nx)}, {"link flags", unsafe.Offsetof(l.Flags)},
		{"frame n", unsafe.Offsetof(f.N)}, {"prev", unsafe.Offsetof(ls.Prev)}, {"hysteresis", unsafe.Offsetof(ls.Hysteresis)},
		{"f", unsafe.Offsetof(ls.F)}, {"lineSlots", unsafe.Offsetof(ls.LineSlots)}, {"opacity", unsafe.Offsetof(ls.Opacity)},
		{"capCells", unsafe.Offsetof(ls.CapCells)}, {"grid", unsafe.Offsetof(ls.Grid)},
		{"keepStart", unsafe.Offsetof(ls.KeepStart)}, {"scans", unsafe.Offsetof(ls.Scans)},
		{"params links", unsafe.Offsetof(p.Links)},
	}
	for i, w := range want {
		if c := clayout.LinksEntry(i); c != int(w.got) {
			t.Errorf("%s: C says %d, Go %d", w.name, c, w.got)
		}
	}
	if clayout.LinksEntry(len(want)) != -1 {
		t.Errorf("clayout has link entries this test does not check")
	}
}
