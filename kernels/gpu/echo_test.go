package gpu

import (
	"math/rand"
	"testing"

	"trackink/overlay"
)

// TestEchoEmuMatchCPU draws a box and a link moving over six frames with echo trails, on
// the emulated device and the CPU, onto frames of every format, echoes still and moved and
// scaled, a frame with only the kept layer (Keep) among them: each frame must agree within
// the format's tolerance. A 10-bit frame's echoes are kept in steps of 4 code values, and a
// layer value that the device's FP16 and the CPU's FP32 round to either side of a step keeps
// one step apart: up to 4 code values more.
func TestEchoEmuMatchCPU(t *testing.T) {
	passes := map[string]overlay.EchoPass{
		"still":        {Frames: 3, Decay: 0.7, Scale: 1},
		"moved scaled": {Frames: 4, Decay: 0.8, Scale: 1.05, Offset: [2]float32{2.5, -1.25}},
	}
	const w, h = 97, 61
	eachFormat(w, h, func(seed int64, format string) {
		for name, pass := range passes {
			cpu, g := newTestCPU(t), newTestGPU(t, false)
			for n := range 6 {
				fa, fb := randomFrame(rand.New(rand.NewSource(seed)), w, h)
				x := float32(8 + 9*n)
				p := overlay.Primitives{Echo: pass,
					Boxes: []overlay.Box{{X: x, Y: 12, W: 20, H: 24, Radius: 4, Stroke: 2,
						StrokeColor: overlay.RGBA{R: 1, G: 0.5, A: 1}, Fill: overlay.RGBA{B: 0.2, A: 0.2}}},
					Lines: []overlay.Line{{X0: 3, Y0: 55, X1: x + 10, Y1: 36, Width: 1.5, Color: overlay.RGBA{G: 0.8, A: 0.8}}}}
				p.Echo.Keep = n == 2
				if err := cpu.Draw(fa.frame, &p); err != nil {
					t.Fatal(err)
				}
				if err := g.Draw(fb.frame, &p); err != nil {
					t.Fatal(err)
				}
				tol := fa.tolerance()
				if fa.shift >= 0 {
					tol += 4
				}
				if worst, over := fa.diff(fb, tol); over > 0 {
					t.Errorf("%s, echoes %s, frame %d: %d samples differ by more than %d (largest %d)",
						format, name, n, over, tol, worst)
				}
			}
		}
	})
}
