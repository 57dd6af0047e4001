package video

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
)

// With nothing to draw, a render's frames cost the Go heap nothing: the Go allocations of a
// render do not grow from a short clip to one four times as long (before: 10.6 a frame:
// a message formatted for each packet, astiav's boxed "again" from each codec, a slice of
// the input's streams for each audio packet, and astiav's wrapper for each frame and
// packet, which are now kept for reuse).
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
	if perFrame >= 0.5 {
		t.Errorf("%.2f Go allocations a frame with nothing drawn, want none", perFrame)
	}
}
