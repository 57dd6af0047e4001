//go:build cuda

package gpu

import (
	"math/rand/v2"
	"testing"

	"trackink/internal/knntest"
	"trackink/kernels/device"
)

// The device's links on the CUDA device: on a GPU, or on the fake driver (make cuda-fake),
// which runs the CUDA device's own code and checks every launch's blocks as the driver
// would.

func openTestCUDA(t *testing.T) device.Device {
	t.Helper()
	d, err := device.OpenCUDA(0)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCUDALinksMatchGraph holds the link update on the CUDA device to knn.Graph, frame by
// frame, as TestLinksMatchGraph does on the emulated device (fewer combinations).
func TestCUDALinksMatchGraph(t *testing.T) {
	seed := uint64(testSeed(t))
	for i, o := range linkOptions {
		shape := knntest.Shapes[i%len(knntest.Shapes)]
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		lg, err := NewLinkGraph(openTestCUDA(t), o)
		if err != nil {
			t.Fatal(err)
		}
		s := &trackFrames{rng: rng, base: knntest.Points(rng, shape, 20+rng.IntN(100)), shape: shape, grow: true}
		compareFrames(t, o, lg, shape, s.next, 12)
		lg.Close()
	}
}

// TestCUDALinkedFrameHasNoRoundTrip: on the CUDA device too, a frame with links on the
// device is uploads, one graph launch of kernels only, then read-backs.
func TestCUDALinkedFrameHasNoRoundTrip(t *testing.T) {
	checkLinkedFrames(t, newRecorder(openTestCUDA(t)))
}
