//go:build gc && !purego

package composite

import "golang.org/x/sys/cpu"

// haveAVX2 selects the assembly in over_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

// lumaTileAVX2 is overLumaGo for a tile whose width w is a multiple of 8: for each of its h
// rows (luma plane and spans from c and spans, samples stride bytes apart from dst) it
// blends the row's span, widened to groups of 8 within the tile.
//
//go:noescape
func lumaTileAVX2(dst *byte, stride int, c *float32, spans *Span, h, w int)

// chromaTileAVX2 is overChromaGo for a tile whose width w is a multiple of 16: for each pair
// of its h rows (Cb plane from cb, Cr and alpha the next planes) it blends the blocks under
// the rows' spans, widened to groups of 8 within the tile, onto the samples u[i·step] and
// v[i·step] of the chroma row (step 1 or 2; with step 2, v must be u+1, as in NV12).
//
//go:noescape
func chromaTileAVX2(u, v *byte, uStride, vStride, step int, cb *float32, spans *Span, h, w int)

// prefetchRows prefetches (PREFETCHT0) the cache line at p and at every stride bytes on, rows
// lines in all.
//
//go:noescape
func prefetchRows(p *byte, stride, rows int)
