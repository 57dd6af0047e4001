package render

import (
	"math"
	"math/bits"
	"unsafe"
)

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
// the CPU's sums (three boxes along each row, then three down the columns) and the
// device's (kernels/effects.cu) give the same number, and the same float:
// float32(float64(N)/float64(D)).
//
// Along a row every sum fits int32: at most 1023 (10 bits) times the three widths' product,
// 1023·99·99·101 ≈ 1.01e9 < 2³¹ at sigma 50. So the CPU filters each row in int32 from
// its third prefix sums (prefix3 and boxTaps: they wrap, but the taps' signed sum is the
// boxes' modulo 2³², and so exact), 8 rows at once. Down the columns the sums reach 1023 times the
// product squared, about 1.0e15: int64, whole rows at a time (4 lanes), in one sweep down
// the rows, the last pass turning each sum into its value (below 2⁵², so its float64 is
// exact; the weights' product, below 2⁵³, too).

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

// gaussLines returns wk's lines for the three boxes along rows of n values, 8 lines, each
// lineLen(n) long: 3 zeros, then the n values (the caller's, from index 3; zero here), then
// zeros to a whole number of groups of 8.
func gaussLines(wk *fxWork, n int) []int32 {
	wk.gLine = grow(wk.gLine, 8*lineLen(n))
	clear(wk.gLine)
	return wk.gLine
}

// lineLen is the length of each of gaussLines' lines for n values.
func lineLen(n int) int { return (n + 3 + 7) / 8 * 8 }

// The three boxes along a line (len(out) + 2R values, R the radii's sum, zero beyond the
// frame) into out, out[i] = Σ w(t)·line[3+i+t], are two steps: prefix3, then boxTaps. A box
// of width w is a difference of prefix sums, P[i+w] − P[i]; the three boxes are, alike,
// eight taps of the line's third prefix sums P3 (P3[k] is line[k]'s third inclusive prefix
// sum, which the 3 leading zeros make the sum up to k − 3 exclusive), signed by how many of
// the widths each tap's offset adds. In int32: the prefix sums wrap, but every box's sum
// fits (the top of the file), and the wrapped taps give it modulo 2³², so exactly.

// prefix3 sets each of the 8 lines of p (each len(p)/8 long) to its third inclusive prefix
// sums, in place, int32 arithmetic (wrapping). The AVX2 twin takes the 8 lines together, a
// block of 8 × 8 at a time, transposed so that the sums along the lines are adds of whole
// vectors (a prefix sum within a vector costs 6 shuffles, a transpose 3 a vector).
func prefix3(p []int32, carry *[24]int32) {
	n := len(p) / 8
	if haveAVX2 && n%8 == 0 && n > 0 {
		*carry = [24]int32{}
		fxPrefix3AVX2(&p[0], n, &carry[0], n/8)
		return
	}
	for k := range 8 {
		prefix3Go(p[k*n : (k+1)*n])
	}
}

// prefix3Go is prefix3's Go twin on one line.
func prefix3Go(p []int32) {
	var a, b, c int32
	for i, v := range p {
		a += v
		b += a
		c += b
		p[i] = c
	}
}

// gaussSum is the type of the Gaussian's sums down the columns: int32 where every sum
// fits (gaussNarrow), 8 lanes; else int64, 4.
type gaussSum interface{ int32 | int64 }

// gaussNarrow says whether every sum down the columns fits int32 in plane pl: the largest
// code value times the weights' total squared (the three widths' product) below 2³¹ (in
// 10 bits up to sigma 5, the default).
func gaussNarrow(pl *fxPlane, rad [3]int) bool {
	top := int64(255)
	if pl.wide {
		top = 1023
	}
	p := int64(1)
	for _, r := range rad {
		p *= int64(2*r + 1)
	}
	return top*p*p < 1<<31
}

// lanes is the AVX2 twins' group for sums of type T.
func lanes[T gaussSum]() int {
	var v T
	return 32 / int(unsafe.Sizeof(v))
}

// boxTaps sets out[i] to the three boxes' sum at i from the third prefix sums p of boxes
// w0, w1 and w2 wide: Σ ± p[i + offset] over the offsets the widths add up to.
func boxTaps[T gaussSum](out []T, p []int32, w0, w1, w2 int) {
	_ = p[len(out)-1+w0+w1+w2]
	if haveAVX2 {
		if g := len(out) / 8; g > 0 {
			fxGaussTapsAVX2(unsafe.Pointer(&out[0]), lanes[T]() == 4, &p[0], w0, w1, w2, g)
			out, p = out[8*g:], p[8*g:]
		}
	}
	boxTapsGo(out, p, w0, w1, w2)
}

