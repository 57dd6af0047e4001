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
	if code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "-o", out); code != exitUsage || !strings.Contains(stderr, "-y") {
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

// probeVideo is the first video stream's width, height and pixel format.
func probeVideo(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,pix_fmt",
		"-of", "csv=p=0", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	return strings.TrimRight(strings.TrimSpace(string(out)), ",") // side data adds empty fields
}

// An odd size (641×479, which 4:2:0 H.264 cannot code): padded to 642×480 by default with a
// warning, cropped with --odd-size crop, kept in 4:4:4 with --odd-size 444.
func TestRenderOddSize(t *testing.T) {
	dir := t.TempDir()
	in, tracks := filepath.Join(dir, "odd.mkv"), filepath.Join(dir, "t.txt")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=641x479:rate=25", "-frames:v", "3",
		"-c:v", "ffv1", "-pix_fmt", "yuv420p", in).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	os.WriteFile(tracks, []byte("1,1,600,440,41,39,1,-1,-1,-1\n"), 0o644) // a box on the odd edge
	for flag, want := range map[string]string{"": "642,480,yuv420p", "crop": "640,478,yuv420p", "444": "641,479,yuv444p"} {
		out := filepath.Join(dir, "out"+flag+".mp4")
		args := []string{"render", "-i", in, "--tracks", tracks, "-o", out, "--preset", "ultrafast"}
		if flag != "" {
			args = append(args, "--odd-size", flag)
		}
		code, _, stderr := trackink(args...)
		if code != 0 || !strings.Contains(stderr, "641x479 is odd") {
			t.Errorf("--odd-size %q: exit %d, %s", flag, code, stderr)
			continue
		}
		if got := probeVideo(t, out); got != want {
			t.Errorf("--odd-size %q: output %s, want %s", flag, got, want)
		}
	}
}

// A phone video stored 320×240 with a 90° display matrix, shown 240×320: its tracks are in
// the displayed picture, so the render looks, when played, exactly like the render of the
// same picture stored upright: boxes where the tracker saw them, labels upright.
func TestRenderRotatedVideoAsDisplayed(t *testing.T) {
	dir := t.TempDir()
	upright, rotated := rotatedClip(t, dir)
	tracks := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tracks, []byte(`{"frame":2,"boxes":[{"id":1,"x":30,"y":40,"w":150,"h":90,"label":"person","score":0.9}]}`+"\n"), 0o644)
	if a, b := displayedLuma(t, upright, 1), displayedLuma(t, rotated, 1); meanAbsDiff(a, b) != 0 {
		t.Fatalf("the rotated clip does not play as the upright one (mean difference %.2f)", meanAbsDiff(a, b))
	}
	outs := map[string]string{}
	for _, in := range []string{upright, rotated} {
		out := strings.TrimSuffix(in, filepath.Ext(in)) + "-out.mp4"
		if code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "-o", out, "--crf", "1", "--preset", "ultrafast"); code != 0 {
			t.Fatalf("%s: exit %d: %s", in, code, stderr)
		}
		outs[in] = out
	}
	overlaid := displayedLuma(t, outs[upright], 1)
	if d := meanAbsDiff(displayedLuma(t, upright, 1), overlaid); d < 1 {
		t.Fatalf("the overlay changed nothing (mean difference %.2f)", d)
	}
	if d := meanAbsDiff(overlaid, displayedLuma(t, outs[rotated], 1)); d > 0.5 {
		t.Errorf("the rotated video's render plays differently from the upright one's: mean difference %.2f", d)
	}
	if got := probeVideo(t, outs[rotated]); got != "320,240,yuv420p" {
		t.Errorf("the rotated output is stored as %s, want 320,240 like its input", got)
	}
}

