//go:build cuda

package device

// The CUDA device: gorgonia.org/cu for the driver API it wraps (context, memory, copies,
// module, launches, streams, events), and the few calls it does not wrap (stream capture
// into a graph, graph instantiate, launch and destroy) in the cgo below.
//
// gorgonia.org/cu's package init calls cuInit and exits the process when that fails, so a
// binary built with the cuda tag needs an NVIDIA driver and a GPU to start at all (the
// default build probes for them with dlopen instead: probe.go). tk_require_driver runs the
// same check first, at load time, to say so in words a user can act on.

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void tk_require_driver(void) {
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) return;
  const char *name = "?", *desc = "?";
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &desc);
  fprintf(stderr,
          "trackink: this binary has the CUDA backend (built with -tags cuda) and cannot start without a working "
          "NVIDIA driver and GPU: cuInit: %s (%s).\n"
          "trackink: on a machine without one, use the default build (make build), which looks for CUDA at run time.\n",
          name, desc);
  exit(1);
}

// Relaxed capture mode: the capture belongs to the stream, not to the OS thread that began
// it (the Go code locks its thread per call, not across the whole capture).
static CUresult tk_begin_capture(CUstream s) { return cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED); }

static CUresult tk_end_capture(CUstream s, CUgraphExec* exec) {
  CUgraph g;
  CUresult r = cuStreamEndCapture(s, &g);
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphInstantiateWithFlags(exec, g, 0);
  cuGraphDestroy(g);
  return r;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"trackink/kernels"
)

// CUDABuilt reports whether this binary has the CUDA backend.
const CUDABuilt = true

// CUDA is the Device on an NVIDIA GPU: the device's primary context (the one FFmpeg
// uses for NVDEC when asked, so decoded frames are addressable here), one stream, and the
// kernels' module loaded from the embedded fatbin.
type CUDA struct {
	dev    cu.Device
	ctx    cu.CUContext
	stream cu.Stream
	module cu.Module
	funcs  map[string]cu.Function
	graphs map[GraphExec]C.CUgraphExec
	events map[Event]cu.Event
	legacy cu.Event // marks the legacy stream's work for AfterLegacy
	next   uint64
	name   string
	closed bool
}

func cuErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("cuda: %s: %w", what, err)
}

// cuResult names a CUresult from the calls gorgonia.org/cu does not wrap.
func cuResult(what string, r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	var name, desc *C.char
	C.cuGetErrorName(r, &name)
	C.cuGetErrorString(r, &desc)
	return fmt.Errorf("cuda: %s: %s (%s)", what, C.GoString(name), C.GoString(desc))
}

// enter pins the goroutine to its OS thread and makes the context current there: a CUDA
// context is current per thread, and Go may move a goroutine between threads between any
// two calls. The caller defers the returned unpin.
func (d *CUDA) enter() (func(), error) {
	runtime.LockOSThread()
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		runtime.UnlockOSThread()
		return nil, cuErr("cuCtxSetCurrent", err)
	}
	return runtime.UnlockOSThread, nil
}

// cstream is the stream as this file's cgo sees it (each cgo package has its own C types).
func (d *CUDA) cstream() C.CUstream { return C.CUstream(unsafe.Pointer(d.stream.C())) }

