package overlay

import (
	"trackink/composite"
	"trackink/scene"
	"trackink/sdf"
)

// The drawing options beyond the basic look (issue 26): links that fade with length, trails
// smoothed against tracker jitter, boxes for tracked points that have none, and the blend
// mode. Each is made here, in the primitives, so that every backend draws it alike (the GPU
// backend's own link builder applies the fade too: kernels/links.cu's linkFade).

// BoxFroms are Style.BoxFrom's values: none, a box of BoxRadius, or one growing with the
// track's age.
var BoxFroms = []string{"none", "radius", "age"}

// Blends are Style.Blend's values (composite.Blend's names).
var Blends = composite.BlendNames()

// BoxGrowFrames is how many frames a BoxFrom "age" box takes to grow to full size.
const BoxGrowFrames = 30

// LinkFade returns the opacity of a link of extent (dx, dy) drawn at opacity with the style's
// LinkFade fade (0: off): opacity·(1 − smoothstep(l/fade)), so short links keep their
// opacity, a link of half the fade length has half of it and one of the fade length or
// longer none. Twin: linkFade (kernels/links.cu), the same float32 operations.
func LinkFade(opacity, dx, dy, fade float32) float32 {
	if fade <= 0 {
		return opacity
	}
	l := sdf.Sqrt(float32(dx*dx) + float32(dy*dy))
	t := min(l/fade, 1)
	return opacity * (1 - float32(float32(t*t)*(3-2*t)))
}

// linkReach is how long the links of style s may be on a frame w wide: LinkReach of the
// width, or a fifth of it when LinkReach is off (what LinkFade's Auto fades over).
func linkReach(s Style, w int) float32 {
	if s.LinkReach > 0 {
		return s.LinkReach * float32(w)
	}
	return float32(w) / 5
}

// linkColor is the premultiplied colour of the link between pa and pb.
func (b *Builder) linkColor(pa, pb *scene.Point) RGBA {
	s := &b.style
	return Premul(mix(b.linkEndColor(pa), b.linkEndColor(pb)), LinkFade(s.LinkOpacity, pb.X-pa.X, pb.Y-pa.Y, s.LinkFade))
}

// addPointBoxes adds, with BoxFrom set, a box around each of frame f's points whose track has
// no box in f: a square of half side BoxRadius centred on the point, or with "age" one that
// grows from nothing to that over the track's first BoxGrowFrames frames. It takes the
// point's colour and the boxes' stroke, fill, roundness and outline style.
func (b *Builder) addPointBoxes(p *Primitives, f *scene.Frame) {
	s := &b.style
	if s.BoxFrom == "" || s.BoxFrom == "none" {
		return
	}
	clear(b.boxed)
	for i := range f.Boxes {
		b.boxed[f.Boxes[i].ID] = true
	}
	for i := range f.Points {
		pt := &f.Points[i]
		first, ok := b.pointSeen[pt.ID]
		if !ok {
			first = f.Index
			b.pointSeen[pt.ID] = first
		}
		if b.boxed[pt.ID] {
			continue
		}
		r := s.BoxRadius
		if s.BoxFrom == "age" {
			r *= min(1, float32(f.Index-first+1)/BoxGrowFrames)
		}
		c := b.pointColor(pt)
		stroke, fill := c, c
		if s.BoxColor.Set {
			stroke = s.BoxColor.C
		}
		if s.FillColor.Set {
			fill = s.FillColor.C
		}
		p.Boxes = append(p.Boxes, Box{X: pt.X - r, Y: pt.Y - r, W: 2 * r, H: 2 * r, Radius: s.Roundness * r,
			Stroke: s.BoxStroke, Fill: Premul(fill, s.FillOpacity), StrokeColor: Premul(stroke, s.BoxOpacity),
			Dash: b.boxDash, Bracket: b.bracket})
	}
}

// smoothTrail returns q's positions smoothed for Trails.Smooth = r: position i becomes the
// binomially weighted mean of positions i − k … i + k, k = min(r, i, len(q) − 1 − i), so the
// trail still starts and ends at its oldest and newest positions (the newest being the
// point) while jitter between them is averaged away. out is reused.
func smoothTrail(q []trailPoint, r int, out []trailPoint) []trailPoint {
	out = out[:0]
	n := len(q)
	for i := range q {
		k := min(r, i, n-1-i)
		// Weights C(2k, k + j), j = −k … k, built from the end: C(2k, 0) = 1.
		var sx, sy, sw float64
		w := 1.0
		for j := -k; j <= k; j++ {
			sx += w * float64(q[i+j].x)
			sy += w * float64(q[i+j].y)
			sw += w
			w = w * float64(k-j) / float64(k+j+1)
		}
		out = append(out, trailPoint{x: float32(sx / sw), y: float32(sy / sw), frame: q[i].frame})
	}
	return out
}
