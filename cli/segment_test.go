package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"trackink/internal/knntest"
	"trackink/internal/mediatest"
	"trackink/scene"
	"trackink/video"
)

// writeJitteryTracks writes knntest.Jittery's scene for mediatest.Clip's clips as JSON
// Lines: tracks whose drawing depends on the frames before (hysteresis, trails, ages).
func writeJitteryTracks(t *testing.T) string {
	t.Helper()
	return writeJittery(t, 320, 240, "tracks.jsonl", scene.FormatJSONL)
}

// writeJittery writes knntest.Jittery's scene in a w × h picture as the file name (in a
// temporary directory) of format, and returns its path.
func writeJittery(t *testing.T, w, h int, name string, format scene.Format) string {
	t.Helper()
	tracks, err := scene.NewTracks(knntest.Jittery(w, h, mediatest.ClipFrames))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := scene.Write(f, tracks, format); err != nil {
		t.Fatal(err)
	}
	return path
}

// joinsExactly renders in with the flags look whole and in 3 segments, fails the test
// unless the join decodes to exactly the whole render's frames, and returns them.
func joinsExactly(t *testing.T, in string, look ...string) []string {
	t.Helper()
	whole := filepath.Join(t.TempDir(), "whole.mp4")
	run(t, append([]string{"render", "-i", in, "-o", whole, "--quiet"}, look...)...)
	want := mediatest.Frames(t, whole)
	if got := mediatest.Frames(t, renderInSegments(t, in, 3, look...)); !slices.Equal(got, want) {
		t.Errorf("the joined frames differ from the whole render's: %s", mediatest.Difference(want, got))
	}
	return want
}

