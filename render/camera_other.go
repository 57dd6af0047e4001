//go:build !amd64 || !gc || purego

package render

func camera8AVX2(row, src *byte, cols *int32, base uint32, ry, c, amp int32, groups int) {
	panic(noAVX2)
}

func camera8PairsAVX2(row, even, odd *byte, cols *int32, base uint32, ry, c, amp int32, groups int) {
	panic(noAVX2)
}

func tint8AVX2(row, lrow *byte, keep, m0, m1, k0, k1 int32, pairs bool, groups int) {
	panic(noAVX2)
}
