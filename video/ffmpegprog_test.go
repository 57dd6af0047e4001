package video

import (
	"path/filepath"
	"strings"
	"testing"
)

// TRACKINK_FFMPEG chooses the ffmpeg program (the GPU kit points it at the machine's own
// ffmpeg for bench --e2e); one that does not exist is an error naming it.
func TestFFmpegProgramFromEnvironment(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-ffmpeg-here")
	t.Setenv("TRACKINK_FFMPEG", missing)
	err := Synthesize(filepath.Join(t.TempDir(), "x.mp4"), 64, 64, 1, 25)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("Synthesize with TRACKINK_FFMPEG=%s: %v, want an error naming it", missing, err)
	}
}
