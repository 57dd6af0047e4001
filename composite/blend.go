package composite

import (
	"fmt"
	"strings"
)

// Blend is how the overlay layer meets the frame (see the package comment's "Add and
// screen" and "Multiply, lighten and darken"). The zero value is over.
type Blend int32

// The blend modes. Their values are kernels/layout.h's TK_BLEND_*.
const (
	BlendOver Blend = iota
	BlendAdd
	BlendScreen
	BlendMultiply
	BlendLighten
	BlendDarken
)

// blendNames are the modes' names, by value.
var blendNames = [...]string{"over", "add", "screen", "multiply", "lighten", "darken"}

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
	return 0, fmt.Errorf("blend %q: want %s", name, strings.Join(blendNames[:], ", "))
}

// picks reports whether b keeps or drops each pixel of the layer by the frame under it
// (lighten, darken: Tile.pick).
func (b Blend) picks() bool { return b == BlendLighten || b == BlendDarken }

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

// multiplyAlpha is multiply's α′ for a pixel of premultiplied luma l and alpha a: a − l,
// held as screen's is (screenAlpha), so that a white layer keeps the frame (α′ = 2⁻³⁰)
// and a black one darkens it as over would. Twin: multiplyAlpha (kernels/composite.cu).
func multiplyAlpha(l, a float32) float32 { return screenAlpha(a-l, a) }

// lumaRGB is the BT.709 luma of R'G'B' code values, premultiplied or not, in code values.
// Twin: lumaRGB (kernels/composite.cu).
func lumaRGB(r, g, b float32) float32 {
	return float32(0.2126*r) + float32(0.7152*g) + float32(0.0722*b)
}

// lightRGB is the premultiplied luma ℓ of an R'G'B' layer value (code values, 255 for 1).
func lightRGB(r, g, b float32) float32 { return lumaRGB(r, g, b) / 255 }

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
// chroma on each block's sums: overYCbCr), and for RGBA in applyBlend. Multiply is a pass
// over the touched spans first (applyBlend), lighten and darken one that reads the frame's
// luma (pick), on every path. Over leaves the tile set to over again.
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
// over composites it in that mode, and sets the tile to over: add and multiply in any
// space, screen in R'G'B' (a Y'CbCr screen is the 4:2:0 composite's); lighten and darken
// are pick's, which reads the frame. Pixels of alpha 0 stay as they are.
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
	mode := t.blend.mode
	for y := 0; y < t.H; y++ {
		sp := t.Span[y]
		if sp.X0 >= sp.X1 {
			continue
		}
		lo, hi := y*TileSize+int(sp.X0), y*TileSize+int(sp.X1)
		if haveAVX2 && !rgb && (mode == BlendAdd || mode == BlendMultiply) {
			// TileSize is a multiple of 8, so the widened run stays in row y.
			lo, hi = lo&^7, (hi+7)&^7
			blendRowAVX2(&t.Planes[0][lo], &t.Planes[1][lo], &t.Planes[2][lo], &t.Planes[Alpha][lo], hi-lo, k, mode)
			continue
		}
		k.row(mode, rgb, t.Planes[0][lo:hi], t.Planes[1][lo:hi], t.Planes[2][lo:hi], t.Planes[Alpha][lo:hi])
	}
	t.blend = tileBlend{}
}

// row changes one row's run of pixels, channel planes c0, c1, c2 and alpha al, for
// applyBlend: add (c′ = c − o·α, α′ = minAlpha); screen of an R'G'B' layer (rgb), whose
// offsets are 0, so that only alpha changes; multiply (c′ = o·α′, α′ = multiplyAlpha of
// the luma: screenLuma's t·ky in Y'CbCr).
func (k *blendConsts) row(mode Blend, rgb bool, c0, c1, c2, al []float32) {
	c1, c2, al = c1[:len(c0)], c2[:len(c0)], al[:len(c0)]
	for i, a := range al {
		if a == 0 {
			continue
		}
		switch {
		case mode == BlendScreen:
			al[i] = screenAlpha(lightRGB(c0[i], c1[i], c2[i]), a)
			continue
		case mode == BlendMultiply && rgb:
			a2 := multiplyAlpha(lightRGB(c0[i], c1[i], c2[i]), a)
			c0[i], c1[i], c2[i], al[i] = 0, 0, 0, a2
			continue
		case mode == BlendMultiply:
			a2 := multiplyAlpha(float32((c0[i]-float32(k.o[0]*a))*k.ky), a)
			c0[i], c1[i], c2[i], al[i] = float32(k.o[0]*a2), float32(k.o[1]*a2), float32(k.o[2]*a2), a2
			continue
		}
		c0[i] -= float32(k.o[0] * a)
		c1[i] -= float32(k.o[1] * a)
		c2[i] -= float32(k.o[2] * a)
		al[i] = minAlpha
	}
}

