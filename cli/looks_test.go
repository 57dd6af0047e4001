package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlobLookRenders: the blob look's built-in font (Go Mono) is no file, so the rule for
// the files a render reads must not ask for one: a render in the look, and with --font
// "Go Mono", draws.
func TestBlobLookRenders(t *testing.T) {
	dir := t.TempDir()
	tracks := filepath.Join(dir, "t.txt")
	if err := os.WriteFile(tracks, []byte("1,1,10,10,40,60,1,-1,-1,-1\n1,2,90,20,40,60,1,-1,-1,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{{"--look", "blob"}, {"--font", "Go Mono", "--label", "{hex}"}} {
		out := filepath.Join(dir, fmt.Sprintf("%d.png", i))
		base := []string{"render", "--width", "160", "--height", "120", "--tracks", tracks, "-o", out}
		if code, _, stderr := trackink(append(base, args...)...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}

// TestLinkCapErrors: --max-links-per-point and --max-links-per-frame refuse what is not
// a positive whole number, naming the flag (exit status 2, before any work); --k and
// --max-degree may not exceed the cap on links per point, from a flag or a style file.
func TestLinkCapErrors(t *testing.T) {
	dir := t.TempDir()
	tracks := filepath.Join(dir, "t.txt")
	os.WriteFile(tracks, []byte("1,1,10,10,20,20\n1,2,50,10,20,20\n"), 0o644)
	style := filepath.Join(dir, "s.toml")
	os.WriteFile(style, []byte("max-degree = 99999999999999\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-links-per-point", "0"}, `--max-links-per-point "0": must be at least 1`},
		{[]string{"--max-links-per-point", "-4"}, `--max-links-per-point "-4": must be at least 1`},
		{[]string{"--max-links-per-frame", "0"}, `--max-links-per-frame "0": must be at least 1`},
		{[]string{"--max-links-per-frame", "lots"}, `--max-links-per-frame "lots": want a whole number of links`},
		{[]string{"--max-links-per-frame", "1e12"}, `--max-links-per-frame "1e12": want a whole number of links`},
		{[]string{"--k", "9", "--max-links-per-point", "8"}, "--k 9: more neighbours than the 8 links a point may have"},
		// --max-degree sizes scratch space: a huge one panicked or ran out of memory mid-render.
		{[]string{"--max-degree", "99999999999999"}, "--max-degree 99999999999999: more links than the 256 a point may have"},
		{[]string{"--max-degree", "4294967296"}, "--max-degree 4294967296: more links than the 256 a point may have"},
		{[]string{"--max-degree", "9", "--max-links-per-point", "8"}, "--max-degree 9: more links than the 8 a point may have"},
		{[]string{"--style", style}, style + ":1: max-degree = 99999999999999: more links than the 256"},
	} {
		args := append([]string{"render", "--width", "64", "--height", "48", "--tracks", tracks, "-o", filepath.Join(dir, "o.png")}, tc.args...)
		code, _, stderr := trackink(args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "o.png")); err == nil {
			t.Fatalf("%v: a picture was written", tc.args)
		}
	}
}

// TestLinkCapWarning: when a cap drops links, a render says so once, at the end, with how
// many each cap dropped over the render and the flag that raises it; a render whose caps
// drop nothing says nothing. 40 tracks on one spot, linked within 10 px: 780 pairs; with at
// most 4 links a point the 5 lowest track ids keep their 10 links, and a frame cap of 6
// keeps 6 of those.
func TestLinkCapWarning(t *testing.T) {
	var rows []string
	for frame := 1; frame <= 3; frame++ {
		for id := 1; id <= 40; id++ {
			rows = append(rows, fmt.Sprintf("%d,%d,100,50,20,20,1,-1,-1,-1", frame, id))
		}
	}
	dir, clip, tracks := clipWithTracks(t, 160, 120, 3, strings.Join(rows, "\n")+"\n")
	caps := []string{"--links", "radius", "--max-dist", "10", "--max-links-per-point", "4", "--max-links-per-frame", "6", "--no-labels"}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"picture", []string{"--width", "160", "--height", "120", "--frame", "2", "-o", filepath.Join(dir, "o.png")},
			"770 links over --max-links-per-point 4 and 4 links over --max-links-per-frame 6 dropped in 1 frame"},
		{"video", []string{"-i", clip, "-o", filepath.Join(dir, "o.mp4"), "--preset", "ultrafast"},
			"2310 links over --max-links-per-point 4 and 12 links over --max-links-per-frame 6 dropped in 3 frames"},
	} {
		code, _, stderr := trackink(append(append([]string{"render", "--tracks", tracks}, tc.args...), caps...)...)
		if code != 0 || strings.Count(stderr, "warning") != 1 || !strings.Contains(stderr, "trackink render: warning: "+tc.want) ||
			!strings.Contains(stderr, "raise the cap to keep more") {
			t.Errorf("%s: exit %d, %q; want one warning %q", tc.name, code, stderr, tc.want)
		}
		code, _, stderr = trackink(append(append([]string{"render", "--tracks", tracks, "-y"}, tc.args...), "--no-labels")...)
		if code != 0 || strings.Contains(stderr, "warning") {
			t.Errorf("%s, default caps: exit %d, %q; want no warning", tc.name, code, stderr)
		}
	}
}
