package overlay

import (
	"math"

	"trackink/curves"
	"trackink/scene"
)

// Shaped links (Style.LinkShape, the Curved Line shapes of the node pack the look grew
// from): each straight link drawn as a path that leaves the line between its two points
// along the line's normal by an offset g(t), t = 0 at one end and 1 at the other, and
// returns to it at both ends:
//
//   - wave: g(t) = A·e(t)·sin 2π(c·t − φ), c cycles a link (LinkFreq, 0: 3, to the nearest
//     half: at φ = 0 both ends sit on nodes; fewer where a cycle would be shorter than 8
//     amplitudes) and amplitude A (LinkAmp, at most a fifth of a wavelength): a short link
//     takes a bump or two, not a zigzag. The phase φ = LinkSpeed·n + h,
//     n the frame number and h a hash of the two ids, so the wave travels along the link,
//     each link's out of step with the others'. e(t) is a taper over the first and last
//     fifth of the link (at most a quarter wavelength), smoothstep shaped, that holds the
//     travelling wave's ends on the points.
//   - elastic: the wave damped along the link, g(t)·e^(−3t), a plucked string.
//   - s: the cubic Bezier whose control points lie a third and two thirds along the link,
//     offset Bend × its length opposite ways along the normal: g(t) = 3·Bend·l·t(1−t)(1−2t).
//     It stays still.
//
// Two shapes are not offsets from the line but paths in the plane, still from one point
// exactly to the other:
//
//   - spiral (the pack's logarithmic spiral): a curl around the lower id's point, at angle
//     2π·T·(t − 1) from the line and radius l·(e^(3t) − 1)/(e^3 − 1), T = LinkTurns turns
//     (negative: the other way round). The radius grows as e^(3t), a logarithmic spiral
//     but for its start, which it reaches at radius 0; at t = 1 the angle is 0 and the
//     radius l, so the curl ends on the other point whatever T, where the pack's misses it
//     unless its turns are whole. It stays still.
//   - swirl (the pack's field lines): a path whose heading swings ±swirlSwing from the line,
//     cos 2π(c·t − φ), c whole cycles (as the wave's, at least one) travelling as the wave
//     does: past square, so each bend hooks back like a field line round a charge. Its
//     points are the integral of the heading, scaled and turned to end on the other point;
//     over whole cycles that integral ends on the line at a length that does not depend on
//     φ (J0(swirlSwing) of the path's), so the travelling swirl neither turns nor breathes.
//     In most phases each cycle's loops lie mostly to one side; the path is moved back by
//     their mean offset under the wave's taper, so it swirls about the line.
//
// t runs from the end with the lower track id, so the shape does not depend on which end
// the link graph lists first. The path is a joined run of quadratic pieces (eighth cycles
// of a wave, eighths of an S), each through its ends and the path's point midway between
// them, so both backends draw it as they draw trails and electric links (painted with the
// curves), with the link's width, colour, fade and pulse. A joined run takes its first
// piece's dash pattern and starts it afresh on each piece, so a dashed shape is cut into
// pieces of equal arc length and its period stretched to a whole number of periods a
// piece: the dashes run on across the joints.

// LinkShapes are the straight links' shapes: straight, wave, s (a cubic S-curve), elastic
// (a damped wave), spiral (a curl from one end) and swirl (a field line); see linkshape.go.
var LinkShapes = []string{"straight", "wave", "s", "elastic", "spiral", "swirl"}

// swirlSwing is the swirl's heading swing in radians (103°): just past square, so each bend
// hooks back on itself a little, which reads as a swirl rather than a wave.
const swirlSwing = 1.8

// spiralGrowth is the spiral's radius growth: e^(spiralGrowth·t), a ratio of 20 from the
// middle to the end of the path.
const spiralGrowth = 3.0

// shaped reports whether the straight links are drawn as shaped runs of curves.
func (s *Style) shaped() bool { return s.LinkShape != "" && s.LinkShape != "straight" }

