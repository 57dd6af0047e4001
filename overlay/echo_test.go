package overlay

import "testing"

// TestEchoes: with Echo 2, a frame draws the two frames before it under its own, the
// oldest first, echo k at EchoDecay^k of its opacity, moved k·EchoOffset and scaled
// EchoScale^k about the centre; the ring forgets older frames.
func TestEchoes(t *testing.T) {
	st := DefaultStyle()
	st.Echo, st.EchoDecay, st.EchoOffset, st.EchoScale = 2, 0.5, [2]float32{3, -1}, 2
	e := newEchoes(st.Echo)
	const w, h = 100, 60 // centre (50, 30)
	var p Primitives
	for x := range 4 {
		p.Reset()
		p.Boxes = append(p.Boxes, Box{X: 50 + float32(x), Y: 30, W: 4, H: 2, StrokeColor: RGBA{1, 1, 1, 1}})
		p.Lines = append(p.Lines, Line{X0: 50, Y0: 30, X1: 50 + float32(x), Y1: 30, Color: RGBA{1, 1, 1, 1}})
		e.apply(&p, &st, w, h)
	}
	// Frame x = 3: echoes of x = 1 (k = 2) and x = 2 (k = 1), then its own.
	want := []Box{
		{X: 50 + 1*4 + 6, Y: 30 - 2, W: 16, H: 8, StrokeColor: RGBA{0.25, 0.25, 0.25, 0.25}},
		{X: 50 + 2*2 + 3, Y: 30 - 1, W: 8, H: 4, StrokeColor: RGBA{0.5, 0.5, 0.5, 0.5}},
		{X: 53, Y: 30, W: 4, H: 2, StrokeColor: RGBA{1, 1, 1, 1}},
	}
	if len(p.Boxes) != len(want) {
		t.Fatalf("%d boxes, want %d: %+v", len(p.Boxes), len(want), p.Boxes)
	}
	for i := range want {
		if p.Boxes[i] != want[i] {
			t.Errorf("box %d: %+v, want %+v", i, p.Boxes[i], want[i])
		}
	}
	if len(p.Lines) != 3 || p.Lines[0].X1 != 50+1*4+6 || p.Lines[2].X1 != 53 {
		t.Errorf("lines %+v: want the echoes of frames 1 and 2, then frame 3's", p.Lines)
	}
}
