package cli

import (
	"os"
	"path/filepath"
	"testing"

	"trackink/video"
)

// clipWithTracks writes into a temporary directory a synthetic w × h clip of the given
// frames (10 fps) and a tracking file of the given MOTChallenge rows, and returns the
// directory and both paths.
func clipWithTracks(t *testing.T, w, h, frames int, rows string) (dir, clip, tracks string) {
	t.Helper()
	dir = t.TempDir()
	clip, tracks = filepath.Join(dir, "in.mp4"), filepath.Join(dir, "t.txt")
	if err := video.Synthesize(clip, w, h, frames, 10); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tracks, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, clip, tracks
}
