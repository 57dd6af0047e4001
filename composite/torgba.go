package composite

import (
	"encoding/binary"
	"fmt"
)

// ToRGBA converts a host frame to an opaque 8-bit RGBA frame, undoing its Y'CbCr matrix,
// range and bit depth with the inverse of its Space: the picture of a one-frame preview
// (render --frame N -o still.png from a video). Chroma is taken from the pixel's own 2×2
// block, as it was coded, without interpolation.
func ToRGBA(s Surface) (*RGBA, error) {
	var (
		sample func(x, y int) (yv, cb, cr float32)
		space  Space
	)
	switch f := s.(type) {
	case *RGBA:
		out := &RGBA{Pix: make([]byte, 4*f.W*f.H), Stride: 4 * f.W, W: f.W, H: f.H}
		for y := range f.H {
			copy(out.Pix[y*out.Stride:][:4*f.W], f.Pix[y*f.Stride:])
		}
		return out, nil
	case *YUV420P:
		space = f.Space()
		sample = func(x, y int) (float32, float32, float32) {
			c := y/2*f.StrideU + x/2
			return float32(f.Y[y*f.StrideY+x]), float32(f.U[c]), float32(f.V[y/2*f.StrideV+x/2])
		}
	case *NV12:
		space = f.Space()
		sample = func(x, y int) (float32, float32, float32) {
			c := y/2*f.StrideUV + x/2*2
			return float32(f.Y[y*f.StrideY+x]), float32(f.UV[c]), float32(f.UV[c+1])
		}
	case *YUV420P10:
		space = f.Space()
		sample = func(x, y int) (float32, float32, float32) {
			return word(f.Y[y*f.StrideY+2*x:], 0), word(f.U[y/2*f.StrideU+x/2*2:], 0), word(f.V[y/2*f.StrideV+x/2*2:], 0)
		}
	case *P010:
		space = f.Space()
		sample = func(x, y int) (float32, float32, float32) {
			c := y/2*f.StrideUV + x/2*4
			return word(f.Y[y*f.StrideY+2*x:], 6), word(f.UV[c:], 6), word(f.UV[c+2:], 6)
		}
	default:
		return nil, fmt.Errorf("composite: cannot convert a %T to RGBA here", s)
	}
	inv := invert3(space)
	w, h := s.Size()
	out := &RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
	for y := range h {
		row := out.Pix[y*out.Stride:]
		for x := range w {
			yv, cb, cr := sample(x, y)
			c := [3]float64{float64(yv - space.M[0][3]), float64(cb - space.M[1][3]), float64(cr - space.M[2][3])}
			for i := range 3 {
				v := inv[i][0]*c[0] + inv[i][1]*c[1] + inv[i][2]*c[2]
				row[4*x+i] = byte(min(max(v*255+0.5, 0), 255))
			}
			row[4*x+3] = 255
		}
	}
	return out, nil
}

// word reads the little-endian 16-bit sample at the start of p, its value shifted up by
// shift bits (P010 keeps its 10 bits high).
func word(p []byte, shift uint) float32 {
	return float32(binary.LittleEndian.Uint16(p) >> shift)
}

// invert3 returns the inverse of the 3 × 3 part of s that takes R'G'B' (0..1) to code values.
func invert3(s Space) [3][3]float64 {
	var m [3][3]float64
	for i := range 3 {
		for j := range 3 {
			m[i][j] = float64(s.M[i][j])
		}
	}
	det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	var r [3][3]float64
	for i := range 3 {
		for j := range 3 {
			// The cofactor of m[j][i], divided by the determinant.
			a, b := (j+1)%3, (j+2)%3
			c, d := (i+1)%3, (i+2)%3
			r[i][j] = (m[a][c]*m[b][d] - m[a][d]*m[b][c]) / det
		}
	}
	return r
}
