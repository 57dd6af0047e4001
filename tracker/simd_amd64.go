//go:build gc && !purego

package tracker

import "golang.org/x/sys/cpu"

// haveAVX2 selects the assembly in simd_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

//go:noescape
func lkTemplateAVX2(pix *byte, d *int16, stride int, w *[4]int32, t *int32, sums *[3]int64)

//go:noescape
func lkMismatchAVX2(pix *byte, stride int, w *[4]int32, t *int32, sums *[2]int64)

// template samples the window of I whose top-left pixel is (x, y) into lw and returns the
// structure tensor's sums (templateGo).
func (lw *lkWork) template(I *level, x, y int, w *[4]int32) (a11, a12, a22 int64) {
	if !haveAVX2 {
		return lw.templateGo(I, x, y, w)
	}
	o := I.origin() + y*I.stride + x
	var s [3]int64
	lkTemplateAVX2(&I.pix[o], &I.d[2*o], I.stride, w, &lw.t[0], &s)
	return s[0], s[1], s[2]
}

// mismatch is mismatchGo's twin.
func (lw *lkWork) mismatch(J *level, x, y int, w *[4]int32) (b1, b2 int64) {
	if !haveAVX2 {
		return lw.mismatchGo(J, x, y, w)
	}
	o := J.origin() + y*J.stride + x
	var s [2]int64
	lkMismatchAVX2(&J.pix[o], J.stride, w, &lw.t[0], &s)
	return s[0], s[1]
}

//go:noescape
func halveRowsAVX2(dst, r0, r1 *byte, n int)

//go:noescape
func quarterRowsAVX2(dst, r0, r1, r2, r3 *byte, n int)

//go:noescape
func scharrRowsAVX2(out *int16, r0, r1, r2 *byte, n int)

// halveRows writes the first n16 of dst's pixels (a multiple of 16) by the assembly and
// returns n16 (0 without AVX2): downscale's 2 × 2 mean of the rows r0 and r1.
func halveRows(dst, r0, r1 []byte) int {
	n := len(dst) &^ 15
	if !haveAVX2 || n == 0 {
		return 0
	}
	_, _ = r0[2*n-1], r1[2*n-1]
	halveRowsAVX2(&dst[0], &r0[0], &r1[0], n)
	return n
}

// quarterRows writes the first n16 of dst's pixels (a multiple of 16) by the assembly and
// returns n16 (0 without AVX2): downscale's 4 × 4 mean of the rows r0 … r3.
func quarterRows(dst, r0, r1, r2, r3 []byte) int {
	n := len(dst) &^ 15
	if !haveAVX2 || n == 0 {
		return 0
	}
	_, _, _, _ = r0[4*n-1], r1[4*n-1], r2[4*n-1], r3[4*n-1]
	quarterRowsAVX2(&dst[0], &r0[0], &r1[0], &r2[0], &r3[0], n)
	return n
}

// scharrRows writes the derivatives of the first n16 pixels of a row (a multiple of 16) by
// the assembly and returns n16 (0 without AVX2); r0, r1, r2 start one pixel left of the
// row's first.
func scharrRows(out []int16, r0, r1, r2 []byte) int {
	n := (len(out) / 2) &^ 15
	if !haveAVX2 || n == 0 {
		return 0
	}
	_, _, _ = r0[n+1], r1[n+1], r2[n+1]
	scharrRowsAVX2(&out[0], &r0[0], &r1[0], &r2[0], n)
	return n
}

//go:noescape
func and3AVX2(o, a, b, c *byte, n int)

//go:noescape
func or3AVX2(o, a, b, c *byte, n int)

//go:noescape
func median9AVX2(dst *byte, rows *[9]*byte, n int)

// op3 sets the first n32 bytes of o (a multiple of 32) to the and (erode) or the or of a, b
// and c by the assembly and returns n32 (0 without AVX2).
func op3(o, a, b, c []byte, erode bool) int {
	n := len(o) &^ 31
	if !haveAVX2 || n == 0 {
		return 0
	}
	_, _, _ = a[n-1], b[n-1], c[n-1]
	if erode {
		and3AVX2(&o[0], &a[0], &b[0], &c[0], n)
	} else {
		or3AVX2(&o[0], &a[0], &b[0], &c[0], n)
	}
	return n
}

// median9Rows writes the first n32 medians of dst (a multiple of 32) by the assembly and
// returns n32 (0 without AVX2).
func median9Rows(dst []byte, rows *[9][]byte) int {
	n := len(dst) &^ 31
	if !haveAVX2 || n == 0 {
		return 0
	}
	var p [9]*byte
	for k, r := range rows {
		p[k] = &r[:n][0]
	}
	median9AVX2(&dst[0], &p, n)
	return n
}

