//go:build !amd64 || !gc || purego

package render

func camera8AVX2(row, src *byte, cols *int32, base uint32, ry, c, amp int32, groups int) {
	panic(noAVX2)
}

func camera8PairsAVX2(row, even, odd *byte, cols *int32, base uint32, ry, c, amp int32, groups int) {
	panic(noAVX2)
}
