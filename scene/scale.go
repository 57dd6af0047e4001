package scene

// Scale multiplies every coordinate and size by sx across and sy down: for tracks made on a
// video of another size than the one they are drawn on. Call it before the Tracks is
// shared: it changes them in place.
func (t *Tracks) Scale(sx, sy float32) {
	for i := range t.boxes.n {
		b := t.boxes.at(i)
		b.x, b.y, b.w, b.h = b.x*sx, b.y*sy, b.w*sx, b.h*sy
	}
	for i := range t.points.n {
		p := t.points.at(i)
		p.x, p.y = p.x*sx, p.y*sy
	}
}
