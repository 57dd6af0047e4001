package composite

// PrefetchRow asks for the cache lines of bytes [b0, b1) of row y of a plane (rows stride
// bytes apart): a hint, for loops that jump from row to row where the hardware's prefetcher
// does not follow (render's effects stage). No sample changes; without AVX2 it does nothing.
// It is one call of the row prefetcher, stepping a line at a time along the row: a call per
// line cost the effects stage about a tenth of its time.
func PrefetchRow(p []byte, stride, b0, b1, y int) {
	if b1 <= b0 || !haveAVX2 {
		return
	}
	lines := (b1 - b0 + 63) / 64
	_ = p[y*stride+b0+(lines-1)*64]
	prefetchRows(&p[y*stride+b0], 64, lines)
}