// rotatedClip writes, in dir, three frames of a test picture 240×320 stored upright and the
// same stored 320×240 with a 90° display matrix (a phone's portrait video), both lossless;
// it returns their paths.
func rotatedClip(t *testing.T, dir string) (upright, rotated string) {
	t.Helper()
	upright, rotated = filepath.Join(dir, "upright.mkv"), filepath.Join(dir, "rotated.mp4")
	ffmpeg := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ffmpeg", append([]string{"-v", "error"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ffmpeg %v: %v %s", args, err, out)
		}
	}
	ffmpeg("-f", "lavfi", "-i", "testsrc2=size=240x320:rate=25", "-frames:v", "3", "-c:v", "ffv1", upright)
	// rotate=90 makes players turn the stored frame 90° counterclockwise; store it turned
	// clockwise, losslessly.
	ffmpeg("-i", upright, "-vf", "transpose=clock", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", filepath.Join(dir, "turned.mp4"))
	ffmpeg("-i", filepath.Join(dir, "turned.mp4"), "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated)
	return upright, rotated
}

// Tracks made on a rotated video's frame as stored (by a reader that ignores the display
// matrix) reach past the picture as shown: the warning says to read them with
// --orientation stored, and with it there is nothing to warn of. (It once said to scale
// them with --tracks-size, which put every box on nothing.)
func TestRenderWarnsOfTracksOnTheStoredFrame(t *testing.T) {
	dir := t.TempDir()
	_, rotated := rotatedClip(t, dir)
	// Boxes across the 320×240 frame as stored: past the 240 px width shown.
	var rows strings.Builder
	for i := range 10 {
		fmt.Fprintf(&rows, "2,%d,%d,%d,40,60,1,-1,-1,-1\n", i+1, 30*i, 15*i)
	}
	tracks := filepath.Join(dir, "t.txt")
	os.WriteFile(tracks, []byte(rows.String()), 0o644)
	const hint = "made on the frame as stored, 320×240, before the video's quarter turn? render them with --orientation stored"
	for _, tc := range []struct {
		orientation string
		warned      bool
	}{{"display", true}, {"stored", false}} {
		code, _, stderr := trackink("render", "-i", rotated, "--tracks", tracks, "--orientation", tc.orientation,
			"--frame", "2", "-o", filepath.Join(dir, tc.orientation+".png"))
		if code != 0 || strings.Contains(stderr, hint) != tc.warned || !tc.warned && strings.Contains(stderr, "warning") {
			t.Errorf("--orientation %s: exit %d, stderr:\n%s\nwant the hint %q: %v", tc.orientation, code, stderr, hint, tc.warned)
		}
	}
	// tracks and eval, given the video, say the same.
	for _, args := range [][]string{{"tracks", tracks, "-i", rotated}, {"eval", "--gt", tracks, "--tracks", tracks, "-i", rotated}} {
		if code, stdout, stderr := trackink(args...); code != 0 || !strings.Contains(stderr, hint) {
			t.Errorf("%v: exit %d, stdout:\n%s\nstderr:\n%s\nwant the hint %q", args, code, stdout, stderr, hint)
		}
	}
}

// displayedLuma decodes frame i of path as players show it, as 240×320 grey.
func displayedLuma(t *testing.T, path string, i int) []byte {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-v", "error", "-i", path, "-vf", fmt.Sprintf("select=eq(n\\,%d)", i), "-frames:v", "1",
		"-f", "rawvideo", "-pix_fmt", "gray", "-").Output()
	if err != nil || len(out) != 240*320 {
		t.Fatalf("decoding %s: %d bytes, %v", path, len(out), err)
	}
	return out
}

func meanAbsDiff(a, b []byte) float64 {
	var sum int
	for i := range a {
		sum += max(int(a[i])-int(b[i]), int(b[i])-int(a[i]))
	}
	return float64(sum) / float64(len(a))
}

// With two video streams the render says which it draws on, and --video-stream picks.
func TestRenderSaysWhichVideoStream(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "two.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=0.2",
		"-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=0.2", "-map", "0", "-map", "1",
		"-c:v", "libx264", "-preset", "ultrafast", in).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	for flag, want := range map[string]string{"": "drawing on video stream 1 (#0:0, 320x240 h264)", "2": "drawing on video stream 2 (#0:1, 160x120 h264)"} {
		args := []string{"render", "-i", in, "--scene", "seed", "-o", filepath.Join(dir, "out"+flag+".mkv"), "--preset", "ultrafast"}
		if flag != "" {
			args = append(args, "--video-stream", flag)
		}
		code, _, stderr := trackink(args...)
		if code != 0 || !strings.Contains(stderr, "has 2 video streams: "+want) {
			t.Errorf("--video-stream %q: exit %d, stderr:\n%s\nwant %q", flag, code, stderr, want)
		}
	}
}
