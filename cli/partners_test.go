package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trackink/internal/mediatest"
)

// readOnlyDir makes a directory no file can be created in: mode 0555 for a user, the
// immutable attribute for root (which mode bits do not stop). It skips the test where
// neither holds.
func readOnlyDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "read-only")
	os.Mkdir(dir, 0o555)
	if os.Getuid() == 0 {
		if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
			t.Skipf("no read-only directory for root here: chattr +i: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
	}
	if f, err := os.CreateTemp(dir, "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		t.Skipf("%s takes files", dir)
	}
	return dir
}

// The files a render writes beside its video are checked before any work: a
// directory that cannot take --stats-json or --save-tracks fails the render at once,
// naming the flag, and no video is written.
func TestPartnersCheckedBeforeWork(t *testing.T) {
	clip, tracks := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	ro := readOnlyDir(t)
	for _, tc := range []struct {
		flag string
		args []string
	}{
		{"--stats-json", []string{"--tracks", tracks, "--stats-json", filepath.Join(ro, "stats.json")}},
		{"--save-tracks", []string{"--detect", "bright", "--save-tracks", filepath.Join(ro, "t.jsonl")}},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.mp4")
			code, _, stderr := trackink(append([]string{"render", "-i", clip, "-o", out, "--quiet"}, tc.args...)...)
			if code == 0 || !strings.Contains(stderr, tc.flag) || !strings.Contains(stderr, "not writable") {
				t.Errorf("exit %d, %q; want a failure naming %s and the directory", code, stderr, tc.flag)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("the video was written")
			}
		})
	}
}

// An output directory that cannot be written in is found before the long work: join failed
// only after reading and checksumming every segment ("the packets of the 2 segments match
// their checksums"), tracks --to only after reading the tracks and printing their summary.
// Exit 1, naming the directory, with nothing done.
func TestOutputCheckedBeforeWork(t *testing.T) {
	clip, tracks := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	segs := filepath.Join(t.TempDir(), "segs")
	for i := range 2 {
		run(t, "render", "-i", clip, "--tracks", tracks, "--segment", fmt.Sprintf("%d/2", i), "-o", segs, "--quiet")
	}
	ro := readOnlyDir(t)
	for _, tc := range []struct {
		args []string
		work string // what the work says, which must not come
	}{
		{[]string{"join", "-i", clip, "--segments", segs, "-o", filepath.Join(ro, "j.mp4")}, "checksums"},
		{[]string{"tracks", tracks, "--to", "jsonl", "-o", filepath.Join(ro, "t.jsonl")}, "frames"},
		{[]string{"tracks", tracks, "--to", "mot", "-o", filepath.Join(ro, "t.txt")}, "frames"},
	} {
		code, stdout, stderr := trackink(tc.args...)
		if code != 1 || !strings.Contains(stderr, "output directory "+ro+"/ is not writable") || strings.Contains(stdout+stderr, tc.work) {
			t.Errorf("%v: exit %d, %q, %q; want 1 saying the directory is not writable, before the work", tc.args, code, stdout, stderr)
		}
	}
}

// MOTChallenge text written without classes over an earlier file that had them leaves no
// old class-names file beside it: with -y the old one is removed as the tracks land (it
// stayed, and every later read said the new file's classes were named by it); without -y
// one there refuses the run, exit 2, naming it, as the tracks' own file would. Each writer
// of MOTChallenge text alike: tracks --to mot, track, render --save-tracks.
func TestNoStaleClassNames(t *testing.T) {
	clip := mediatest.Clip(t, "mp4")
	plain := filepath.Join(t.TempDir(), "plain.txt") // tracks without classes
	if err := os.WriteFile(plain, []byte("1,1,10,10,20,20,1,-1,-1,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args func(out string) []string
	}{
		{"tracks --to mot", func(out string) []string { return []string{"tracks", plain, "--to", "mot", "-o", out} }},
		{"track", func(out string) []string { return []string{"track", "-i", clip, "--detect", "bright", "-o", out} }},
		{"render --save-tracks", func(out string) []string {
			return []string{"render", "-i", clip, "--detect", "bright", "--save-tracks", out, "-o", filepath.Join(filepath.Dir(out), "out.mp4")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out, names := filepath.Join(dir, "y.txt"), filepath.Join(dir, "y.names")
			for path, body := range map[string]string{out: "1,1,10,10,20,20,1,0,-1,-1\n", names: "person\ncar\n"} {
				if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, _, stderr := trackink(append(tc.args(out), "-y")...)
			if code != 0 || !strings.Contains(stderr, "removed the old "+names) {
				t.Errorf("-y: exit %d, %q; want 0 and a note of the removal", code, stderr)
			}
			if _, err := os.Stat(names); err == nil {
				t.Errorf("-y: the old %s is still beside the new %s", names, out)
			}
			if b, _ := os.ReadFile(out); strings.Contains(string(b), ",0,-1,-1") {
				t.Errorf("-y: %s is the old file: %q", out, b)
			}
			// Without -y: the tracks' own name is free, the names beside it are not.
			os.Remove(out)
			os.Remove(filepath.Join(dir, "out.mp4"))
			os.WriteFile(names, []byte("person\n"), 0o644)
			code, _, stderr = trackink(tc.args(out)...)
			if code != exitUsage || !strings.Contains(stderr, names+" exists") {
				t.Errorf("without -y: exit %d, %q; want 2 naming %s", code, stderr, names)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("without -y: %s written beside the old %s", out, names)
			}
		})
	}
}
