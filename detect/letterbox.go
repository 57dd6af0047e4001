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
	if im.W <= 0 || im.H <= 0 || im.W > math.MaxInt/im.H {
		return fmt.Errorf("detect: image %dx%d", im.W, im.H)
	}
	n := im.W * im.H
	if len(im.Y) < n || len(im.Cb) < n || len(im.Cr) < n {
		return fmt.Errorf("detect: image %dx%d with planes of %d, %d, %d samples", im.W, im.H, len(im.Y), len(im.Cb), len(im.Cr))
	}
	return nil
}

// padValue fills the letterbox outside the picture, as YOLOX's preprocessing does.
const padValue = 114

// letterbox resamples Y'CbCr images into the network's input, channel-major B'G'R' floats
// 0..255: the picture scaled by scale to size on its longer side, in the top-left corner,
// and padValue to the input's edges, which are the picture's rounded up to a whole number of
// round samples. Its buffers grow to the sizes it sees and are kept, so a steady stream of
// frames of one size allocates nothing.
//
// Each output row is filtered vertically first, from the source's bytes into one row of
// floats as wide as the source, and then horizontally: the vertical pass, which runs along
// memory, takes the larger share of the work, and both have AVX2 twins
// (simd_amd64.s).
type letterbox struct {
	size   int
	round  int
	w, h   int // the source size the filters below are for
	scale  float64
	nw, nh int // the picture's size inside the input
	iw, ih int // the input's size
	fx, fy filter
	// col is one row filtered vertically, w samples and 8 zeros after them (the horizontal
	// pass reads 8 samples from each output's first tap); row is one output row of each
	// plane.
	col []float32
	row [3][]float32
}

// filter holds, for each output sample, the first source sample it reads (int32, as the
// AVX2 loop reads it) and the weights of that sample and those after it. Where no output has
// more than 8 taps, w8 holds each output's weights padded with zeros to 8, for horizontal's
// 8-tap sums.
type filter struct {
	start   []int32
	weights [][]float32
	w8      [][8]float32
}

// newFilter is a triangle (linear) filter from n source samples to m output samples at scale
// m/n: support 1 when enlarging, 1/scale when reducing, so that every source sample counts
// (the box filter's job, without its blockiness). Weights are normalised to sum to 1.
func newFilter(n, m int, scale float64) filter {
	support := max(1, 1/scale)
	f := filter{start: make([]int32, m), weights: make([][]float32, m)}
	most := 0
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
		f.start[i], f.weights[i] = int32(lo), w
		most = max(most, len(w))
	}
	if most <= 8 {
		f.w8 = make([][8]float32, m)
		for i, w := range f.weights {
			copy(f.w8[i][:], w)
		}
	}
	return f
}

// vertical sets dst to output row i of the filter applied down the columns of src (rows
// stride bytes apart, dst's length wide): the first tap's row times its weight, then each
// further tap's added in turn. In AVX2 where there is AVX2, to the same bits.
func (f *filter) vertical(dst []float32, src []byte, stride, i int) {
	w := f.weights[i]
	src = src[int(f.start[i])*stride:]
	_ = src[(len(w)-1)*stride+len(dst)-1]
	done := verticalRows(dst, src, stride, w)
	first := src[done:len(dst)]
	for x, v := range first {
		dst[done+x] = float32(w[0] * float32(v))
	}
	for k := 1; k < len(w); k++ {
		wk, row := w[k], src[k*stride+done:k*stride+len(dst)]
		for x, v := range row {
			dst[done+x] = float32(dst[done+x] + float32(wk*float32(v)))
		}
	}
}

// horizontal filters the row src into dst. With at most 8 taps an output (w8) each output
// is a sum of 8 products in pairs, ((p0+p1)+(p2+p3))+((p4+p5)+(p6+p7)), the AVX2 twin's
// order; else the products are summed in turn. src holds 8 samples past its last tap.
func (f *filter) horizontal(dst, src []float32) {
	if f.w8 == nil {
		for i, w := range f.weights {
			in := src[f.start[i]:][:len(w)]
			var acc float32
			for k, wk := range w {
				acc = float32(acc + float32(wk*in[k]))
			}
			dst[i] = acc
		}
		return
	}
	for i := horizontalRows(dst, src, f.start, f.w8); i < len(dst); i++ {
		in, w := src[f.start[i]:][:8], &f.w8[i]
		var p [8]float32
		for k := range p {
			p[k] = float32(w[k] * in[k])
		}
		dst[i] = float32(float32(float32(p[0]+p[1])+float32(p[2]+p[3])) + float32(float32(p[4]+p[5])+float32(p[6]+p[7])))
	}
}

