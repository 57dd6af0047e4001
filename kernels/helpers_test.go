package kernels

import (
	"flag"
	"testing"

	"trackink/render"
)

var seedFlag = flag.Int64("seed", 0, "seed of the randomised tests (0: a fresh one, logged)")

// newTestGPU returns a backend on a poisoned emulated device, with glyphs.
func newTestGPU(t testing.TB, labelSize int, timed bool) *GPU {
	t.Helper()
	g, err := New(NewEmuDevice(EmuOptions{Workers: 2, Poison: true}), render.Options{Workers: 2, LabelSize: labelSize, Timed: timed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

// newTestCPU returns the CPU renderer, the reference the device is compared with.
func newTestCPU(t testing.TB, labelSize int) *render.Renderer {
	t.Helper()
	r, err := render.New(render.Options{Workers: 2, LabelSize: labelSize})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// diffBytes returns the largest difference between a and b and how many bytes differ by
// more than tol.
func diffBytes(a, b []byte, tol int) (worst, over int) {
	for i := range a {
		d := int(a[i]) - int(b[i])
		if d < 0 {
			d = -d
		}
		worst = max(worst, d)
		if d > tol {
			over++
		}
	}
	return worst, over
}
