package gpu

import (
	"flag"
	"testing"

	"trackink/kernels/device"
	"trackink/overlay"
	"trackink/render"
)

var seedFlag = flag.Int64("seed", 0, "seed of the randomised tests (0: a fresh one, logged)")

// newTestGPU returns a backend on a poisoned emulated device.
func newTestGPU(t testing.TB, timed bool) *Backend {
	t.Helper()
	g, err := New(device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}), overlay.BackendOptions{Timed: timed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

// newTestCPU returns the CPU renderer, the reference the device is compared with.
func newTestCPU(t testing.TB) *render.Renderer {
	t.Helper()
	r, err := render.New(overlay.BackendOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// testFont returns the label font at size px.
func testFont(t testing.TB, size int) *overlay.Font {
	t.Helper()
	f, err := overlay.NewFont(size)
	if err != nil {
		t.Fatal(err)
	}
	return f
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

// recorder is a device that remembers the launches of every graph captured on it, so that
// tests can see what the backend's graph launches, and the name of every call made on it
// (calls), so that they can see what a frame does around the graph.
type recorder struct {
	device.Device
	capturing []launch
	graphs    map[device.GraphExec][]launch
	calls     []string
}

// launch is one recorded kernel launch.
type launch struct {
	kernel string
	block  device.Dim3
}

func newRecorder(d device.Device) *recorder {
	return &recorder{Device: d, graphs: map[device.GraphExec][]launch{}}
}

func (r *recorder) BeginCapture() error {
	r.calls = append(r.calls, "BeginCapture")
	r.capturing = []launch{}
	return r.Device.BeginCapture()
}

func (r *recorder) Launch(kernel string, grid, block device.Dim3, params device.Ptr) error {
	r.calls = append(r.calls, "Launch")
	if r.capturing != nil {
		r.capturing = append(r.capturing, launch{kernel, block})
	}
	return r.Device.Launch(kernel, grid, block, params)
}

func (r *recorder) CopyIn(dst device.Ptr, src []byte) error {
	r.calls = append(r.calls, "CopyIn")
	return r.Device.CopyIn(dst, src)
}

func (r *recorder) CopyOut(dst []byte, src device.Ptr) error {
	r.calls = append(r.calls, "CopyOut")
	return r.Device.CopyOut(dst, src)
}

func (r *recorder) Zero(p device.Ptr, n int) error {
	r.calls = append(r.calls, "Zero")
	return r.Device.Zero(p, n)
}

func (r *recorder) LaunchGraph(g device.GraphExec) error {
	r.calls = append(r.calls, "LaunchGraph")
	return r.Device.LaunchGraph(g)
}

func (r *recorder) Sync() error {
	r.calls = append(r.calls, "Sync")
	return r.Device.Sync()
}

// kernels returns the kernel names of graph g, in launch order.
func (r *recorder) kernels(g device.GraphExec) []string {
	var names []string
	for _, l := range r.graphs[g] {
		names = append(names, l.kernel)
	}
	return names
}

func (r *recorder) EndCapture() (device.GraphExec, error) {
	r.calls = append(r.calls, "EndCapture")
	g, err := r.Device.EndCapture()
	if err == nil {
		r.graphs[g] = r.capturing
	}
	r.capturing = nil
	return g, err
}

func (r *recorder) FreeGraph(g device.GraphExec) {
	delete(r.graphs, g)
	r.Device.FreeGraph(g)
}

// newRecordedGPU returns a backend on a recorded, poisoned emulated device.
func newRecordedGPU(t testing.TB, timed bool) (*Backend, *recorder) {
	t.Helper()
	rec := newRecorder(device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}))
	g, err := New(rec, overlay.BackendOptions{Timed: timed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g, rec
}
