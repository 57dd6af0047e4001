package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trackink/eval"
	"trackink/internal/mediatest"
	"trackink/internal/synthclip"
	"trackink/scene"
	"trackink/video"
)

// TestTrackBadOptions: every option out of range is exit 2 naming the flag, before any work
// (the input does not even exist).
func TestTrackBadOptions(t *testing.T) {
	out, jsonl := filepath.Join(t.TempDir(), "t.txt"), filepath.Join(t.TempDir(), "t.jsonl")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--detect", "blobs"}, "--detect"},
		{[]string{"--smooth", "2"}, "--smooth"},
		{[]string{"--confirm", "0"}, "--confirm"},
		{[]string{"--grace", "-1"}, "--grace"},
		{[]string{"--max-move", "0"}, "--max-move"},
		{[]string{"--min-area", "0.5", "--max-area", "0.1"}, "--max-area"},
		{[]string{"--max-objects", "0"}, "--max-objects"},
		{[]string{"--sensitivity", "-1"}, "--sensitivity"},
		{[]string{"--threshold", "256"}, "--threshold"},
		{[]string{"--hue", "400"}, "--hue"},
		{[]string{"--analysis-size", "8"}, "--analysis-size"},
		{[]string{"--point-size", "0"}, "--point-size"},
		{[]string{"--detect", "points", "--point-seed", "blobs"}, `--point-seed "blobs": must be one of corners, edges, color, color-edges`},
		{[]string{"--anchor", "top"}, "--anchor"},
		// Flags that would change nothing: a class list of none, a start under the scores kept,
		// what the other format of -o writes.
		{[]string{"--detect", "objects", "--classes", ""}, `--classes "" names no class`},
		{[]string{"--detect", "objects", "--classes", " , "}, `--classes " , " names no class`},
		{[]string{"--detect", "people", "--min-score", "0.7", "--start-score", "0.5"}, "--start-score 0.5 is under --min-score 0.7"},
		{[]string{"--anchor", "centre"}, "--anchor is written in trackink JSON Lines only, and -o " + out + " is MOTChallenge text"},
		{[]string{"--detect", "points", "--point-size", "8", "-o", jsonl}, "--point-size is written in MOTChallenge text only"},
	}
	for _, c := range cases {
		args := append([]string{"track", "-i", "missing.mp4", "-o", out}, c.args...)
		code, _, stderr := trackink(args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 naming %s", c.args, code, stderr, c.want)
		}
	}
	for _, o := range []string{filepath.Join(t.TempDir(), "t.csv"), ""} {
		if code, _, stderr := trackink("track", "-i", "missing.mp4", "-o", o); code != exitUsage {
			t.Errorf("-o %q: exit %d, %s", o, code, stderr)
		}
	}
}

func TestTrackRefusesPicture(t *testing.T) {
	dir := t.TempDir()
	pic := filepath.Join(dir, "still.png")
	writePicture(t, pic, 64, 48)
	code, _, stderr := trackink("track", "-i", pic, "-o", filepath.Join(dir, "t.txt"))
	if code != exitUsage || !strings.Contains(stderr, "still picture") {
		t.Errorf("exit %d, %s", code, stderr)
	}
}

func TestListDetect(t *testing.T) {
	code, stdout, _ := trackink("track", "--list-detect")
	for _, name := range []string{"bright", "dark", "motion", "color", "points", "people"} {
		if code != 0 || !strings.Contains(stdout, "\n"+name+" ") && !strings.HasPrefix(stdout, name+" ") {
			t.Errorf("--list-detect lacks %s: %q", name, stdout)
		}
	}
	// The classes as YOLOX names them, and the other spellings --classes takes.
	for _, s := range []string{"motorcycle, airplane", "couch, potted plant", "motorbike (motorcycle)", "tvmonitor (tv)"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("--list-detect lacks %q: %q", s, stdout)
		}
	}
}

