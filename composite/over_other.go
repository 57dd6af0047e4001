//go:build !amd64 || !gc || purego

package composite

// haveAVX2 is false away from amd64 (and with -tags purego): the Go twins run.
var haveAVX2 = false

func lumaAVX2(dst *byte, c *float32, groups int) { panic("composite: no AVX2 here") }

func chromaAVX2(u, v *byte, step int, cb *float32, groups int, mean float32) {
	panic("composite: no AVX2 here")
}
