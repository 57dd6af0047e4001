//go:build gc && !purego

package composite

// fadeAVX2 multiplies the n floats from p (n a multiple of 8) by a (fade_amd64.s).
//
//go:noescape
func fadeAVX2(p *float32, n int, a float32)