// frameLuma reads the luma of the frame under a tile, for lighten and darken (Tile.pick):
// a Y'CbCr frame's Y' plane (held as sf says), or an RGBA frame's BT.709 luma (lumaRGB),
// in code values either way, the units the layer's c0 (or lumaRGB of it) is in.
type frameLuma struct {
	pix    []byte
	stride int
	sf     sampleFormat
	rgba   bool
}

// at returns the luma of frame pixel (x, y).
func (f *frameLuma) at(x, y int) float32 {
	if f.rgba {
		p := f.pix[y*f.stride+4*x : y*f.stride+4*x+3]
		return lumaRGB(float32(p[0]), float32(p[1]), float32(p[2]))
	}
	s, _ := f.sf.at(f.pix[y*f.stride+x*f.sf.size:])
	return s
}

// pickRamp is the luma difference, as a fraction of the luma's range (M_Y·(1, 1, 1) code
// values, 255 for RGBA), over which lighten and darken fade the layer in (pick): a hard
// switch at a tie would flip a pixel's colour on the slightest change of either luma,
// speckling footage noise where layer and frame are alike, and the device's FP16 layer
// decides ties otherwise than the CPU's FP32 one. 1/16 is 16 code values at 8 bits (13.7
// in limited range's Y'), about as little as keeps the backends within the goldens'
// tolerance: the fade's slope scales the layer's FP16 rounding by up to the difference of
// the colours over it. Twin: TK_PICK_RAMP (kernels/composite.cu).
const pickRamp = 1.0 / 16

// pick makes lighten or darken (Tile.Blend's mode), the "lighter colour" and "darker
// colour" modes: each covered pixel is kept whose own (unpremultiplied) luma L is above
// (lighten) or below (darken) that of the frame under it, F, and the others are cleared
// (c′ = 0, α′ = 0: the frame stays). Over then composites what is kept. A pixel is faded in
// over the first pickRamp of difference: c′ = s·c, α′ = s·α, s = min(d/(α·w), 1) with
// d = L·α − F·α (F·α − L·α for darken) on the premultiplied values and w = pickRamp of the
// range, so that lighten never darkens a pixel's luma, nor darken lightens it. The luma is
// the frame's own Y' (the layer's c0) in Y'CbCr, of the same matrix; BT.709's in RGBA. A
// 4:2:0 chroma sample then takes the mean of its block's composited pixels, kept and not,
// as for over. It sets the tile to over. Twin: blendPixel (kernels/composite.cu).
func (t *Tile) pick(f *frameLuma) {
	darken := t.blend.mode == BlendDarken
	w := float32(pickRamp / t.blend.k.ky)
	var fl [TileSize]float32
	for y := 0; y < t.H; y++ {
		sp := t.Span[y]
		if sp.X0 >= sp.X1 {
			continue
		}
		lo, hi := y*TileSize+int(sp.X0), y*TileSize+int(sp.X1)
		if haveAVX2 && !f.rgba && f.sf.size == 1 {
			// As applyBlend widens add's runs: zero pixels are kept. The frame's row ends
			// at the tile's width, which the widened run may not pass.
			if lo8, hi8 := lo&^7, (hi+7)&^7; hi8-y*TileSize <= t.W {
				p := &t.Planes
				pickRowAVX2(&p[0][lo8], &p[1][lo8], &p[2][lo8], &p[Alpha][lo8], hi8-lo8, &f.pix[(t.Y0+y)*f.stride+t.X0+lo8-y*TileSize], w, darken)
				continue
			}
		}
		for x := int(sp.X0); x < int(sp.X1); x++ {
			fl[x] = f.at(t.X0+x, t.Y0+y)
		}
		pickRow(f.rgba, darken, w, t.Planes[0][lo:hi], t.Planes[1][lo:hi], t.Planes[2][lo:hi], t.Planes[Alpha][lo:hi], fl[sp.X0:sp.X1])
	}
	t.blend = tileBlend{}
}

// pickRow is pick's change of one row's run of pixels, channel planes c0, c1, c2 and alpha
// al, over frame lumas fl, for lighten or darken (fading in over w code values): L is c0, or
// lumaRGB of an R'G'B' layer (rgb).
func pickRow(rgb, darken bool, w float32, c0, c1, c2, al, fl []float32) {
	c1, c2, al, fl = c1[:len(c0)], c2[:len(c0)], al[:len(c0)], fl[:len(c0)]
	for i, a := range al {
		if a == 0 {
			continue
		}
		l := c0[i]
		if rgb {
			l = lumaRGB(c0[i], c1[i], c2[i])
		}
		d := l - float32(a*fl[i])
		if darken {
			d = -d
		}
		if !(d > 0) {
			c0[i], c1[i], c2[i], al[i] = 0, 0, 0, 0
			continue
		}
		if s := d / float32(a*w); s < 1 {
			c0[i], c1[i], c2[i], al[i] = float32(c0[i]*s), float32(c1[i]*s), float32(c2[i]*s), float32(a*s)
		}
	}
}
