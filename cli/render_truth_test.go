package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trackink/internal/mediatest"
	"trackink/job"
	"trackink/options"
	"trackink/scene"
)

// petsTruth is PETS09-S2L1's published ground truth (vtest.avi's frames), kept beside the
// repository.
var petsTruth = filepath.Join("..", "..", "shared", "data", "real-mot", "PETS09-S2L1", "gt.txt")

// renderJudgement reads render's flags args as render reads them for a w × h picture and
// returns the judgement render --gt draws.
func renderJudgement(t *testing.T, w, h int, args ...string) *job.Judged {
	t.Helper()
	f, fs := newRenderFlags(io.Discard)
	must(t, options.Parse(fs, args))
	must(t, f.checkTracks())
	must(t, f.truth.check(fs, f))
	tracks, err := f.tracks.Load(w, h)
	must(t, err)
	j, err := f.truth.judge(f, tracks, w, h, io.Discard)
	must(t, err)
	return j
}

// TestRenderGTPanelIsEval: the panel's MOTA, FP, FN and IDSW at the last frame are those
// trackink eval prints for the same files, under both rule sets, on evalFiles' made case
// (MOTA 0.5: a miss, a false positive, a switch) and, where present, on PETS09-S2L1 with
// trackink's own people tracks of vtest.avi.
func TestRenderGTPanelIsEval(t *testing.T) {
	type files struct {
		name, gt, tracks string
		w, h             int
	}
	gt, tracks := evalFiles(t)
	cases := []files{{"made", gt, tracks, 320, 240}}
	if testing.Short() {
		t.Log("-short: PETS09-S2L1 left out (it tracks vtest.avi)")
	} else if _, err := os.Stat(petsTruth); err != nil {
		t.Logf("PETS09-S2L1 left out: %s is absent (the ground truth is kept in ../shared/data beside the repository)", petsTruth)
	} else {
		withModel(t)
		out := filepath.Join(t.TempDir(), "vtest-people.txt")
		if code, _, stderr := trackink("track", "-i", vtestPath, "--detect", "people", "-o", out); code != 0 {
			t.Fatalf("track: exit %d: %s", code, stderr)
		}
		cases = append(cases, files{"PETS09-S2L1", petsTruth, out, 768, 576})
	}
	for _, c := range cases {
		for _, rules := range []string{"motmetrics", "trackeval"} {
			code, out, stderr := trackink("eval", "--gt", c.gt, "--tracks", c.tracks, "--rules", rules, "--json")
			if code != 0 {
				t.Fatalf("%s: eval: exit %d: %s", c.name, code, stderr)
			}
			var want struct {
				MOTA   float64 `json:"mota"`
				FP     int     `json:"false_positives"`
				FN     int     `json:"misses"`
				IDSW   int     `json:"id_switches"`
				Frames int     `json:"frames"`
			}
			must(t, json.Unmarshal([]byte(out), &want))
			j := renderJudgement(t, c.w, c.h, "--tracks", c.tracks, "--gt", c.gt, "--rules", rules)
			got := j.Last()
			if math.Abs(got.MOTA()-want.MOTA) > 1e-12 || got.FalsePositives != want.FP || got.Misses != want.FN ||
				got.IDSwitches != want.IDSW || got.Frames != want.Frames {
				t.Errorf("%s, %s: last frame MOTA %g FP %d FN %d IDSW %d over %d frames; eval %g %d %d %d over %d", c.name, rules,
					got.MOTA(), got.FalsePositives, got.Misses, got.IDSwitches, got.Frames, want.MOTA, want.FP, want.FN, want.IDSW, want.Frames)
			}
			panel := fmt.Sprintf("MOTA %.1f%%  FP %d  FN %d  IDSW %d", 100*want.MOTA, want.FP, want.FN, want.IDSW)
			if p := j.Frame(want.Frames).Panel; !strings.HasSuffix(p, panel) {
				t.Errorf("%s, %s: panel %q, want it to end %q", c.name, rules, p, panel)
			}
		}
	}
}

