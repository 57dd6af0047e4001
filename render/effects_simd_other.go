//go:build !amd64 || !gc || purego

package render

import "unsafe"

func fxBlend8AVX2(p *byte, e *float32, q *fxPoint, cov *float32, groups int) { panic(noAVX2) }
func fxBlend16AVX2(p *byte, e *float32, q *fxPoint, cov *float32, groups int, shift uint) {
	panic(noAVX2)
}
func fxLerpAVX2(out, top, bot *float32, t float32, groups int)                  { panic(noAVX2) }
func fxSlide8AVX2(col *int32, add, sub *byte, groups int)                       { panic(noAVX2) }
func fxSlide16AVX2(col *int32, add, sub *byte, groups int, shift uint)          { panic(noAVX2) }
func fxBoxOutAVX2(out *float32, hi, lo *int32, recip *float32, groups int)      { panic(noAVX2) }
func fxPrefixAVX2(p, col *int32, groups int)                                    { panic(noAVX2) }
func fxAcrossAVX2(dst, row *float32, base, perm *int32, w *float32, groups int) { panic(noAVX2) }
func fxCapAVX2(dst, src *float32, c float32, groups int)                        { panic(noAVX2) }
func fxChromaAVX2(dst, c0, c1 *float32, q float32, groups int)                  { panic(noAVX2) }
func fxWiden8AVX2(out *float32, src *byte, groups int)                          { panic(noAVX2) }
func fxEvenBytesAVX2(dst, src *byte, groups int)                                { panic(noAVX2) }
func fxTransposeAVX2(dst *byte, m int, src *byte, n int, groups int)            { panic(noAVX2) }
func fxSortMasksAVX2(in, down *uint64, keys *byte, lo, span uint32, groups int) { panic(noAVX2) }
func fxKeyRangeAVX2(keys *byte, groups int) (lo, hi uint32)                     { panic(noAVX2) }
func fxLayOutAVX2(out *float32, c *int32, values int, least float32)            { panic(noAVX2) }
func fxRanksAVX2(places *int32, keys *byte, n int)                              { panic(noAVX2) }
func fxSortBytesAVX2(dst, src *byte, n int)                                     { panic(noAVX2) }
func fxPrefix3AVX2(p *int32, stride int, carry *int32, groups int)              { panic(noAVX2) }
func fxGaussTapsAVX2(out unsafe.Pointer, wide bool, p *int32, w0, w1, w2, groups int) {
	panic(noAVX2)
}
func fxGaussSlideAVX2(dst, prev, add, sub unsafe.Pointer, wide bool, groups int) { panic(noAVX2) }
func fxGaussOutAVX2(out *float32, cur, add, sub unsafe.Pointer, wide bool, dx *float64, dy float64, groups int) {
	panic(noAVX2)
}
