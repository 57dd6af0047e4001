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

// Light returns the premultiplied luma ℓ of layer value c in s, 0..1: the screen's alpha.
// Twin: layerLight (kernels/composite.cu).
func (s *Space) Light(c *[Channels]float32) float32 {
	var l float32
	if s.M[1][3] == 0 { // R'G'B': only a Y'CbCr space has a chroma offset
		l = (float32(0.2126*c[0]) + float32(0.7152*c[1]) + float32(0.0722*c[2])) / 255
	} else {
		m := &s.M[0]
		l = (c[0] - float32(m[3]*c[Alpha])) / ((m[0] + m[1]) + m[2])
	}
	return min(max(l, 0), 1)
}

// BlendPixel turns layer value c into the colour and alpha that "over" composites as mode b
// (the package comment's c′ and α′). A pixel of alpha 0 is left as it is. Twin: blendPixel.
func (s *Space) BlendPixel(b Blend, c *[Channels]float32) {
	a := c[Alpha]
	if b == BlendOver || a == 0 {
		return
	}
	var a2 float32
	if b == BlendScreen {
		a2 = s.Light(c)
	}
	for i := range s.M {
		o := s.M[i][3]
		c[i] = (c[i] - float32(o*a)) + float32(o*a2)
	}
	c[Alpha] = max(a2, minAlpha)
}

// Blend changes the tile's layer, pixel by pixel over the touched spans, for compositing
// as mode b by Over (a no-op for over).
func (t *Tile) Blend(s *Space, b Blend) {
	if b == BlendOver {
		return
	}
	var c [Channels]float32
	for y := 0; y < t.H; y++ {
		sp := t.Span[y]
		for i := y*TileSize + int(sp.X0); i < y*TileSize+int(sp.X1); i++ {
			for k := range c {
				c[k] = t.Planes[k][i]
			}
			s.BlendPixel(b, &c)
			for k := range c {
				t.Planes[k][i] = c[k]
			}
		}
	}
}
