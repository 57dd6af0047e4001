package render

import "math"

// The Gaussian blur (overlay.EffectGaussian): three box filters in a row, whose widths are
// chosen from sigma so that together they have the Gaussian's variance (the standard
// box-filter approximation: P. Kovesi, "Fast Almost-Gaussian Filtering", DICTA 2010:
// w_ideal = sqrt(12σ²/n + 1) for n boxes, wl its largest odd integer at most, wu = wl + 2,
// and m = round((12σ² − n·wl² − 4n·wl − 3n) / (−4wl − 4)) of the n boxes wl wide, the rest
// wu). Their convolution w is a bell of integer weights (its sum the three widths'
// product), and the filter is separable: the effect at (x, y) is
//
//	Σ w(i)·w(j)·s(x+i, y+j) / (Σ w(i) · Σ w(j)),
//
// the sums over the taps inside the frame: the window clipped to the frame and the weights
// renormalised, as blur clips its window. The numerator is an exact integer (int64), so
// the CPU's running sums (three box sums down the columns, three along each row) and the
// device's tap-by-tap sum (kernels/effects.cu's fxGaussian) give the same number, and the
// same float: float32(float64(N)/float64(D)).

// gaussMaxSigma bounds sigma (overlay's range for EffectGaussian), which bounds the
// filter's reach: at 50 px the three radii are 49, 49 and 50. Twin: TK_FX_GAUSS_SIGMA.
const gaussMaxSigma = 50

// gaussRadii are the three box radii of the Gaussian of sigma s px in a plane whose samples
// are sub px apart (4:2:0 chroma: sigma halved). The products here are exact in float64
// (s has 24 bits), so a fused multiply-add changes nothing. Twin: fxGaussRadii.
func gaussRadii(s float32, sub int) [3]int {
	sg := float64(min(max(s, 0), gaussMaxSigma)) / float64(sub)
	wl := int(math.Floor(math.Sqrt(4*sg*sg + 1))) // w_ideal for n = 3: sqrt(12σ²/3 + 1)
	if wl%2 == 0 {
		wl--
	}
	m := int(math.Floor((12*sg*sg-float64(3*wl*wl+12*wl+9))/float64(-4*wl-4) + 0.5))
	var r [3]int
	for i := range r {
		r[i] = (wl - 1) / 2
		if i >= m {
			r[i]++ // wu = wl + 2 wide
		}
	}
	return r
}

// boxSums sets out[i] to in[i] + … + in[i+2r] (len(in) = len(out) + 2r) by running sums.
func boxSums(out, in []int64, r int) {
	var sum int64
	for _, v := range in[:2*r] {
		sum += v
	}
	for i := range out {
		sum += in[i+2*r]
		out[i] = sum
		sum -= in[i]
	}
}

// gaussLine filters line (n + 2R values, R the radii's sum, zero beyond the frame) with the
// three boxes into its middle n values, out; tmp is scratch as long as line.
func gaussLine(out, line, tmp []int64, rad [3]int) {
	src, n := line, len(line)
	for k, r := range rad {
		n -= 2 * r
		dst := tmp[:n]
		if k == 2 {
			dst = out
		}
		boxSums(dst, src, r)
		src, tmp = dst, src // src's old room is the next scratch
	}
}

// gaussWeights are the filter's sums of weights over the taps inside the frame for
// samples [a, a+len(out)) of a line of size size.
func gaussWeights(out []int64, a, size int, rad [3]int, wk *fxWork) {
	R := rad[0] + rad[1] + rad[2]
	line := grow(wk.gLine, len(out)+2*R)
	for i := range line {
		line[i] = 0
		if p := a - R + i; p >= 0 && p < size {
			line[i] = 1
		}
	}
	wk.gTmp = grow(wk.gTmp, len(line))
	gaussLine(out, line, wk.gTmp, rad)
	wk.gLine = line
}

