package device

/*
#cgo CXXFLAGS: -std=c++17 -O2 -Wall
#cgo LDFLAGS: -lstdc++ -lm
#include <stdlib.h>
#include <string.h>
#include "emu.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"time"
	"unsafe"

	// The kernel sources emu.cc compiles live in package kernels; importing it makes this
	// package rebuild when they change (kernels/sources.go).
	_ "trackink/kernels"
)

// EmuOptions configure the emulated device.
type EmuOptions struct {
	// Workers is the number of host threads a launch spreads its blocks over; 0 means one
	// per CPU.
	Workers int
	// Poison fills new allocations with 0xFF bytes (NaN as FP16 and FP32, -1 as int32)
	// instead of leaving them as malloc returns them, so that a kernel or host path that
	// reads memory nobody wrote shows up in the picture.
	Poison bool
	// Reverse runs every launch's blocks, and each block's threads, in descending order:
	// another schedule a GPU may choose, for tests that hold a kernel's results to be the
	// same under any thread order.
	Reverse bool
}

// paramsSize is the bytes a launch reads at its parameter block (layout.h's TkParams).
var paramsSize = int(C.tk_emu_params_size())

// Emu runs the kernel sources on the CPU (emu.cc) behind the Device interface. Memory
// is C heap, so kernels hold plain pointers; every copy and launch parameter is checked
// against the live allocations, which CUDA does not do, so that out-of-bounds host code
// fails here first.
type Emu struct {
	opts      EmuOptions
	allocs    map[Ptr]emuAlloc // by base address
	kernels   map[string]C.int
	capturing bool
	recorded  []emuOp
	graphs    map[GraphExec][]emuOp
	nextGraph GraphExec
	events    map[Event]time.Time
	nextEvent Event
	closed    bool
}

// emuAlloc is one allocation: C heap memory.
type emuAlloc struct {
	p    unsafe.Pointer
	size int
}

// emuOp is one recorded operation of a graph: a launch, or an event record.
type emuOp struct {
	kernel      string
	grid, block Dim3
	params      Ptr
	event       Event // when kernel is ""
}

// NewEmu returns an emulated device.
func NewEmu(o EmuOptions) *Emu {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	d := &Emu{opts: o, allocs: map[Ptr]emuAlloc{}, kernels: map[string]C.int{},
		graphs: map[GraphExec][]emuOp{}, events: map[Event]time.Time{}}
	for i := C.int(0); i < C.tk_emu_kernels(); i++ {
		d.kernels[C.GoString(C.tk_emu_kernel_name(i))] = i
	}
	return d
}

// Name implements Device.
func (d *Emu) Name() string {
	return fmt.Sprintf("emulated device (%d host threads)", d.opts.Workers)
}

// Workers implements Device: the number of host threads a launch uses.
func (d *Emu) Workers() int { return d.opts.Workers }

// Alloc implements Device.
func (d *Emu) Alloc(n int) (Ptr, error) {
	if n <= 0 {
		return 0, fmt.Errorf("emu: alloc of %d bytes", n)
	}
	p := C.malloc(C.size_t(n))
	if p == nil {
		return 0, fmt.Errorf("emu: out of memory for %d bytes", n)
	}
	fill := 0
	if d.opts.Poison {
		fill = 0xFF
	}
	C.memset(p, C.int(fill), C.size_t(n))
	ptr := Ptr(uintptr(p))
	d.allocs[ptr] = emuAlloc{p, n}
	return ptr, nil
}

// Free implements Device.
func (d *Emu) Free(p Ptr) {
	if a, ok := d.allocs[p]; ok {
		delete(d.allocs, p)
		C.free(a.p)
	}
}

// at returns the host address of device range [p, p+n), which must lie inside one
// allocation.
func (d *Emu) at(p Ptr, n int) (unsafe.Pointer, error) {
	for base, a := range d.allocs {
		if p >= base && uint64(p)+uint64(n) <= uint64(base)+uint64(a.size) {
			return unsafe.Add(a.p, int(p-base)), nil
		}
	}
	return nil, fmt.Errorf("emu: %d bytes at %#x are not inside one allocation", n, uint64(p))
}

// Zero implements Device.
func (d *Emu) Zero(p Ptr, n int) error {
	if d.capturing {
		return errors.New("emu: Zero during capture")
	}
	a, err := d.at(p, n)
	if err != nil {
		return err
	}
	C.memset(a, 0, C.size_t(n))
	return nil
}

// CopyIn implements Device.
func (d *Emu) CopyIn(dst Ptr, src []byte) error {
	if d.capturing {
		return errors.New("emu: host-to-device copy during capture (CUDA cannot capture pageable copies)")
	}
	if len(src) == 0 {
		return nil
	}
	a, err := d.at(dst, len(src))
	if err != nil {
		return err
	}
	hostCopy(a, unsafe.Pointer(&src[0]), len(src))
	return nil
}

// CopyOut implements Device.
func (d *Emu) CopyOut(dst []byte, src Ptr) error {
	if d.capturing {
		return errors.New("emu: device-to-host copy during capture (CUDA cannot capture pageable copies)")
	}
	if len(dst) == 0 {
		return nil
	}
	a, err := d.at(src, len(dst))
	if err != nil {
		return err
	}
	hostCopy(unsafe.Pointer(&dst[0]), a, len(dst))
	return nil
}

// hostCopy hands a copy to C the way gorgonia.org/cu's copies do: as plain unsafe.Pointer
// values, which cgo checks by scanning the whole Go object they point into. Host memory
// inside an object that holds Go pointers then fails here ("Go pointer to unpinned Go
// pointer") as it would with the CUDA device, not only on a GPU.
func hostCopy(dst, src unsafe.Pointer, n int) { C.memcpy(dst, src, C.size_t(n)) }

// Launch implements Device.
func (d *Emu) Launch(kernel string, grid, block Dim3, params Ptr) error {
	if _, ok := d.kernels[kernel]; !ok {
		return fmt.Errorf("emu: no kernel %q", kernel)
	}
	if _, err := d.at(params, paramsSize); err != nil {
		return fmt.Errorf("emu: %s: parameter block: %w", kernel, err)
	}
	if block.X*block.Y*block.Z > 1024 {
		return fmt.Errorf("emu: %s: block of %d threads (CUDA allows 1024)", kernel, block.X*block.Y*block.Z)
	}
	op := emuOp{kernel: kernel, grid: grid, block: block, params: params}
	if d.capturing {
		d.recorded = append(d.recorded, op)
		return nil
	}
	return d.run(op)
}

func (d *Emu) run(op emuOp) error {
	if op.kernel == "" {
		d.events[op.event] = time.Now()
		return nil
	}
	g, b := op.grid, op.block
	params, err := d.at(op.params, paramsSize)
	if err != nil {
		return err
	}
	reverse := C.int(0)
	if d.opts.Reverse {
		reverse = 1
	}
	if C.tk_emu_launch(d.kernels[op.kernel], C.uint(g.X), C.uint(g.Y), C.uint(g.Z), C.uint(b.X), C.uint(b.Y), C.uint(b.Z),
		params, C.int(d.opts.Workers), reverse) != 0 {
		return fmt.Errorf("emu: launch of %s with grid %v block %v failed", op.kernel, g, b)
	}
	return nil
}

// BeginCapture implements Device.
func (d *Emu) BeginCapture() error {
	if d.capturing {
		return errors.New("emu: capture already begun")
	}
	d.capturing, d.recorded = true, nil
	return nil
}

// EndCapture implements Device.
func (d *Emu) EndCapture() (GraphExec, error) {
	if !d.capturing {
		return 0, errors.New("emu: EndCapture without BeginCapture")
	}
	d.capturing = false
	d.nextGraph++
	d.graphs[d.nextGraph] = d.recorded
	d.recorded = nil
	return d.nextGraph, nil
}

// LaunchGraph implements Device.
func (d *Emu) LaunchGraph(g GraphExec) error {
	ops, ok := d.graphs[g]
	if !ok {
		return fmt.Errorf("emu: no graph %d", g)
	}
	if d.capturing {
		return errors.New("emu: graph launch during capture")
	}
	for _, op := range ops {
		if err := d.run(op); err != nil {
			return err
		}
	}
	return nil
}

// FreeGraph implements Device.
func (d *Emu) FreeGraph(g GraphExec) { delete(d.graphs, g) }

// NewEvent implements Device.
func (d *Emu) NewEvent() (Event, error) {
	d.nextEvent++
	d.events[d.nextEvent] = time.Time{}
	return d.nextEvent, nil
}

// Record implements Device.
func (d *Emu) Record(e Event) error {
	if _, ok := d.events[e]; !ok {
		return fmt.Errorf("emu: no event %d", e)
	}
	if d.capturing {
		// CUDA would make it a captured event, which cannot be timed or waited for.
		return errors.New("emu: event recorded during capture (CUDA cannot time it: CUDA_ERROR_CAPTURED_EVENT)")
	}
	return d.run(emuOp{event: e})
}

// Elapsed implements Device.
func (d *Emu) Elapsed(from, to Event) (time.Duration, error) {
	a, b := d.events[from], d.events[to]
	if a.IsZero() || b.IsZero() {
		return 0, errors.New("emu: event not recorded")
	}
	return b.Sub(a), nil
}

// FreeEvent implements Device.
func (d *Emu) FreeEvent(e Event) { delete(d.events, e) }

// Sync implements Device: the emulated stream runs each operation when it is queued.
func (d *Emu) Sync() error {
	if d.capturing {
		return errors.New("emu: Sync during capture")
	}
	return nil
}

// AfterLegacy implements Device: the emulated device has no other streams, and all its work
// is done when a call returns.
func (d *Emu) AfterLegacy() error {
	if d.capturing {
		return errors.New("emu: AfterLegacy during capture")
	}
	return nil
}

// Close implements Device: it frees all memory.
func (d *Emu) Close() {
	if d.closed {
		return
	}
	d.closed = true
	ptrs := make([]Ptr, 0, len(d.allocs))
	for p := range d.allocs {
		ptrs = append(ptrs, p)
	}
	sort.Slice(ptrs, func(i, j int) bool { return ptrs[i] < ptrs[j] })
	for _, p := range ptrs {
		d.Free(p)
	}
}
