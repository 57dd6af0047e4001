//go:build gc && !purego

package detect

import "golang.org/x/sys/cpu"

// haveAVX2 selects the assembly in simd_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

//go:noescape
func verticalAVX2(dst *float32, src *byte, stride int, w *float32, taps int, n int)

//go:noescape
func horizontal8AVX2(dst *float32, src *float32, start *int32, w *[8]float32, n int)

// verticalRows does filter.vertical's work for the first samples of dst, a multiple of 8,
// in AVX2 where there is AVX2, and returns how many it did.
func verticalRows(dst []float32, src []byte, stride int, w []float32) int {
	n := len(dst) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	verticalAVX2(&dst[0], &src[0], stride, &w[0], len(w), n)
	return n
}

// horizontalRows does filter.horizontal's work with 8 taps for the first outputs of dst, a
// multiple of 8, in AVX2 where there is AVX2, and returns how many it did.
func horizontalRows(dst, src []float32, start []int32, w [][8]float32) int {
	n := len(dst) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	horizontal8AVX2(&dst[0], &src[0], &start[0], &w[0], n)
	return n
}

//go:noescape
func toRGBAVX2(rOut, gOut, bOut, y, cb, cr *float32, k *ycbcrToRGB, n int)

// toRGBRows does ycbcrToRGB.rows' work for the first samples of r, a multiple of 8, in AVX2
// where there is AVX2, and returns how many it did.
func toRGBRows(r, g, b, y, cb, cr []float32, k *ycbcrToRGB) int {
	n := len(r) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	toRGBAVX2(&r[0], &g[0], &b[0], &y[0], &cb[0], &cr[0], k, n)
	return n
}
