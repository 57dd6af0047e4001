//go:build cuda

package kernels

import (
	"math/rand"
	"testing"
	"time"

	"trackink/render"
)

// These tests run the CUDA device: on a GPU (go test -tags cuda ./kernels after
// kernels/build.sh), or on the CPU through the fake driver library (make cuda-fake), which
// checks the driver calls as strictly as the driver does. A cuda-tagged test binary cannot
// start without one of the two (see cuda.go), so a device that does not open is a failure.

// newTestCUDA returns a backend on GPU 0.
func newTestCUDA(t *testing.T, timed bool) *GPU {
	t.Helper()
	d, err := NewCUDADevice(0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(d, render.Options{LabelSize: 12, Timed: timed})
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

// TestCUDAMatchesCPU draws randomised scenes of changing sizes (recaptures) on one timed
// backend and compares them with the CPU renderer.
func TestCUDAMatchesCPU(t *testing.T) {
	g := newTestCUDA(t, true)
	t.Logf("device: %s", g.dev.Name())
	rng := rand.New(rand.NewSource(testSeed(t)))
	var timed time.Duration
	for range 24 {
		w, h := 16+rng.Intn(600), 16+rng.Intn(400)
		drawBoth(t, rng, g, randomScene(rng, w, h, g.Font()), w, h)
		for _, d := range g.Timings() {
			timed += d
		}
	}
	if timed <= 0 {
		t.Error("a timed backend reported no stage times over 24 frames")
	}
	if g.Captures() < 2 {
		t.Errorf("%d captures over 24 frame sizes, want several", g.Captures())
	}
}

// TestCUDADeviceFrameInPlace composites into NV12 frames in device memory on the CUDA device.
func TestCUDADeviceFrameInPlace(t *testing.T) { testDeviceFrameInPlace(t, newTestCUDA(t, false)) }
