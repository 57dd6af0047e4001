package gpu

import (
	"bytes"
	"errors"
	"fmt"

	"trackink/composite"
	"trackink/kernels/device"
	"trackink/overlay"
)

// frameDesc is a frame as the device sees it: its format, size, and its planes. A host
// frame's planes are bytes from the first pixel to the last (the rows with the host's
// stride between them), copied in before a draw and back out after; a device frame's are
// addresses the composite writes in place.
type frameDesc struct {
	format       int32
	w, h         int
	planes       [3][]byte
	devicePlanes [3]device.Ptr // planes in device memory; zero for a host frame
	strides      [3]int
	space        composite.Space // the layer's
}

// onDevice reports whether the frame is in device memory.
func (fd *frameDesc) onDevice() bool { return fd.devicePlanes[0] != 0 }

func describe(f composite.Surface) (frameDesc, error) {
	if c, ok := f.(interface{ Check() error }); ok {
		if err := c.Check(); err != nil {
			return frameDesc{}, err
		}
	}
	var hf frameDesc
	switch fr := f.(type) {
	case *composite.DeviceNV12:
		hf = frameDesc{format: formatNV12, w: fr.W, h: fr.H, space: fr.Space()}
		hf.devicePlanes[0], hf.strides[0] = device.Ptr(fr.Y), fr.StrideY
		hf.devicePlanes[1], hf.strides[1] = device.Ptr(fr.UV), fr.StrideUV
	case *composite.RGBA:
		hf = frameDesc{format: formatRGBA, w: fr.W, h: fr.H, space: fr.Space()}
		hf.planes[0], hf.strides[0] = span(fr.Pix, fr.Stride, 4*fr.W, fr.H), fr.Stride
	case *composite.YUV420P:
		hf = hostYCbCr(formatYUV420P, fr, 1, [][]byte{fr.Y, fr.U, fr.V}, []int{fr.StrideY, fr.StrideU, fr.StrideV})
	case *composite.NV12:
		hf = hostYCbCr(formatNV12, fr, 1, [][]byte{fr.Y, fr.UV}, []int{fr.StrideY, fr.StrideUV})
	case *composite.YUV420P10:
		hf = hostYCbCr(formatYUV420P10, fr, 2, [][]byte{fr.Y, fr.U, fr.V}, []int{fr.StrideY, fr.StrideU, fr.StrideV})
	case *composite.P010:
		hf = hostYCbCr(formatP010, fr, 2, [][]byte{fr.Y, fr.UV}, []int{fr.StrideY, fr.StrideUV})
	default:
		return hf, fmt.Errorf("gpu: frame type %T is not supported (RGBA, YUV420P, NV12, YUV420P10, P010 are)", f)
	}
	if hf.w <= 0 || hf.h <= 0 {
		return hf, fmt.Errorf("gpu: frame size %dx%d", hf.w, hf.h)
	}
	return hf, nil
}

// hostYCbCr describes a 4:2:0 host frame of size bytes a sample: luma, then two chroma planes
// or one interleaved CbCr plane.
func hostYCbCr(format int32, f composite.HostSurface, size int, planes [][]byte, strides []int) frameDesc {
	w, h := f.Size()
	cw, ch := (w+1)/2*size, (h+1)/2
	if len(planes) == 2 {
		cw *= 2
	}
	hf := frameDesc{format: format, w: w, h: h, space: f.Space()}
	hf.planes[0], hf.strides[0] = span(planes[0], strides[0], w*size, h), strides[0]
	for i := 1; i < len(planes); i++ {
		hf.planes[i], hf.strides[i] = span(planes[i], strides[i], cw, ch), strides[i]
	}
	return hf
}

// span returns the bytes of a plane from its first pixel to its last.
func span(p []byte, stride, rowBytes, rows int) []byte {
	if rows == 0 || rowBytes == 0 {
		return nil
	}
	return p[:stride*(rows-1)+rowBytes]
}

// The benchmark's device frames (trackink bench --format device).
var _ overlay.DeviceFrames = (*Backend)(nil)

// NewDeviceNV12 implements overlay.DeviceFrames: a w × h NV12 frame in the backend's device
// memory, every luma sample y and chroma sample c, its rows packed (the pitch w, rounded up
// to even for the interleaved chroma), as trackink bench --format device draws on.
func (g *Backend) NewDeviceNV12(w, h int, y, c byte) (*composite.DeviceNV12, error) {
	if g.dev == nil {
		return nil, errors.New("gpu: NewDeviceNV12 after Close")
	}
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("gpu: device frame size %dx%d", w, h)
	}
	pitch := (w + 1) &^ 1
	f := &composite.DeviceNV12{StrideY: pitch, StrideUV: pitch, W: w, H: h}
	for _, pl := range []struct {
		addr *uint64
		n    int
		v    byte
	}{{&f.Y, pitch * h, y}, {&f.UV, pitch * ((h + 1) / 2), c}} {
		p, err := g.dev.Alloc(pl.n)
		if err == nil {
			*pl.addr = uint64(p)
			err = g.dev.CopyIn(p, bytes.Repeat([]byte{pl.v}, pl.n))
		}
		if err != nil {
			g.FreeDeviceNV12(f)
			return nil, err
		}
	}
	return f, nil
}

// ReadDeviceNV12 implements overlay.DeviceFrames: f's planes, copied to host memory.
func (g *Backend) ReadDeviceNV12(f *composite.DeviceNV12) (y, uv []byte, err error) {
	if g.dev == nil {
		return nil, nil, errors.New("gpu: ReadDeviceNV12 after Close")
	}
	y, uv = make([]byte, f.StrideY*f.H), make([]byte, f.StrideUV*((f.H+1)/2))
	if err := g.dev.CopyOut(y, device.Ptr(f.Y)); err != nil {
		return nil, nil, err
	}
	if err := g.dev.CopyOut(uv, device.Ptr(f.UV)); err != nil {
		return nil, nil, err
	}
	return y, uv, nil
}

// FreeDeviceNV12 implements overlay.DeviceFrames: it frees a frame of NewDeviceNV12's (the
// planes it allocated; before Close).
func (g *Backend) FreeDeviceNV12(f *composite.DeviceNV12) {
	if g.dev == nil {
		return
	}
	for _, p := range []*uint64{&f.Y, &f.UV} {
		if *p != 0 {
			g.dev.Free(device.Ptr(*p))
			*p = 0
		}
	}
}
