package overlay

import "slices"

// Echo trails (the pack's feedback/echo layer): the overlay of the Echo frames before this
// one is drawn again under it, echo k (k = 1 is the frame before) at EchoDecay^k of its
// opacity, moved k·EchoOffset px and scaled EchoScale^k about the frame's centre. The
// Drawer keeps the boxes, lines and curves each frame drew (labels are not echoed: text
// repeated reads as noise) in a ring, so every backend draws the echoes as primitives like
// any other; a segment's replayed frames (Drawer.Advance) fill the ring as the whole render
// did, so segments join exactly.

// echoFrame is one frame's echoable primitives.
type echoFrame struct {
	boxes  []Box
	lines  []Line
	curves []Curve
}

// echoes is the ring of the last frames' primitives, newest at next−1.
type echoes struct {
	frames []echoFrame
	next   int // where the next frame goes
	filled int // frames held
	// the echoes of this frame, gathered before its own primitives
	boxes  []Box
	lines  []Line
	curves []Curve
}

func newEchoes(n int) *echoes { return &echoes{frames: make([]echoFrame, n)} }

// apply draws the held frames' echoes under p's primitives (style s, a w × h frame), then
// keeps p's own for the next frames.
func (e *echoes) apply(p *Primitives, s *Style, w, h int) {
	e.boxes, e.lines, e.curves = e.boxes[:0], e.lines[:0], e.curves[:0]
	cx, cy := float32(w)/2, float32(h)/2
	// The oldest echo first, so that newer ones lie over it.
	for k := e.filled; k >= 1; k-- {
		f := &e.frames[(e.next-k+len(e.frames))%len(e.frames)]
		a := pow32(s.EchoDecay, k)
		sc := pow32(s.EchoScale, k)
		dx, dy := float32(k)*s.EchoOffset[0], float32(k)*s.EchoOffset[1]
		at := func(x, y float32) (float32, float32) { return cx + (x-cx)*sc + dx, cy + (y-cy)*sc + dy }
		for _, b := range f.boxes {
			b.X, b.Y = at(b.X, b.Y)
			b.W, b.H, b.Radius = b.W*sc, b.H*sc, b.Radius*sc
			b.Fill, b.StrokeColor = b.Fill.Scale(a), b.StrokeColor.Scale(a)
			e.boxes = append(e.boxes, b)
		}
		for _, l := range f.lines {
			l.X0, l.Y0 = at(l.X0, l.Y0)
			l.X1, l.Y1 = at(l.X1, l.Y1)
			l.Color, l.Color1 = l.Color.Scale(a), l.Color1.Scale(a)
			e.lines = append(e.lines, l)
		}
		for _, c := range f.curves {
			c.X0, c.Y0 = at(c.X0, c.Y0)
			c.X1, c.Y1 = at(c.X1, c.Y1)
			c.X2, c.Y2 = at(c.X2, c.Y2)
			c.Color = c.Color.Scale(a)
			e.curves = append(e.curves, c)
		}
	}
	// Keep this frame's own, then put the echoes before them.
	f := &e.frames[e.next]
	f.boxes = append(f.boxes[:0], p.Boxes...)
	f.lines = append(f.lines[:0], p.Lines...)
	f.curves = append(f.curves[:0], p.Curves...)
	e.next = (e.next + 1) % len(e.frames)
	e.filled = min(e.filled+1, len(e.frames))
	p.Boxes = prepend(p.Boxes, e.boxes)
	p.Lines = prepend(p.Lines, e.lines)
	p.Curves = prepend(p.Curves, e.curves)
}

// prepend returns s with pre before its elements, in s's storage where it has room.
func prepend[T any](s, pre []T) []T {
	n := len(s)
	s = slices.Grow(s, len(pre))[:n+len(pre)]
	copy(s[len(pre):], s[:n])
	copy(s, pre)
	return s
}

// pow32 is x^k for k ≥ 0.
func pow32(x float32, k int) float32 {
	v := float32(1)
	for range k {
		v *= x
	}
	return v
}
