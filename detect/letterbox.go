package detect

import (
	"fmt"
	"math"

	"trackink/composite"
)

// Image is a frame as the detector reads it: three 8-bit planes of the same size, Y', Cb and
// Cr (chroma sampled at every pixel), W × H samples each with no padding between rows.
type Image struct {
	Y, Cb, Cr []byte
	W, H      int
	Matrix    composite.Matrix
	Range     composite.Range
}

func (im *Image) check() error {
	n := im.W * im.H
	if im.W <= 0 || im.H <= 0 || len(im.Y) < n || len(im.Cb) < n || len(im.Cr) < n {
		return fmt.Errorf("detect: image %dx%d with planes of %d, %d, %d samples", im.W, im.H, len(im.Y), len(im.Cb), len(im.Cr))
	}
	return nil
}

// padValue fills the letterbox outside the picture, as YOLOX's preprocessing does.
const padValue = 114

// letterbox resamples Y'CbCr images into a size × size network input, channel-major B'G'R'
// floats 0..255, the picture scaled by scale into the top-left corner and the rest padValue.
// Its buffers grow to the sizes it sees and are kept, so a steady stream of frames of one
// size allocates nothing.
type letterbox struct {
	size   int
	w, h   int // the source size the filters below are for
	scale  float64
	nw, nh int // the picture's size inside the input
	fx, fy filter
	tmp    [3][]float32 // horizontally filtered planes: nw × h
	row    [3][]float32 // one output row of each plane
	src    []float32    // one source row as floats
}

// filter holds, for each output sample, the first source sample it reads and the weights of
// that sample and those after it.
type filter struct {
	start   []int
	weights [][]float32
}

// newFilter is a triangle (linear) filter from n source samples to m output samples at scale
// m/n: support 1 when enlarging, 1/scale when reducing, so that every source sample counts
// (the box filter's job, without its blockiness). Weights are normalised to sum to 1.
func newFilter(n, m int, scale float64) filter {
	support := max(1, 1/scale)
	f := filter{start: make([]int, m), weights: make([][]float32, m)}
	for i := range m {
		centre := (float64(i) + 0.5) / scale
		lo := max(0, int(math.Floor(centre-support)))
		hi := min(n, int(math.Ceil(centre+support)))
		w := make([]float32, 0, hi-lo)
		sum := 0.0
		for j := lo; j < hi; j++ {
			v := max(0, 1-math.Abs((float64(j)+0.5-centre)/support))
			w = append(w, float32(v))
			sum += v
		}
		if sum == 0 {
			// A sample between two source samples far apart: the nearest one.
			j := min(n-1, max(0, int(centre)))
			lo, w, sum = j, append(w[:0], 1), 1
		}
		for k := range w {
			w[k] /= float32(sum)
		}
		// Trim zero weights at the ends.
		for len(w) > 1 && w[0] == 0 {
			w, lo = w[1:], lo+1
		}
		for len(w) > 1 && w[len(w)-1] == 0 {
			w = w[:len(w)-1]
		}
		f.start[i], f.weights[i] = lo, w
	}
	return f
}

// apply filters one row of source samples into dst. The row is made floats once, and each
// output's taps are summed in registers.
func (f *filter) apply(dst []float32, src []byte, row []float32) {
	row = row[:len(src)]
	for i, v := range src {
		row[i] = float32(v)
	}
	for i, w := range f.weights {
		in := row[f.start[i] : f.start[i]+len(w)]
		var acc float32
		for k, wk := range w {
			acc += wk * in[k]
		}
		dst[i] = acc
	}
}

// applyRows filters output row i from the rows of src (width n each) into dst, row by row
// so that the inner loop runs along memory.
func (f *filter) applyRows(dst []float32, i int, src []float32, n int) {
	w := f.weights[i]
	first := src[f.start[i]*n:][:n]
	for x := range dst {
		dst[x] = w[0] * first[x]
	}
	for k := 1; k < len(w); k++ {
		wk, row := w[k], src[(f.start[i]+k)*n:][:n]
		for x := range dst {
			dst[x] += wk * row[x]
		}
	}
}

