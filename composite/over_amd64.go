//go:build gc && !purego

package composite

import "golang.org/x/sys/cpu"

// haveAVX2 selects the assembly in over_amd64.s. It is a variable so that the tests can run
// the Go twins on the same machine and compare.
var haveAVX2 = cpu.X86.HasAVX2

// lumaAVX2 is lumaRow for groups of 8 pixels: it blends the 8·groups pixels of the luma plane
// at c (their alphas 3·planeStride floats on) onto the luma samples at dst.
//
//go:noescape
func lumaAVX2(dst *byte, c *float32, groups int)

// chromaAVX2 is chromaRow for groups of 8 blocks: it blends the 8·groups 2×2 blocks whose top
// left pixels in the Cb plane start at cb (Cr planeStride floats on, alpha 2·planeStride, the
// second row rowStride) onto the chroma samples u[i·step] and v[i·step] (step 1 or 2; with
// step 2, v must be u+1, as in NV12), the sums scaled by mean.
//
//go:noescape
func chromaAVX2(u, v *byte, step int, cb *float32, groups int, mean float32)
