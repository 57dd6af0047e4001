package overlay

import (
	"math"

	"trackink/composite"
	"trackink/scene"
	"trackink/sdf"
)

// The drawing options beyond the basic look: links that fade with length, trails
// smoothed against tracker jitter, boxes for tracked points that have none, and the blend
// mode. Each is made here, in the primitives, so that every backend draws it alike (the GPU
// backend's own link builder applies the fade too: kernels/links.cu's linkFade).

// BoxFroms are Style.BoxFrom's values: none, a box of BoxRadius, or one growing with the
// track's age.
var BoxFroms = []string{"none", "radius", "age"}

// Blends are Style.Blend's values (composite.Blend's names).
var Blends = composite.BlendNames()

// PointStyles are Style.PointStyle's values, the tracked points' shapes.
var PointStyles = []string{"dot", "ring", "cross", "plus", "square", "diamond"}

// MaxBoxSize is the widest and tallest of Style.BoxSize's boxes, in px (as BoxRadius's
// 10 000, a side of 20 000).
const MaxBoxSize = 20000

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
	ca, cb := b.linkEnds(pa, pb)
	return Premul(mix(ca, cb), LinkFade(s.LinkOpacity, pb.X-pa.X, pb.Y-pa.Y, s.LinkFade))
}

// pointBoxes gives, with BoxFrom set, a box around each of frame f's points whose track has
// no box in f: a square of half side BoxRadius (a BoxSize rectangle, when set) centred on
// the point, or with "age" one that grows from nothing to that over the track's first
// BoxGrowFrames frames. They are boxes
// like the frame's own (Build): the point's colour, the boxes' stroke, fill, roundness and
// outline style, effect and label. It returns b.pointBoxed, reused from frame to frame.
func (b *Builder) pointBoxes(f *scene.Frame) []scene.Box {
	s := &b.style
	b.pointBoxed = b.pointBoxed[:0]
	if s.BoxFrom == "" || s.BoxFrom == "none" {
		return nil
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
		if _, ok := b.firstSeen[pt.ID]; !ok && pt.ID != scene.NoID {
			b.firstSeen[pt.ID] = first // a label's age, as its box's would be: the track's
		}
		rx, ry := s.BoxRadius, s.BoxRadius
		if s.BoxSize[0] > 0 {
			rx, ry = s.BoxSize[0]/2, s.BoxSize[1]/2
		}
		if s.BoxFrom == "age" {
			g := min(1, float32(f.Index-first+1)/BoxGrowFrames)
			rx, ry = rx*g, ry*g
		}
		b.pointBoxed = append(b.pointBoxed, scene.Box{ID: pt.ID, X: pt.X - rx, Y: pt.Y - ry, W: 2 * rx, H: 2 * ry,
			Color: pt.Color, HasColor: pt.HasColor})
	}
	return b.pointBoxed
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

// addElectric adds the straight link from pa to pb, of width w and colour c, as an electric
// arc: a jagged path of straight pieces whose inner corners leave the line by a random
// offset along its normal, tapered to nothing at the ends (by sin(π·t)), so the path starts
// and ends at the points. The pieces are one joined run of curves (see Curve), so they
// meet exactly and translucent pieces do not darken where they do; being curves, they are
// painted after the lines (and the point disks). The shape is a function of the two track
// ids (in either order) and the frame number only: the same render draws the same pixels,
// and the next frame a new arc. Pieces are about 6 stroke widths long (2 to 48 of them),
// the offsets at most min(0.15 × length, 4 stroke widths).
func addElectric(p *Primitives, pa, pb *scene.Point, frame int, w float32, c RGBA) {
	if pa.ID > pb.ID {
		pa, pb = pb, pa
	}
	dx, dy := pb.X-pa.X, pb.Y-pa.Y
	l := sdf.Sqrt(float32(dx*dx) + float32(dy*dy))
	wd := max(w, 1)
	n := min(max(int(l/(6*wd))+1, 2), 48)
	amp := min(0.15*l, 4*wd)
	nx, ny := float32(0), float32(0)
	if l > 0 {
		nx, ny = -dy/l, dx/l
	}
	seed := uint64(uint32(pa.ID))<<32 | uint64(uint32(pb.ID))
	x0, y0 := pa.X, pa.Y
	for i := 1; i <= n; i++ {
		x1, y1 := pb.X, pb.Y
		if i < n {
			t := float32(i) / float32(n)
			off := amp * float32(math.Sin(math.Pi*float64(t))) * jitter(seed, frame, i)
			x1, y1 = pa.X+t*dx+off*nx, pa.Y+t*dy+off*ny
		}
		p.Curves = append(p.Curves, Curve{X0: x0, Y0: y0, X1: (x0 + x1) / 2, Y1: (y0 + y1) / 2, X2: x1, Y2: y1,
			Width: w, Color: c, Joined: i > 1})
		x0, y0 = x1, y1
	}
}

// jitter is a number in [−1, 1) from the link's seed (its two track ids), the frame and the
// corner: splitmix64's finaliser over the three, so nearby frames and corners are unrelated.
func jitter(seed uint64, frame, i int) float32 {
	z := seed ^ uint64(frame)*0x9e3779b97f4a7c15 ^ uint64(i)*0xc2b2ae3d27d4eb4f
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float32(z>>40)/float32(1<<23) - 1
}

// AddPoint adds a tracked point at (x, y) of radius r and colour c in shape style (one of
// PointStyles), with the default outline and interior: AddShapedPoint's with Auto for both.
func (p *Primitives) AddPoint(style string, x, y, r float32, c RGBA) {
	p.AddShapedPoint(style, x, y, r, Auto, Auto, c)
}

// AddShapedPoint adds a tracked point at (x, y) of radius r and colour c in shape style (one
// of PointStyles), built of the primitives' own distance fields, so every shape is
// anti-aliased like the rest and drawn alike by every backend: a dot is a zero-length line
// (a disk of radius r); a ring a round box (a circle) stroked stroke wide, its outer edge
// at r; a square a box of half side r; plus, cross and diamond joined runs of straight
// pieces stroke wide (a run takes the distance to its nearest piece, so where the arms
// cross nothing is drawn twice): arms r long across and along, or diagonally, and a
// diamond's outline through the points r·1.3 away along the axes. stroke Auto is max(r/2,
// 1). fill is the opacity of a ring's, square's or diamond's interior, up to its outline's
// centre line, times c's; Auto: a square is solid (one filled box, no outline), a ring and
// a diamond hollow. A diamond's interior is a run of nested diamonds under its outline (no
// primitive fills a turned square). Rings and squares are boxes, so they are painted in the
// boxes' turn, under the links; the runs in the curves'.
func (p *Primitives) AddShapedPoint(style string, x, y, r, stroke, fill float32, c RGBA) {
	sw := stroke
	if sw == Auto {
		sw = max(r/2, 1)
	}
	var inside RGBA
	if fill != Auto {
		inside = c.Scale(fill)
	}
	// seg adds the straight piece from a to b (offsets from the point), joined to the run
	// before it unless it starts one.
	seg := func(a, b [2]float32, w float32, c RGBA, joined bool) {
		p.Curves = append(p.Curves, Curve{X0: x + a[0], Y0: y + a[1], X1: x + (a[0]+b[0])/2, Y1: y + (a[1]+b[1])/2,
			X2: x + b[0], Y2: y + b[1], Width: w, Color: c, Joined: joined})
	}
	switch style {
	case "ring":
		rc := max(r-sw/2, 0.5)
		p.Boxes = append(p.Boxes, Box{X: x - rc, Y: y - rc, W: 2 * rc, H: 2 * rc, Radius: rc, Stroke: sw, StrokeColor: c, Fill: inside})
	case "square":
		if fill == Auto {
			p.Boxes = append(p.Boxes, Box{X: x - r, Y: y - r, W: 2 * r, H: 2 * r, Fill: c})
			break
		}
		rs := max(r-sw/2, 0.5)
		p.Boxes = append(p.Boxes, Box{X: x - rs, Y: y - rs, W: 2 * rs, H: 2 * rs, Stroke: sw, StrokeColor: c, Fill: inside})
	case "plus", "cross":
		if sw == 0 {
			break // no outline: nothing to draw (a stroke is at least 1 px wide)
		}
		if style == "cross" {
			d := r * 0.7071068
			seg([2]float32{-d, -d}, [2]float32{d, d}, sw, c, false)
			seg([2]float32{-d, d}, [2]float32{d, -d}, sw, c, true)
			break
		}
		seg([2]float32{-r, 0}, [2]float32{r, 0}, sw, c, false)
		seg([2]float32{0, -r}, [2]float32{0, r}, sw, c, true)
	case "diamond":
		d := r * 1.3
		if inside.A > 0 {
			// Nested outlines fw wide, fw/2 apart across their sides, the outermost's outer
			// edge on the outline's centre line, and a dot at the centre: one run, so the
			// interior is covered once.
			fw := max(sw, 2)
			first := true
			for k := d - fw*0.7071068; k > 0; k -= fw * 0.7071068 {
				v := [5][2]float32{{0, -k}, {k, 0}, {0, k}, {-k, 0}, {0, -k}}
				for i := range 4 {
					seg(v[i], v[i+1], fw, inside, !first)
					first = false
				}
			}
			seg([2]float32{}, [2]float32{}, fw, inside, !first)
		}
		if sw > 0 {
			v := [5][2]float32{{0, -d}, {d, 0}, {0, d}, {-d, 0}, {0, -d}}
			for i := range 4 {
				seg(v[i], v[i+1], sw, c, i > 0)
			}
		}
	default:
		p.Lines = append(p.Lines, Line{X0: x, Y0: y, X1: x, Y1: y, Width: 2 * r, Color: c})
	}
}
