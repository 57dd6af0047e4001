package overlay

import (
	"math"

	"trackink/scene"
)

// Jitter (Style.Jitter, the node pack's Track Jitter in the form that keeps a track
// together): every track is drawn moved by a constant vector, uniform over the disk of
// radius Jitter px, from a hash of its track id alone, so a crowd's overlapping boxes,
// points and labels part a little and each track keeps its offset from frame to frame
// (and from segment to segment). Its box, point, label, links, trail and particles move
// together: Build draws a moved copy of the frame. Untracked items (no id) stay where they
// are. The links are chosen where the tracks are (the link graph sees the file's
// positions) and drawn between the moved points, which the device's link builder cannot
// do: with Jitter the Drawer builds the links on the host. The drawn positions differ from
// the file's by design, the labels' {x} {y} {cx} {cy} included.

// jitterOffset is track id's offset at jitter px: a point of the disk of radius px.
func jitterOffset(id int, px float32) (float32, float32) {
	h := particleHash(0x6a09e667f3bcc908, id, 0, 0)
	// r = px·√u over the disk's area, θ uniform: the offsets fill the disk evenly.
	u := float64(uint32(h)) / (1 << 32)
	theta := 2 * math.Pi * float64(uint32(h>>32)) / (1 << 32)
	r := float64(px) * math.Sqrt(u)
	return float32(r * math.Cos(theta)), float32(r * math.Sin(theta))
}

// jittered returns frame f with every track moved by its offset (Style.Jitter), in the
// builder's storage; f itself without jitter.
func (b *Builder) jittered(f *scene.Frame) *scene.Frame {
	px := b.style.Jitter
	if px == 0 {
		return f
	}
	j := &b.jitter
	j.Index = f.Index
	j.Boxes = append(j.Boxes[:0], f.Boxes...)
	j.Points = append(j.Points[:0], f.Points...)
	for i := range j.Boxes {
		if bx := &j.Boxes[i]; bx.ID != scene.NoID {
			dx, dy := jitterOffset(bx.ID, px)
			bx.X, bx.Y = bx.X+dx, bx.Y+dy
		}
	}
	for i := range j.Points {
		if pt := &j.Points[i]; pt.ID != scene.NoID {
			dx, dy := jitterOffset(pt.ID, px)
			pt.X, pt.Y = pt.X+dx, pt.Y+dy
		}
	}
	return j
}
