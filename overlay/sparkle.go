package overlay

import (
	"math"

	"trackink/scene"
)

// Sparkle links (LinkStyle "sparkle", the node pack's particle_trail line style): each link,
// straight and curved, drawn as soft dots scattered along it instead of a stroke, new every
// frame. A link of length l at stroke width W (at least 1 px) takes n = l / (sparkleSpacing·W)
// dots (1 to maxSparkles), dot i at t = (i + u)/n along it (one in each n-th, so they cover
// the link evenly, not in clumps), up to 1.5 W off it either side, its diameter 0.5 to 2 W and
// its opacity 0.35 to 1 of the link's; each is a core with a faint wider disk about it, the
// soft edge. u and the rest are hashed from the two track ids (in either order), the frame
// number, the dot's number and the stroke (line or curve): the same command draws the same
// frames, a frame alone as in a segment, so segments join exactly. The dots are zero-length
// lines (disks), drawn alike by both backends; with a gradient (LinkGradient) each takes
// the colour at its place along the link.

// sparkleSpacing is the link length per dot, in stroke widths; maxSparkles the most dots a
// link takes (a link far out of the frame is culled dot by dot).
const (
	sparkleSpacing = 4
	maxSparkles    = 256
)

// sparkleHalo is a dot's soft edge: a disk this many times its diameter at sparkleHaloAlpha
// of its opacity.
const (
	sparkleHalo      = 2.5
	sparkleHaloAlpha = 0.25
)

// addSparkle adds the link from pa to pb as sparkles in frame index along the quadratic
// curve (x0, y0), (x1, y1), (x2, y2) (a straight link: the control point at the midpoint,
// which makes t uniform along it), at stroke width w, in colour c0 at t = 0 and c1 at t = 1;
// stroke tells a link's line (0) from its curve (1).
func (b *Builder) addSparkle(p *Primitives, pa, pb *scene.Point, index, stroke int, x0, y0, x1, y1, x2, y2, w float32, c0, c1 RGBA) {
	if pa.ID > pb.ID { // t from the lower id's end: the same dots either way round
		pa, pb = pb, pa
		x0, y0, x2, y2 = x2, y2, x0, y0
		c0, c1 = c1, c0
	}
	wd := max(w, 1)
	// The curve's length lies between its chord and its control polygon: their mean.
	chord := math.Hypot(float64(x2-x0), float64(y2-y0))
	poly := math.Hypot(float64(x1-x0), float64(y1-y0)) + math.Hypot(float64(x2-x1), float64(y2-y1))
	l := (chord + poly) / 2
	n := min(max(int(math.Round(l/(sparkleSpacing*float64(wd)))), 1), maxSparkles)
	seed := particleHash(uint64(stroke), pa.ID, pb.ID, 5)
	for i := range n {
		h := particleHash(seed, i, index, 7)
		u := float32(uint32(h)) / (1 << 32)    // 0..1: the place in its n-th
		v := float32(int16(h>>32)) / (1 << 15) // −1..1: off the link
		q := float32(uint16(h>>48)) / (1 << 16)
		size := 0.5 + 1.5*q*q // 0.5..2 widths, most of them small: a few bright sparks
		alpha := 0.35 + 0.65*float32(uint16(h>>16))/(1<<16)
		t := (float32(i) + u) / float32(n)
		// The point at t and the tangent there, for the normal.
		s := 1 - t
		x, y := s*s*x0+2*s*t*x1+t*t*x2, s*s*y0+2*s*t*y1+t*t*y2
		tx, ty := s*(x1-x0)+t*(x2-x1), s*(y1-y0)+t*(y2-y1)
		if tl := float32(math.Hypot(float64(tx), float64(ty))); tl > 0 {
			x, y = x-1.5*v*wd*ty/tl, y+1.5*v*wd*tx/tl
		}
		d := size * wd
		if r := sparkleHalo * d / 2; x < -r || y < -r || x > float32(b.w)+r || y > float32(b.h)+r {
			continue
		}
		c := lerpRGBA(c0, c1, t).Scale(alpha)
		b.sparkles = append(b.sparkles,
			Line{X0: x, Y0: y, X1: x, Y1: y, Width: sparkleHalo * d, Color: c.Scale(sparkleHaloAlpha)},
			Line{X0: x, Y0: y, X1: x, Y1: y, Width: d, Color: c})
	}
}
