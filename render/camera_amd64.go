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
