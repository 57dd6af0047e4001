//go:build cuda

package kernels

import (
	"math/rand"
	"testing"

	"trackink/render"
)

// TestCUDAMatchesCPU runs the randomised comparison on a real GPU. Without one it skips,
// saying why: the CI machine has none, and this test is for GPU machines
// (go test -tags cuda ./kernels after kernels/build.sh).
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
