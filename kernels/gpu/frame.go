package gpu

import (
	"fmt"

	"trackink/composite"
	"trackink/kernels/device"
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
	var hf frameDesc
	switch fr := f.(type) {
	case *composite.DeviceNV12:
		if err := fr.Check(); err != nil {
			return hf, err
		}
		hf = frameDesc{format: formatNV12, w: fr.W, h: fr.H, space: fr.Space()}
		hf.devicePlanes[0], hf.strides[0] = device.Ptr(fr.Y), fr.StrideY
		hf.devicePlanes[1], hf.strides[1] = device.Ptr(fr.UV), fr.StrideUV
	case *composite.RGBA:
		if err := fr.Check(); err != nil {
			return hf, err
		}
		hf = frameDesc{format: formatRGBA, w: fr.W, h: fr.H, space: fr.Space()}
		hf.planes[0], hf.strides[0] = span(fr.Pix, fr.Stride, 4*fr.W, fr.H), fr.Stride
	case *composite.YUV420P:
		if err := fr.Check(); err != nil {
			return hf, err
		}
		cw, ch := (fr.W+1)/2, (fr.H+1)/2
		hf = frameDesc{format: formatYUV420P, w: fr.W, h: fr.H, space: fr.Space()}
		hf.planes[0], hf.strides[0] = span(fr.Y, fr.StrideY, fr.W, fr.H), fr.StrideY
		hf.planes[1], hf.strides[1] = span(fr.U, fr.StrideU, cw, ch), fr.StrideU
		hf.planes[2], hf.strides[2] = span(fr.V, fr.StrideV, cw, ch), fr.StrideV
	case *composite.NV12:
		if err := fr.Check(); err != nil {
			return hf, err
		}
		cw, ch := (fr.W+1)/2, (fr.H+1)/2
		hf = frameDesc{format: formatNV12, w: fr.W, h: fr.H, space: fr.Space()}
		hf.planes[0], hf.strides[0] = span(fr.Y, fr.StrideY, fr.W, fr.H), fr.StrideY
		hf.planes[1], hf.strides[1] = span(fr.UV, fr.StrideUV, 2*cw, ch), fr.StrideUV
	default:
		return hf, fmt.Errorf("gpu: frame type %T is not supported (RGBA, YUV420P, NV12 are)", f)
	}
	if hf.w <= 0 || hf.h <= 0 {
		return hf, fmt.Errorf("gpu: frame size %dx%d", hf.w, hf.h)
	}
	return hf, nil
}

// span returns the bytes of a plane from its first pixel to its last.
func span(p []byte, stride, rowBytes, rows int) []byte {
	if rows == 0 || rowBytes == 0 {
		return nil
	}
	return p[:stride*(rows-1)+rowBytes]
}
