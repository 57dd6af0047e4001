package render

import "trackink/composite"

// overSpanGo is the plain Go twin of overSpanAVX2: p = c + p·(1 − c.A) on each plane of the
// n pixels from index i, the product rounded before the sum, as the assembly does it: the
// conversions keep the compiler from fusing the two into an FMA (which it may with
// GOAMD64=v3).
func overSpanGo(t *composite.Tile, i, n int, c *layerColor) {
	k := 1 - c[3]
	for p := range t.Planes {
		v, cp := t.Planes[p][i:i+n], c[p]
		for j := range v {
			v[j] = cp + float32(v[j]*k)
		}
	}
}
