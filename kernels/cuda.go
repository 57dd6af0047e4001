//go:build cuda

package kernels

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <stdlib.h>

// Every call first makes the context current: cgo calls may run on any OS thread, and a
// CUDA context is current per thread.
static CUresult tk_cur(CUcontext c) { return cuCtxSetCurrent(c); }

static CUresult tk_launch(CUcontext c, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, CUdeviceptr params, CUstream s) {
  CUresult r = tk_cur(c);
  if (r != CUDA_SUCCESS) return r;
  void* args[] = {&params};
  return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, 0, s, args, NULL);
}

static CUresult tk_copy_in(CUcontext c, CUdeviceptr dst, const void* src, size_t n, CUstream s) {
  CUresult r = tk_cur(c);
  if (r == CUDA_SUCCESS) r = cuMemcpyHtoDAsync(dst, src, n, s);
  if (r == CUDA_SUCCESS) r = cuStreamSynchronize(s);
  return r;
}

static CUresult tk_copy_out(CUcontext c, void* dst, CUdeviceptr src, size_t n, CUstream s) {
  CUresult r = tk_cur(c);
  if (r == CUDA_SUCCESS) r = cuMemcpyDtoHAsync(dst, src, n, s);
  if (r == CUDA_SUCCESS) r = cuStreamSynchronize(s);
  return r;
}

static CUresult tk_zero(CUcontext c, CUdeviceptr p, size_t n, CUstream s) {
  CUresult r = tk_cur(c);
  if (r == CUDA_SUCCESS) r = cuMemsetD8Async(p, 0, n, s);
  if (r == CUDA_SUCCESS) r = cuStreamSynchronize(s);
  return r;
}

// Relaxed capture mode: the capture belongs to the stream, not to the OS thread that began
// it, so Go may move the goroutine between threads while it records.
static CUresult tk_begin_capture(CUcontext c, CUstream s) {
  CUresult r = tk_cur(c);
  return r == CUDA_SUCCESS ? cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED) : r;
}

static CUresult tk_end_capture(CUcontext c, CUstream s, CUgraphExec* exec) {
  CUresult r = tk_cur(c);
  if (r != CUDA_SUCCESS) return r;
  CUgraph g;
  r = cuStreamEndCapture(s, &g);
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphInstantiateWithFlags(exec, g, 0);
  cuGraphDestroy(g);
  return r;
}

static CUresult tk_elapsed(CUcontext c, CUevent a, CUevent b, float* ms) {
  CUresult r = tk_cur(c);
  if (r == CUDA_SUCCESS) r = cuEventSynchronize(b);
  if (r == CUDA_SUCCESS) r = cuEventElapsedTime(ms, a, b);
  return r;
}
*/
import "C"

import (
	_ "embed"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"trackink/render"
)

// fatbin is the kernels compiled by nvcc for sm_75 to sm_90 plus compute_90 PTX (build.sh
// writes it; it is generated, not in git).
//
//go:embed kernels.fatbin
var fatbin []byte

// CUDABuilt reports whether this binary has the CUDA backend.
const CUDABuilt = true

// CUDADevice is the Device on an NVIDIA GPU, through the CUDA driver API: one context
// (the device's primary context), one stream, the kernels' module loaded from the embedded
// fatbin.
type CUDADevice struct {
	ctx    C.CUcontext
	dev    C.CUdevice
	stream C.CUstream
	module C.CUmodule
	image  unsafe.Pointer // the fatbin in C memory, alive while the module is
	funcs  map[string]C.CUfunction
	graphs map[Graph]C.CUgraphExec
	events map[Event]C.CUevent
	next   uint64
	name   string
	closed bool
}

func cuErr(what string, r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	var name, desc *C.char
	C.cuGetErrorName(r, &name)
	C.cuGetErrorString(r, &desc)
	return fmt.Errorf("cuda: %s: %s (%s)", what, C.GoString(name), C.GoString(desc))
}