// linkPath is a shaped link's path as a function of t: an offset along its normal (wave,
// elastic, s) or a point in the plane (spiral, swirl).
type linkPath struct {
	shape              string
	amp, cycles, taper float64
	phase              float64 // cycles
	l                  float64 // the link's length
	swirl              []complex128
}

// point is the path's point at t, u px along the line from its start and v px to the left
// of its direction.
func (w *linkPath) point(t float64) (u, v float64) {
	switch w.shape {
	case "spiral":
		r := w.l * math.Expm1(spiralGrowth*t) / math.Expm1(spiralGrowth)
		a := 2 * math.Pi * w.amp * (t - 1)
		return r * math.Cos(a), r * math.Sin(a)
	case "swirl":
		z := w.swirlAt(t)
		return real(z), imag(z)
	}
	return t * w.l, w.offset(t)
}

// offset is the path's distance from the line at t, in px, to the left of its direction.
func (w *linkPath) offset(t float64) float64 {
	if w.shape == "s" {
		return w.amp * t * (1 - t) * (1 - 2*t)
	}
	g := w.amp * w.envelope(t) * math.Sin(2*math.Pi*(w.cycles*t-w.phase))
	if w.shape == "elastic" {
		g *= math.Exp(-3 * t)
	}
	return g
}

// envelope is the wave's taper at t: 0 at the ends, 1 from the taper on, smoothstep shaped.
func (w *linkPath) envelope(t float64) float64 {
	e := min(t, 1-t) / w.taper
	if e >= 1 {
		return 1
	}
	return e * e * (3 - 2*e)
}

// heading is the swirl's direction at t, a unit vector in the line's frame.
func (w *linkPath) heading(t float64) complex128 {
	sin, cos := math.Sincos(swirlSwing * math.Cos(2*math.Pi*(w.cycles*t-w.phase)))
	return complex(cos, sin)
}

// swirlTable fills w.swirl (in buf's storage) with the integral of the heading at t = i/k,
// i = 0 … k, by Simpson's rule on each step, mapped so that it ends at (l, 0): the swirl's
// points at those t.
func (w *linkPath) swirlTable(buf []complex128, k int) []complex128 {
	if cap(buf) < k+1 {
		buf = make([]complex128, k+1)
	}
	buf = buf[:k+1]
	buf[0] = 0
	h := 1 / float64(k)
	prev := w.heading(0)
	for i := 1; i <= k; i++ {
		next := w.heading(float64(i) * h)
		buf[i] = buf[i-1] + complex(h/6, 0)*(prev+4*w.heading((float64(i)-0.5)*h)+next)
		prev = next
	}
	scale := complex(w.l, 0) / buf[k]
	m := 0.0
	for i := range buf {
		buf[i] *= scale
		m += imag(buf[i])
	}
	// Each cycle's offsets have the same mean, m, to one side of the line in most phases:
	// the path is moved back by m, tapered off at the ends as the wave is, so it swirls
	// about the line.
	m /= float64(k + 1)
	for i := range buf {
		buf[i] -= complex(0, m*w.envelope(float64(i)*h))
	}
	buf[k] = complex(w.l, 0)
	w.swirl = buf
	return buf
}

// swirlAt is the swirl's point at t, interpolated in its table.
func (w *linkPath) swirlAt(t float64) complex128 {
	k := len(w.swirl) - 1
	f := min(max(t, 0), 1) * float64(k)
	i := min(int(f), k-1)
	return w.swirl[i] + complex(f-float64(i), 0)*(w.swirl[i+1]-w.swirl[i])
}