// TestRenderGTFrames: on evalFiles' made case each frame's judgement says what happened
// there: frame 2 misses id 2 (red) and track 3 is a false positive; frame 3's track 4 took id
// 2 over from track 2 (a switch); the counts are those so far, the same whatever frame is
// asked first (a --start or segment draws the whole render's), and a frame past the files
// keeps the last counts.
func TestRenderGTFrames(t *testing.T) {
	gt, tracks := evalFiles(t)
	j := renderJudgement(t, 320, 240, "--tracks", tracks, "--gt", gt)
	third := *j.Frame(3)
	for _, c := range []struct {
		frame  int
		missed int
		tags   map[int]string
		panel  string
	}{
		{3, 0, map[int]string{4: "IDSW"}, "frame 3  MOTA 50.0%  FP 1  FN 1  IDSW 1"},
		{1, 0, map[int]string{}, "frame 1  MOTA 100.0%  FP 0  FN 0  IDSW 0"},
		{2, 1, map[int]string{3: "FP"}, "frame 2  MOTA 50.0%  FP 1  FN 1  IDSW 0"},
		{9, 0, nil, "frame 9  MOTA 50.0%  FP 1  FN 1  IDSW 1"},
	} {
		f := j.Frame(c.frame)
		missed := 0
		for _, b := range f.Truth {
			if b.Missed {
				missed++
			}
		}
		if missed != c.missed || fmt.Sprint(f.Tags) != fmt.Sprint(c.tags) || f.Panel != c.panel {
			t.Errorf("frame %d: %d missed, tags %v, panel %q; want %d, %v, %q", c.frame, missed, f.Tags, f.Panel, c.missed, c.tags, c.panel)
		}
	}
	if again := j.Frame(3); fmt.Sprint(*again) != fmt.Sprint(third) {
		t.Errorf("frame 3 asked again: %+v, first %+v", *again, third)
	}
}

// TestRenderGTMistakes: --gt where nothing is there to score, the scoring flags without it
// or out of range, a ground truth missing or given twice are mistakes on the command line
// (exit 2, naming the flag); ground truth that breaks its format's rules is a failure (exit 1)
// naming the file, its line and the field.
func TestRenderGTMistakes(t *testing.T) {
	gt, tracks := evalFiles(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	must(t, os.WriteFile(bad, []byte("1,1,0,0,10,10,1,-1,-1,-1\n2,1,zero,0,10,10,1,-1,-1,-1\n"), 0o644))
	out := filepath.Join(dir, "out.png")
	picture := []string{"render", "--tracks", tracks, "--width", "320", "--height", "240", "-o", out}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"render", "--detect", "people", "-i", vtestPath, "--gt", gt, "-o", out}, exitUsage, "--gt with --detect: track first"},
		{[]string{"render", "--scene", "seed", "--gt", gt, "-o", out}, exitUsage, "the built-in --scene has no ground truth"},
		{append(picture, "--iou", "0.7"), exitUsage, "--iou says how --gt scores the tracks: give --gt FILE too"},
		{append(picture, "--gt", gt, "--iou", "1.5"), exitUsage, "--iou 1.5: want a number above 0 and at most 1"},
		{append(picture, "--gt", gt, "--rules", "clear"), exitUsage, "--rules clear: want motmetrics, trackeval or auto"},
		{append(picture, "--gt", filepath.Join(dir, "none.txt")), exitUsage, "--gt " + filepath.Join(dir, "none.txt") + ": no such file"},
		{append(picture, "--gt", bad), exitFailure, bad + ":2"},
		// An eval command line's --gt for each sequence: render scored against the last.
		{append(picture, "--gt", tracks, "--gt", gt), exitUsage, `--gt "` + gt + `": given twice (also ` + tracks + `): render scores the tracks against one ground truth`},
	} {
		code, _, stderr := trackink(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d saying %q", strings.Join(c.args[1:], " "), code, stderr, c.code, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused render wrote its output")
	}
}

// TestRenderGTSegments: a render with --gt split into 3 segments and joined decodes to
// exactly the whole render's frames, its counts included (each segment matches from the
// ground truth's first frame); without --gt the frames differ. The ground truth is writeJitteryTracks' scene with every third box of a frame
// left out, so that false positives pile up frame by frame.
func TestRenderGTSegments(t *testing.T) {
	in, tracks := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	tr, err := scene.Load(tracks, scene.Options{})
	must(t, err)
	var frames []scene.Frame
	for f := range tr.All() {
		var boxes []scene.Box
		for i, b := range f.Boxes {
			if i%3 != 2 {
				boxes = append(boxes, b)
			}
		}
		frames = append(frames, scene.Frame{Index: f.Index, Boxes: boxes})
	}
	gtTracks, err := scene.NewTracks(frames)
	must(t, err)
	gt := filepath.Join(t.TempDir(), "gt.txt")
	out, err := os.Create(gt)
	must(t, err)
	_, err = scene.Write(out, gtTracks, scene.FormatMOT)
	must(t, err)
	must(t, out.Close())
	want := joinsExactly(t, in, "--tracks", tracks, "--gt", gt, "--lossless")
	plain := filepath.Join(t.TempDir(), "plain.mp4")
	run(t, "render", "-i", in, "-o", plain, "--quiet", "--tracks", tracks, "--lossless")
	if slices.Equal(mediatest.Frames(t, plain), want) {
		t.Error("--gt drew nothing")
	}
}

