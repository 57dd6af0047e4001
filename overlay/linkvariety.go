package overlay

import (
	"math"

	"trackink/curves"
	"trackink/scene"
)

// Line variety (the pack's line styles): links whose width pulses, curves that bulge away
// from the tracked points' centre, and dashes that flow along the links.
//
//   - LinkPulse: a link's width (line and curve) is w·(1 + LinkPulse·sin 2π(n/P + φ)) in
//     frame n, P = LinkPulsePeriod frames, φ a hash of its two tracks' ids, so the links
//     breathe out of step; it follows from the frame number alone.
//   - LinkFlow: with dashed or dotted links (LinkStyle), the dashes move LinkFlow px a
//     frame from each link's first end to its other (Dash.Phase = −LinkFlow·n, modulo the
//     period), a flow along the web; it follows from the frame number alone.
//   - BendAway: each curve bends to the side of its link away from the centroid of the
//     frame's points, so the curves bow outward, a web around the group, instead of to the
//     left of the link's direction (which depends on which end is which).
//
// Both are made on the host in the link primitives, so every backend draws them alike (a
// backend that builds links itself is not given the links with them: Drawer.startLinks).

// pulse is the factor on the widths of the link between pa and pb in frame index.
func (b *Builder) pulse(pa, pb *scene.Point, index int) float32 {
	s := &b.style
	if s.LinkPulse == 0 {
		return 1
	}
	lo, hi := min(pa.ID, pb.ID), max(pa.ID, pb.ID) // the same phase either way round
	phase := float64(particleHash(0, lo, hi, 1)>>11) / (1 << 53)
	period := float64(pulsePeriod(s))
	return float32(1 + float64(s.LinkPulse)*math.Sin(2*math.Pi*(float64(index)/period+phase)))
}

// flowDash is dash d moved on by the flow of frame index: its phase −LinkFlow·index modulo
// its period.
func (b *Builder) flowDash(d Dash, index int) Dash {
	if b.style.LinkFlow == 0 || d.Period == 0 {
		return d
	}
	period := float64(d.Period)
	ph := math.Mod(-float64(b.style.LinkFlow)*float64(index), period)
	if ph < 0 {
		ph += period
	}
	d.Phase = float32(ph)
	return d
}

// pulsePeriod is LinkPulsePeriod, 0 for 30 frames.
func pulsePeriod(s *Style) int {
	if s.LinkPulsePeriod == 0 {
		return 30
	}
	return s.LinkPulsePeriod
}

// curveControl is the control point of the curve from pa to pb: Bend to the left of the
// link, or with BendAway to the side away from the frame's centroid (cx, cy).
func (b *Builder) curveControl(pa, pb *scene.Point, cx, cy float32) (float32, float32) {
	bend := b.style.Bend
	if b.style.BendAway {
		// Control moves the midpoint along (−dy, dx)·bend: bend to the side of that normal
		// the centroid does not lie on.
		dx, dy := pb.X-pa.X, pb.Y-pa.Y
		mx, my := (pa.X+pb.X)/2, (pa.Y+pb.Y)/2
		bend = float32(math.Abs(float64(bend)))
		if side := -dy*(cx-mx) + dx*(cy-my); side > 0 {
			bend = -bend
		}
	}
	return curves.Control(pa.X, pa.Y, pb.X, pb.Y, bend)
}

// centroid is the mean of the frame's points (0, 0 with none).
func centroid(f *scene.Frame) (float32, float32) {
	if len(f.Points) == 0 {
		return 0, 0
	}
	var sx, sy float64
	for _, p := range f.Points {
		sx += float64(p.X)
		sy += float64(p.Y)
	}
	n := float64(len(f.Points))
	return float32(sx / n), float32(sy / n)
}
