//go:build gc && !purego

package render

// camera8AVX2 is camera8Go's loop on groups whole groups of 8 samples (camera_amd64.s).
//
//go:noescape
func camera8AVX2(row, src *byte, cols *int32, base uint32, ry, c, amp int32, groups int)

// camera8PairsAVX2 is camera8PairsGo's loop on groups whole groups of 8 samples
// (camera_amd64.s).
//
//go:noescape
func camera8PairsAVX2(row, even, odd *byte, cols *int32, base uint32, ry, c, amp int32, groups int)

// tint8AVX2 is tint8Go's loop (4:2:0) on groups whole groups of 8 chroma samples, reading
// 16 luma bytes a group, m0 = m1 and k0 = k1; with pairs tintPairs8Go's, on 8 bytes of the
// interleaved row a group, reading 8 luma bytes, Cb's m0 and k0, Cr's m1 and k1
// (camera_amd64.s).
//
//go:noescape
func tint8AVX2(row, lrow *byte, keep, m0, m1, k0, k1 int32, pairs bool, groups int)
