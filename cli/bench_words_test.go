package cli

import (
	"io"
	"strings"
	"testing"

	"trackink/overlay"
)

// TestBenchWords: what bench prints says what was run: one frame is "1 frame" (it said
// "1 frames"), a clip given to --e2e may have no audio (the header said "audio copied"),
// and the seed look, bench's default, is named where the looks are listed.
func TestBenchWords(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{seedHeader(overlay.SeedReport{Width: 3840, Height: 2160, Format: "nv12", Backend: "cpu", Workers: 1, Frames: 1, Links: 1}),
			"seed scene 3840x2160 onto NV12, cpu backend, 1 worker, 1 frame, 1 link a frame"},
		{seedHeader(overlay.SeedReport{Width: 3840, Height: 2160, Format: "yuv420p", Backend: "emu", Workers: 2, Frames: 30, Links: 305}),
			"seed scene 3840x2160 onto YUV420P, emu backend, 2 workers, 30 frames, 305 links a frame"},
		{effectsHeader("cpu", 1), "box effects, 20 boxes over 10 % of 3840x2160 YUV420P, cpu backend, 1 frame"},
		{effectsHeader("cpu", 20), "box effects, 20 boxes over 10 % of 3840x2160 YUV420P, cpu backend, 20 frames"},
		{detectHeader(1), "tracking alone, frames analysed at 540 lines (768 × 576 whole), 1 frame a mode ("},
		{detectHeader(100), "tracking alone, frames analysed at 540 lines (768 × 576 whole), 100 frames a mode ("},
		{e2eHeader("synth", 90, "seed", "ultrafast", 23), "synth, 90 frames, seed scene, libx264 -preset ultrafast -crf 23, audio copied"},
		{e2eHeader("vtest.avi", 1, "mot17", "medium", 20), "vtest.avi, 1 frame, mot17 scene, libx264 -preset medium -crf 20, audio, if any, copied"},
	} {
		if !strings.HasPrefix(tt.got, tt.want) {
			t.Errorf("got  %q\nwant %q", tt.got, tt.want)
		}
	}
	if code, _, stderr := trackink("bench", "--look", "nope"); code != exitUsage || !strings.Contains(stderr, `--look "nope": want one of seed, blob, `) {
		t.Errorf("bench --look nope: exit %d, %q; want it refused naming seed, the default", code, stderr)
	}
	fs, _ := benchCommand(io.Discard)
	if u := fs.Lookup("look").Usage; !strings.Contains(u, "start from: seed, ") {
		t.Errorf("--look's help %q does not name seed, the default", u)
	}
	if _, stdout, _ := trackink("bench", "--list-looks"); !strings.Contains("\n"+stdout, "\nseed ") {
		t.Errorf("bench --list-looks leaves out seed, its default:\n%s", stdout)
	}
}

// TestBenchHelp: bench --help's usage line names every benchmark, and each example sits
// under the comment that describes it (--detect was under the link graph's).
func TestBenchHelp(t *testing.T) {
	_, stdout, stderr := trackink("bench", "--help")
	help := stdout + stderr
	usage, _, _ := strings.Cut(help, "\n")
	for _, flag := range []string{"--knn", "--effects", "--e2e", "--detect", "seed scene"} {
		if !strings.Contains(usage, flag) {
			t.Errorf("usage line %q leaves out %s", usage, flag)
		}
	}
	for _, block := range strings.Split(help, "\n\n") {
		if strings.Contains(block, "trackink bench --detect") && !strings.Contains(block, "tracker") {
			t.Errorf("--detect's example is under another comment:\n%s", block)
		}
		if strings.Contains(block, "trackink bench --knn") && strings.Contains(block, "bench --detect") {
			t.Errorf("--knn's and --detect's examples share a comment:\n%s", block)
		}
	}
}

// TestBenchDetectAllWithoutModel: bench --detect all on a machine without the detector's
// model times every mode that needs none, and says the objects mode was skipped and why; it
// failed, exit 1, having timed nothing.
func TestBenchDetectAllWithoutModel(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TRACKINK_MODEL", "")
	t.Setenv("HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	code, stdout, stderr := trackink("bench", "--detect", "all", "--frames", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, mode := range []string{"bright", "dark", "motion", "color", "points"} {
		if !strings.Contains(stdout, "\n"+mode+" ") {
			t.Errorf("no %s row:\n%s", mode, stdout)
		}
	}
	if !strings.Contains(stdout, "objects: not timed") || !strings.Contains(stderr, "objects (--detect people) not timed: no model") {
		t.Errorf("the skip is not said:\nstdout %s\nstderr %s", stdout, stderr)
	}
}
