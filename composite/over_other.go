//go:build !amd64 || !gc || purego

package composite

// haveAVX2 is false away from amd64 (and with -tags purego): the Go twins run.
var haveAVX2 = false

func lumaAVX2(dst *byte, src *float32, groups, lo, hi int, k *lumaCoeffs) {
	panic("composite: no AVX2 here")
}

func chromaAVX2(u, v *byte, step int, r0, r1 *float32, groups, lo, hi int, k *chromaCoeffs) {
	panic("composite: no AVX2 here")
}
