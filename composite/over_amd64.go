//go:build gc && !purego

package composite

import "golang.org/x/sys/cpu"

// haveAVX2 selects the assembly in over_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

// tileAVX2 is overYCbCr's Go twins (overChromaGo, then overLumaGo; for add after applyBlend) for a
// tile whose width w is a multiple of 16: the planes from planes, the spans from spans, h
// rows; the luma samples from y, yStride bytes a row, the chroma samples u[i·step] and
// v[i·step] from u and v (step 1 or 2; with step 2, v must be u+1, as in NV12); the layer
// changed for mode (add or screen, with k's constants) as it is read.
//
//go:noescape
func tileAVX2(y *byte, yStride int, u, v *byte, uStride, vStride, step int, planes *float32, spans *Span, h, w int, k *blendConsts, mode Blend)

// prefetchRows prefetches (PREFETCHT0) the cache line at p and at every stride bytes on, rows
// lines in all.
//
//go:noescape
func prefetchRows(p *byte, stride, rows int)

// blendRowAVX2 is blendConsts.row for add or multiply (mode) on a Y'CbCr layer, n pixels (a
// multiple of 8) of the planes' rows at c0, c1, c2 and a, with k's constants.
//
//go:noescape
func blendRowAVX2(c0, c1, c2, a *float32, n int, k *blendConsts, mode Blend)

// blend_amd64.s takes mode 3 for multiply: an array of negative length stops the build
// should BlendMultiply move.
var (
	_ [BlendMultiply - 3]struct{}
	_ [3 - BlendMultiply]struct{}
)

// pickRowAVX2 is pickRow on a Y'CbCr layer over an 8-bit frame, n pixels (a multiple of 8)
// of the planes' rows at c0, c1, c2 and a over the luma samples from luma, fading in over
// w code values, for darken or lighten.
//
//go:noescape
func pickRowAVX2(c0, c1, c2, a *float32, n int, luma *byte, w float32, darken bool)