// gaussianPlane is phase 1 of the Gaussian blur: column sums first (three box sums down the
// frame's columns the rows reach, each a row at a time: blur's slide, then sums of rows),
// then along each row, over lines zero beyond the frame; each value the numerator over the
// weights inside the frame.
func gaussianPlane(pl *fxPlane, e []float32, x0, y0, x1, y1 int, rad [3]int, wk *fxWork) {
	n, m := x1-x0, y1-y0
	R := rad[0] + rad[1] + rad[2]
	lx0, lx1 := max(x0-R, 0), min(x1+R, pl.w)
	nc := lx1 - lx0
	// Down the columns: rows [y0 − reach, y1 + reach) of each pass, reach the radii of the
	// passes after it; the first pass sums the frame's rows (none beyond its edges).
	r0, r1, r2 := rad[0], rad[1], rad[2]
	ya, yb := y0-r1-r2, y1+r1+r2
	wk.gA = grow(wk.gA, (yb-ya)*nc)
	wk.a = grow(wk.a, nc)
	acc := grow(wk.acc, nc)
	clear(acc)
	for y := max(ya-r0, 0); y < min(ya+r0+1, pl.h); y++ {
		pl.slide(acc, lx0, y, -1, wk.a)
	}
	for y := ya; y < yb; y++ {
		if y > ya {
			add, sub := y+r0, y-r0-1
			if add >= pl.h {
				add = -1
			}
			if sub < 0 || sub >= pl.h {
				sub = -1
			}
			if add >= 0 || sub >= 0 {
				pl.slide(acc, lx0, add, sub, wk.a)
			}
		}
		copy(wk.gA[(y-ya)*nc:], acc)
	}
	wk.acc = acc
	wk.gB = grow(wk.gB, (yb-ya-2*r1)*nc)
	sumRows(wk.gB, wk.gA, nc, r1)
	wk.gC = grow(wk.gC, m*nc)
	sumRows(wk.gC, wk.gB[:(yb-ya-2*r1)*nc], nc, r2)
	// Along the rows, and the weights inside the frame.
	wk.gDx, wk.gDy = grow(wk.gDx, n), grow(wk.gDy, m)
	gaussWeights(wk.gDy, y0, pl.h, rad, wk)
	gaussWeights(wk.gDx, x0, pl.w, rad, wk)
	line := grow(wk.gLine, n+2*R)
	tmp := grow(wk.gTmp, n+2*R)
	num := grow(wk.gNum, n)
	for y := range m {
		clear(line)
		for i, v := range wk.gC[y*nc : (y+1)*nc] {
			line[lx0-(x0-R)+i] = int64(v)
		}
		gaussLine(num, line, tmp, rad)
		out, dy := e[y*n:(y+1)*n], wk.gDy[y]
		for x, v := range num {
			out[x] = float32(float64(v) / float64(wk.gDx[x]*dy))
		}
	}
	wk.gLine, wk.gTmp, wk.gNum = line, tmp, num
}

// sumRows sets each row of dst (rows of nc values) to the sum of src's rows i … i+2r, a row
// at a time: the sum moved down a row (one added, one taken away). Every sum fits int32:
// at most the three widths' product times the largest code value (about 1.01e9 at sigma
// 50 in 10 bits).
func sumRows(dst, src []int32, nc, r int) {
	rows := len(dst) / nc
	if rows == 0 {
		return
	}
	first := dst[:nc]
	copy(first, src[:nc])
	for j := 1; j <= 2*r; j++ {
		for i, v := range src[j*nc : (j+1)*nc] {
			first[i] += v
		}
	}
	for y := 1; y < rows; y++ {
		prev, cur := dst[(y-1)*nc:y*nc], dst[y*nc:(y+1)*nc]
		add, sub := src[(y+2*r)*nc:(y+2*r+1)*nc], src[(y-1)*nc:y*nc]
		for i := range cur {
			cur[i] = prev[i] + add[i] - sub[i]
		}
	}
}
