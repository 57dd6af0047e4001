// Package device is what the GPU backend's host code (kernels/gpu) runs on: the Device
// interface, and its three implementations, one job each: the emulated device, which runs
// the kernel sources (package kernels) on the CPU in every build (emu.go, emu.cc); the
// CUDA driver through gorgonia.org/cu, in builds with the cuda tag (cuda.go); and Probe,
// which finds out with dlopen, without linking libcuda, whether a driver and GPUs are there
// (probe.go). testdata/fakecuda builds a stand-in libcuda.so.1 on which the CUDA device's
// own code runs without a GPU (make cuda-fake).
package device

import "time"

// Ptr is an address in device memory (on the emulated device, a host address that Go
// never dereferences itself).
type Ptr uint64

// Dim3 is a launch grid or block size.
type Dim3 struct{ X, Y, Z uint32 }

// GraphExec is a captured and instantiated launch sequence (CUDA's CUgraphExec), replayed
// by Device.LaunchGraph.
type GraphExec uint64

// Event marks a point in the device's stream; Elapsed measures between two.
type Event uint64

// Device is all the host code needs of a GPU: memory, copies, launches of the kernels by
// name with one parameter-block pointer, stream capture into graphs, and timing events.
// Everything runs in order on one stream. The emulated device (NewEmu) implements it
// everywhere; the CUDA driver (OpenCUDA) in builds with the cuda tag.
//
// Capture follows CUDA's rules, and the emulated device enforces them so that host code
// that breaks them fails in every test, not only on a GPU: between BeginCapture and
// EndCapture, launches and event records are recorded, not run, and copies to or from
// host memory and Sync are errors.
type Device interface {
	// Name describes the device for reports.
	Name() string
	// Workers returns how many host threads run a launch: the emulated device's, or 1 for a
	// GPU (for reports).
	Workers() int
	// Alloc returns n bytes of device memory.
	Alloc(n int) (Ptr, error)
	// Free releases memory from Alloc.
	Free(p Ptr)
	// Zero sets n bytes at p to zero (not capturable in this interface: use it at setup).
	Zero(p Ptr, n int) error
	// CopyIn copies src to device memory at dst and returns when src may be reused.
	CopyIn(dst Ptr, src []byte) error
	// CopyOut copies device memory at src to dst, after all work queued before it.
	CopyOut(dst []byte, src Ptr) error
	// Launch queues kernel over grid × block threads with the parameter block at params.
	Launch(kernel string, grid, block Dim3, params Ptr) error
	// BeginCapture starts recording the stream's work into a graph.
	BeginCapture() error
	// EndCapture stops recording and returns the graph, ready to launch.
	EndCapture() (GraphExec, error)
	// LaunchGraph queues the graph's work.
	LaunchGraph(g GraphExec) error
	// FreeGraph releases a graph.
	FreeGraph(g GraphExec)
	// NewEvent returns an event for Record and Elapsed.
	NewEvent() (Event, error)
	// Record queues event e.
	Record(e Event) error
	// Elapsed returns the time between two recorded events, once both have completed.
	Elapsed(from, to Event) (time.Duration, error)
	// FreeEvent releases an event.
	FreeEvent(e Event)
	// Sync waits for all queued work.
	Sync() error
	// AfterLegacy orders the stream's next work after all work queued so far on the CUDA
	// legacy default stream, where FFmpeg copies decoded frames into the frames the backend
	// then draws on. It does not block the host, and is an error during capture.
	AfterLegacy() error
	// Close releases the device context; memory, graphs and events die with it.
	Close()
}
