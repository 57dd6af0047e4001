//go:build !amd64 || !gc || purego

package composite

func fadeAVX2(p *float32, n int, a float32) { panic("composite: no AVX2 here") }
