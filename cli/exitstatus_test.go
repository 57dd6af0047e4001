package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/internal/mediatest"
)

// The README's table of exit statuses is exitStatuses, row for row.
func TestExitStatusTable(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	writeExitTable(&want)
	if !strings.Contains(string(readme), want.String()) {
		t.Errorf("README.md does not hold the table of exit statuses; put this under \"Commands and exit status\":\n%s", want.String())
	}
}

// TestSameMistakeSameStatus: one mistake, every command where it can happen, one status
// (exitStatuses). A malformed tracks file was 1 in render and tracks but 2 in eval; a
// range with no frame 2 in render but 3 in track, which means an output was kept.
func TestSameMistakeSameStatus(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	clip, tracks := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	os.WriteFile(p("bad.txt"), []byte("1,1,0,0,10,10,-1,-1,-1,-1\n2,1,0,0,-3,10,-1,-1,-1,-1\n"), 0o644)
	os.WriteFile(p("exists.mp4"), []byte("mine"), 0o644)
	os.WriteFile(p("exists.jsonl"), []byte("mine"), 0o644)
	os.WriteFile(p("not-a-video.mp4"), []byte("not a video"), 0o644)
	missing := filepath.Join(dir, "no-such-dir")
	for _, tc := range []struct {
		mistake string
		status  int
		runs    [][]string
	}{
		{"tracks that break their format's rule", exitFailure, [][]string{
			{"render", "-i", clip, "--tracks", p("bad.txt"), "-o", p("a.mp4")},
			{"tracks", p("bad.txt")},
			{"eval", "--gt", tracks, "--tracks", p("bad.txt")},
		}},
		{"a video FFmpeg cannot read", exitFailure, [][]string{
			{"render", "-i", p("not-a-video.mp4"), "--tracks", tracks, "-o", p("b.mp4")},
			{"track", "-i", p("not-a-video.mp4"), "--detect", "motion", "-o", p("b.jsonl")},
			{"tracks", tracks, "-i", p("not-a-video.mp4")},
			{"eval", "--gt", tracks, "--tracks", tracks, "-i", p("not-a-video.mp4")}, // was 2
		}},
		{"a negative size", exitUsage, [][]string{
			{"tracks", tracks, "--width", "-100", "--height", "5"}, // was 1
			{"eval", "--gt", tracks, "--tracks", tracks, "--width", "-100", "--height", "5"},
		}},
		{"a directory that does not exist", exitUsage, [][]string{
			{"golden"}, // was 1: the default --dir, outside the repository root (here, cli/)
			{"golden", "--dir", missing},
		}},
		{"an unknown name", exitUsage, [][]string{
			{"golden", "--only", "curvs"}, // was 1
			{"render", "-i", clip, "--tracks", tracks, "--look", "neonn", "-o", p("e.mp4")},
		}},
		{"a range with no frame", exitUsage, [][]string{
			{"render", "-i", clip, "--tracks", tracks, "--start", "01:00:00", "-o", p("c.mp4")},
			{"track", "-i", clip, "--detect", "motion", "--start", "01:00:00", "-o", p("c.jsonl")},
			{"render", "-i", clip, "--tracks", tracks, "--frame", "100000", "-o", p("c.png")},
		}},
		{"an output directory that does not exist", exitUsage, [][]string{
			{"render", "-i", clip, "--tracks", tracks, "-o", filepath.Join(missing, "d.mp4")},
			{"track", "-i", clip, "--detect", "motion", "-o", filepath.Join(missing, "d.jsonl")},
			{"tracks", tracks, "--to", "mot", "-o", filepath.Join(missing, "d.txt")},
		}},
		{"an output that exists, without -y", exitUsage, [][]string{
			{"render", "-i", clip, "--tracks", tracks, "-o", p("exists.mp4")},
			{"track", "-i", clip, "--detect", "motion", "-o", p("exists.jsonl")},
			{"tracks", tracks, "--to", "jsonl", "-o", p("exists.jsonl")},
		}},
	} {
		for _, args := range tc.runs {
			code, _, stderr := trackink(append(args, "--quiet")...)
			if args[0] == "tracks" || args[0] == "eval" || args[0] == "golden" {
				code, _, stderr = trackink(args...) // no --quiet flag
			}
			if code != tc.status {
				t.Errorf("%s: trackink %s: exit %d, want %d: %s", tc.mistake, strings.Join(args, " "), code, tc.status, stderr)
			}
		}
	}
}
