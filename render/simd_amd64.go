//go:build gc && !purego

package render

import (
	"golang.org/x/sys/cpu"

	"trackink/sdf"
)

// haveAVX2 selects the assembly in simd_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

// The AVX2 twins of simd.go's …Go functions. Pixel pointers point into a tile's first plane;
// the others follow at composite's plane stride. n counts pixels (lanes past it are
// masked), groups counts whole groups of 8 written to a rowBuf.

//go:noescape
func overSpanAVX2(p *float32, n int, c *layerColor)

//go:noescape
func overColorsAVX2(p *float32, n int, col *float32)

//go:noescape
func overCoverageAVX2(p, cov *float32, n int, c *layerColor)

//go:noescape
func overMaskAVX2(p *float32, m *byte, n int, c *layerColor)

//go:noescape
func segmentCoverageAVX2(cov *float32, groups int, s *sdf.Seg, px0, py, half, thin float32)

//go:noescape
func nearestChordAVX2(d2, op *float32, n int, s *sdf.Seg, px0, py, opacity float32)

//go:noescape
func strokeCoverageAVX2(cov, d2, op *float32, n int, half, thin float32)

//go:noescape
func roundBoxAVX2(d *float32, groups int, px0, qy, cx, hx, r float32)

//go:noescape
func boxShadeAVX2(p, d *float32, n int, b *boxProfile)
