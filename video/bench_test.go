package video

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"trackink/composite"
)

// TestBench4K compares our render of a 3 s 4K clip with the plain ffmpeg CLI transcode, for
// libx264 ultrafast and veryfast. It takes minutes on two cores, so it runs only with
// TRACKINK_BENCH=1; TRACKINK_BENCH_SECONDS changes the clip length.
//
//	TRACKINK_BENCH=1 go test ./video -run Bench4K -v -timeout 30m
func TestBench4K(t *testing.T) {
	if os.Getenv("TRACKINK_BENCH") == "" {
		t.Skip("set TRACKINK_BENCH=1 to run the 4K benchmark")
	}
	secs := 3
	if s, err := strconv.Atoi(os.Getenv("TRACKINK_BENCH_SECONDS")); err == nil && s > 0 {
		secs = s
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "4k.mp4")
	if err := Synthesize(in, 3840, 2160, 30*secs, 30); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, preset := range []string{"ultrafast", "veryfast"} {
		b, err := BenchE2E(t.Context(), Options{Input: in, Output: filepath.Join(dir, preset+".mp4"), Preset: preset, CRF: 23},
			func(n int, f composite.Surface) error { return fillRect(f, kinds) }, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v; stages decode %.2fs overlay %.2fs encode %.2fs mux %.2fs", preset, b,
			b.Ours.Decode.Seconds(), b.Ours.Overlay.Seconds(), b.Ours.Encode.Seconds(), b.Ours.Mux.Seconds())
		// Wall time swings with other load on a shared machine; CPU time does much less.
		if b.Ratio > 1.15 && b.CPURatio > 1.15 {
			t.Errorf("%s: ours/ffmpeg = %.3f wall, %.3f CPU; target ≤ 1.15", preset, b.Ratio, b.CPURatio)
		}
		// x264 itself needs about 1 GiB at 4K veryfast (the ffmpeg CLI peaks at ~990 MiB), so
		// the bound is ffmpeg's peak plus what our queues may add.
		if limit := max(b.PlainPeakRSS+256<<20, 1<<30); b.Ours.PeakRSS > limit {
			t.Errorf("%s: peak RSS %d MiB, limit %d MiB", preset, b.Ours.PeakRSS>>20, limit>>20)
		}
	}
}
