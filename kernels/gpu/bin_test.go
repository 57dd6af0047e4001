package gpu

import (
	"bytes"
	"slices"
	"testing"

	"trackink/composite"
	"trackink/goldens"
	"trackink/kernels/device"
	"trackink/overlay"
	"trackink/sdf"
)

// TestBinListsAnyThreadOrder: the binning kernels hand out list slots with atomics, so on a
// GPU the fill pass's order is whatever the threads' order was; the lists the drawing
// kernels read must still be each tile's primitives in paint order (strictly increasing
// indices), the same under any schedule, or the picture would change from run to run. The
// emulated device runs threads in order, where slots come out sorted by themselves, so the
// test also runs every launch in reverse and holds both to the same lists and frames.
func TestBinListsAnyThreadOrder(t *testing.T) {
	const w, h = 1920, 1080
	i := slices.IndexFunc(goldens.Scenes, func(s goldens.Scene) bool { return s.Name == "seed-small" })
	f := testFont(t, overlay.DefaultStyle().ForHeight(h).LabelSize)
	for _, glow := range []float32{0, 24} {
		p := &overlay.Primitives{Font: f}
		if err := goldens.Scenes[i].Draw(p, f, w, h); err != nil {
			t.Fatal(err)
		}
		if glow > 0 { // a wide reach: every chord and line spans several tiles
			p.Glow = sdf.NewGlow(glow, 0.5)
		}
		var lists [2][kinds][][]int32
		var frames [2][]byte
		for r, reverse := range []bool{false, true} {
			g, err := New(device.NewEmu(device.EmuOptions{Workers: 2, Poison: true, Reverse: reverse}), overlay.BackendOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			fr := &composite.RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
			if err := g.Draw(fr, p); err != nil {
				t.Fatal(err)
			}
			lists[r], frames[r] = binLists(t, g), fr.Pix
		}
		for k := range kinds {
			total := 0
			for tile, l := range lists[0][k] {
				total += len(l)
				for j := 1; j < len(l); j++ {
					if l[j] <= l[j-1] {
						t.Fatalf("glow %v, kind %d, tile %d: list %v is not in paint order", glow, k, tile, l)
					}
				}
				if rl := lists[1][k][tile]; !slices.Equal(l, rl) {
					t.Fatalf("glow %v, kind %d, tile %d: list %v in thread order, %v in reverse", glow, k, tile, l, rl)
				}
			}
			if total == 0 {
				t.Errorf("glow %v, kind %d: no entries: the scene does not test this kind", glow, k)
			}
		}
		if !bytes.Equal(frames[0], frames[1]) {
			t.Errorf("glow %v: the frame drawn in reverse thread order differs", glow)
		}
	}
}

// binLists reads back each kind's per-tile lists of g's last frame.
func binLists(t *testing.T, g *Backend) [kinds][][]int32 {
	t.Helper()
	tiles := g.caps.tilesX * g.caps.tilesY
	var out [kinds][][]int32
	for k := range kinds {
		start := make([]int32, tiles+1)
		if err := g.dev.CopyOut(bytesOf(start), g.bufs.binStart[k].ptr); err != nil {
			t.Fatal(err)
		}
		items := make([]int32, start[tiles])
		if err := g.dev.CopyOut(bytesOf(items), g.bufs.binItems[k].ptr); err != nil {
			t.Fatal(err)
		}
		for tile := range tiles {
			out[k] = append(out[k], items[start[tile]:start[tile+1]])
		}
	}
	return out
}
