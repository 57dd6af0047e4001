package overlay

import "trackink/composite"

// Echo trails (the pack's feedback/echo layer) are kept layers, not redrawn primitives: the
// backend keeps the layer each of the last Echo frames drew (its boxes, lines, points and
// trails, before its labels: text repeated reads as noise) and lays them under this frame's
// layer, echo k (k = 1 the frame before) at EchoDecay^k of its opacity, moved k·EchoOffset px
// and scaled EchoScale^k about the frame's centre. A frame costs one store of its layer and
// one blend of each echo, never a second drawing of its primitives (EchoPass says how the
// backends do it).
//
// A segment of a render (Drawer.Advance through the frames before its first) builds those
// frames' primitives without drawing them; the Drawer keeps the last Echo of them and,
// before the segment's first Draw, has the backend draw them into its kept layers only
// (EchoPass.Keep), so the segment's echoes are the whole render's and segments join exactly.

// EchoPass is a frame's echo trails, for the backend (Primitives.Echo). The backend keeps a
// ring of the layers of the last Frames frames it drew: the layer of the boxes, lines and
// curves, before the labels, in the frame's layer space at 8 bits a channel (the colour
// channels in steps of the frame's code value range over 255, alpha in 255ths). After a
// frame's curves it stores the frame's layer in the ring and then lays the kept layers under
// it, the newest first: echo k, the layer of the k-th frame before (while the ring holds it),
// is sampled at the pixel that T^k moves onto this one (bilinear between the four kept pixels
// around it, pixels outside the frame zero), where T scales by Scale about the frame's centre
// and then moves by Offset, and taken at Decay^k of its opacity; each echo goes under what
// is there (the frame's layer and the newer echoes), as "over" would put them on top of it.
// Frames 0 is off. Keep draws nothing onto the frame: the backend only stores the frame's
// layer in its ring (a segment's frames before its first).
type EchoPass struct {
	Frames int
	Decay  float32
	Offset [2]float32
	Scale  float32
	Keep   bool
}

// On reports whether the frame has echo trails.
func (e *EchoPass) On() bool { return e.Frames > 0 }

// echoFrame is a frame's primitives as the backend keeps their layer: its boxes, lines and
// curves.
type echoFrame struct {
	boxes  []Box
	lines  []Line
	curves []Curve
}

// echoReplay holds the primitives of the last frames a Drawer advanced through without
// drawing them (at most Style.Echo), for the backend to keep before the next Draw.
type echoReplay struct {
	frames []echoFrame // a ring, the newest at next−1
	next   int
	held   int
	prims  Primitives // what replay hands the backend
}

func newEchoReplay(n int) *echoReplay { return &echoReplay{frames: make([]echoFrame, n)} }

// hold keeps p's boxes, lines and curves as the newest frame.
func (e *echoReplay) hold(p *Primitives) {
	f := &e.frames[e.next]
	f.boxes = append(f.boxes[:0], p.Boxes...)
	f.lines = append(f.lines[:0], p.Lines...)
	f.curves = append(f.curves[:0], p.Curves...)
	e.next = (e.next + 1) % len(e.frames)
	e.held = min(e.held+1, len(e.frames))
}

// replay hands the frames held to the backend to keep, the oldest first, as Primitives with
// pass's echo and Keep set and p's glow (the layer's strokes' own), and forgets them.
func (e *echoReplay) replay(b Backend, dst composite.Surface, p *Primitives) error {
	q := &e.prims
	q.Glow, q.Echo = p.Glow, p.Echo
	q.Echo.Keep = true
	for k := e.held; k >= 1; k-- {
		f := &e.frames[(e.next-k+len(e.frames))%len(e.frames)]
		q.Boxes, q.Lines, q.Curves = f.boxes, f.lines, f.curves
		if err := b.Draw(dst, q); err != nil {
			return err
		}
	}
	e.held = 0
	return nil
}