// boxTapsGo is boxTaps' Go twin.
func boxTapsGo[T gaussSum](out []T, p []int32, w0, w1, w2 int) {
	for i := range out {
		v := p[i+w0+w1+w2] - p[i+w0+w1] - p[i+w0+w2] - p[i+w1+w2] + p[i+w0] + p[i+w1] + p[i+w2] - p[i]
		out[i] = T(v)
	}
}

// gaussWeights sets out[i] to the filter's sum of weights over the taps inside the frame
// for sample a+i of a line of size samples (exact in float64: at most the widths' product).
func gaussWeights(out []float64, a, size int, rad [3]int, wk *fxWork) {
	R := rad[0] + rad[1] + rad[2]
	line := grow(wk.gLine, lineLen(len(out)+2*R))
	clear(line)
	for i := range len(out) + 2*R {
		if q := a - R + i; q >= 0 && q < size {
			line[3+i] = 1
		}
	}
	prefix3Go(line)
	num := grow(wk.gNum, len(out))
	boxTaps(num, line, 2*rad[0]+1, 2*rad[1]+1, 2*rad[2]+1)
	for i, v := range num {
		out[i] = float64(v)
	}
	wk.gLine, wk.gNum = line, num
}

// gaussianPlane is phase 1 of the Gaussian blur: the three boxes along each row the window
// reaches (rows beyond the frame zero), then down the columns, one sweep down the rows:
// each box's running sums move down a row as a new row reaches them, each pass keeping
// only the rows the next still takes away (rings of 2r + 2 rows, so they stay in cache),
// the last pass turning its sums into the values, the numerator over the weights inside
// the frame.
func gaussianPlane(pl *fxPlane, e []float32, x0, y0, x1, y1 int, rad [3]int, wk *fxWork) {
	n, m := x1-x0, y1-y0
	if n <= 0 || m <= 0 {
		return
	}
	wk.gDx, wk.gDy = grow(wk.gDx, n), grow(wk.gDy, m)
	gaussWeights(wk.gDx, x0, pl.w, rad, wk)
	gaussWeights(wk.gDy, y0, pl.h, rad, wk)
	if gaussNarrow(pl, rad) {
		gaussSweep(pl, e, x0, y0, x1, y1, rad, wk, &wk.g32)
	} else {
		gaussSweep(pl, e, x0, y0, x1, y1, rad, wk, &wk.g64)
	}
}

// gaussRows are a sweep's rows of sums: its rings, a row of zeros and the running row.
type gaussRows[T gaussSum] struct{ all, z, cur []T }