// fit makes the filters for a w × h source; it returns the scale from source pixels to
// the network's input pixels.
func (lb *letterbox) fit(w, h int) float64 {
	if w == lb.w && h == lb.h && lb.fx.start != nil {
		return lb.scale
	}
	lb.w, lb.h = w, h
	lb.scale = min(float64(lb.size)/float64(w), float64(lb.size)/float64(h))
	lb.nw = min(lb.size, max(1, int(math.Round(float64(w)*lb.scale))))
	lb.nh = min(lb.size, max(1, int(math.Round(float64(h)*lb.scale))))
	lb.fx = newFilter(w, lb.nw, float64(lb.nw)/float64(w))
	lb.fy = newFilter(h, lb.nh, float64(lb.nh)/float64(h))
	lb.src = make([]float32, w)
	for c := range lb.tmp {
		lb.tmp[c] = make([]float32, lb.nw*h)
		lb.row[c] = make([]float32, lb.nw)
	}
	return lb.scale
}

// fill writes im into dst (3 × size × size floats) and returns the scale from image pixels
// to input pixels.
func (lb *letterbox) fill(dst []float32, im *Image) (float64, error) {
	if err := im.check(); err != nil {
		return 0, err
	}
	if len(dst) != 3*lb.size*lb.size {
		return 0, fmt.Errorf("detect: input of %d floats, want %d", len(dst), 3*lb.size*lb.size)
	}
	scale := lb.fit(im.W, im.H)
	planes := [3][]byte{im.Y, im.Cb, im.Cr}
	for c, p := range planes {
		for y := range im.H {
			lb.fx.apply(lb.tmp[c][y*lb.nw:(y+1)*lb.nw], p[y*im.W:(y+1)*im.W], lb.src)
		}
	}
	k := toRGB(im.Matrix, im.Range)
	area := lb.size * lb.size
	b, g, r := dst[:area], dst[area:2*area], dst[2*area:]
	for y := range lb.size {
		row := y * lb.size
		if y >= lb.nh {
			fillPad(b[row:row+lb.size], g[row:row+lb.size], r[row:row+lb.size])
			continue
		}
		for c := range planes {
			lb.fy.applyRows(lb.row[c], y, lb.tmp[c], lb.nw)
		}
		k.rows(r[row:row+lb.nw], g[row:row+lb.nw], b[row:row+lb.nw], lb.row[0], lb.row[1], lb.row[2])
		fillPad(b[row+lb.nw:row+lb.size], g[row+lb.nw:row+lb.size], r[row+lb.nw:row+lb.size])
	}
	return scale, nil
}

func fillPad(planes ...[]float32) {
	for _, p := range planes {
		for i := range p {
			p[i] = padValue
		}
	}
}

// ycbcrToRGB carries Y'CbCr code values to R'G'B' 0..255.
type ycbcrToRGB struct {
	yOff, yScale       float32
	cOff               float32
	rCr, gCb, gCr, bCb float32
}

// toRGB inverts composite's matrix for 8-bit samples: limited range scales Y' by 255/219 and
// the colour differences by 255/224, full range by 1.
func toRGB(m composite.Matrix, r composite.Range) ycbcrToRGB {
	kr, kb := float32(0.2126), float32(0.0722)
	switch m {
	case composite.BT601:
		kr, kb = 0.299, 0.114
	case composite.BT2020:
		kr, kb = 0.2627, 0.0593
	}
	kg := 1 - kr - kb
	k := ycbcrToRGB{yOff: 16, yScale: 255.0 / 219, cOff: 128}
	cs := float32(255.0 / 224)
	if r == composite.Full {
		k.yOff, k.yScale, cs = 0, 1, 1
	}
	// R' = Y' + 2(1−Kr)·Pr, B' = Y' + 2(1−Kb)·Pb, G' = (Y' − Kr R' − Kb B')/Kg.
	k.rCr = 2 * (1 - kr) * cs
	k.bCb = 2 * (1 - kb) * cs
	k.gCb = -kb * k.bCb / kg
	k.gCr = -kr * k.rCr / kg
	return k
}

// rows converts rows of Y', Cb, Cr into rows of R', G', B'.
func (k ycbcrToRGB) rows(r, g, b, y, cb, cr []float32) {
	g, b, y, cb, cr = g[:len(r)], b[:len(r)], y[:len(r)], cb[:len(r)], cr[:len(r)]
	for x := range r {
		yy := (y[x] - k.yOff) * k.yScale
		u, v := cb[x]-k.cOff, cr[x]-k.cOff
		r[x] = clamp255(yy + k.rCr*v)
		g[x] = clamp255(yy + k.gCb*u + k.gCr*v)
		b[x] = clamp255(yy + k.bCb*u)
	}
}

func clamp255(v float32) float32 { return min(max(v, 0), 255) }