// shapePath is the path of the link of length l between tracks lo < hi in frame index,
// and the number of pieces to draw it with at stroke width w.
func (b *Builder) shapePath(l float64, lo, hi, index int, w float32) (linkPath, int) {
	s := &b.style
	switch s.LinkShape {
	case "s":
		return linkPath{shape: "s", amp: 3 * float64(s.Bend) * l, l: l}, 8
	case "spiral":
		// A piece a sixteenth of a turn and eight more for the start: quadratics through
		// their midpoints follow a turn of 16 closely.
		turns := linkTurns(s)
		return linkPath{shape: "spiral", amp: turns, l: l}, min(int(math.Ceil(16*math.Abs(turns)))+8, 96)
	}
	// LinkFreq cycles, fewer on a link too short for waves of 8 amplitudes: a short link
	// takes a bump or two, not a zigzag. A wave keeps within a fifth of its wavelength.
	amp := float64(s.LinkAmp)
	freq := float64(s.LinkFreq)
	if freq == 0 {
		freq = 3
	}
	c := max(math.Round(2*min(freq, l/(8*amp)))/2, 0.5)
	if s.LinkShape == "swirl" {
		// Whole cycles: only over whole cycles does the heading's integral end on the line
		// at the same length whatever the phase.
		c = max(math.Round(min(freq, l/(8*amp))), 1)
	}
	amp = min(amp, 0.2*l/c)
	h := float64(particleHash(0, lo, hi, 2)>>11) / (1 << 53)
	phase := math.Mod(float64(s.LinkSpeed)*float64(index)+h, 1)
	n := min(max(int(math.Ceil(8*c)), 4), 64)
	// Pieces of a few stroke widths at least: a short link needs no more.
	n = min(n, max(4, int(l/(2*float64(max(w, 1))))))
	path := linkPath{shape: s.LinkShape, amp: amp, cycles: c, taper: min(0.2, 0.25/c), phase: phase, l: l}
	if s.LinkShape == "swirl" {
		// The swirl's bends are tighter than a wave's: a piece a twelfth of a cycle.
		n = min(max(int(12*c), 12), 96)
		// 4 steps a piece: the pieces' ends and midpoints fall on the table's points.
		b.swirl = path.swirlTable(b.swirl, 4*n)
	}
	return path, n
}

// linkTurns is the spiral's turns, LinkTurns (0: 1).
func linkTurns(s *Style) float64 {
	if s.LinkTurns == 0 {
		return 1
	}
	return float64(s.LinkTurns)
}