// run runs the command line in-process and fails the test unless it succeeds.
func run(t *testing.T, args ...string) string {
	t.Helper()
	code, _, stderr := trackink(args...)
	if code != 0 {
		t.Fatalf("trackink %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return stderr
}

// renderInSegments runs `render ARGS --segment i/count -o DIR` for every i, then `join`,
// and returns the joined file.
func renderInSegments(t *testing.T, in string, count int, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	segs, out := filepath.Join(dir, "segs"), filepath.Join(dir, "joined.mp4")
	for i := range count {
		run(t, append([]string{"render", "-i", in, "--segment", fmt.Sprintf("%d/%d", i, count), "-o", segs, "--quiet"}, args...)...)
	}
	run(t, "join", "-i", in, "--segments", segs, "-o", out, "--quiet")
	return out
}

// The promise (#15): with a lossless encoder, the join of N = 1, 3 and 4 segments
// decodes to exactly the whole render's frames (pixels and timestamps), trails, link
// hysteresis and label ages on, and its audio packets are the source's; with --start and
// --end, the whole render's video and audio. A render that starts fresh at a segment's first
// frame draws it otherwise, so the replay is what makes the segments exact.
func TestSegmentsJoinToTheWholeRender(t *testing.T) {
	in, tracks := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	look := []string{"--tracks", tracks, "--trail", "10", "--label", "#{id} {age}", "--curve-width", "1", "--lossless"}
	whole := filepath.Join(t.TempDir(), "whole.mp4")
	run(t, append([]string{"render", "-i", in, "-o", whole, "--quiet"}, look...)...)
	wholeFrames := mediatest.Frames(t, whole)
	if len(wholeFrames) != mediatest.ClipFrames {
		t.Fatalf("the whole render has %d frames, want %d", len(wholeFrames), mediatest.ClipFrames)
	}
	source := mediatest.Packets(t, in, "0:a")
	for _, count := range []int{1, 3, 4} {
		joined := renderInSegments(t, in, count, look...)
		if got := mediatest.Frames(t, joined); !slices.Equal(got, wholeFrames) {
			t.Errorf("%d segments: the joined frames differ from the whole render's: %s", count, mediatest.Difference(wholeFrames, got))
		}
		if got := mediatest.Packets(t, joined, "0:a"); !slices.Equal(got, source) {
			t.Errorf("%d segments: the joined audio differs from the source's: %s", count, mediatest.Difference(source, got))
		}
	}
	// Segment 1 of 3 is frames 21 to 40: drawn from scratch, frame 21 looks otherwise.
	fresh := filepath.Join(t.TempDir(), "fresh.mp4")
	run(t, append([]string{"render", "-i", in, "--start", "21", "--end", "21", "-o", fresh, "--quiet"}, look...)...)
	if got := mediatest.Pictures(mediatest.Frames(t, fresh)); got[0] == mediatest.Pictures(wholeFrames)[20] {
		t.Error("frame 21 drawn without the frames before it looks as in the whole render: this test shows nothing")
	}

	window := append([]string{"--start", "7", "--end", "1.5s"}, look...)
	run(t, append([]string{"render", "-i", in, "-o", whole, "-y", "--quiet"}, window...)...)
	joined := renderInSegments(t, in, 3, window...)
	if want, got := mediatest.Frames(t, whole), mediatest.Frames(t, joined); !slices.Equal(got, want) {
		t.Errorf("--start 7 --end 1.5s: the joined frames differ from the whole render's: %s", mediatest.Difference(want, got))
	}
	if want, got := mediatest.Packets(t, whole, "0:a"), mediatest.Packets(t, joined, "0:a"); !slices.Equal(got, want) {
		t.Errorf("--start 7 --end 1.5s: the joined audio differs from the whole render's: %s", mediatest.Difference(want, got))
	}
}

// The looks of issue 39 that depend on the frame number or on the frames before (the camera
// look's grain and clock, the echoes of the frames before, the live particles, labels'
// speed, scrolling lines and typewriter, the links' pulse, flow and sparkle, --jitter): the join of 3 segments decodes to exactly the whole render's
// frames.
func TestSegmentsJoinWithTheLooks(t *testing.T) {
	in, tracks := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"camera", []string{"--look", "cctv", "--grain", "0.2"}},
		{"echo", []string{"--echo", "5", "--echo-offset", "2,1", "--echo-scale", "1.02"}},
		{"particles", []string{"--particles", "8", "--particle-life", "15", "--particle-seed", "3"}},
		{"lines", []string{"--curve-width", "2", "--bend-away", "--link-pulse", "0.7", "--link-pulse-period", "9"}},
		{"flow", []string{"--link-style", "dotted", "--curve-width", "2", "--link-flow", "1.5"}},
		{"sparkle", []string{"--link-style", "sparkle", "--curve-width", "2", "--dash", "9,4", "--box-style", "dashed"}},
		{"jitter", []string{"--jitter", "9", "--trail", "6"}},
		{"text", []string{"--label", "{hex} v{speed:.1f} {line}", "--label-lines", "../go.mod", "--label-reveal", "1.5", "--label-line-frames", "7"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			joinsExactly(t, in, append([]string{"--tracks", tracks, "--lossless"}, c.args...)...)
		})
	}
}

// With the default (lossy) encoder, B-frames and all, the join has the whole render's frame
// count and timestamps.
func TestLossySegmentsKeepTimestamps(t *testing.T) {
	in, tracks := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	whole := filepath.Join(t.TempDir(), "whole.mp4")
	run(t, "render", "-i", in, "--tracks", tracks, "-o", whole, "--quiet")
	joined := renderInSegments(t, in, 3, "--tracks", tracks)
	want, got := mediatest.PTS(mediatest.Frames(t, whole)), mediatest.PTS(mediatest.Frames(t, joined))
	if len(want) != mediatest.ClipFrames || !slices.Equal(got, want) {
		t.Errorf("frame timestamps: whole render %v\njoined %v", want, got)
	}
}

