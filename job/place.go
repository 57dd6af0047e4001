package job

import (
	"errors"
	"fmt"

	"trackink/kernels/device"
	"trackink/kernels/gpu"
	"trackink/overlay"
	"trackink/render"
	"trackink/video"
)

// Placement says where a render draws its frames: Place decides it, once per run, and
// Frames where they are decoded and kept.
type Placement struct {
	// Backend is the backend that draws: cpu, cuda or emu ("auto" resolved).
	Backend string
	// Resolved, for "auto", says what it resolved to and why, for a message: "cuda", or
	// "cpu (the driver reports no CUDA device)"; "" for a backend named outright.
	Resolved string
	// New starts the backend (overlay.Options.NewBackend).
	New overlay.NewBackend
}

// Backends are the names Place takes.
var Backends = []string{"cpu", "cuda", "emu", "auto"}

// Place decides which backend draws for backend (one of Backends). probe is device.Probe,
// asked only for cuda and auto. A cuda backend this binary or machine lacks is an
// ErrOption.
func Place(backend string, probe func() device.Report) (Placement, error) {
	p := Placement{Backend: backend}
	switch backend {
	case "cpu":
		p.New = render.NewBackend
	case "emu":
		p.New = gpu.NewEmu
	case "cuda":
		r := probe()
		switch {
		case !r.Built:
			return p, badOption(errors.New("--backend cuda: this binary was built without CUDA (make build-cuda builds one)"))
		case !r.Usable():
			return p, badOption(fmt.Errorf("--backend cuda: %s", r.Problem))
		}
		p.New = gpu.NewCUDA
	case "auto":
		if r := probe(); r.Usable() {
			p.Backend, p.Resolved, p.New = "cuda", "cuda", gpu.NewCUDA
		} else {
			p.Backend, p.Resolved, p.New = "cpu", "cpu ("+r.Problem+")", render.NewBackend
		}
	default:
		return p, badOption(fmt.Errorf("--backend %q: want cpu, cuda, emu or auto", backend))
	}
	return p, nil
}

// Name is the backend as messages name it: what auto resolved to and why, or the name.
func (p Placement) Name() string {
	if p.Resolved != "" {
		return p.Resolved
	}
	return p.Backend
}

// hostPictureNote says why frames the cuda backend would keep in GPU memory are drawn in
// host memory.
const hostPictureNote = "--detect: frames are tracked and drawn in host memory (the tracker analyses the decoded planes on the CPU)"

// Frames sets o up for where p draws: the cuda backend draws on frames in GPU memory
// (o.DeviceFrames), decoded there too unless o.HWAccel says otherwise; but when the picture
// must reach the CPU (hostPicture: the built-in tracker reads host planes), frames come to
// host memory once, as for the CPU backend, and the note returned says so.
func (p Placement) Frames(o *video.Options, hostPicture bool) (note string) {
	if p.Backend != "cuda" {
		return ""
	}
	if o.HWAccel == "" {
		o.HWAccel = "auto"
	}
	if hostPicture {
		return hostPictureNote
	}
	o.DeviceFrames = true
	return ""
}