//go:noescape
func absDiffAVX2(dst, a, b *byte, n int)

// absDiff sets the first n32 bytes of dst (a multiple of 32) to |a − b| by the assembly
// and returns n32 (0 without AVX2).
func absDiff(dst, a, b []byte) int {
	n := len(dst) &^ 31
	if !haveAVX2 || n == 0 {
		return 0
	}
	_, _ = a[n-1], b[n-1]
	absDiffAVX2(&dst[0], &a[0], &b[0], n)
	return n
}

//go:noescape
func productsAVX2(p *float32, d *int16, n, w int)

//go:noescape
func hsumAVX2(o, r *float32, n int)

//go:noescape
func eigenAVX2(e, a, b, c *float32, n, w int)

// productsRows writes the first n8 pixels' products (a multiple of 8) of points.go's
// products by the assembly and returns n8 (0 without AVX2).
func productsRows(p []float32, d []int16) int {
	w := len(d) / 2
	n := w &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = p[2*w+n-1]
	productsAVX2(&p[0], &d[0], n, w)
	return n
}

// hsumRows writes the first n8 sums of hsum3 (a multiple of 8), o[i] of r[i … i+2], by the
// assembly and returns n8 (0 without AVX2).
func hsumRows(o, r []float32) int {
	n := len(o) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = r[n+1]
	hsumAVX2(&o[0], &r[0], n)
	return n
}

// eigenRows writes the first n8 values of eigen3 (a multiple of 8) by the assembly and
// returns n8 (0 without AVX2); a, b and c hold three runs of w.
func eigenRows(e, a, b, c []float32, w int) int {
	n := len(e) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_, _, _ = a[2*w+n-1], b[2*w+n-1], c[2*w+n-1]
	eigenAVX2(&e[0], &a[0], &b[0], &c[0], n, w)
	return n
}

//go:noescape
func box5AVX2(s *uint16, p *byte, n int)

//go:noescape
func colMeanAVX2(out *byte, rows **uint16, k int, m *uint32, n int)

// box5Rows writes the first n16 sums of boxRow with r = 2 (a multiple of 16), s[i] of
// p[i … i+4], by the assembly and returns n16 (0 without AVX2).
func box5Rows(s []uint16, p []byte) int {
	n := len(s) &^ 15
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = p[n+3]
	box5AVX2(&s[0], &p[0], n)
	return n
}

// colMeanRows writes the first n8 means of boxMean's columns (a multiple of 8) by the
// assembly and returns n8 (0 without AVX2).
func colMeanRows(out []byte, rows [][]uint16, m []uint32) int {
	n := len(out) &^ 7
	if !haveAVX2 || n == 0 || len(rows) > 2*maxBoxRadius+1 {
		return 0
	}
	var p [2*maxBoxRadius + 1]*uint16
	for j, r := range rows {
		p[j] = &r[:n][0]
	}
	_ = m[n-1]
	colMeanAVX2(&out[0], &p[0], len(rows), &m[0], n)
	return n
}

//go:noescape
func pyrRowsAVX2(out *uint16, row *byte, n int)

//go:noescape
func pyrColsAVX2(o *byte, r0, r1, r2, r3, r4 *uint16, n int)

// pyrRows writes the first n16 of pyrDown's row sums (a multiple of 16) by the assembly
// and returns n16 (0 without AVX2); row starts two pixels left of the first output's.
func pyrRows(out []uint16, row []byte) int {
	n := len(out) &^ 15
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = row[2*n+3]
	pyrRowsAVX2(&out[0], &row[0], n)
	return n
}

// pyrCols writes the first n16 of pyrDown's pixels of a row (a multiple of 16) by the
// assembly and returns n16 (0 without AVX2).
func pyrCols(o []byte, r0, r1, r2, r3, r4 []uint16) int {
	n := len(o) &^ 15
	if !haveAVX2 || n == 0 {
		return 0
	}
	_, _, _, _, _ = r0[n-1], r1[n-1], r2[n-1], r3[n-1], r4[n-1]
	pyrColsAVX2(&o[0], &r0[0], &r1[0], &r2[0], &r3[0], &r4[0], n)
	return n
}

//go:noescape
func binarizeAVX2(mask, p *byte, n int, t, flip byte)

// binarizeRows writes the first n32 bytes of binarize's mask (a multiple of 32) by the
// assembly and returns n32 (0 without AVX2, or for a t that is not a level).
func binarizeRows(mask, p []byte, t int, below bool) int {
	n := len(p) &^ 31
	if !haveAVX2 || n == 0 || t < 0 || t > 255 {
		return 0
	}
	_ = mask[n-1]
	binarizeAVX2(&mask[0], &p[0], n, byte(t), b2u(below))
	return n
}
