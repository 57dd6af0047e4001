//go:build cuda

package gpu

import (
	"math/rand"
	"testing"

	"trackink/kernels/device"
	"trackink/overlay"
)

// These tests run the CUDA device: on a GPU (go test -tags cuda ./kernels/... after
// kernels/build.sh), or on the CPU through the fake driver library (make cuda-fake), which
// checks the driver calls as strictly as the driver does. A cuda-tagged test binary cannot
// start without one of the two (see device/cuda.go), so a device that does not open is a
// failure.

// newTestCUDA returns a backend on GPU 0.
func newTestCUDA(t *testing.T, timed bool) *Backend {
	t.Helper()
	d, err := device.OpenCUDA(0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(d, overlay.BackendOptions{Timed: timed})
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

// TestCUDAMatchesCPU draws randomised scenes of changing sizes on one backend, which
// captures a graph for each size and replays it, and compares them with the CPU renderer.
func TestCUDAMatchesCPU(t *testing.T) {
	g := newTestCUDA(t, false)
	t.Logf("device: %s", g.dev.Name())
	rng := rand.New(rand.NewSource(testSeed(t)))
	f := testFont(t, 12)
	for range 24 {
		w, h := 16+rng.Intn(600), 16+rng.Intn(400)
		drawBoth(t, rng, g, randomScene(rng, w, h, f), w, h)
	}
	if g.captures < 2 {
		t.Errorf("%d captures over 24 frame sizes, want several", g.captures)
	}
}

// TestCUDATimed: a timed backend (trackink bench) reports every stage's device time.
func TestCUDATimed(t *testing.T) {
	drawTimed(t, rand.New(rand.NewSource(testSeed(t))), newTestCUDA(t, true))
}

// TestCUDADeviceFrameInPlace composites into NV12 frames in device memory on the CUDA device.
func TestCUDADeviceFrameInPlace(t *testing.T) { testDeviceFrameInPlace(t, newTestCUDA(t, false)) }
