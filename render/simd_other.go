//go:build !amd64 || !gc || purego

package render

import "trackink/composite"

// haveAVX2 is false away from amd64 (and with -tags purego): the Go twins run.
var haveAVX2 = false

func overSpanAVX2(p *float32, n int, c *layerColor)                            { panic(noAVX2) }
func overMaskAVX2(p *float32, m *byte, stride, n, rows int, c *layerColor)     { panic(noAVX2) }
func segmentSpansAVX2(spans *int32, n int, prm *spanParams)                    { panic(noAVX2) }
func slabSpansAVX2(spans *int32, n int, prm *slabParams) (lo, hi int)          { panic(noAVX2) }
func strokeSegmentRowsAVX2(p *float32, spans *int32, n int, prm *strokeParams) { panic(noAVX2) }
func nearestChordRowsAVX2(d2, op *float32, union *composite.Span, spans *int32, n int, prm *chordParams) {
	panic(noAVX2)
}
func strokeRowsAVX2(p, d2, op *float32, spans *composite.Span, n int, prm *profileParams, opacity float32) {
	panic(noAVX2)
}

func boxRowsAVX2(p *float32, rows, left, mid, right int, col *float32, fill *layerColor) {
	panic(noAVX2)
}

func boxCornerRowsAVX2(p *float32, rows int, prm *cornerParams) { panic(noAVX2) }
func boxColumnsAVX2(col *float32, n int, prm *cornerParams)     { panic(noAVX2) }

func keepGroupsAVX2(dst *echoGroup, src *float32, groups int, scale *[composite.Channels]float32) uint64 {
	panic(noAVX2)
}
func underRunAVX2(p *float32, groups int, rows *echoRow, n int) { panic(noAVX2) }

const noAVX2 = "render: no AVX2 here"
