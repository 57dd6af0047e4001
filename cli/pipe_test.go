package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/video"
)

// pipeOf returns a path that reads the file at path through a pipe, as a shell's <(cat path)
// does (/dev/fd/N): what is read from it is gone, so the video can be opened only once.
func pipeOf(t *testing.T, path string) string {
	t.Helper()
	src, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	copied := make(chan struct{})
	go func() {
		io.Copy(w, src) // fails once the reader is gone: a render that stopped early
		w.Close()
		src.Close()
		close(copied)
	}()
	t.Cleanup(func() { r.Close(); <-copied })
	return fmt.Sprintf("/proc/self/fd/%d", r.Fd())
}

// TestRenderFromPipe: render and track read a video from a pipe, which holds the video once:
// the input is opened and probed once (video.Open) and the render reads on from there.
func TestRenderFromPipe(t *testing.T) {
	dir := t.TempDir()
	clip, tracks := filepath.Join(dir, "in.mkv"), filepath.Join(dir, "t.txt")
	if err := video.Synthesize(clip, 320, 240, 20, 10); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(tracks, []byte("1,1,10,20,30,40\n20,1,12,20,30,40\n"), 0o644)
	out := filepath.Join(dir, "out.mp4")
	if code, _, stderr := trackink("render", "-i", pipeOf(t, clip), "--tracks", tracks, "-o", out, "--preset", "ultrafast", "--quiet"); code != 0 {
		t.Fatalf("render from a pipe: exit %d: %s", code, stderr)
	}
	if n := ffprobeFrames(t, out); n != 20 {
		t.Errorf("render from a pipe wrote %d frames, want 20", n)
	}
	found := filepath.Join(dir, "found.txt")
	code, _, stderr := trackink("track", "-i", pipeOf(t, clip), "-o", found)
	if code != 0 || !strings.Contains(stderr, "over 20 frames") {
		t.Errorf("track from a pipe: exit %d, %s; want the 20 frames read", code, stderr)
	}
	// The motion mode primes its background in a first pass over a file; a pipe it reads
	// once, unprimed (once reopened half read: "Invalid data found").
	code, _, stderr = trackink("track", "-i", pipeOf(t, clip), "--detect", "motion", "-o", found, "-y")
	if code != 0 || !strings.Contains(stderr, "over 20 frames") {
		t.Errorf("track --detect motion from a pipe: exit %d, %s; want the 20 frames read", code, stderr)
	}
	if code, _, stderr := trackink("render", "-i", pipeOf(t, clip), "--detect", "motion", "-o", out, "-y", "--preset", "ultrafast", "--quiet"); code != 0 {
		t.Errorf("render --detect motion from a pipe: exit %d: %s", code, stderr)
	}
}
