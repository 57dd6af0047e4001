package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/internal/mediatest"
	"trackink/scene"
)

// Flags that were silently ignored or changed meaning are refused, exit 2 naming the flag,
// before any work; .ndjson is JSON Lines to --save-tracks as it is to the readers.
func TestFlagsNotIgnored(t *testing.T) {
	dir := t.TempDir()
	tracks := filepath.Join(dir, "t.txt")
	if err := os.WriteFile(tracks, []byte("1,1,10,10,20,40,1,-1,-1,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.mp4")
	clip := mediatest.Clip(t, "mp4") // opened by the checks, never rendered
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--detect", "motion", "--frame-offset", "5"}, "--frame-offset"},
		{[]string{"--detect", "motion", "--tracks-size", "1920x1080"}, "--tracks-size"},
		{[]string{"--tracks", tracks, "--crf", "20", "--bitrate", "2000000"}, "--crf and --bitrate"},
		{[]string{"--tracks", tracks, "--box-effect", "invert", "--effect-strength", "5"}, "invert takes no strength"},
	} {
		args := append([]string{"render", "-i", clip, "-o", out}, c.args...)
		code, _, stderr := trackink(args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 saying %s", c.args, code, stderr, c.want)
		}
	}
	for _, name := range []string{"t.ndjson", "t.NDJSON", "t.jsonl"} {
		if f, err := tracksFormat("--save-tracks", name); err != nil || f != scene.FormatJSONL {
			t.Errorf("%s: %v, %v; want JSON Lines", name, f, err)
		}
	}
}