// OpenCUDA opens GPU ordinal and loads the kernels.
func OpenCUDA(ordinal int) (Device, error) {
	if len(kernels.Fatbin) == 0 {
		return nil, errors.New("cuda: the embedded fatbin is empty (run kernels/build.sh before go build -tags cuda)")
	}
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return nil, cuErr(fmt.Sprintf("cuDeviceGet(%d)", ordinal), err)
	}
	d := &CUDA{dev: dev, funcs: map[string]cu.Function{}, graphs: map[GraphExec]C.CUgraphExec{}, events: map[Event]cu.Event{}}
	if d.name, err = dev.Name(); err != nil {
		return nil, cuErr("cuDeviceGetName", err)
	}
	// FFmpeg's CUDA device (for NVDEC frames the overlay draws on) shares the primary context
	// and refuses one already active with other flags than blocking sync, which it sets
	// itself on an inactive one; set them first, whichever of the two starts first.
	if _, active, err := dev.PrimaryCtxState(); err == nil && active == 0 {
		if err := dev.SetPrimaryCtxFlags(cu.SchedBlockingSync); err != nil {
			return nil, cuErr("cuDevicePrimaryCtxSetFlags", err)
		}
	}
	if d.ctx, err = dev.RetainPrimaryCtx(); err != nil {
		return nil, cuErr("cuDevicePrimaryCtxRetain", err)
	}
	unpin, err := d.enter()
	if err != nil {
		dev.ReleasePrimaryCtx()
		return nil, err
	}
	defer unpin()
	// A non-blocking stream: a blocking one would make the legacy stream unusable while it
	// captures, and FFmpeg's decoder and encoder goroutines use the legacy stream all along.
	// Work FFmpeg queues there is waited for explicitly (AfterLegacy).
	if d.stream, err = cu.MakeStream(cu.NonBlocking); err != nil {
		d.Close()
		return nil, cuErr("cuStreamCreate", err)
	}
	if d.legacy, err = cu.MakeEvent(cu.DisableTiming); err != nil {
		d.Close()
		return nil, cuErr("cuEventCreate", err)
	}
	if d.module, err = loadFatbin(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// loadFatbin loads the embedded fatbin into the current context. cu.LoadData passes the
// image through C.CString, which copies every byte (NULs included) and adds one; the driver
// reads a fatbin's length from its header.
func loadFatbin() (cu.Module, error) {
	m, err := cu.LoadData(string(kernels.Fatbin))
	return m, cuErr("cuModuleLoadData (the kernels' fatbin; sm_75 or newer is needed)", err)
}

// Name implements Device.
func (d *CUDA) Name() string { return d.name }

// Workers implements Device: a GPU runs a launch by itself.
func (d *CUDA) Workers() int { return 1 }

// Alloc implements Device.
func (d *CUDA) Alloc(n int) (Ptr, error) {
	unpin, err := d.enter()
	if err != nil {
		return 0, err
	}
	defer unpin()
	p, err := cu.MemAlloc(int64(n))
	return Ptr(p), cuErr(fmt.Sprintf("cuMemAlloc(%d)", n), err)
}

// Free implements Device.
func (d *CUDA) Free(p Ptr) {
	if unpin, err := d.enter(); err == nil {
		cu.MemFree(cu.DevicePtr(p))
		unpin()
	}
}

// Zero implements Device.
func (d *CUDA) Zero(p Ptr, n int) error {
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	if err := cu.MemsetD8Async(cu.DevicePtr(p), 0, int64(n), d.stream); err != nil {
		return cuErr("cuMemsetD8", err)
	}
	return cuErr("cuStreamSynchronize", d.stream.Synchronize())
}

// CopyIn implements Device. The copy is complete when it returns, so src is not used after
// the call (cgo forbids C from keeping Go memory).
func (d *CUDA) CopyIn(dst Ptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	if err := cu.MemcpyHtoDAsync(cu.DevicePtr(dst), unsafe.Pointer(&src[0]), int64(len(src)), d.stream); err != nil {
		return cuErr("cuMemcpyHtoD", err)
	}
	return cuErr("cuStreamSynchronize", d.stream.Synchronize())
}

// CopyOut implements Device.
func (d *CUDA) CopyOut(dst []byte, src Ptr) error {
	if len(dst) == 0 {
		return nil
	}
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	if err := cu.MemcpyDtoHAsync(unsafe.Pointer(&dst[0]), cu.DevicePtr(src), int64(len(dst)), d.stream); err != nil {
		return cuErr("cuMemcpyDtoH", err)
	}
	return cuErr("cuStreamSynchronize", d.stream.Synchronize())
}

// Launch implements Device. gorgonia.org/cu copies each kernel argument as 8 bytes, which
// is what every kernel takes: the parameter block's address.
func (d *CUDA) Launch(kernel string, grid, block Dim3, params Ptr) error {
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	f, ok := d.funcs[kernel]
	if !ok {
		if f, err = d.module.Function(kernel); err != nil {
			return cuErr("cuModuleGetFunction "+kernel, err)
		}
		d.funcs[kernel] = f
	}
	arg := uint64(params)
	err = f.Launch(int(grid.X), int(grid.Y), int(grid.Z), int(block.X), int(block.Y), int(block.Z), 0, d.stream,
		[]unsafe.Pointer{unsafe.Pointer(&arg)})
	if err != nil {
		// Named only on failure: building the name for every launch allocated on every one.
		return cuErr("cuLaunchKernel "+kernel, err)
	}
	return nil
}

// BeginCapture implements Device.
func (d *CUDA) BeginCapture() error {
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	return cuResult("cuStreamBeginCapture", C.tk_begin_capture(d.cstream()))
}

// EndCapture implements Device.
func (d *CUDA) EndCapture() (GraphExec, error) {
	unpin, err := d.enter()
	if err != nil {
		return 0, err
	}
	defer unpin()
	var exec C.CUgraphExec
	if err := cuResult("cuStreamEndCapture", C.tk_end_capture(d.cstream(), &exec)); err != nil {
		return 0, err
	}
	d.next++
	d.graphs[GraphExec(d.next)] = exec
	return GraphExec(d.next), nil
}

// LaunchGraph implements Device.
func (d *CUDA) LaunchGraph(g GraphExec) error {
	exec, ok := d.graphs[g]
	if !ok {
		return fmt.Errorf("cuda: no graph %d", g)
	}
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	return cuResult("cuGraphLaunch", C.cuGraphLaunch(exec, d.cstream()))
}

// FreeGraph implements Device.
func (d *CUDA) FreeGraph(g GraphExec) {
	exec, ok := d.graphs[g]
	if !ok {
		return
	}
	delete(d.graphs, g)
	if unpin, err := d.enter(); err == nil {
		C.cuGraphExecDestroy(exec)
		unpin()
	}
}

// NewEvent implements Device.
func (d *CUDA) NewEvent() (Event, error) {
	unpin, err := d.enter()
	if err != nil {
		return 0, err
	}
	defer unpin()
	e, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		return 0, cuErr("cuEventCreate", err)
	}
	d.next++
	d.events[Event(d.next)] = e
	return Event(d.next), nil
}

