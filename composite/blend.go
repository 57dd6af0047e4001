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

// blendConsts are what Tile.Blend's rows take from the Space, laid out for blendRowAVX2
// (blend_amd64.s reads them at these offsets).
type blendConsts struct {
	o      [3]float32 // each channel's offset, Space.M[i][3]
	ky     float32    // 1 / (M_Y·(1, 1, 1)): the luma of the offset-free Y'
	screen int32      // 1 for screen, 0 for add
}

// light returns the premultiplied luma ℓ of layer value (c0, c1, c2) with alpha a, 0..1: the
// screen's alpha; rgb says the space is R'G'B'. Twin: layerLight (kernels/composite.cu).
func (k *blendConsts) light(rgb bool, c0, c1, c2, a float32) float32 {
	var l float32
	if rgb {
		l = (float32(0.2126*c0) + float32(0.7152*c1) + float32(0.0722*c2)) / 255
	} else {
		l = float32(c0-float32(k.o[0]*a)) * k.ky
	}
	return min(max(l, 0), 1)
}

// tileBlend is the mode a tile's layer is to be composited with (Tile.Blend) and the
// constants the change takes from the Space.
type tileBlend struct {
	mode Blend
	k    blendConsts
}

// Blend sets the mode b in space s that the next Over composites the tile's layer with: the
// layer is changed (the package comment's c′ and α′) and then composited as over. Over on an
// 8-bit 4:2:0 frame with AVX2 makes the change inside its vectorised loop, as it reads the
// layer; every other Over makes it first, in a pass over the touched spans (applyBlend). The
// two give the same bits. Over leaves the tile set to over again.
func (t *Tile) Blend(s *Space, b Blend) {
	if b == BlendOver {
		t.blend = tileBlend{}
		return
	}
	m := &s.M[0]
	k := blendConsts{o: [3]float32{s.M[0][3], s.M[1][3], s.M[2][3]}, ky: 1 / ((m[0] + m[1]) + m[2])}
	if b == BlendScreen {
		k.screen = 1
	}
	t.blend = tileBlend{mode: b, k: k}
}

// applyBlend changes the layer over the touched spans as Tile.Blend's mode says, so that
// over composites it in that mode, and sets the tile to over. Pixels of alpha 0 stay as
// they are. With AVX2 the rows of a Y'CbCr layer run blendRowAVX2, eight pixels at a time,
// over the span widened to whole groups of eight: a row is zero outside its span, and zero
// pixels are kept, so the widening changes nothing but spares the thin spans of strokes
// (a few pixels a row) the Go loop. Twin: blendPixel (kernels/composite.cu).
func (t *Tile) applyBlend() {
	if t.blend.mode == BlendOver {
		return
	}
	k := &t.blend.k
	rgb := k.o[1] == 0 // only a Y'CbCr space has a chroma offset
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
		k.row(rgb, t.Planes[0][lo:hi], t.Planes[1][lo:hi], t.Planes[2][lo:hi], t.Planes[Alpha][lo:hi])
	}
	t.blend = tileBlend{}
}

// row changes one row's run of pixels, channel planes c0, c1, c2 and alpha al, for Blend.
func (k *blendConsts) row(rgb bool, c0, c1, c2, al []float32) {
	c1, c2, al = c1[:len(c0)], c2[:len(c0)], al[:len(c0)]
	for i, a := range al {
		if a == 0 {
			continue
		}
		var a2 float32
		if k.screen != 0 {
			a2 = k.light(rgb, c0[i], c1[i], c2[i], a)
		}
		c0[i] = (c0[i] - float32(k.o[0]*a)) + float32(k.o[0]*a2)
		c1[i] = (c1[i] - float32(k.o[1]*a)) + float32(k.o[1]*a2)
		c2[i] = (c2[i] - float32(k.o[2]*a)) + float32(k.o[2]*a2)
		al[i] = max(a2, minAlpha)
	}
}
