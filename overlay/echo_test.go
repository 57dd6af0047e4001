package overlay

import (
	"testing"

	"trackink/composite"
	"trackink/knn"
	"trackink/scene"
)

// echoBackend records, for each Draw, its echo pass and the x of its first box.
type echoBackend struct {
	passes []EchoPass
	boxX   []float32
}

func (e *echoBackend) Draw(dst composite.Surface, p *Primitives) error {
	e.passes = append(e.passes, p.Echo)
	x := float32(-1)
	if len(p.Boxes) > 0 {
		x = p.Boxes[0].X
	}
	e.boxX = append(e.boxX, x)
	return nil
}
func (e *echoBackend) Timings() Timings { return Timings{} }
func (e *echoBackend) Workers() int     { return 1 }
func (e *echoBackend) Close()           {}

// TestEchoReplay: every frame hands the backend the style's echo pass; a drawer that
// advanced through frames first has the backend keep the last Echo of them (Keep, the
// oldest first, their own boxes) before it draws, and only once.
func TestEchoReplay(t *testing.T) {
	st := DefaultStyle()
	st.Echo, st.EchoDecay, st.EchoOffset, st.EchoScale = 2, 0.5, [2]float32{3, -1}, 1.1
	eb := &echoBackend{}
	d, err := New(Options{Style: st, Links: knn.Options{K: 2}, NewBackend: func(BackendOptions) (Backend, error) { return eb, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fr := &composite.RGBA{Pix: make([]byte, 64*48*4), Stride: 64 * 4, W: 64, H: 48}
	frame := func(n int) *scene.Frame {
		return &scene.Frame{Index: n, Boxes: []scene.Box{{ID: 1, X: float32(n), Y: 5, W: 10, H: 10, Score: 1}}}
	}
	for n := 1; n <= 4; n++ {
		if err := d.Advance(64, 48, frame(n)); err != nil {
			t.Fatal(err)
		}
	}
	for n := 5; n <= 6; n++ {
		if err := d.Draw(fr, frame(n)); err != nil {
			t.Fatal(err)
		}
	}
	want := EchoPass{Frames: 2, Decay: 0.5, Offset: [2]float32{3, -1}, Scale: 1.1}
	kept := want
	kept.Keep = true
	wantPasses := []EchoPass{kept, kept, want, want}
	if len(eb.passes) != len(wantPasses) {
		t.Fatalf("%d draws %+v, want %d: frames 3 and 4 kept, 5 and 6 drawn", len(eb.passes), eb.passes, len(wantPasses))
	}
	for i := range wantPasses {
		if eb.passes[i] != wantPasses[i] {
			t.Errorf("draw %d: pass %+v, want %+v", i, eb.passes[i], wantPasses[i])
		}
	}
	// The boxes' x follow the frame number (less the stroke's half width, alike for all).
	if dx := eb.boxX[1] - eb.boxX[0]; dx != 1 || eb.boxX[2]-eb.boxX[1] != 1 || eb.boxX[3]-eb.boxX[2] != 1 {
		t.Errorf("box x %v: want frames 3, 4, 5, 6's, one px apart", eb.boxX)
	}
}
