package sdf

// Glow is a soft light around a stroke, computed from the same distance as its coverage
// (not a blur of the drawn layer): beyond the stroke's anti-aliased edge a pixel at distance
// s from the edge takes
//
//	glow = opacity · f(s / radius),  f(u) = max(1 − u, 0)²
//
// which is opacity at the edge, falls fast and then gently, and is 0 from radius on (with
// a zero slope there, so the halo has no visible rim). The stroke's own coverage c and the
// glow combine as c + (1 − c)·glow: 1 inside the stroke, continuous across its edge, glow
// alone beyond it.
type Glow struct {
	Radius  float32 // how far beyond a stroke's edge it reaches, px; 0 for none
	Inv     float32 // 1/Radius, 0 for none
	Opacity float32 // at the stroke's edge; 0 for none
}

// NewGlow returns the glow of radius r px and opacity at the edge, none unless both are
// positive (a zero radius has no 1/r).
func NewGlow(r, opacity float32) Glow {
	if !(r > 0 && opacity > 0) {
		return Glow{}
	}
	return Glow{Radius: r, Inv: 1 / r, Opacity: opacity}
}

// Reach is how far from its centre line a stroke of width w with the glow covers pixel
// centres: Reach(w), or half the stroke's width plus the glow's radius where that is
// farther. Beyond it both the stroke's coverage and the glow are 0 (Cover is 0 from
// s ≥ max(½, Radius)), so nothing nearer is left out. Twin: reach plus the radius, half a
// pixel farther, where the kernels look.
func (g *Glow) Reach(w float32) float32 { return max(Reach(w), HalfWidth(w)+g.Radius) }

// Cover returns coverage cov with the glow added, for a pixel at signed distance s from the
// stroke's edge (Stroke's result: negative inside). With no glow it is cov, the same bits.
// Twin: glowCover.
func (g *Glow) Cover(cov, s float32) float32 {
	u := float32(max(s, 0) * g.Inv)
	t := max(1-u, 0)
	k := float32(float32(t*t) * g.Opacity)
	return cov + float32((1-cov)*k)
}