// fit makes the filters and sets the input's size for a w × h source.
func (lb *letterbox) fit(w, h int) {
	if w == lb.w && h == lb.h && lb.fx.start != nil {
		return
	}
	lb.w, lb.h = w, h
	lb.scale = min(float64(lb.size)/float64(w), float64(lb.size)/float64(h))
	lb.nw = min(lb.size, max(1, int(math.Round(float64(w)*lb.scale))))
	lb.nh = min(lb.size, max(1, int(math.Round(float64(h)*lb.scale))))
	lb.iw, lb.ih = roundUp(lb.nw, lb.round), roundUp(lb.nh, lb.round)
	lb.fx = newFilter(w, lb.nw, float64(lb.nw)/float64(w))
	lb.fy = newFilter(h, lb.nh, float64(lb.nh)/float64(h))
	lb.col = make([]float32, w+8)
	for c := range lb.row {
		lb.row[c] = make([]float32, lb.nw)
	}
}

// roundUp is n rounded up to a multiple of m.
func roundUp(n, m int) int { return (n + m - 1) / m * m }

// fill writes im into dst (3 × iw × ih floats, for the size fit was last given, im's) and
// returns the scale from image pixels to input pixels.
func (lb *letterbox) fill(dst []float32, im *Image) (float64, error) {
	if err := im.check(); err != nil {
		return 0, err
	}
	if im.W != lb.w || im.H != lb.h || len(dst) != 3*lb.iw*lb.ih {
		return 0, fmt.Errorf("detect: input of %d floats for a %dx%d image, want %d for %dx%d", len(dst), im.W, im.H, 3*lb.iw*lb.ih, lb.w, lb.h)
	}
	planes := [3][]byte{im.Y, im.Cb, im.Cr}
	k := toRGB(im.Matrix, im.Range)
	iw, area := lb.iw, lb.iw*lb.ih
	b, g, r := dst[:area], dst[area:2*area], dst[2*area:]
	for y := range lb.ih {
		row := y * iw
		if y >= lb.nh {
			fillPad(b[row:row+iw], g[row:row+iw], r[row:row+iw])
			continue
		}
		for c, p := range planes {
			lb.fy.vertical(lb.col[:lb.w], p[:lb.w*lb.h], lb.w, y)
			lb.fx.horizontal(lb.row[c], lb.col)
		}
		k.rows(r[row:row+lb.nw], g[row:row+lb.nw], b[row:row+lb.nw], lb.row[0], lb.row[1], lb.row[2])
		fillPad(b[row+lb.nw:row+iw], g[row+lb.nw:row+iw], r[row+lb.nw:row+iw])
	}
	return lb.scale, nil
}

func fillPad(planes ...[]float32) {
	for _, p := range planes {
		for i := range p {
			p[i] = padValue
		}
	}
}

// ycbcrToRGB carries Y'CbCr code values to R'G'B' 0..255. Its layout is toRGBAVX2's.
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

// rows converts rows of Y', Cb, Cr into rows of R', G', B', clamped to 0..255. In AVX2
// where there is AVX2, to the same bits.
func (k *ycbcrToRGB) rows(r, g, b, y, cb, cr []float32) {
	g, b, y, cb, cr = g[:len(r)], b[:len(r)], y[:len(r)], cb[:len(r)], cr[:len(r)]
	for x := toRGBRows(r, g, b, y, cb, cr, k); x < len(r); x++ {
		yy := float32(float32(y[x]-k.yOff) * k.yScale)
		u, v := cb[x]-k.cOff, cr[x]-k.cOff
		r[x] = clamp255(float32(yy + float32(k.rCr*v)))
		g[x] = clamp255(float32(float32(yy+float32(k.gCb*u)) + float32(k.gCr*v)))
		b[x] = clamp255(float32(yy + float32(k.bCb*u)))
	}
}

func clamp255(v float32) float32 { return min(max(v, 0), 255) }
