package composite

// PrefetchRow asks for the cache lines of bytes [b0, b1) of row y of a plane (rows stride
// bytes apart): a hint, for loops that jump from row to row where the hardware's prefetcher
// does not follow (render's effects stage). No sample changes; without AVX2 it does nothing.
func PrefetchRow(p []byte, stride, b0, b1, y int) {
	for b := b0; b < b1; b += 64 {
		prefetchPlane(p, stride, b, y, 1)
	}
}