// Record implements Device.
func (d *CUDA) Record(e Event) error {
	ev, ok := d.events[e]
	if !ok {
		return fmt.Errorf("cuda: no event %d", e)
	}
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	return cuErr("cuEventRecord", ev.Record(d.stream))
}

// Elapsed implements Device.
func (d *CUDA) Elapsed(from, to Event) (time.Duration, error) {
	a, okA := d.events[from]
	b, okB := d.events[to]
	if !okA || !okB {
		return 0, fmt.Errorf("cuda: no events %d, %d", from, to)
	}
	unpin, err := d.enter()
	if err != nil {
		return 0, err
	}
	defer unpin()
	if err := b.Synchronize(); err != nil {
		return 0, cuErr("cuEventSynchronize", err)
	}
	ms, err := a.Elapsed(b)
	return time.Duration(ms * float64(time.Millisecond)), cuErr("cuEventElapsedTime", err)
}

// FreeEvent implements Device.
func (d *CUDA) FreeEvent(e Event) {
	ev, ok := d.events[e]
	if !ok {
		return
	}
	delete(d.events, e)
	if unpin, err := d.enter(); err == nil {
		cu.DestroyEvent(&ev)
		unpin()
	}
}

// Sync implements Device.
func (d *CUDA) Sync() error {
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	return cuErr("cuStreamSynchronize", d.stream.Synchronize())
}

// AfterLegacy implements Device: an event recorded on the legacy stream (the zero Stream),
// which the stream waits for on the device.
func (d *CUDA) AfterLegacy() error {
	unpin, err := d.enter()
	if err != nil {
		return err
	}
	defer unpin()
	if err := d.legacy.Record(cu.Stream{}); err != nil {
		return cuErr("cuEventRecord (legacy stream)", err)
	}
	return cuErr("cuStreamWaitEvent", d.stream.Wait(d.legacy, 0))
}

// Close implements Device.
func (d *CUDA) Close() {
	if d.closed {
		return
	}
	d.closed = true
	for g := range d.graphs {
		d.FreeGraph(g)
	}
	for e := range d.events {
		d.FreeEvent(e)
	}
	if unpin, err := d.enter(); err == nil {
		d.close()
		unpin()
	}
	d.dev.ReleasePrimaryCtx()
}

// close releases the module, event and stream; the context is current.
func (d *CUDA) close() {
	var noEvent cu.Event
	if d.legacy != noEvent {
		cu.DestroyEvent(&d.legacy)
	}
	var none cu.Module
	if d.module != none {
		d.module.Unload()
	}
	var noStream cu.Stream
	if d.stream != noStream {
		d.stream.Destroy()
	}
}