// addShaped adds the straight link from pa to pb, of width w and colour c, as a joined run
// of curves in the style's LinkShape, dashed by dash (the style's, before the flow) moved on
// by the flow of frame index.
func (b *Builder) addShaped(p *Primitives, pa, pb *scene.Point, index int, w float32, c RGBA, dash Dash) {
	if pa.ID > pb.ID {
		pa, pb = pb, pa
	}
	ax, ay := float64(pa.X), float64(pa.Y)
	dx, dy := float64(pb.X)-ax, float64(pb.Y)-ay
	l := math.Hypot(dx, dy)
	if l == 0 {
		p.Curves = append(p.Curves, Curve{X0: pa.X, Y0: pa.Y, X1: pa.X, Y1: pa.Y, X2: pa.X, Y2: pa.Y, Width: w, Color: c, Dash: b.flowDash(dash, index)})
		return
	}
	nx, ny := -dy/l, dx/l
	path, n := b.shapePath(l, min(pa.ID, pb.ID), max(pa.ID, pb.ID), index, w)
	ux, uy := dx/l, dy/l
	at := func(t float64) (float64, float64) {
		u, v := path.point(t)
		return ax + u*ux + v*nx, ay + u*uy + v*ny
	}
	// param(u) is the t a fraction u along the path: u itself, or for a dashed path, u of
	// its arc length.
	param := func(u float64) float64 { return u }
	piece := 0.0 // a dashed piece's length
	if dash.Period > 0 {
		b.arc = arcTable(b.arc, at, 8*n)
		arc := b.arc
		total := arc[len(arc)-1]
		piece = total / float64(n)
		param = func(u float64) float64 { return arcParam(arc, u*total) }
	}
	first := len(p.Curves)
	cuts := b.cuts[:0]
	for i := range n + 1 {
		cuts = append(cuts, float64(i)/float64(n))
	}
	b.cuts = cuts
	emit := func() {
		p.Curves = p.Curves[:first]
		x0, y0 := pa.X, pa.Y
		for i := 1; i <= n; i++ {
			x1, y1 := pb.X, pb.Y
			if i < n {
				fx, fy := at(param(cuts[i]))
				x1, y1 = float32(fx), float32(fy)
			}
			// The control point that puts the piece's midpoint (t = ½) on the path.
			mx, my := at(param((cuts[i-1] + cuts[i]) / 2))
			p.Curves = append(p.Curves, Curve{X0: x0, Y0: y0, X1: float32(2*mx - (float64(x0)+float64(x1))/2), Y1: float32(2*my - (float64(y0)+float64(y1))/2),
				X2: x1, Y2: y1, Width: w, Color: c, Joined: i > 1})
			x0, y0 = x1, y1
		}
	}
	emit()
	if dash.Period > 0 && (path.shape == "spiral" || path.shape == "swirl") {
		// Where the path turns fast (a spiral's start, a swirl's hooks), a quadratic
		// through a piece's ends and midpoint is some per cent longer or shorter than the
		// piece, and the backends measure the quadratic: pieces of equal arc length would
		// not each hold a whole number of periods. Three times, each piece is resized in
		// proportion to how its quadratic measured, so the quadratics come out equal.
		for range 3 {
			mean := 0.0
			for i := range n {
				mean += float64(curveLen(&p.Curves[first+i]))
			}
			mean /= float64(n)
			prev, acc := 0.0, 0.0
			for i := range n {
				next := cuts[i+1]
				acc += (next - prev) * mean / max(float64(curveLen(&p.Curves[first+i])), 1e-6)
				prev, cuts[i+1] = next, acc
			}
			for i := range cuts {
				cuts[i] /= acc
			}
			cuts[n] = 1
			emit()
		}
		piece = 0
		for i := range n {
			piece += float64(curveLen(&p.Curves[first+i]))
		}
		piece /= float64(n)
	}
	if dash.Period > 0 {
		k := max(math.Round(piece/float64(dash.Period)), 1)
		stretch := float32(piece / k / float64(dash.Period))
		dash.On, dash.Period = dash.On*stretch, dash.Period*stretch
	}
	dash = b.flowDash(dash, index)
	for i := first; i < len(p.Curves); i++ {
		p.Curves[i].Dash = dash
	}
}

// curveLen is the length of curve c as the backends measure its dashes: along its chords.
func curveLen(c *Curve) float32 {
	n := curves.Chords(c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, curves.Tolerance)
	l := float32(0)
	for j := range n {
		l += curves.ChordLen(curves.Chord(c.X0, c.Y0, c.X1, c.Y1, c.X2, c.Y2, j, n))
	}
	return l
}

// arcTable is the arc length of the path at t = i/k, i = 0 … k, along its chords, in
// arc's storage.
func arcTable(arc []float64, at func(float64) (float64, float64), k int) []float64 {
	if cap(arc) < k+1 {
		arc = make([]float64, k+1)
	}
	arc = arc[:k+1]
	arc[0] = 0
	px, py := at(0)
	for i := 1; i <= k; i++ {
		x, y := at(float64(i) / float64(k))
		arc[i] = arc[i-1] + math.Hypot(x-px, y-py)
		px, py = x, y
	}
	return arc
}

// arcParam is the t at arc length s in the table, interpolated linearly.
func arcParam(arc []float64, s float64) float64 {
	k := len(arc) - 1
	i := 1
	for i < k && arc[i] < s {
		i++
	}
	span := arc[i] - arc[i-1]
	f := 0.0
	if span > 0 {
		f = min(max((s-arc[i-1])/span, 0), 1)
	}
	return (float64(i-1) + f) / float64(k)
}
