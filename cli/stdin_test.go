package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withStdin runs f with standard input reading content.
func withStdin(t *testing.T, content string, f func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	saved := os.Stdin
	os.Stdin = in
	defer func() { os.Stdin = saved }()
	f()
}

// TestTracksFromStdin: "-" reads the tracks from standard input, for tracks and render, the
// format told by the content (here six-field MOTChallenge rows).
func TestTracksFromStdin(t *testing.T) {
	const rows = "1,1,10,20,30,40\n2,1,12,20,30,40\n1,2,100,20,30,40\n"
	withStdin(t, rows, func() {
		code, stdout, stderr := trackink("tracks", "-")
		if code != 0 || !strings.Contains(stdout, "MOTChallenge text") || !strings.Contains(stdout, "tracks     2") {
			t.Errorf("tracks -: exit %d, %q, %q", code, stdout, stderr)
		}
	})
	dir := t.TempDir()
	pic, out := filepath.Join(dir, "in.png"), filepath.Join(dir, "out.png")
	writePicture(t, pic, 160, 120)
	withStdin(t, rows, func() {
		if code, _, stderr := trackink("render", "-i", pic, "--tracks", "-", "-o", out); code != 0 {
			t.Errorf("render --tracks -: exit %d: %s", code, stderr)
		}
	})
	// The box of track 1 (10..40 × 20..60) is drawn over the plain grey picture.
	img := readPicture(t, out)
	if r, g, b, _ := img.At(10, 40).RGBA(); r == g && g == b {
		t.Error("render --tracks - drew no box")
	}
}
