package scene

// Scale multiplies every coordinate and size by sx across and sy down: for tracks made on a
// video of another size than the one they are drawn on. Call it before the Tracks is
// shared: it changes them in place.
func (t *Tracks) Scale(sx, sy float32) {
	t.boxes.update(func(b *boxRecord) { b.x, b.y, b.w, b.h = b.x*sx, b.y*sy, b.w*sx, b.h*sy })
	t.points.update(func(p *pointRecord) { p.x, p.y = p.x*sx, p.y*sy })
}
