//go:build !amd64 || !gc || purego

package composite

// haveAVX2 is false away from amd64 (and with -tags purego): the Go twins run.
var haveAVX2 = false

func tileAVX2(y *byte, yStride int, u, v *byte, uStride, vStride, step int, planes *float32, spans *Span, h, w int, k *blendConsts, mode Blend) {
	panic("composite: no AVX2 here")
}

func prefetchRows(p *byte, stride, rows int) {}

func blendRowAVX2(c0, c1, c2, a *float32, n int, k *blendConsts, mode Blend) {
	panic("composite: no AVX2 here")
}

func pickRowAVX2(c0, c1, c2, a *float32, n int, luma *byte, w float32, darken bool) {
	panic("composite: no AVX2 here")
}
