package kernels

import (
	"flag"
	"fmt"
	"image"
	"testing"

	"golang.org/x/image/math/fixed"
	"trackink/composite"
	"trackink/render"
)

var seedFlag = flag.Int64("seed", 0, "seed of the randomised tests (0: a fresh one, logged)")

// extractedGlyphs is a GlyphSource read back from the CPU renderer, standing in for
// render.(*Font).Glyph until render exports it: each byte's label is drawn alone, white and
// opaque, onto a transparent frame that is one tile, so the frame's alpha is the glyph's
// mask byte for byte (toByte(m/255·255) = m); rows and columns of zeros around it are
// trimmed (they draw nothing). The CPU clips glyphs to the tiles the label's background
// reaches, so a glyph is accepted only inside its label's background. The advance in 26.6
// is Width of 64 copies in whole pixels.
type extractedGlyphs struct {
	g [256]struct {
		mask         []byte
		w, h, dx, dy int
		adv          fixed.Int26_6
	}
}

func (e *extractedGlyphs) Glyph(c byte) ([]byte, int, int, int, int, fixed.Int26_6) {
	g := &e.g[c]
	return g.mask, g.w, g.h, g.dx, g.dy, g.adv
}

func extractGlyphs(f *render.Font) (*extractedGlyphs, error) {
	size := max(composite.TileSize, 6*f.Size)
	r, err := render.New(render.Options{Workers: 1, LabelSize: f.Size})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	padW, _ := f.LabelSize(nil)
	pad := padW / 2
	x0, y0 := f.Size, f.Size
	e := &extractedGlyphs{}
	for c := 0; c < 256; c++ {
		img := image.NewRGBA(image.Rect(0, 0, size, size))
		p := render.Primitives{Labels: []render.Label{{X: x0, Y: y0, Text: []byte{byte(c)}, Color: render.RGBA{R: 1, G: 1, B: 1, A: 1}}}}
		if err := r.Draw(&composite.RGBA{Pix: img.Pix, Stride: img.Stride, W: size, H: size}, &p); err != nil {
			return nil, err
		}
		minX, minY, maxX, maxY := size, size, -1, -1
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				if img.Pix[y*img.Stride+4*x+3] != 0 {
					minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
				}
			}
		}
		g := &e.g[c]
		rep := make([]byte, 64)
		for i := range rep {
			rep[i] = byte(c)
		}
		g.adv = fixed.Int26_6(f.Width(rep))
		if maxX < 0 {
			continue // a space
		}
		lw, lh := f.LabelSize([]byte{byte(c)})
		if minX < x0 || minY < y0 || maxX >= x0+lw || maxY >= y0+lh {
			return nil, fmt.Errorf("glyph %d of a %d px font reaches outside its label", c, f.Size)
		}
		g.w, g.h = maxX-minX+1, maxY-minY+1
		g.dx, g.dy = minX-(x0+pad), minY-(y0+pad+f.Ascent)
		for y := minY; y <= maxY; y++ {
			for x := minX; x <= maxX; x++ {
				g.mask = append(g.mask, img.Pix[y*img.Stride+4*x+3])
			}
		}
	}
	return e, nil
}

// newTestGPU returns a backend on a poisoned emulated device, with glyphs.
func newTestGPU(t testing.TB, labelSize int, timed bool) *GPU {
	t.Helper()
	f, err := render.NewFont(labelSize)
	if err != nil {
		t.Fatal(err)
	}
	var src GlyphSource
	if gs, ok := any(f).(GlyphSource); ok {
		src = gs
	} else if src, err = extractGlyphs(f); err != nil {
		t.Fatal(err)
	}
	g, err := newGPU(NewEmuDevice(EmuOptions{Workers: 2, Poison: true}), render.Options{Workers: 2, LabelSize: labelSize, Timed: timed}, f, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

// diffBytes returns the largest difference between a and b and how many bytes differ by
// more than tol.
func diffBytes(a, b []byte, tol int) (worst, over int) {
	for i := range a {
		d := int(a[i]) - int(b[i])
		if d < 0 {
			d = -d
		}
		worst = max(worst, d)
		if d > tol {
			over++
		}
	}
	return worst, over
}
