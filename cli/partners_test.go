package cli

import (
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
