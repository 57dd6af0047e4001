package kernels

import (
	"fmt"

	"trackink/composite"
)

// frameDesc is a frame as the device sees it: its format, size, and its planes. A host
// frame's planes are bytes from the first pixel to the last (the rows with the host's
// stride between them), copied in before a draw and back out after; a device frame's are
// addresses the composite writes in place.
type frameDesc struct {
	format  int32
	w, h    int
	planes  [3][]byte
	device  [3]Ptr // planes in device memory; zero for a host frame
	strides [3]int
	coeffs  coeffs
}

// onDevice reports whether the frame is in device memory.
func (fd *frameDesc) onDevice() bool { return fd.device[0] != 0 }

func describe(f composite.Frame) (frameDesc, error) {
	var hf frameDesc
	switch fr := f.(type) {
	case *composite.DeviceNV12:
		if err := fr.Check(); err != nil {
			return hf, err
		}
		hf = frameDesc{format: formatNV12, w: fr.W, h: fr.H, coeffs: coeffsFor(fr.Matrix, fr.Range)}
		hf.device[0], hf.strides[0] = Ptr(fr.Y), fr.StrideY
		hf.device[1], hf.strides[1] = Ptr(fr.UV), fr.StrideUV
	case *composite.RGBA:
		if err := fr.Check(); err != nil {
			return hf, err
		}
		hf = frameDesc{format: formatRGBA, w: fr.W, h: fr.H}
		hf.planes[0], hf.strides[0] = span(fr.Pix, fr.Stride, 4*fr.W, fr.H), fr.Stride
	case *composite.YUV420P:
		if err := fr.Check(); err != nil {
			return hf, err
		}
		cw, ch := (fr.W+1)/2, (fr.H+1)/2
		hf = frameDesc{format: formatYUV420P, w: fr.W, h: fr.H, coeffs: coeffsFor(fr.Matrix, fr.Range)}
		hf.planes[0], hf.strides[0] = span(fr.Y, fr.StrideY, fr.W, fr.H), fr.StrideY
		hf.planes[1], hf.strides[1] = span(fr.U, fr.StrideU, cw, ch), fr.StrideU
		hf.planes[2], hf.strides[2] = span(fr.V, fr.StrideV, cw, ch), fr.StrideV
	case *composite.NV12:
		if err := fr.Check(); err != nil {
			return hf, err
		}
		cw, ch := (fr.W+1)/2, (fr.H+1)/2
		hf = frameDesc{format: formatNV12, w: fr.W, h: fr.H, coeffs: coeffsFor(fr.Matrix, fr.Range)}
		hf.planes[0], hf.strides[0] = span(fr.Y, fr.StrideY, fr.W, fr.H), fr.StrideY
		hf.planes[1], hf.strides[1] = span(fr.UV, fr.StrideUV, 2*cw, ch), fr.StrideUV
	default:
		return hf, fmt.Errorf("kernels: frame type %T is not supported (RGBA, YUV420P, NV12 are)", f)
	}
	if hf.w <= 0 || hf.h <= 0 {
		return hf, fmt.Errorf("kernels: frame size %dx%d", hf.w, hf.h)
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

// coeffs are composite's Y'CbCr coefficients scaled to 16.16, as overLuma and overChroma
// use them. coeffsFor repeats composite.coeffsFor's float32 arithmetic (that function is
// unexported); the YUV property tests compare the device's bytes with the CPU's, so a
// change on either side shows.
type coeffs struct {
	yOff, yR, yG, yB, cbR, cbG, cbB, crR, crG, crB float32
}

func coeffsFor(m composite.Matrix, r composite.Range) coeffs {
	kr, kb := float32(0.2126), float32(0.0722)
	if m == composite.BT601 {
		kr, kb = 0.299, 0.114
	}
	kg := 1 - kr - kb
	sy, sc, off := float32(219), float32(224), float32(16)
	if r == composite.Full {
		sy, sc, off = 255, 255, 0
	}
	pb, pr := sc/(2*(1-kb)), sc/(2*(1-kr))
	const one = 1 << 16
	return coeffs{
		yOff: off * one,
		yR:   sy * kr * one, yG: sy * kg * one, yB: sy * kb * one,
		cbR: -kr * pb * one, cbG: -kg * pb * one, cbB: (1 - kb) * pb * one,
		crR: (1 - kr) * pr * one, crG: -kg * pr * one, crB: -kb * pr * one,
	}
}