// --segment auto/N takes the index from a Slurm array task's SLURM_ARRAY_TASK_ID, else from
// a Kubernetes indexed job's JOB_COMPLETION_INDEX; each segment is named after the input.
func TestSegmentIndexFromTheScheduler(t *testing.T) {
	in := mediatest.Clip(t, "mp4")
	dir := t.TempDir()
	for _, env := range []struct{ slurm, k8s, want string }{
		{"2", "", "src.seg-0002-of-0003.mp4"},
		{"", "1", "src.seg-0001-of-0003.mp4"},
		{"0", "1", "src.seg-0000-of-0003.mp4"},
	} {
		t.Setenv("SLURM_ARRAY_TASK_ID", env.slurm)
		t.Setenv("JOB_COMPLETION_INDEX", env.k8s)
		run(t, "render", "-i", in, "--scene", "seed", "--preset", "ultrafast", "--segment", "auto/3", "-o", dir, "--quiet")
		if _, err := os.Stat(filepath.Join(dir, env.want)); err != nil {
			t.Errorf("SLURM_ARRAY_TASK_ID=%q JOB_COMPLETION_INDEX=%q: %v", env.slurm, env.k8s, err)
		}
	}
}

// join's mistakes and refusals: each says what and exits 2 for the command line, 1 for the
// segments; nothing is written.
func TestJoinMistakes(t *testing.T) {
	in := mediatest.Clip(t, "mp4")
	dir := t.TempDir()
	segs := filepath.Join(dir, "segs")
	for i := range 2 {
		run(t, "render", "-i", in, "--scene", "seed", "--preset", "ultrafast", "--segment", fmt.Sprintf("%d/2", i), "-o", segs, "--quiet")
	}
	seg0, seg1 := filepath.Join(segs, "src.seg-0000-of-0002.mp4"), filepath.Join(segs, "src.seg-0001-of-0002.mp4")
	out := filepath.Join(dir, "out.mp4")
	exists := filepath.Join(dir, "exists.mp4")
	os.WriteFile(exists, []byte("x"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--segments", segs, "-o", out}, exitUsage, "no input"},
		{[]string{"-i", in, "-o", out}, exitUsage, "no segments"},
		{[]string{"-i", in, "--segments", segs}, exitUsage, "no output"},
		{[]string{"-i", in, "--segments", seg0 + "," + filepath.Join(segs, "nope.mp4"), "-o", out}, exitUsage, "nope.mp4: no such file"},
		{[]string{"-i", in, "--segments", segs, "-o", in, "-y"}, exitUsage, "is the input"},
		{[]string{"-i", in, "--segments", segs, "-o", seg1, "-y"}, exitUsage, "(--segments)"},
		// Not into the directory the join reads: a name of a segment's shape there was
		// taken for a segment by the next join of it, which failed.
		{[]string{"-i", in, "--segments", segs, "-o", filepath.Join(segs, "src.seg-0000-of-0003.mp4")}, exitUsage, "is inside the input directory " + segs + " (--segments)"},
		{[]string{"-i", in, "--segments", segs, "-o", filepath.Join(segs, "joined.mp4")}, exitUsage, "is inside the input directory"},
		{[]string{"-i", in, "--segments", segs, "-o", exists}, exitUsage, "exists (use -y to overwrite it)"},
		// The container check render makes, before any work (issue 24: join opened the
		// segments first).
		{[]string{"-i", in, "--segments", segs, "-o", filepath.Join(dir, "out.xyz")}, exitUsage, `--output "` + filepath.Join(dir, "out.xyz") + `": no container format`},
		{[]string{"-i", in, "--segments", segs, "-o", filepath.Join(dir, "out.webm")}, exitUsage, "the webm container cannot hold H.264"},
		{[]string{"-i", in, "--segments", segs, "-o", filepath.Join(dir, "out.gif")}, exitUsage, "the gif container cannot hold H.264"},
		{[]string{"-i", in, "--segments", seg1, "-o", out}, 1, "segment 0 of 2 is missing (src.seg-0000-of-0002.mp4)"},
		{[]string{"-i", in, "--segments", dir, "-o", out}, 1, "no segments of " + in + " there"},
	} {
		code, _, stderr := trackink(append([]string{"join"}, tc.args...)...)
		if code != tc.code || !strings.HasPrefix(stderr, "trackink join: ") || !strings.Contains(stderr, tc.says) {
			t.Errorf("join %s: exit %d, %s\nwant exit %d saying %q", strings.Join(tc.args, " "), code, stderr, tc.code, tc.says)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused join wrote its output")
	}
	noHiddenFiles(t, dir)
	if stderr := run(t, "join", "-i", in, "--segments", segs, "-o", out); !strings.Contains(stderr, "wrote "+out+": 2 segments, 60 frames") {
		t.Errorf("join said: %s", stderr)
	}
}

// A segment damaged after its render wrote it (bytes flipped in its payload: it still
// opens; cut short) is refused by join with exit status 1, naming it and the command that
// renders it again; nothing is written. That command, with the segments' own flags, mends
// it: the join then succeeds.
func TestJoinRefusesADamagedSegment(t *testing.T) {
	in := mediatest.Clip(t, "mp4")
	dir := t.TempDir()
	segs := filepath.Join(dir, "segs")
	// -y, as the join's advice says: a segment cut short no longer says it is one.
	flags := []string{"--scene", "seed", "--preset", "ultrafast", "-o", segs, "--quiet", "-y"}
	render := func(i int) {
		run(t, append([]string{"render", "-i", in, "--segment", fmt.Sprintf("%d/2", i)}, flags...)...)
	}
	render(0)
	render(1)
	seg1, out := filepath.Join(segs, "src.seg-0001-of-0002.mp4"), filepath.Join(dir, "out.mp4")
	for _, tc := range []struct {
		name   string
		damage func(b []byte) []byte
		says   string
	}{
		// The middle of a segment lies in its media data: the movie header, at its end, is
		// a few kilobytes.
		{"payload flipped", func(b []byte) []byte {
			for i := range 200 {
				b[len(b)/2+i] ^= 0xff
			}
			return b
		}, "its packets do not match the checksum its render recorded"},
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }, "it cannot be opened"},
	} {
		b, err := os.ReadFile(seg1)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(seg1, tc.damage(b), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := trackink("join", "-i", in, "--segments", segs, "-o", out)
		again := "trackink render -i " + in + " --tracks TRACKS --segment 1/2 -o " + segs + "/ -y [FLAGS]"
		if code != 1 || !strings.HasPrefix(stderr, "trackink join: video: damaged segment "+seg1+" (segment 1 of 2): "+tc.says) || !strings.Contains(stderr, again) {
			t.Errorf("%s: join: exit %d, %s\nwant exit 1 naming %s, saying %q and %q", tc.name, code, stderr, seg1, tc.says, again)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the refused join wrote its output", tc.name)
		}
		noHiddenFiles(t, dir)
		render(1)
	}
	if stderr := run(t, "join", "-i", in, "--segments", segs, "-o", out); !strings.Contains(stderr, "wrote "+out+": 2 segments, 60 frames") {
		t.Errorf("join of the segment rendered again said: %s", stderr)
	}
}

// Segments rendered by two builds of trackink (a node with an older binary) are refused by
// join, exit status 1, naming each build and the segments it rendered; nothing is written.
// The two builds here are this test binary (go test stamps no commit: it is named by its
// executable's hash) and trackink built from the tree. Segment 1 rendered again by the
// first build, they join.
func TestJoinRefusesSegmentsOfTwoBuilds(t *testing.T) {
	bin := binary(t)
	in := mediatest.Clip(t, "mp4")
	dir := t.TempDir()
	segs := filepath.Join(dir, "segs")
	flags := []string{"--scene", "seed", "--preset", "ultrafast", "-o", segs, "--quiet"}
	run(t, append([]string{"render", "-i", in, "--segment", "0/2"}, flags...)...)
	if code, said := runBinary(t, bin, append([]string{"render", "-i", in, "--segment", "1/2"}, flags...)...); code != 0 {
		t.Fatalf("the built trackink's segment: exit %d: %s", code, said)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	seg0, seg1, out := filepath.Join(segs, "src.seg-0000-of-0002.mp4"), filepath.Join(segs, "src.seg-0001-of-0002.mp4"), filepath.Join(dir, "out.mp4")
	code, _, stderr := trackink("join", "-i", in, "--segments", segs, "-o", out)
	for _, says := range []string{
		"trackink join: video: segments rendered by 2 builds of trackink, whose pictures may differ: ",
		fmt.Sprintf("segment 0 (%s) by trackink devel, no commit recorded, executable sha256 %.16s (", seg0, hex.EncodeToString(sum[:])),
		"; segment 1 (" + seg1 + ") by trackink ",
	} {
		if code != 1 || !strings.Contains(stderr, says) {
			t.Errorf("join: exit %d, %s\nwant exit 1 saying %q", code, stderr, says)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the refused join wrote its output")
	}
	run(t, append([]string{"render", "-i", in, "--segment", "1/2"}, flags...)...)
	if stderr := run(t, "join", "-i", in, "--segments", segs, "-o", out); !strings.Contains(stderr, "wrote "+out+": 2 segments, 60 frames") {
		t.Errorf("join of segments of one build said: %s", stderr)
	}
}

// A segment replaces without -y only an earlier attempt's segment: a file at its name whose
// record says it is that segment, whatever plan rendered it (another look here). Anything
// else there is refused as any existing output is, exit 2 naming the file and why, and kept;
// -y replaces it. A text file and a plain MP4 at the name were replaced silently.
func TestSegmentReplacesOnlyAnEarlierAttempt(t *testing.T) {
	in := mediatest.Clip(t, "mp4")
	dir := t.TempDir()
	segs := filepath.Join(dir, "segs")
	flags := []string{"render", "-i", in, "--scene", "seed", "--preset", "ultrafast", "-o", segs, "--quiet"}
	run(t, append(flags, "--segment", "1/2")...)
	seg0, seg1 := filepath.Join(segs, "src.seg-0000-of-0002.mp4"), filepath.Join(segs, "src.seg-0001-of-0002.mp4")
	copyTo := func(from string) func() {
		return func() {
			if b, err := os.ReadFile(from); err != nil || os.WriteFile(seg0, b, 0o644) != nil {
				t.Fatalf("copying %s: %v", from, err)
			}
		}
	}
	// state is what stands at seg0: a regular file's bytes, else its mode (a pipe is not read).
	state := func() string {
		if st, err := os.Lstat(seg0); err != nil || !st.Mode().IsRegular() {
			return fmt.Sprint(st.Mode(), err)
		}
		b, _ := os.ReadFile(seg0)
		return string(b)
	}
	for _, tc := range []struct {
		name  string
		put   func() // what stands at seg0 before the render
		code  int
		says  string
		extra []string
	}{
		{"a text file", func() { os.WriteFile(seg0, []byte("my thesis\n"), 0o644) }, exitUsage,
			"it is not a trackink segment (FFmpeg cannot read it as MP4", nil},
		{"a plain MP4", copyTo(in), exitUsage,
			"it is not a trackink segment (an MP4 without a trackink_segment tag)", nil},
		{"another segment renamed", copyTo(seg1), exitUsage,
			"it is segment 1 of 2 by its record, not 0 of 2", nil},
		{"a named pipe", func() { syscall.Mkfifo(seg0, 0o644) }, exitUsage, "it is not a regular file", nil},
		{"a text file, -y", func() { os.WriteFile(seg0, []byte("my thesis\n"), 0o644) }, 0, "", []string{"-y"}},
		{"an earlier attempt", func() { run(t, append(flags, "--segment", "0/2")...) }, 0, "", nil},
		{"an earlier attempt of another look", func() { run(t, append(flags, "--segment", "0/2", "--look", "neon")...) }, 0, "", nil},
	} {
		os.Remove(seg0)
		tc.put()
		before := state()
		code, _, stderr := trackink(append(append(flags, "--segment", "0/2"), tc.extra...)...)
		if tc.code != 0 {
			want := "trackink render: -o: segment " + seg0 + " exists, but " + tc.says
			if code != tc.code || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "(use -y to overwrite it)") {
				t.Errorf("%s: exit %d, %s\nwant exit %d saying %q", tc.name, code, stderr, tc.code, want)
			}
			if state() != before {
				t.Errorf("%s: the refused segment changed what stands at its name", tc.name)
			}
			continue
		}
		if code != 0 {
			t.Errorf("%s: exit %d, %s", tc.name, code, stderr)
		}
		if got := mediatest.Frames(t, seg0); len(got) != mediatest.ClipFrames/2 {
			t.Errorf("%s: the segment has %d frames, want %d", tc.name, len(got), mediatest.ClipFrames/2)
		}
	}
	noHiddenFiles(t, segs)
}

// A segment task killed mid-write (SIGKILL: a node lost, a job preempted) leaves no segment,
// only its hidden partial file; the task run again removes that, says so and writes the
// segment; run once more after it succeeded (Slurm requeues finished tasks too), it replaces
// the segment without -y and leaves nothing else.
func TestKilledSegmentRetried(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	in, segs := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "segs")
	if err := video.Synthesize(in, 320, 240, 300, 25); err != nil {
		t.Fatal(err)
	}
	args := []string{"render", "-i", in, "--scene", "seed", "--segment", "1/2", "-o", segs, "--preset", "slow"}
	segment := filepath.Join(segs, "in.seg-0001-of-0002.mp4")
	killed := exec.Command(bin, args...)
	var stderr strings.Builder
	killed.Stderr = &stderr
	if err := killed.Start(); err != nil {
		t.Fatal(err)
	}
	partial := waitForPartial(t, segment, &stderr)
	killed.Process.Kill()
	killed.Wait()
	if _, err := os.Stat(segment); err == nil {
		t.Fatal("the killed task left a segment")
	}
	if _, err := os.Stat(partial); err != nil {
		t.Fatalf("the killed task's partial file: %v", err)
	}
	code, said := runBinary(t, bin, args...)
	if code != 0 || !strings.Contains(said, "removed "+partial) {
		t.Fatalf("the retry: exit %d, it said:\n%s\nwant it to say it removed %s", code, said, partial)
	}
	first, err := os.Stat(segment)
	if err != nil {
		t.Fatal(err)
	}
	if code, said := runBinary(t, bin, args...); code != 0 {
		t.Fatalf("the task run again: exit %d: %s", code, said)
	}
	again, err := os.Stat(segment)
	if err != nil || os.SameFile(first, again) {
		t.Errorf("the task run again did not replace the segment (%v)", err)
	}
	entries, _ := os.ReadDir(segs)
	if len(entries) != 1 {
		t.Errorf("segs holds %d files, want the segment alone", len(entries))
	}
	if n := ffprobeFrames(t, segment); n != 150 {
		t.Errorf("the segment has %d frames, want 150", n)
	}
}

// docs/cluster.md shows the cluster recipe's batch scripts: their #SBATCH directives and
// the trackink command they run must be the files' own.
func TestDocsShowTheClusterScripts(t *testing.T) {
	readme, err := os.ReadFile("../docs/cluster.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"segment.sbatch", "join.sbatch", "many.sbatch"} {
		script, err := os.ReadFile(filepath.Join("../scripts/slurm", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(script), "\n") {
			if (strings.HasPrefix(line, "#SBATCH") || strings.HasPrefix(line, "exec ")) && !strings.Contains(string(readme), "\n"+line+"\n") {
				t.Errorf("docs/cluster.md does not show this line of scripts/slurm/%s:\n%s", name, line)
			}
		}
	}
}

// TestManyScriptRefusesOneOutputTwice: many.sbatch refuses a list two lines of which come to
// one output (once cam1/clip.mp4 and cam2/clip.mp4 both wrote out/clip.mp4, the second
// replacing the first with -y), however they spell it, and runs a list whose outputs differ.
func TestManyScriptRefusesOneOutputTwice(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list.tsv")
	// Lines 4 and 5 name one file two ways (once compared as strings, and let through).
	os.WriteFile(list, []byte("cam1/clip.mp4\tt.txt\ncam2/clip.mp4\tt.txt\ncam3/clip.mov\tt.txt\tcam3.mp4\n"+
		"cam4/a.mp4\tt.txt\t"+dir+"/out/x/..//b.mp4\ncam5/b.mov\tt.txt\n"), 0o644)
	for _, tc := range []struct {
		task string
		code int
		says string
	}{
		{"0", 2, "lines 1 2 all write " + dir + "/out/clip.mp4:"},
		{"1", 2, "lines 1 2 all write"},
		{"2", 0, "render -i cam3/clip.mov --tracks t.txt -o cam3.mp4 -y"},
		{"3", 2, "lines 4 5 all write " + dir + "/out/b.mp4:"},
	} {
		cmd := exec.Command("bash", "../scripts/slurm/many.sbatch", list, dir+"/out/")
		cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID="+tc.task, "TRACKINK=echo")
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != tc.code || !strings.Contains(string(out), tc.says) {
			t.Errorf("task %s: exit %d, %q; want exit %d saying %q", tc.task, cmd.ProcessState.ExitCode(), out, tc.code, tc.says)
		}
	}
}

// --segment auto/N takes its index from the scheduler's variable, and a bad one is said in
// that scheduler's terms (a Kubernetes index was once given Slurm's --array advice).
func TestParseSegment(t *testing.T) {
	for _, c := range []struct {
		spec        string
		env         map[string]string
		index, want int    // want: the count; 0 for an error
		err         string // in the error
	}{
		{"2/4", nil, 2, 4, ""},
		{"4/4", nil, 0, 0, `i, "4", is not a segment 0..3`},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, 3, 4, ""},
		{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": "1"}, 1, 4, ""},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "4"}, 0, 0, "SLURM_ARRAY_TASK_ID=4 is not a segment 0..3 (submit the array as --array=0-3)"},
		{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": "4"}, 0, 0, "JOB_COMPLETION_INDEX=4 is not a segment 0..3 (give the Indexed Job completions: 4, as --segment's N)"},
		{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": "abc"}, 0, 0, "JOB_COMPLETION_INDEX=abc is not a segment"},
		{"auto/4", nil, 0, 0, "neither is set"},
		{"auto", nil, 0, 0, "want i/N"},
	} {
		index, count, err := parseSegment(c.spec, func(name string) string { return c.env[name] })
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %v: error %v, want one saying %q", c.spec, c.env, err, c.err)
		case c.err == "" && (err != nil || index != c.index || count != c.want):
			t.Errorf("%s %v: %d/%d, %v; want %d/%d", c.spec, c.env, index, count, err, c.index, c.want)
		}
	}
}

// Each segment writes its own --stats-json when the path names the segment with {segment}
// (docs/segments/overhead.sh reads them): its frames, the frames it decoded and, of them,
// those before its first frame. A path without {segment} is refused (every task of an array
// would write the one file, the last to end winning), as is {segment} in a whole render; an
// earlier attempt's statistics are replaced without -y, as its segment is, and nothing else.
func TestSegmentStatistics(t *testing.T) {
	in := mediatest.Clip(t, "mp4")
	dir := t.TempDir()
	segs, stats := filepath.Join(dir, "segs"), filepath.Join(dir, "stats")
	if err := os.Mkdir(stats, 0o755); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(stats, "seg-{segment}.json")
	flags := []string{"render", "-i", in, "--scene", "seed", "--preset", "ultrafast", "-o", segs, "--quiet"}
	for i := range 2 {
		run(t, append(flags, "--segment", fmt.Sprintf("%d/2", i), "--stats-json", named)...)
	}
	read := func(path string) video.StatsJSON {
		t.Helper()
		var s video.StatsJSON
		b, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(b, &s)
		}
		if err != nil {
			t.Fatalf("the segment's statistics: %v", err)
		}
		return s
	}
	first, second := filepath.Join(stats, "seg-0000-of-0002.json"), filepath.Join(stats, "seg-0001-of-0002.json")
	for i, path := range []string{first, second} {
		s := read(path)
		if want := video.SegmentName(in, i, 2); filepath.Base(s.Output) != want {
			t.Errorf("%s: the statistics of %s, want %s's", path, s.Output, want)
		}
		if s.Frames != mediatest.ClipFrames/2 || s.Decoded < s.Frames+s.Preroll {
			t.Errorf("%s: %d frames, %d decoded of which %d before the first; want %d frames, decoded at least those and the preroll",
				path, s.Frames, s.Decoded, s.Preroll, mediatest.ClipFrames/2)
		}
		if i == 0 && s.Preroll != 0 {
			t.Errorf("%s: segment 0 decoded %d frames before its first, the video's first", path, s.Preroll)
		}
	}
	noHiddenFiles(t, stats)

	other, _ := os.ReadFile(second)
	for _, tc := range []struct {
		name string
		put  []byte // what stands at first before the render; nil: the earlier attempt's
		args []string
		code int
		says string
	}{
		{"an earlier attempt's", nil, []string{"--segment", "0/2", "--stats-json", named}, 0, ""},
		{"another segment's", other, []string{"--segment", "0/2", "--stats-json", named}, exitUsage,
			"--stats-json " + first + " exists, but it is the statistics of src.seg-0001-of-0002.mp4, not of src.seg-0000-of-0002.mp4"},
		{"a user's file", []byte("my thesis\n"), []string{"--segment", "0/2", "--stats-json", named}, exitUsage,
			"--stats-json " + first + " exists, but it is not trackink's statistics"},
		{"a user's file, -y", []byte("my thesis\n"), []string{"--segment", "0/2", "--stats-json", named, "-y"}, 0, ""},
		{"one file for every segment", nil, []string{"--segment", "0/2", "--stats-json", filepath.Join(stats, "s.json")}, exitUsage,
			"--stats-json " + filepath.Join(stats, "s.json") + ": every segment would write this one file, the last to end winning: name one per segment with {segment} in it"},
		{"a whole render's named by segment", nil, []string{"--stats-json", named, "-o", filepath.Join(dir, "whole.mp4")}, exitUsage,
			"--stats-json " + named + ": {segment} names a segment's statistics, and this render is whole"},
	} {
		if tc.put != nil {
			if err := os.WriteFile(first, tc.put, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		before, _ := os.ReadFile(first)
		code, _, stderr := trackink(append(flags, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.says) {
			t.Errorf("%s: exit %d, %s\nwant exit %d saying %q", tc.name, code, stderr, tc.code, tc.says)
		}
		if after, _ := os.ReadFile(first); code != 0 && string(after) != string(before) {
			t.Errorf("%s: the refused render changed %s", tc.name, first)
		}
		if code == 0 {
			if s := read(first); filepath.Base(s.Output) != video.SegmentName(in, 0, 2) || s.Frames != mediatest.ClipFrames/2 {
				t.Errorf("%s: %s is the statistics of %s, %d frames", tc.name, first, s.Output, s.Frames)
			}
		}
	}
	// A task of a Slurm array fills in its own index.
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	run(t, append(flags, "--segment", "auto/2", "--stats-json", filepath.Join(stats, "auto-{segment}.json"))...)
	if s := read(filepath.Join(stats, "auto-0001-of-0002.json")); s.Frames != mediatest.ClipFrames/2 {
		t.Errorf("auto/2 as task 1: %d frames, want %d", s.Frames, mediatest.ClipFrames/2)
	}
}