// gaussSweep is gaussianPlane's sweep down the rows, its sums of type T.
func gaussSweep[T gaussSum](pl *fxPlane, e []float32, x0, y0, x1, y1 int, rad [3]int, wk *fxWork, rs *gaussRows[T]) {
	n, m := x1-x0, y1-y0
	R := rad[0] + rad[1] + rad[2]
	lx0, lx1 := max(x0-R, 0), min(x1+R, pl.w)
	wk.a = grow(wk.a, lx1-lx0)
	// Ring k holds pass k's input rows (the rows along, then the first two passes' sums):
	// at least 2r + 2 rows, a power of two, so that a row's slot is a mask (a division a
	// row and pass cost a tenth of the sweep).
	var rings [3][]T
	var masks [3]int
	size := 0
	for k, r := range rad {
		masks[k] = 1<<bits.Len(uint(2*r+1)) - 1
		size += (masks[k] + 1) * n
	}
	all := grow(rs.all, size)
	for k, o := 0, 0; k < len(rad); k++ {
		rings[k], o = all[o:o+(masks[k]+1)*n], o+(masks[k]+1)*n
	}
	z, cur := grow(rs.z, n), grow(rs.cur, n)
	clear(z)
	clear(cur)
	// slot is row i of ring k, i < 0 too (a pass's partial sums before its first row).
	slot := func(k, i int) []T {
		o := i & masks[k] * n
		return rings[k][o : o+n]
	}
	ll, lines := lineLen(n+2*R), []int32(nil)
	for j := range m + 2*R {
		if j%8 == 0 { // the next 8 rows' third prefix sums along, together
			lines = gaussLines(wk, n+2*R)
			for q := range 8 {
				if y := y0 - R + j + q; y >= 0 && y < pl.h && j+q < m+2*R {
					pl.prefetch(lx0, lx1, y+1)
					line := lines[q*ll+3:]
					pl.slide(line[lx0-(x0-R):lx1-(x0-R)], lx0, y, -1, wk.a)
				}
			}
			prefix3(lines, &wk.gCarry)
		}
		h := slot(0, j)
		if y := y0 - R + j; y < 0 || y >= pl.h {
			clear(h)
		} else {
			q := j % 8
			boxTaps(h, lines[q*ll:(q+1)*ll], 2*rad[0]+1, 2*rad[1]+1, 2*rad[2]+1)
		}
		// Pass k's output row t, from its input row i, is its row t − 1 plus input row i
		// less input row i − 2r − 1 (zeros before the first); its rows before 0 are
		// partial sums, the first from zeros.
		i := j
		for k, r := range rad {
			t := i - 2*r
			add, sub := slot(k, i), z
			if i > 2*r {
				sub = slot(k, i-2*r-1)
			}
			if k == len(rad)-1 {
				if t >= 0 {
					gaussOut(e[t*n:(t+1)*n], cur, add, sub, wk.gDx, wk.gDy[t])
				} else {
					slideRows(cur, cur, add, sub)
				}
				break
			}
			prev := z
			if i > 0 {
				prev = slot(k+1, t-1)
			}
			slideRows(slot(k+1, t), prev, add, sub)
			if t < 0 {
				break
			}
			i = t
		}
	}
	rs.all, rs.z, rs.cur = all, z, cur
}

// slideRows sets dst[i] to prev[i] + add[i] − sub[i] (dst may be prev): a column sum moved
// down a row.
func slideRows[T gaussSum](dst, prev, add, sub []T) {
	if haveAVX2 {
		if l := lanes[T](); len(dst) >= l {
			g := len(dst) / l
			_, _, _ = prev[l*g-1], add[l*g-1], sub[l*g-1]
			fxGaussSlideAVX2(unsafe.Pointer(&dst[0]), unsafe.Pointer(&prev[0]), unsafe.Pointer(&add[0]),
				unsafe.Pointer(&sub[0]), l == 4, g)
			k := l * g
			dst, prev, add, sub = dst[k:], prev[k:], add[k:], sub[k:]
		}
	}
	slideRowsGo(dst, prev, add, sub)
}

// slideRowsGo is slideRows' Go twin.
func slideRowsGo[T gaussSum](dst, prev, add, sub []T) {
	prev, add, sub = prev[:len(dst)], add[:len(dst)], sub[:len(dst)]
	for i := range dst {
		dst[i] = prev[i] + add[i] - sub[i]
	}
}

// gaussOut moves the running sums cur down a row (cur[i] += add[i] − sub[i]) and sets out[i]
// to the value float32(cur[i] / (dx[i]·dy)), the division in float64.
func gaussOut[T gaussSum](out []float32, cur, add, sub []T, dx []float64, dy float64) {
	if haveAVX2 {
		if l := lanes[T](); len(out) >= l {
			g := len(out) / l
			_, _, _, _ = cur[l*g-1], add[l*g-1], sub[l*g-1], dx[l*g-1]
			fxGaussOutAVX2(&out[0], unsafe.Pointer(&cur[0]), unsafe.Pointer(&add[0]), unsafe.Pointer(&sub[0]),
				l == 4, &dx[0], dy, g)
			k := l * g
			out, cur, add, sub, dx = out[k:], cur[k:], add[k:], sub[k:], dx[k:]
		}
	}
	gaussOutGo(out, cur, add, sub, dx, dy)
}

// gaussOutGo is gaussOut's Go twin.
func gaussOutGo[T gaussSum](out []float32, cur, add, sub []T, dx []float64, dy float64) {
	cur, add, sub, dx = cur[:len(out)], add[:len(out)], sub[:len(out)], dx[:len(out)]
	for i := range out {
		v := cur[i] + add[i] - sub[i]
		cur[i] = v
		out[i] = float32(float64(v) / (dx[i] * dy))
	}
}
