package cli

import (
	"fmt"
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

// TestDashIsAName: "-" is standard input for a tracks file only. As a video (-i) it is a
// file's name, and where there is none the message says to give /dev/stdin (it said "no
// such file or directory"); as an output it is refused as standard output, which an output
// written whole and renamed cannot be (render -o - said "no container format is known by
// this name's extension"). Both exit 2, naming the flag.
func TestDashIsAName(t *testing.T) {
	dir := t.TempDir()
	pic, vid, tracks := filepath.Join(dir, "in.png"), filepath.Join(dir, "in.mp4"), filepath.Join(dir, "t.txt")
	writePicture(t, pic, 64, 48)
	for path, body := range map[string]string{vid: "not read: the outputs are checked first", tracks: "1,1,10,10,20,20,1,-1,-1,-1\n"} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const toStdin, notStdout = `-i -: no file named "-"; to read standard input give /dev/stdin`,
		"-: standard output is not an output here (outputs are written whole, then renamed into place): give a file's name"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "-i", "-", "--tracks", tracks, "-o", filepath.Join(dir, "o.mp4")}, toStdin},
		{[]string{"track", "-i", "-", "-o", filepath.Join(dir, "o.txt")}, toStdin},
		{[]string{"tracks", tracks, "-i", "-"}, toStdin},
		{[]string{"render", "-i", pic, "--tracks", tracks, "-o", "-"}, "-o " + notStdout},
		{[]string{"render", "-i", vid, "--tracks", tracks, "-o", filepath.Join(dir, "o.mp4"), "--stats-json", "-"}, "--stats-json " + notStdout},
		{[]string{"track", "-i", vid, "-o", "-"}, "-o " + notStdout},
	} {
		code, _, stderr := trackink(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2, %q", c.args, code, stderr, c.want)
		}
	}
}

// TestStdinReadOnce: a pipe on standard input can be read once, so the tracks (-) and the
// video (its path, /dev/stdin here the pipe's) cannot both come from it: refused, exit 2,
// naming both (each read half of it before). A file redirected to standard input is opened
// anew by its name, so it is no such pipe.
func TestStdinReadOnce(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.Close()
	saved := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = saved }()
	stdin := fmt.Sprintf("/proc/self/fd/%d", r.Fd()) // what /dev/stdin is where the pipe is fd 0
	dir := t.TempDir()
	const both = "both read standard input, which can be read once"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "-i", stdin, "--tracks", "-", "-o", filepath.Join(dir, "o.mp4")}, "--tracks - and -i " + stdin + " " + both},
		{[]string{"tracks", "-", "-i", stdin}, "tracks file - and -i " + stdin + " " + both},
	} {
		code, _, stderr := trackink(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2, %q", c.args, code, stderr, c.want)
		}
	}
	pic := filepath.Join(dir, "in.png")
	writePicture(t, pic, 64, 48)
	withStdin(t, "1,1,10,10,20,20\n", func() {
		if code, _, stderr := trackink("render", "-i", pic, "--tracks", "-", "-o", filepath.Join(dir, "o.png")); code != 0 {
			t.Errorf("--tracks - from a file: exit %d, %s", code, stderr)
		}
	})
}