// NewCUDADevice opens GPU ordinal and loads the kernels.
func NewCUDADevice(ordinal int) (*CUDADevice, error) {
	if len(fatbin) == 0 {
		return nil, errors.New("cuda: the embedded fatbin is empty (run kernels/build.sh before go build -tags cuda)")
	}
	if err := cuErr("cuInit", C.cuInit(0)); err != nil {
		return nil, err
	}
	d := &CUDADevice{funcs: map[string]C.CUfunction{}, graphs: map[Graph]C.CUgraphExec{}, events: map[Event]C.CUevent{}}
	if err := cuErr("cuDeviceGet", C.cuDeviceGet(&d.dev, C.int(ordinal))); err != nil {
		return nil, err
	}
	var name [256]C.char
	C.cuDeviceGetName(&name[0], C.int(len(name)), d.dev)
	d.name = C.GoString(&name[0])
	if err := cuErr("cuDevicePrimaryCtxRetain", C.cuDevicePrimaryCtxRetain(&d.ctx, d.dev)); err != nil {
		return nil, err
	}
	if err := cuErr("cuCtxSetCurrent", C.tk_cur(d.ctx)); err != nil {
		d.Close()
		return nil, err
	}
	if err := cuErr("cuStreamCreate", C.cuStreamCreate(&d.stream, C.CU_STREAM_NON_BLOCKING)); err != nil {
		d.Close()
		return nil, err
	}
	// cuModuleLoadData takes the binary as is (no NUL truncation, unlike a CString).
	d.image = C.CBytes(fatbin)
	if err := cuErr("cuModuleLoadData", C.cuModuleLoadData(&d.module, d.image)); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// NewCUDA returns the CUDA backend on GPU 0.
func NewCUDA(opts render.Options) (render.Backend, error) {
	d, err := NewCUDADevice(0)
	if err != nil {
		return nil, err
	}
	g, err := New(d, opts)
	if err != nil {
		d.Close()
		return nil, err
	}
	return g, nil
}

// Name implements Device.
func (d *CUDADevice) Name() string { return d.name }

// Alloc implements Device.
func (d *CUDADevice) Alloc(n int) (Ptr, error) {
	if err := cuErr("cuCtxSetCurrent", C.tk_cur(d.ctx)); err != nil {
		return 0, err
	}
	var p C.CUdeviceptr
	if err := cuErr(fmt.Sprintf("cuMemAlloc(%d)", n), C.cuMemAlloc(&p, C.size_t(n))); err != nil {
		return 0, err
	}
	return Ptr(p), nil
}

// Free implements Device.
func (d *CUDADevice) Free(p Ptr) {
	C.tk_cur(d.ctx)
	C.cuMemFree(C.CUdeviceptr(p))
}

// Zero implements Device.
func (d *CUDADevice) Zero(p Ptr, n int) error {
	return cuErr("cuMemsetD8", C.tk_zero(d.ctx, C.CUdeviceptr(p), C.size_t(n), d.stream))
}

// CopyIn implements Device. The copy is synchronous, so src is not used after the call
// (cgo forbids C from keeping Go memory).
func (d *CUDADevice) CopyIn(dst Ptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return cuErr("cuMemcpyHtoD", C.tk_copy_in(d.ctx, C.CUdeviceptr(dst), unsafe.Pointer(&src[0]), C.size_t(len(src)), d.stream))
}

// CopyOut implements Device.
func (d *CUDADevice) CopyOut(dst []byte, src Ptr) error {
	if len(dst) == 0 {
		return nil
	}
	return cuErr("cuMemcpyDtoH", C.tk_copy_out(d.ctx, unsafe.Pointer(&dst[0]), C.CUdeviceptr(src), C.size_t(len(dst)), d.stream))
}

func (d *CUDADevice) function(name string) (C.CUfunction, error) {
	if f, ok := d.funcs[name]; ok {
		return f, nil
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var f C.CUfunction
	if err := cuErr("cuModuleGetFunction "+name, C.cuModuleGetFunction(&f, d.module, cs)); err != nil {
		return nil, err
	}
	d.funcs[name] = f
	return f, nil
}

// Launch implements Device.
func (d *CUDADevice) Launch(kernel string, grid, block Dim3, params Ptr) error {
	f, err := d.function(kernel)
	if err != nil {
		return err
	}
	return cuErr("cuLaunchKernel "+kernel, C.tk_launch(d.ctx, f, C.uint(grid.X), C.uint(grid.Y), C.uint(grid.Z),
		C.uint(block.X), C.uint(block.Y), C.uint(block.Z), C.CUdeviceptr(params), d.stream))
}

// BeginCapture implements Device.
func (d *CUDADevice) BeginCapture() error {
	return cuErr("cuStreamBeginCapture", C.tk_begin_capture(d.ctx, d.stream))
}

// EndCapture implements Device.
func (d *CUDADevice) EndCapture() (Graph, error) {
	var exec C.CUgraphExec
	if err := cuErr("cuStreamEndCapture", C.tk_end_capture(d.ctx, d.stream, &exec)); err != nil {
		return 0, err
	}
	d.next++
	d.graphs[Graph(d.next)] = exec
	return Graph(d.next), nil
}

// LaunchGraph implements Device.
func (d *CUDADevice) LaunchGraph(g Graph) error {
	exec, ok := d.graphs[g]
	if !ok {
		return fmt.Errorf("cuda: no graph %d", g)
	}
	C.tk_cur(d.ctx)
	return cuErr("cuGraphLaunch", C.cuGraphLaunch(exec, d.stream))
}

// FreeGraph implements Device.
func (d *CUDADevice) FreeGraph(g Graph) {
	if exec, ok := d.graphs[g]; ok {
		C.tk_cur(d.ctx)
		C.cuGraphExecDestroy(exec)
		delete(d.graphs, g)
	}
}

// NewEvent implements Device.
func (d *CUDADevice) NewEvent() (Event, error) {
	C.tk_cur(d.ctx)
	var e C.CUevent
	if err := cuErr("cuEventCreate", C.cuEventCreate(&e, C.CU_EVENT_DEFAULT)); err != nil {
		return 0, err
	}
	d.next++
	d.events[Event(d.next)] = e
	return Event(d.next), nil
}

// Record implements Device.
func (d *CUDADevice) Record(e Event) error {
	ev, ok := d.events[e]
	if !ok {
		return fmt.Errorf("cuda: no event %d", e)
	}
	C.tk_cur(d.ctx)
	return cuErr("cuEventRecord", C.cuEventRecord(ev, d.stream))
}

// Elapsed implements Device.
func (d *CUDADevice) Elapsed(from, to Event) (time.Duration, error) {
	var ms C.float
	if err := cuErr("cuEventElapsedTime", C.tk_elapsed(d.ctx, d.events[from], d.events[to], &ms)); err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// FreeEvent implements Device.
func (d *CUDADevice) FreeEvent(e Event) {
	if ev, ok := d.events[e]; ok {
		C.tk_cur(d.ctx)
		C.cuEventDestroy(ev)
		delete(d.events, e)
	}
}

// Sync implements Device.
func (d *CUDADevice) Sync() error {
	C.tk_cur(d.ctx)
	return cuErr("cuStreamSynchronize", C.cuStreamSynchronize(d.stream))
}

// Close implements Device.
func (d *CUDADevice) Close() {
	if d.closed {
		return
	}
	d.closed = true
	C.tk_cur(d.ctx)
	for g := range d.graphs {
		d.FreeGraph(g)
	}
	for e := range d.events {
		d.FreeEvent(e)
	}
	if d.module != nil {
		C.cuModuleUnload(d.module)
	}
	if d.image != nil {
		C.free(d.image)
	}
	if d.stream != nil {
		C.cuStreamDestroy(d.stream)
	}
	C.cuDevicePrimaryCtxRelease(d.dev)
}
