//go:build gc && !purego

package render

import (
	"golang.org/x/sys/cpu"

	"trackink/composite"
)

// haveAVX2 selects the assembly in simd_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

// The AVX2 twins of simd.go's …Go functions. Pixel pointers point into a tile's first plane;
// the others follow at composite's plane stride. n counts pixels (lanes past it are left
// as they were) or rows; groups counts whole groups of 8 written to a rowBuf.

//go:noescape
func overSpanAVX2(p *float32, n int, c *layerColor)

//go:noescape
func boxRowsAVX2(p *float32, rows, left, mid, right int, col *float32, fill *layerColor)

//go:noescape
func overMaskAVX2(p *float32, m *byte, stride, n, rows int, c *layerColor)

//go:noescape
func segmentSpansAVX2(spans *int32, n int, prm *spanParams)

//go:noescape
func slabSpansAVX2(spans *int32, n int, prm *slabParams) (lo, hi int)

//go:noescape
func strokeSegmentRowsAVX2(p *float32, spans *int32, n int, prm *strokeParams)

//go:noescape
func nearestChordRowsAVX2(d2, op *float32, union *composite.Span, spans *int32, n int, prm *chordParams)

//go:noescape
func strokeRowsAVX2(p, d2, op *float32, spans *composite.Span, n int, prm *profileParams, opacity float32)

//go:noescape
func boxCornerRowsAVX2(p *float32, rows int, prm *cornerParams)

//go:noescape
func boxColumnsAVX2(col *float32, n int, prm *cornerParams)

//go:noescape
func keepGroupsAVX2(dst *echoGroup, src *float32, groups int, scale *[composite.Channels]float32) uint64

//go:noescape
func underRunAVX2(p *float32, groups int, rows *echoRow, n int)
