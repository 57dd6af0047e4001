//go:build cuda

package kernels

import (
	"math/rand"
	"testing"

	"trackink/render"
)

// TestCUDAMatchesCPU runs the randomised comparison on a real GPU (go test -tags cuda
// ./kernels after kernels/build.sh). A cuda-tagged test binary cannot start without a
// driver and GPU (see cuda.go), so CI only builds and vets this file; the skip covers a
// GPU that is present but cannot be used (another process holds it exclusively, say).
func TestCUDAMatchesCPU(t *testing.T) {
	d, err := NewCUDADevice(0)
	if err != nil {
		t.Skipf("no usable GPU: %v", err)
	}
	g, err := New(d, render.Options{LabelSize: 12})
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	defer g.Close()
	rng := rand.New(rand.NewSource(testSeed(t)))
	for range 24 {
		w, h := 16+rng.Intn(600), 16+rng.Intn(400)
		drawBoth(t, rng, g, randomScene(rng, w, h, g.Font()), w, h)
	}
}
