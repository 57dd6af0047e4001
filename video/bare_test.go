package video

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
)

// With nothing to draw, a render's frames cost the Go heap no more than astiav's wrapper
// structs (16 bytes each) of one frame and of each packet: the clip has one video and about
// 1.9 audio packets a frame, so fewer than four allocations a frame, counted as the growth
// from a short clip to one four times as long. No copy of the frame, no message formatted,
// no boxed "again" from the codecs (the render before this test had 10.6).
func TestNothingDrawnAllocations(t *testing.T) {
	dir := t.TempDir()
	mallocs := func(frames int) uint64 {
		in := filepath.Join(dir, fmt.Sprintf("in%d.mp4", frames))
		if err := Synthesize(in, clipW, clipH, frames, clipFPS); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, fmt.Sprintf("out%d.mp4", frames))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		st, err := Transcode(t.Context(), Options{Input: in, Output: out, Preset: "ultrafast"}, nil)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if st.Frames != frames || st.Overlaid != 0 {
			t.Fatalf("%d frames, %d overlaid; want %d, 0", st.Frames, st.Overlaid, frames)
		}
		return after.Mallocs - before.Mallocs
	}
	short, long := mallocs(clipFrames), mallocs(4*clipFrames)
	perFrame := (float64(long) - float64(short)) / float64(3*clipFrames)
	t.Logf("Go allocations: %d for %d frames, %d for %d: %.2f a frame", short, clipFrames, long, 4*clipFrames, perFrame)
	if perFrame >= 4 {
		t.Errorf("%.2f Go allocations a frame with nothing drawn, want fewer than 4", perFrame)
	}
}
