package tracker

import (
	"fmt"

	"trackink/composite"
)

// plane is an 8-bit image, row after row without padding.
type plane struct {
	w, h int
	pix  []byte
}

func (p *plane) resize(w, h int) {
	p.w, p.h = w, h
	p.pix = grow(p.pix, w*h)
}

// grow returns s with length n, reusing its array when it is big enough, else a new one
// with room to spare, so that sizes that vary from frame to frame (regions, tracks) stop
// allocating after a few frames.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, max(n, 2*cap(s)))
}

// analysisFactor is the largest whole factor that keeps at least size lines of h (1 when h
// is not taller than size).
func analysisFactor(h, size int) int { return max(1, h/size) }

// source is one decoded plane as composite holds it: 8-bit samples, or 16-bit little-endian
// ones whose value is shifted into 8 bits (10-bit planar: low bits; P010: high bits), with
// step samples between neighbours (2 for one channel of an interleaved CbCr plane).
type source struct {
	pix          []byte
	stride, w, h int
	wide         bool // two bytes a sample
	shift        uint // right shift from a 16-bit sample to 8 bits
	step, offset int  // in samples
}

func (s source) at(x, y int) int {
	i := (x*s.step + s.offset)
	if s.wide {
		o := y*s.stride + 2*i
		return int(uint16(s.pix[o])|uint16(s.pix[o+1])<<8) >> s.shift
	}
	return int(s.pix[y*s.stride+i])
}

// matrixRange is a host frame's Y'CbCr matrix and range.
func matrixRange(s composite.Surface) (composite.Matrix, composite.Range) {
	switch f := s.(type) {
	case *composite.YUV420P:
		return f.Matrix, f.Range
	case *composite.NV12:
		return f.Matrix, f.Range
	case *composite.YUV420P10:
		return f.Matrix, f.Range
	case *composite.P010:
		return f.Matrix, f.Range
	}
	return composite.BT709, composite.Limited
}

// planes returns the luma plane and the two chroma planes of a host frame.
func planes(s composite.Surface) (y, cb, cr source, err error) {
	switch f := s.(type) {
	case *composite.YUV420P:
		cw, ch := (f.W+1)/2, (f.H+1)/2
		return source{pix: f.Y, stride: f.StrideY, w: f.W, h: f.H, step: 1},
			source{pix: f.U, stride: f.StrideU, w: cw, h: ch, step: 1},
			source{pix: f.V, stride: f.StrideV, w: cw, h: ch, step: 1}, nil
	case *composite.NV12:
		cw, ch := (f.W+1)/2, (f.H+1)/2
		return source{pix: f.Y, stride: f.StrideY, w: f.W, h: f.H, step: 1},
			source{pix: f.UV, stride: f.StrideUV, w: cw, h: ch, step: 2},
			source{pix: f.UV, stride: f.StrideUV, w: cw, h: ch, step: 2, offset: 1}, nil
	case *composite.YUV420P10:
		cw, ch := (f.W+1)/2, (f.H+1)/2
		return source{pix: f.Y, stride: f.StrideY, w: f.W, h: f.H, step: 1, wide: true, shift: 2},
			source{pix: f.U, stride: f.StrideU, w: cw, h: ch, step: 1, wide: true, shift: 2},
			source{pix: f.V, stride: f.StrideV, w: cw, h: ch, step: 1, wide: true, shift: 2}, nil
	case *composite.P010:
		cw, ch := (f.W+1)/2, (f.H+1)/2
		return source{pix: f.Y, stride: f.StrideY, w: f.W, h: f.H, step: 1, wide: true, shift: 8},
			source{pix: f.UV, stride: f.StrideUV, w: cw, h: ch, step: 2, wide: true, shift: 8},
			source{pix: f.UV, stride: f.StrideUV, w: cw, h: ch, step: 2, offset: 1, wide: true, shift: 8}, nil
	}
	return y, cb, cr, fmt.Errorf("tracker: cannot analyse a %T frame (frames in host memory only)", s)
}