// TestRenderGTLinesUpWithTheVideo: the ground truth is the video's, frame for frame, as its
// format numbers frames; --frame-offset and --frame-base place the tracks alone, as eval's
// --frame-offset and a tracks file's own base do. They once moved the ground truth too:
// tracks of a clip cut from frame 101, rendered with --frame-offset 100 on the whole video,
// were scored against ground truth 100 frames late (every box a false positive), and tracks
// numbered from 0 could not be lined up with ground truth numbered from 1. The panel names
// the video's frame.
func TestRenderGTLinesUpWithTheVideo(t *testing.T) {
	gt, tracks := evalFiles(t) // MOTA 50 % at frame 3: a miss, a false positive, a switch
	dir := t.TempDir()
	renumber := func(name, file string, by int) string {
		b, err := os.ReadFile(file)
		must(t, err)
		var out []string
		for _, line := range strings.Fields(string(b)) {
			frame, rest, _ := strings.Cut(line, ",")
			var n int
			fmt.Sscan(frame, &n)
			out = append(out, fmt.Sprintf("%d,%s", n+by, rest))
		}
		path := filepath.Join(dir, name)
		must(t, os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644))
		return path
	}
	late := renumber("late-gt.txt", gt, 100) // the whole video's ground truth: frames 101 to 103
	zero := renumber("zero.txt", tracks, -1) // tracks numbered from 0
	const panel = "MOTA 50.0%  FP 1  FN 1  IDSW 1"
	for _, c := range []struct {
		name  string
		args  []string
		frame int // the tracks' last frame, as Frame takes it
		want  string
	}{
		{"a clip cut from frame 101", []string{"--tracks", tracks, "--gt", late, "--frame-offset", "100"}, 3, "frame 103  " + panel},
		{"tracks numbered from 0", []string{"--tracks", zero, "--gt", gt, "--frame-base", "0"}, 3, "frame 3  " + panel},
		{"both numbered from 1", []string{"--tracks", tracks, "--gt", gt}, 3, "frame 3  " + panel},
	} {
		if p := renderJudgement(t, 320, 240, c.args...).Frame(c.frame).Panel; p != c.want {
			t.Errorf("%s: panel %q, want %q", c.name, p, c.want)
		}
	}
}

// TestRenderGTWarnings: ground truth that reaches past the picture (made on the video at
// another size) and ground truth that goes on past the video's end (whose panel's last
// counts are then not eval's) are said; they were silent.
func TestRenderGTWarnings(t *testing.T) {
	in := mediatest.Clip(t, "mp4") // 320 × 240
	dir := t.TempDir()
	tracks := filepath.Join(dir, "t.txt")
	must(t, os.WriteFile(tracks, []byte("1,1,10,10,40,40,1,-1,-1,-1\n"), 0o644))
	big := filepath.Join(dir, "big.txt") // boxes of a 1280 × 960 picture
	var rows []string
	for i := range 10 {
		rows = append(rows, fmt.Sprintf("1,%d,%d,%d,60,60,1,-1,-1,-1", i+1, 400+80*i, 300+40*i))
	}
	must(t, os.WriteFile(big, []byte(strings.Join(rows, "\n")+"\n"), 0o644))
	long := filepath.Join(dir, "long.txt") // a box at frame 100000, past the clip's end
	must(t, os.WriteFile(long, []byte("1,1,10,10,40,40,1,-1,-1,-1\n100000,1,10,10,40,40,1,-1,-1,-1\n"), 0o644))
	for _, c := range []struct {
		gt, out, want string
	}{
		{big, "big.png", "--gt " + big + " reaches 1180×720, past the 320×240 picture (10 boxes of 10 centred outside it): ground truth of the video at 1280×960?"},
		{long, "long.mp4", "the ground truth has frames up to 100000, but the video ends at frame "},
	} {
		code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "--gt", c.gt, "-o", filepath.Join(dir, c.out), "--quiet")
		if code != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("--gt %s: exit %d, %q; want exit 0 warning %q", filepath.Base(c.gt), code, stderr, c.want)
		}
	}
}
