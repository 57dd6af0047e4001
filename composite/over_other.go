//go:build !amd64 || !gc || purego

package composite

// haveAVX2 is false away from amd64 (and with -tags purego): the Go twins run.
var haveAVX2 = false

func lumaTileAVX2(dst *byte, stride int, c *float32, spans *Span, h, w int) {
	panic("composite: no AVX2 here")
}

func chromaTileAVX2(u, v *byte, uStride, vStride, step int, cb *float32, spans *Span, h, w int) {
	panic("composite: no AVX2 here")
}

func prefetchRows(p *byte, stride, rows int) {}
