package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trackink/video"
)

func ffprobeFrames(t *testing.T, path string) int {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
		"-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var n int
	fmt.Sscan(strings.TrimSpace(string(out)), &n)
	return n
}

func TestRenderVideoEndToEnd(t *testing.T) {
	dir := t.TempDir()
	in, tracks := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "t.jsonl")
	out, stats := filepath.Join(dir, "out.mp4"), filepath.Join(dir, "stats.json")
	if err := video.Synthesize(in, 320, 240, 20, 10); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for n := 1; n <= 25; n++ { // five frames more than the video has
		lines = append(lines, fmt.Sprintf(`{"frame":%d,"boxes":[{"id":1,"x":%d,"y":40,"w":60,"h":80},{"id":2,"x":900,"y":40,"w":20,"h":20}]}`, n, 20+n*5))
	}
	os.WriteFile(tracks, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "-o", out, "--stats-json", stats, "--preset", "ultrafast")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := ffprobeFrames(t, out); n != 20 {
		t.Errorf("output has %d frames, want 20", n)
	}
	for _, want := range []string{"frames up to 25, but the video ends at tracks frame 20", "20 tracked items in 20 frames lie wholly outside"} {
		if strings.Count(stderr, want) != 1 {
			t.Errorf("stderr should say %q once:\n%s", want, stderr)
		}
	}
	var s map[string]any
	b, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s["frames"] != 20.0 {
		t.Errorf("stats frames = %v", s["frames"])
	}
	if _, ok := s["overlay_stages_s"].(map[string]any)["composite"]; !ok {
		t.Errorf("no overlay stages in %s", b)
	}
	// The same output again needs -y.
	if code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "-o", out); code != 1 || !strings.Contains(stderr, "-y") {
		t.Errorf("existing output: exit %d, %s", code, stderr)
	}
}

func TestRenderDamagedVideoKeepsOutput(t *testing.T) {
	dir := t.TempDir()
	in, cut, out := filepath.Join(dir, "in.mkv"), filepath.Join(dir, "cut.mkv"), filepath.Join(dir, "out.mkv")
	if err := video.Synthesize(in, 320, 240, 30, 10); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(in)
	os.WriteFile(cut, b[:len(b)/2], 0o644)
	code, _, stderr := trackink("render", "-i", cut, "--scene", "seed", "-o", out, "--quiet", "--preset", "ultrafast")
	if code != exitDamaged {
		t.Fatalf("exit %d, want %d: %s", code, exitDamaged, stderr)
	}
	if n := ffprobeFrames(t, out); n < 1 || n >= 30 {
		t.Errorf("output of a damaged input has %d frames", n)
	}
}

func TestProgressLine(t *testing.T) {
	var b strings.Builder
	p := newProgressLine(&b, true)
	p.update(video.Progress{Frames: 50, Total: 200, Elapsed: 5 * time.Second, FPS: 10, ETA: 15 * time.Second})
	p.done()
	if got := b.String(); !strings.Contains(got, "frame 50/200 (25%)  10.0 fps  5s  ETA 15s") || !strings.HasSuffix(got, "\n") {
		t.Errorf("progress line %q", got)
	}
	b.Reset()
	off := newProgressLine(&b, false)
	off.update(video.Progress{Frames: 1})
	off.done()
	if b.Len() != 0 {
		t.Errorf("a disabled progress line printed %q", b.String())
	}
}
