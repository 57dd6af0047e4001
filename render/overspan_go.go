package render

import "trackink/overlay"

// overSpanGo is the plain Go twin of overSpanAVX2: p = c + p·(1 − c.A) on each channel, the
// product rounded before the sum, as the assembly does it: the conversions keep the compiler
// from fusing the two into an FMA (which it may with GOAMD64=v3).
func overSpanGo(px []float32, c overlay.RGBA) {
	k := 1 - c.A
	for i := 0; i+3 < len(px); i += 4 {
		p := px[i : i+4 : i+4]
		p[0] = c.R + float32(p[0]*k)
		p[1] = c.G + float32(p[1]*k)
		p[2] = c.B + float32(p[2]*k)
		p[3] = c.A + float32(p[3]*k)
	}
}