// downscale box-filters src by factor f into dst (src.w/f × src.h/f; the last partial
// block of each side is left out). An 8-bit plane with f = 1 is copied row by row.
func downscale(dst *plane, src source, f int) {
	dst.resize(src.w/f, src.h/f)
	if f == 1 && !src.wide && src.step == 1 {
		for y := 0; y < dst.h; y++ {
			copy(dst.pix[y*dst.w:(y+1)*dst.w], src.pix[y*src.stride:])
		}
		return
	}
	if f == 2 && !src.wide && src.step == 1 {
		// The 1080p case, most of the cost of a frame: two rows at a time, no calls.
		for y := 0; y < dst.h; y++ {
			r0 := src.pix[2*y*src.stride:]
			r1 := src.pix[(2*y+1)*src.stride:]
			out := dst.pix[y*dst.w : (y+1)*dst.w]
			for x := halveRows(out, r0, r1); x < len(out); x++ {
				out[x] = byte((int(r0[2*x]) + int(r0[2*x+1]) + int(r1[2*x]) + int(r1[2*x+1]) + 2) >> 2)
			}
		}
		return
	}
	if f == 4 && !src.wide && src.step == 1 {
		// The 4K case: four rows at a time, the same arithmetic as the generic loop's.
		for y := 0; y < dst.h; y++ {
			r0 := src.pix[4*y*src.stride:]
			r1 := src.pix[(4*y+1)*src.stride:]
			r2 := src.pix[(4*y+2)*src.stride:]
			r3 := src.pix[(4*y+3)*src.stride:]
			out := dst.pix[y*dst.w : (y+1)*dst.w]
			for x := quarterRows(out, r0, r1, r2, r3); x < len(out); x++ {
				r0, r1, r2, r3 := r0[4*x:4*x+4], r1[4*x:4*x+4], r2[4*x:4*x+4], r3[4*x:4*x+4]
				sum := int(r0[0]) + int(r0[1]) + int(r0[2]) + int(r0[3]) +
					int(r1[0]) + int(r1[1]) + int(r1[2]) + int(r1[3]) +
					int(r2[0]) + int(r2[1]) + int(r2[2]) + int(r2[3]) +
					int(r3[0]) + int(r3[1]) + int(r3[2]) + int(r3[3])
				out[x] = byte((sum + 8) >> 4)
			}
		}
		return
	}
	area := f * f
	if !src.wide {
		// Other factors of an 8-bit plane: the samples read in place, row by row of a block.
		for y := 0; y < dst.h; y++ {
			out := dst.pix[y*dst.w : (y+1)*dst.w]
			for x := range out {
				sum := 0
				for dy := 0; dy < f; dy++ {
					row := src.pix[(y*f+dy)*src.stride+x*f*src.step+src.offset:]
					row = row[:(f-1)*src.step+1]
					for i := 0; i < len(row); i += src.step {
						sum += int(row[i])
					}
				}
				out[x] = byte((sum + area/2) / area)
			}
		}
		return
	}
	for y := 0; y < dst.h; y++ {
		out := dst.pix[y*dst.w : (y+1)*dst.w]
		for x := range out {
			sum := 0
			for dy := 0; dy < f; dy++ {
				for dx := 0; dx < f; dx++ {
					sum += src.at(x*f+dx, y*f+dy)
				}
			}
			out[x] = byte((sum + area/2) / area)
		}
	}
}

// chromaAt fills dst (w × h, the analysis plane's size) with the mean of src's chroma
// samples under each analysis pixel's f × f luma block (4:2:0 chroma: half resolution).
func chromaAt(dst *plane, src source, f, w, h int) {
	dst.resize(w, h)
	if f%2 == 0 {
		// Whole chroma blocks: the luma's box filter at half the factor, cropped to the
		// luma's analysis size (an odd width leaves one more chroma block).
		downscale(dst, src, f/2)
		if dst.w != w {
			for y := 0; y < h; y++ {
				copy(dst.pix[y*w:(y+1)*w], dst.pix[y*dst.w:])
			}
		}
		dst.resize(w, h)
		return
	}
	if f == 1 {
		// Each chroma sample under the 2 × 2 pixels it covers: what chromaMean gives, a
		// chroma row read once for two rows.
		for y := 0; y < h; y += 2 {
			row := dst.pix[y*w : (y+1)*w]
			for x := 0; x < w; x += 2 {
				v := byte(src.at(x/2, y/2))
				row[x] = v
				if x+1 < w {
					row[x+1] = v
				}
			}
			if y+1 < h {
				copy(dst.pix[(y+1)*w:(y+2)*w], row)
			}
		}
		return
	}
	chromaMean(dst, src, f, w, h)
}

// chromaMean is chromaAt for any factor, each chroma sample that overlaps the block
// counted.
func chromaMean(dst *plane, src source, f, w, h int) {
	for y := 0; y < h; y++ {
		cy0, cy1 := y*f/2, min(((y+1)*f+1)/2, src.h)
		for x := 0; x < w; x++ {
			cx0, cx1 := x*f/2, min(((x+1)*f+1)/2, src.w)
			sum, n := 0, 0
			for cy := cy0; cy < cy1; cy++ {
				for cx := cx0; cx < cx1; cx++ {
					sum += src.at(cx, cy)
					n++
				}
			}
			dst.pix[y*w+x] = byte((sum + n/2) / max(n, 1))
		}
	}
}
