package video

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"testing"
)

// A synthesised clip has exactly its frames, and audio as long as they last: the demo's
// 2 s clip once carried 1.365 s of audio, cut where the video's frame count was reached.
func TestSynthesizeAudioAsLongAsVideo(t *testing.T) {
	for _, c := range []struct{ w, h, frames, fps int }{{64, 64, 60, 30}, {64, 48, 7, 3}, {160, 120, 25, 25}} {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("c%d.mp4", c.frames))
		if err := Synthesize(path, c.w, c.h, c.frames, c.fps); err != nil {
			t.Fatal(err)
		}
		if n := len(videoPTS(t, path)); n != c.frames {
			t.Errorf("%+v: %d video frames", c, n)
		}
		want := float64(c.frames) / float64(c.fps)
		var audio float64
		for _, s := range probeStreams(t, path) {
			if s.CodecType == "audio" {
				audio, _ = strconv.ParseFloat(s.Duration, 64)
			}
		}
		// AAC frames are 1024 samples, 21 ms at 48 kHz.
		if math.Abs(audio-want) > 0.025 {
			t.Errorf("%+v: audio lasts %.3f s, the video %.3f s", c, audio, want)
		}
	}
}
