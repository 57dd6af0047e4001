package overlay

import "trackink/scene"

// BenchSeedAt is benchSeedAt, for the external tests: BenchSeed on a small frame.
var BenchSeedAt = benchSeedAt

// SeedPicture is the CRC-32 of the frame a seed pass of frames frames (two of them warm-up)
// leaves on a w × h frame of format: what SeedBench's graph pass compares.
func SeedPicture(o Options, format string, w, h, frames int) (uint32, error) {
	r, err := seedPass(o, format, w, h, scene.Seed(w, h, frames), 2)
	return r.picture, err
}
