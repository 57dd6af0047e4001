//go:build gc && !purego

package render

import "unsafe"

// The AVX2 twins of effects_simd.go's Go loops (effects_amd64.s): groups counts whole
// groups of 8 samples, side by side (one byte, or two for fxBlend16AVX2). With q non-nil
// the blends' effect values are q's of the samples (e is not read), else e's.

//go:noescape
func fxBlend8AVX2(p *byte, e *float32, q *fxPoint, cov *float32, groups int)

//go:noescape
func fxBlend16AVX2(p *byte, e *float32, q *fxPoint, cov *float32, groups int, shift uint)

//go:noescape
func fxLerpAVX2(out, top, bot *float32, t float32, groups int)

//go:noescape
func fxSlide8AVX2(col *int32, add, sub *byte, groups int)

//go:noescape
func fxSlide16AVX2(col *int32, add, sub *byte, groups int, shift uint)

//go:noescape
func fxBoxOutAVX2(out *float32, hi, lo *int32, recip *float32, groups int)

//go:noescape
func fxPrefixAVX2(p, col *int32, groups int)

//go:noescape
func fxAcrossAVX2(dst, row *float32, base, perm *int32, w *float32, groups int)

//go:noescape
func fxCapAVX2(dst, src *float32, c float32, groups int)

//go:noescape
func fxChromaAVX2(dst, c0, c1 *float32, q float32, groups int)

//go:noescape
func fxWiden8AVX2(out *float32, src *byte, groups int)

//go:noescape
func fxEvenBytesAVX2(dst, src *byte, groups int)

//go:noescape
func fxTransposeAVX2(dst *byte, m int, src *byte, n int, groups int)

//go:noescape
func fxSortMasksAVX2(in, down *uint64, keys *byte, lo, span uint32, groups int)

//go:noescape
func fxKeyRangeAVX2(keys *byte, groups int) (lo, hi uint32)

//go:noescape
func fxLayOutAVX2(out *float32, c *int32, values int, least float32)

//go:noescape
func fxRanksAVX2(places *int32, keys *byte, n int)

//go:noescape
func fxSortBytesAVX2(dst, src *byte, n int)

//go:noescape
func fxGaussSlideAVX2(dst, prev, add, sub unsafe.Pointer, wide bool, groups int)

//go:noescape
func fxGaussOutAVX2(out *float32, cur, add, sub unsafe.Pointer, wide bool, dx *float64, dy float64, groups int)

//go:noescape
func fxPrefix3AVX2(p *int32, stride int, carry *int32, groups int)

//go:noescape
func fxGaussTapsAVX2(out unsafe.Pointer, wide bool, p *int32, w0, w1, w2, groups int)
