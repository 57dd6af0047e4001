//go:build gc && !purego

package composite

import "golang.org/x/sys/cpu"

// haveAVX2 selects the assembly in over_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

// lumaAVX2 is lumaRow for groups of 8 pixels: it blends the 8·groups pixels at src onto the
// luma samples at dst, except the lanes outside [lo, hi), whose samples it leaves as they are.
//
//go:noescape
func lumaAVX2(dst *byte, src *float32, groups, lo, hi int, k *lumaCoeffs)

// chromaAVX2 is chromaRow for groups of 8 blocks: it blends the 8·groups 2×2 blocks of rows
// r0 and r1 onto the chroma samples u[i·step] and v[i·step] (step 1 or 2; with step 2, v must
// be u+1, as in NV12), except the blocks outside [lo, hi), whose samples it leaves as they are.
//
//go:noescape
func chromaAVX2(u, v *byte, step int, r0, r1 *float32, groups, lo, hi int, k *chromaCoeffs)
