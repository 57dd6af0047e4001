package tracker

import "trackink/scene"

// MOTBoxes appends to dst what frame f holds as boxes, the only thing MOTChallenge text holds:
// its boxes, and in the Points mode each point as a PointSize box centred on it (a reader
// makes the point again from the box, at --anchor centre). Points that boxes yield are not
// boxes again.
func (o Options) MOTBoxes(dst []scene.Box, f *scene.Frame) []scene.Box {
	dst = append(dst, f.Boxes...)
	if o.Mode != Points {
		return dst
	}
	s := float32(o.PointSize)
	for _, p := range f.Points {
		dst = append(dst, scene.Box{ID: p.ID, X: p.X - s/2, Y: p.Y - s/2, W: s, H: s})
	}
	return dst
}
