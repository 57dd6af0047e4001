//go:build !amd64 || !gc || purego

package render

import "trackink/sdf"

// haveAVX2 is false away from amd64 (and with -tags purego): the Go twins run.
var haveAVX2 = false

func overSpanAVX2(p *float32, n int, c *layerColor)          { panic(noAVX2) }
func overColorsAVX2(p *float32, n int, col *float32)         { panic(noAVX2) }
func overCoverageAVX2(p, cov *float32, n int, c *layerColor) { panic(noAVX2) }
func overMaskAVX2(p *float32, m *byte, n int, c *layerColor) { panic(noAVX2) }
func segmentCoverageAVX2(cov *float32, groups int, s *sdf.Seg, px0, py, half, thin float32) {
	panic(noAVX2)
}
func nearestChordAVX2(d2, op *float32, n int, s *sdf.Seg, px0, py, opacity float32) {
	panic(noAVX2)
}
func strokeCoverageAVX2(cov, d2, op *float32, n int, half, thin float32) { panic(noAVX2) }

func roundBoxAVX2(d *float32, groups int, px0, qy, cx, hx, r float32) { panic(noAVX2) }
func boxShadeAVX2(p, d *float32, n int, b *boxProfile)                { panic(noAVX2) }

const noAVX2 = "render: no AVX2 here"
