package job

import (
	"errors"
	"reflect"
	"testing"

	"trackink/kernels/device"
	"trackink/kernels/gpu"
	"trackink/render"
	"trackink/video"
)

// TestPlace is the one table of where frames are drawn, decoded and kept: for each backend
// asked for, each machine (no CUDA build; a build without a usable device; a usable one),
// the decoding asked for and whether the tracker needs the picture on the CPU.
func TestPlace(t *testing.T) {
	notBuilt := device.Report{Problem: "this binary was built without CUDA (-tags cuda)"}
	noDevice := device.Report{Built: true, Driver: true, Problem: "the driver reports no CUDA device"}
	usable := device.Report{Built: true, Driver: true, Devices: []device.GPUInfo{{Name: "H100", Major: 9}}}
	cpu, cuda, emu := reflect.ValueOf(render.NewBackend).Pointer(), reflect.ValueOf(gpu.NewCUDA).Pointer(), reflect.ValueOf(gpu.NewEmu).Pointer()
	for _, tc := range []struct {
		name          string
		backend       string
		machine       device.Report
		hwaccel       string
		hostPicture   bool
		err           bool
		want          string // the backend that draws
		newBackend    uintptr
		message       string // Name
		deviceFrames  bool
		wantHWAccel   string
		wantHostNote  bool
		probeExpected bool
	}{
		{name: "cpu", backend: "cpu", machine: usable, want: "cpu", newBackend: cpu, message: "cpu"},
		{name: "emu", backend: "emu", machine: usable, want: "emu", newBackend: emu, message: "emu"},
		{name: "cuda, not built", backend: "cuda", machine: notBuilt, err: true, probeExpected: true},
		{name: "cuda, no device", backend: "cuda", machine: noDevice, err: true, probeExpected: true},
		{name: "cuda", backend: "cuda", machine: usable, want: "cuda", newBackend: cuda, message: "cuda",
			deviceFrames: true, wantHWAccel: "auto", probeExpected: true},
		{name: "cuda, software decoding asked for", backend: "cuda", machine: usable, hwaccel: "none", want: "cuda", newBackend: cuda,
			message: "cuda", deviceFrames: true, wantHWAccel: "none", probeExpected: true},
		{name: "cuda, the tracker reads the picture", backend: "cuda", machine: usable, hostPicture: true, want: "cuda", newBackend: cuda,
			message: "cuda", wantHWAccel: "auto", wantHostNote: true, probeExpected: true},
		{name: "auto, usable", backend: "auto", machine: usable, want: "cuda", newBackend: cuda, message: "cuda",
			deviceFrames: true, wantHWAccel: "auto", probeExpected: true},
		{name: "auto, no device", backend: "auto", machine: noDevice, want: "cpu", newBackend: cpu,
			message: "cpu (the driver reports no CUDA device)", probeExpected: true},
		{name: "auto, not built", backend: "auto", machine: notBuilt, want: "cpu", newBackend: cpu,
			message: "cpu (this binary was built without CUDA (-tags cuda))", probeExpected: true},
		{name: "unknown", backend: "gpu", machine: usable, err: true},
	} {
		probed := false
		p, err := Place(tc.backend, func() device.Report { probed = true; return tc.machine })
		if probed != tc.probeExpected {
			t.Errorf("%s: probed %v, want %v (the probe loads the driver: only cuda and auto need it)", tc.name, probed, tc.probeExpected)
		}
		if tc.err {
			if !errors.Is(err, ErrOption) {
				t.Errorf("%s: error %v, want an ErrOption", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if p.Backend != tc.want || reflect.ValueOf(p.New).Pointer() != tc.newBackend || p.Name() != tc.message {
			t.Errorf("%s: backend %s, name %q; want %s, %q, and its constructor", tc.name, p.Backend, p.Name(), tc.want, tc.message)
		}
		vo := video.Options{HWAccel: tc.hwaccel}
		note := p.Frames(&vo, tc.hostPicture)
		if vo.DeviceFrames != tc.deviceFrames || vo.HWAccel != tc.wantHWAccel || (note != "") != tc.wantHostNote {
			t.Errorf("%s: device frames %v, hwaccel %q, note %q; want %v, %q, a note: %v",
				tc.name, vo.DeviceFrames, vo.HWAccel, note, tc.deviceFrames, tc.wantHWAccel, tc.wantHostNote)
		}
	}
}
