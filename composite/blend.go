package composite

import "fmt"

// Blend is how the overlay layer meets the frame (see the package comment's "Add and
// screen"). The zero value is over.
type Blend int32

// The blend modes. Their values are kernels/layout.h's TK_BLEND_*.
const (
	BlendOver Blend = iota
	BlendAdd
	BlendScreen
)

// blendNames are the modes' names, by value.
var blendNames = [...]string{"over", "add", "screen"}

// BlendNames lists the modes' names, over first.
func BlendNames() []string { return blendNames[:] }

func (b Blend) String() string {
	if b < 0 || int(b) >= len(blendNames) {
		return fmt.Sprintf("Blend(%d)", int32(b))
	}
	return blendNames[b]
}

// ParseBlend returns the mode of the given name; "" is over.
func ParseBlend(name string) (Blend, error) {
	if name == "" {
		return BlendOver, nil
	}
	for i, n := range blendNames {
		if n == name {
			return Blend(i), nil
		}
	}
	return 0, fmt.Errorf("blend %q: want over, add or screen", name)
}

// minAlpha is the alpha a covered pixel keeps where add or screen would give it none, so
// that the composite does not skip it: 1 − minAlpha rounds to 1 in float32.
const minAlpha = 1.0 / (1 << 30)

// blendConsts are what a tile's blend takes from the Space, laid out for the assembly
// (blend_amd64.s and over_amd64.s read them at these offsets).
type blendConsts struct {
	o  [3]float32 // each channel's offset, Space.M[i][3]
	ky float32    // 1 / (M_Y·(1, 1, 1)): the luma of the offset-free Y'
}

// screenAlpha is screen's α′ for a pixel of premultiplied luma l and alpha a: l held to
// [minAlpha, a], so that a covered pixel keeps some alpha and an uncovered one (a = 0)
// gets none. The comparisons are VMAXPS's and VMINPS's (over_amd64.s), which take the
// second operand where the first is not above (below) it; they cost less than Go's max and
// min, which order NaNs and signed zeros. Twin: screenAlpha (kernels/composite.cu).
func screenAlpha(l, a float32) float32 {
	if !(l > minAlpha) {
		l = minAlpha
	}
	if !(l < a) {
		l = a
	}
	return l
}

// lightRGB is the premultiplied luma ℓ of an R'G'B' layer value (code values, 255 for 1).
func lightRGB(r, g, b float32) float32 {
	return (float32(0.2126*r) + float32(0.7152*g) + float32(0.0722*b)) / 255
}

// screenLuma returns, for screen, the offset-free luma t = c0 − o0·a of a Y'CbCr pixel of
// luma c0 and alpha a, and its α′ (ℓ = t·ky): its changed luma is c0′ = t + o0·α′, which
// sampleFormat.screenAt blends; the chroma's change is made on the 2×2 block's sums
// (chromaRow). Twin: screenLuma (kernels/composite.cu), and LUMA_SCREEN8 (over_amd64.s).
func (k *blendConsts) screenLuma(c0, a float32) (t, a2 float32) {
	t = c0 - float32(k.o[0]*a)
	return t, screenAlpha(float32(t*k.ky), a)
}

// tileBlend is the mode a tile's layer is to be composited with (Tile.Blend) and the
// constants the change takes from the Space.
type tileBlend struct {
	mode Blend
	k    blendConsts
}

// Blend sets the mode b in space s that the next Over composites the tile's layer with: the
// layer is changed (the package comment's c′ and α′) and then composited as over. Add is
// made on each pixel: inside the vectorised loop on an 8-bit 4:2:0 frame with AVX2, in a
// pass over the touched spans first (applyBlend) elsewhere, the same bits either way.
// Screen is made by the 4:2:0 composite as it reads the layer (the luma per pixel, the
// chroma on each block's sums: overYCbCr), and for RGBA in applyBlend. Over leaves the tile
// set to over again.
func (t *Tile) Blend(s *Space, b Blend) {
	if b == BlendOver {
		t.blend = tileBlend{}
		return
	}
	m := &s.M[0]
	k := blendConsts{o: [3]float32{s.M[0][3], s.M[1][3], s.M[2][3]}, ky: 1 / ((m[0] + m[1]) + m[2])}
	t.blend = tileBlend{mode: b, k: k}
}

// applyBlend changes the layer over the touched spans as Tile.Blend's mode says, so that
// over composites it in that mode, and sets the tile to over: add in any space, screen in
// R'G'B' (a Y'CbCr screen is the 4:2:0 composite's). Pixels of alpha 0 stay as they are.
// With AVX2 the rows of a Y'CbCr layer run blendRowAVX2, eight pixels at a time, over the
// span widened to whole groups of eight: a row is zero outside its span, and zero pixels
// are kept, so the widening changes nothing but spares the thin spans of strokes (a few
// pixels a row) the Go loop. Twin: blendPixel (kernels/composite.cu).
func (t *Tile) applyBlend() {
	if t.blend.mode == BlendOver {
		return
	}
	k := &t.blend.k
	rgb := k.o[1] == 0 // only a Y'CbCr space has a chroma offset
	screen := t.blend.mode == BlendScreen
	for y := 0; y < t.H; y++ {
		sp := t.Span[y]
		if sp.X0 >= sp.X1 {
			continue
		}
		lo, hi := y*TileSize+int(sp.X0), y*TileSize+int(sp.X1)
		if haveAVX2 && !rgb {
			// TileSize is a multiple of 8, so the widened run stays in row y.
			lo, hi = lo&^7, (hi+7)&^7
			blendRowAVX2(&t.Planes[0][lo], &t.Planes[1][lo], &t.Planes[2][lo], &t.Planes[Alpha][lo], hi-lo, k)
			continue
		}
		k.row(screen, t.Planes[0][lo:hi], t.Planes[1][lo:hi], t.Planes[2][lo:hi], t.Planes[Alpha][lo:hi])
	}
	t.blend = tileBlend{}
}

// row changes one row's run of pixels, channel planes c0, c1, c2 and alpha al, for
// applyBlend: add (c′ = c − o·α, α′ = minAlpha), or screen of an R'G'B' layer, whose
// offsets are 0, so that only alpha changes.
func (k *blendConsts) row(screen bool, c0, c1, c2, al []float32) {
	c1, c2, al = c1[:len(c0)], c2[:len(c0)], al[:len(c0)]
	for i, a := range al {
		if a == 0 {
			continue
		}
		if screen {
			al[i] = screenAlpha(lightRGB(c0[i], c1[i], c2[i]), a)
			continue
		}
		c0[i] -= float32(k.o[0] * a)
		c1[i] -= float32(k.o[1] * a)
		c2[i] -= float32(k.o[2] * a)
		al[i] = minAlpha
	}
}