// TestTrackClip tracks a synthetic clip written to a file (Y4M, lossless) in both formats,
// scores it against the clip's truth, and refuses to overwrite without -y.
func TestTrackClip(t *testing.T) {
	dir := t.TempDir()
	clip, err := synthclip.New(synthclip.Options{Kind: synthclip.Bright, Seed: 4, Frames: 60})
	if err != nil {
		t.Fatal(err)
	}
	in, truth, err := clip.Save(dir, "bright")
	if err != nil {
		t.Fatal(err)
	}
	gt, err := scene.Load(truth, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".txt", ".jsonl"} {
		out := filepath.Join(dir, "t"+ext)
		if code, _, stderr := trackink("track", "-i", in, "-o", out, "--quiet"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		got, err := scene.Load(out, scene.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := eval.Boxes(gt, got, eval.DefaultIoU)
		t.Logf("%s: MOTA %.3f IDF1 %.3f", ext, r.MOTA(), r.IDF1())
		if r.MOTA() < 0.9 {
			t.Errorf("%s: MOTA %.3f", ext, r.MOTA())
		}
		if code, _, stderr := trackink("track", "-i", in, "-o", out, "--quiet"); code != exitUsage || !strings.Contains(stderr, "-y") {
			t.Errorf("existing output: exit %d, %s", code, stderr)
		}
	}
	// Points: JSON Lines holds points; MOT text boxes of --point-size centred on them.
	pj, pm := filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "p.txt")
	for _, args := range [][]string{{"-o", pj}, {"-o", pm, "--point-size", "6"}} {
		if code, _, stderr := trackink(append([]string{"track", "-i", in, "--detect", "points", "--quiet"}, args...)...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	a, _ := scene.Load(pj, scene.Options{})
	b, _ := scene.Load(pm, scene.Options{Anchor: scene.Center})
	fa, fb := a.Frame(10, new(scene.Frame)), b.Frame(10, new(scene.Frame))
	if fa == nil || fb == nil || len(fa.Points) == 0 || len(fa.Boxes) != 0 || len(fb.Boxes) != len(fa.Points) {
		t.Fatalf("points frame 10: %+v / %+v", fa, fb)
	}
	if p, q := fa.Points[0], fb.Points[0]; p.ID != q.ID || abs32(p.X-q.X) > 1e-3 || fb.Boxes[0].W != 6 {
		t.Errorf("point %+v in JSON Lines, %+v (box %+v) in MOT text", p, q, fb.Boxes[0])
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// TestTrackDamagedVideo: a video cut in half is tracked up to the cut, the tracks written,
// and the status is 3; a file with no video frame writes nothing.
func TestTrackDamagedVideo(t *testing.T) {
	dir := t.TempDir()
	in, cut, out := filepath.Join(dir, "in.mkv"), filepath.Join(dir, "cut.mkv"), filepath.Join(dir, "t.txt")
	if err := video.Synthesize(in, 320, 240, 30, 10); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(in)
	os.WriteFile(cut, b[:len(b)/2], 0o644)
	code, _, stderr := trackink("track", "-i", cut, "-o", out, "--quiet", "--detect", "points")
	if code != exitDamaged {
		t.Fatalf("exit %d, want %d: %s", code, exitDamaged, stderr)
	}
	tr, err := scene.Load(out, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.LastIndex() < 2 || tr.LastIndex() >= 30 {
		t.Errorf("tracks of a damaged input end at frame %d", tr.LastIndex())
	}
	empty := filepath.Join(dir, "empty.mkv")
	os.WriteFile(empty, b[:600], 0o644)
	out2 := filepath.Join(dir, "t2.txt")
	if code, _, stderr := trackink("track", "-i", empty, "-o", out2, "--quiet"); code == 0 {
		t.Errorf("no frames: exit 0: %s", stderr)
	} else {
		t.Logf("no frames: exit %d: %s", code, strings.TrimSpace(stderr))
	}
	if _, err := os.Stat(out2); err == nil {
		t.Errorf("no frames: %s written", out2)
	}
}

// TestRenderDetect: render --detect draws what it saves (render --tracks of the saved file
// gives the same frames), the same tracks whatever --workers, and refuses segments.
func TestRenderDetect(t *testing.T) {
	dir := t.TempDir()
	clip, err := synthclip.New(synthclip.Options{Kind: synthclip.Bright, Seed: 5, Frames: 24})
	if err != nil {
		t.Fatal(err)
	}
	in, _, err := clip.Save(dir, "bright")
	if err != nil {
		t.Fatal(err)
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	run := func(args ...string) {
		t.Helper()
		if code, _, stderr := trackink(append([]string{"render", "-i", in, "--lossless", "--quiet"}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	run("--detect", "bright", "--save-tracks", p("t1.jsonl"), "--workers", "1", "-o", p("a.mkv"))
	run("--detect", "bright", "--save-tracks", p("t2.jsonl"), "--workers", "2", "-o", p("b.mkv"))
	run("--tracks", p("t1.jsonl"), "-o", p("c.mkv"))
	t1, _ := os.ReadFile(p("t1.jsonl"))
	t2, _ := os.ReadFile(p("t2.jsonl"))
	if len(t1) == 0 || string(t1) != string(t2) {
		t.Errorf("--workers 1 and 2 saved different tracks (%d and %d bytes)", len(t1), len(t2))
	}
	a, c := mediatest.Frames(t, p("a.mkv")), mediatest.Frames(t, p("c.mkv"))
	if !slices.Equal(a, c) {
		t.Errorf("render --detect and render --tracks of its saved tracks differ: %s", mediatest.Difference(a, c))
	}
	code, _, stderr := trackink("render", "-i", in, "--detect", "bright", "--segment", "0/2", "-o", p("segs"))
	if code != exitUsage || !strings.Contains(stderr, "track first") {
		t.Errorf("--segment: exit %d, %s", code, stderr)
	}
}

// A phone video stored 320×240 with a 90° display matrix is tracked upright, as shown, and
// the summary says so: 240×320 (it said the stored 320×240).
func TestTrackRotatedVideoSaysTheSizeShown(t *testing.T) {
	dir := t.TempDir()
	_, rotated := rotatedClip(t, dir)
	code, _, stderr := trackink("track", "-i", rotated, "--detect", "motion", "-o", filepath.Join(dir, "t.txt"))
	if want := "motion at 240x320 analysis (1/1)"; code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %q; want 0 saying %q", code, stderr, want)
	}
}
