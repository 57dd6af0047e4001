package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"trackink/kernels/device"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// runBinary runs the binary with args and returns its exit status and stderr; a run that
// does not end within 60 s fails the test.
func runBinary(t *testing.T, bin string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v did not end: %s", args, stderr.String())
	}
	return exitCode(t, err), stderr.String()
}

// Every mistake on the command line exits 2 before any work: the tracks are a named pipe
// nobody writes, so a render that started reading them would never end. The message is the
// first thing printed and names the flag or file.
func TestMistakesExitTwoBeforeWork(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	in, tracks := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "tracks.txt")
	if err := video.Synthesize(in, 160, 120, 50, 25); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(tracks, 0o644); err != nil {
		t.Fatal(err)
	}
	// A 1×1 video, which --odd-size crop would crop to nothing.
	tiny := filepath.Join(dir, "tiny.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=1x1:rate=25", "-frames:v", "3",
		"-c:v", "ffv1", "-pix_fmt", "yuv444p", tiny).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	out := filepath.Join(dir, "out.mp4")
	type mistake struct {
		name string
		args []string // after render -i in.mp4 --tracks PIPE -o out.mp4 (but its own --tracks)
		says string
	}
	cases := []mistake{
		{"unknown encoder", []string{"--encoder", "libvpx"}, `--encoder "libvpx"`},
		{"invalid preset", []string{"--preset", "bogus"}, `--preset "bogus"`},
		{"NVENC preset for x264", []string{"--encoder", "libx264", "--preset", "p4"}, `--preset "p4"`},
		{"end before start", []string{"--start", "30", "--end", "10"}, "--end frame 10: is before the start"},
		{"end at the start's time", []string{"--start", "1s", "--end", "1s"}, "--end 1s: is the start, 1s: the range ends where it begins and holds no frame"},
		{"unknown extension", []string{"-o", filepath.Join(dir, "out.xyz")}, `--output`},
		{"container without video", []string{"-o", filepath.Join(dir, "out.mp3")}, "cannot hold H.264"},
		{"crf too high", []string{"--crf", "52"}, "--crf 52: is outside 0..51"},
		{"crf too high for x265", []string{"--encoder", "libx265", "--crf", "60"}, "libx265"},
		// x264 and x265 take whole kbit/s; libx264 failed once the encoder opened, exit 1.
		{"bitrate under 1 kbit/s", []string{"--bitrate", "100"}, "--bitrate 100: is outside 1000..4294967295 bits/s"},
		{"bitrate under 1 kbit/s for x265", []string{"--encoder", "libx265", "--bitrate", "1"}, "--bitrate 1: is outside"},
		{"bitrate too high", []string{"--bitrate", "99999999999999"}, "--bitrate 99999999999999: is outside"},
		// The clock ran past 292 years by frame 30 and stamped the year 2305, exit 0.
		{"camera clock too slow", []string{"--camera-name", "CAM", "--camera-fps", "1e-9"}, "--camera-fps 1e-09: is outside 1e-05..1e+06"},
		{"scanline band too wide", []string{"--scanlines", "0.3", "--scanline-period", "5000"}, "--scanline-period 5000: is outside 0..2160"},
		{"camera tint too strong", []string{"--camera-tint", "lime", "--camera-tint-strength", "2"}, "--camera-tint-strength 2: is outside 0..1"},
		{"camera tint not a colour", []string{"--camera-tint", "limey"}, `--camera-tint "limey": is not a color`},
		{"missing input", []string{"-i", filepath.Join(dir, "nope.mp4")}, "nope.mp4: no such file"},
		{"input is a directory", []string{"-i", dir}, "is a directory"},
		{"missing tracks", []string{"--tracks", filepath.Join(dir, "nope.txt")}, "nope.txt: no such file"},
		{"no such video stream", []string{"--video-stream", "2"}, "--video-stream 2"},
		{"start past the end", []string{"--start", "51"}, "past the end of the video (50 frames, 2.00 s)"},
		{"start past the end in time", []string{"--start", "3s"}, "past the end of the video (50 frames, 2.00 s)"},
		{"output is the input", []string{"-o", in, "-y"}, "is the input"},
		{"output is the input, spelled otherwise", []string{"-o", filepath.Join(dir, ".", "in.mp4")}, "is the input"},
		{"odd-size", []string{"--odd-size", "stretch"}, "--odd-size"},
		{"odd-size crop of 1x1", []string{"-i", tiny, "--odd-size", "crop"}, "--odd-size crop: the video is 1x1: cropping its odd column and row would leave 0x0"},
		{"orientation", []string{"--orientation", "sideways"}, "--orientation"},
		{"lossless with a crf", []string{"--lossless", "--crf", "20"}, "--lossless: codes exactly"},
		{"segment not i/N", []string{"--segment", "2", "-o", dir}, `--segment "2": want i/N`},
		{"segment index past N", []string{"--segment", "4/4", "-o", dir}, `--segment "4/4": i, "4", is not a segment 0..3`},
		{"segment index from nowhere", []string{"--segment", "auto/4", "-o", dir}, "neither is set"},
		{"more segments than frames", []string{"--segment", "0/51", "-o", dir}, "51 segments of a render of 50 frames"},
		{"more segments than the range's frames", []string{"--segment", "0/11", "--start", "41", "-o", dir}, "11 segments of a render of 10 frames"},
		{"segment output is a file", []string{"--segment", "0/2", "-o", in}, "names the directory for the segments; this is a file"},
		{"segment output is a video name", []string{"--segment", "0/2", "-o", filepath.Join(dir, "segs.mp4")}, "not a video file"},
		{"segment output is a picture name", []string{"--segment", "0/2", "-o", filepath.Join(dir, "seq_%05d.png")}, "not a picture"},
		// Every task would write the one file, the last to end winning, without -y.
		{"segment with statistics", []string{"--segment", "0/2", "-o", dir, "--stats-json", filepath.Join(dir, "s.json")}, "--stats-json " + filepath.Join(dir, "s.json") + ": every segment would write this one file"},
		{"whole render with a segment's statistics", []string{"--stats-json", filepath.Join(dir, "s-{segment}.json")}, "{segment} names a segment's statistics, and this render is whole"},
		// Segments are MP4: the message once named the segment's own path as --output.
		{"segment in ProRes", []string{"--segment", "0/2", "-o", dir, "--encoder", "prores_ks"}, `--encoder "prores_ks": segments are MP4, which cannot hold ProRes video`},
	}
	// What this machine lacks (the CI machine has no GPU).
	if !device.Probe().Usable() {
		cases = append(cases, mistake{"cuda backend without CUDA", []string{"--backend", "cuda"}, "--backend cuda"})
	}
	if len(device.Probe().Devices) == 0 {
		cases = append(cases, mistake{"cuda decoding without a device", []string{"--hwaccel", "cuda"}, "--hwaccel cuda: no CUDA device"},
			// A frame of the video into a picture decodes as the video would (it failed
			// later, exit 1, "decoder … has no CUDA support").
			mistake{"cuda decoding without a device, one frame", []string{"--hwaccel", "cuda", "--frame", "3", "-o", filepath.Join(dir, "f.png")}, "--hwaccel cuda: no CUDA device"})
	}
	if video.CheckEncoder("h264_nvenc") != nil {
		cases = append(cases, mistake{"NVENC without NVENC", []string{"--encoder", "h264_nvenc"}, `--encoder "h264_nvenc": `})
	}
	// Not inside a scheduler's task, whatever runs the tests.
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"render", "-i", in, "-o", out}
			if !slices.Contains(tc.args, "--tracks") { // a case's own is the only one (another would be drawn with it)
				args = append(args, "--tracks", tracks)
			}
			args = append(args, tc.args...)
			code, stderr := runBinary(t, bin, args...)
			if code != exitUsage || !strings.HasPrefix(stderr, "trackink render: ") || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2, our message first, saying %q", code, stderr, tc.says)
			}
		})
	}
	noHiddenFiles(t, dir)
	if _, err := os.Stat(out); err == nil {
		t.Error("a mistake wrote an output")
	}
}

// --workers past overlay.MaxWorkers is a usage mistake in every command that has the flag,
// refused before any work: --workers 100000 made 100000 workers and died of Go's
// out-of-memory (a stack dump, exit 2), or took the machine's memory until the kernel killed
// it. A value just past the bound is used here, which without the check only runs slowly.
func TestWorkersBounded(t *testing.T) {
	dir, clip, tracks := clipWithTracks(t, 64, 48, 3, "1,1,10,10,20,20,1,-1,-1,-1\n")
	out := filepath.Join(dir, "f.png")
	over := strconv.Itoa(overlay.MaxWorkers + 1)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"render", []string{"render", "-i", clip, "--tracks", tracks, "--frame", "1", "-o", out}},
		// A --dir that is not there is refused too, after the workers.
		{"golden", []string{"golden", "--dir", filepath.Join(dir, "none")}},
		{"bench", []string{"bench", "--scene", "seed", "--frames", "1"}},
		{"bench effects", []string{"bench", "--effects", "--frames", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := trackink(append(tc.args, "--workers", over)...)
			want := "--workers " + over + ": must be at most " + strconv.Itoa(overlay.MaxWorkers)
			if code != exitUsage || !strings.Contains(stderr, want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 saying %q", code, stdout, stderr, want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("render wrote its picture")
	}
}

// A --start or --end that is not a time a position can hold is refused as it is read, in
// every command that takes one, naming the flag and the value: NaN, Inf and times past a
// Duration's 292 years were taken as "from the start", and render and track ran over the
// whole video, exit 0 (--end gave "the range up to -2562047h47m16.854775808s").
func TestTimeOutOfRange(t *testing.T) {
	dir, clip, tracks := clipWithTracks(t, 64, 48, 3, "1,1,10,10,20,20,1,-1,-1,-1\n")
	commands := map[string][]string{
		"render": {"render", "-i", clip, "--tracks", tracks, "-o", filepath.Join(dir, "out.mp4")},
		"track":  {"track", "-i", clip, "--detect", "points", "-o", filepath.Join(dir, "out.jsonl")},
	}
	for _, value := range []string{"NaNs", "Infs", "1e10s", "00:00:NaN", "99999999999:00:00"} {
		for _, flag := range []string{"--start", "--end"} {
			for name, args := range commands {
				code, _, stderr := trackink(append(slices.Clone(args), flag, value)...)
				want := fmt.Sprintf("%s: video: position %q", flag, value)
				if code != exitUsage || !strings.Contains(stderr, want) {
					t.Errorf("%s %s %s: exit %d, stderr:\n%s\nwant exit 2 saying %q", name, flag, value, code, stderr, want)
				}
			}
		}
	}
	noHiddenFiles(t, dir)
	if left, _ := filepath.Glob(filepath.Join(dir, "out.*")); len(left) > 0 {
		t.Errorf("written: %v", left)
	}
}

// --frame-offset is bounded by the frames it lines up (tracks frames count to
// scene.MaxFrame) in render and eval: near the int limits the warning said "tracks frame 1,
// which --frame-offset … puts on video frame -9223372036854775808", exit 0.
func TestFrameOffsetBounded(t *testing.T) {
	dir, clip, tracks := clipWithTracks(t, 64, 48, 3, "1,1,10,10,20,20,1,-1,-1,-1\n")
	commands := map[string][]string{
		"render": {"render", "-i", clip, "--tracks", tracks, "--frame", "2", "-o", filepath.Join(dir, "f.png"), "-y"},
		"eval":   {"eval", "--gt", tracks, "--tracks", tracks},
	}
	for _, tc := range []struct {
		offset string
		ok     bool
	}{
		{"9223372036854775807", false}, {"-9223372036854775808", false},
		{strconv.Itoa(scene.MaxFrame + 1), false}, {strconv.Itoa(-scene.MaxFrame - 1), false},
		{strconv.Itoa(scene.MaxFrame), true}, {strconv.Itoa(-scene.MaxFrame), true},
	} {
		for name, args := range commands {
			code, _, stderr := trackink(append(slices.Clone(args), "--frame-offset", tc.offset)...)
			refused := code == exitUsage && strings.Contains(stderr, "--frame-offset "+tc.offset+": is outside")
			if refused == tc.ok || tc.ok && code != 0 {
				t.Errorf("%s --frame-offset %s: exit %d, %s; want ok %v", name, tc.offset, code, stderr, tc.ok)
			}
		}
	}
}

// Every mistake in what demo passes on to its render exits 2 naming the flag before the demo
// clip is synthesised, with no temporary directory left: demo --preset bogus, and an output
// whose container cannot hold the video, were refused by the render, after a 4K clip had
// been synthesised; so were sizes the encoder cannot code.
func TestDemoMistakesExitTwoBeforeWork(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	exists := filepath.Join(dir, "exists.mp4")
	os.WriteFile(exists, []byte("mine"), 0o644)
	for _, tc := range []struct {
		name string
		args []string // after demo
		says string
	}{
		{"invalid preset", []string{"--preset", "bogus"}, `--preset "bogus": encoder auto`},
		{"NVENC preset for auto", []string{"--preset", "p4"}, `--preset "p4"`},
		{"container without H.264", []string{"-o", filepath.Join(dir, "out.webm")}, `--output "` + filepath.Join(dir, "out.webm") + `": the webm container cannot hold H.264`},
		{"picture sequence", []string{"-o", filepath.Join(dir, "f_%05d.png")}, "the image2 container cannot hold H.264"},
		{"unknown extension", []string{"-o", filepath.Join(dir, "out.xyz")}, "--output"},
		{"output exists", []string{"-o", exists}, "-o " + exists + " exists (use -y"},
		{"missing directory", []string{"-o", filepath.Join(dir, "no", "out.mp4")}, "does not exist"},
		// Sizes FFmpeg refused after "synthesising…", exit 1: libx264's side, FFmpeg's frame.
		{"wider than libx264 takes", []string{"--frames", "1", "--width", "100000", "--height", "16"}, "--width 100000: libx264, which codes the demo, takes at most 16384"},
		{"taller than libx264 takes", []string{"--frames", "1", "--width", "16", "--height", "16386"}, "--height 16386: libx264, which codes the demo, takes at most 16384"},
		{"both too large", []string{"--frames", "1", "--width", "40000", "--height", "40000"}, "--width 40000: libx264"},
		{"larger than FFmpeg's frames", []string{"--frames", "1", "--width", "16384", "--height", "16384"}, "--width 16384 --height 16384: larger than FFmpeg's frames may be"},
		// Named by their flags, where a line gave all three values.
		{"odd width", []string{"--width", "63"}, "--width 63: want an even number of at least 16"},
		{"short height", []string{"--height", "8"}, "--height 8: want an even number of at least 16"},
		{"no frames", []string{"--frames", "0"}, "--frames 0: want at least 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			args := append([]string{"demo"}, tc.args...)
			if !slices.Contains(args, "-o") {
				args = append(args, "-o", filepath.Join(dir, "demo.mp4"))
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			code := exitCode(t, cmd.Run())
			if code != exitUsage || !strings.HasPrefix(stderr.String(), "trackink demo: ") || !strings.Contains(stderr.String(), tc.says) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2, our message first, saying %q", code, stderr.String(), tc.says)
			}
			if strings.Contains(stderr.String(), "synthesising") {
				t.Error("the demo clip was synthesised first")
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("a temporary directory is left: %v", left)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a mistake wrote a file: %v", entries)
	}
}

// The output may not be the input, even with -y: through a hard link or a symbolic link
// either. An output that is a symbolic link is written through and stays a link.
func TestOutputIsNotTheInput(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	in, tracks := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "t.txt")
	if err := video.Synthesize(in, 160, 120, 5, 25); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(tracks, []byte("1,1,10,10,20,20,1,-1,-1,-1\n"), 0o644)
	before, _ := os.ReadFile(in)
	hard, soft := filepath.Join(dir, "hard.mp4"), filepath.Join(dir, "soft.mp4")
	os.Link(in, hard)
	os.Symlink(in, soft)
	for _, out := range []string{hard, soft} {
		code, stderr := runBinary(t, bin, "render", "-i", in, "--tracks", tracks, "-o", out, "-y")
		if code != exitUsage || !strings.Contains(stderr, "is the input") {
			t.Errorf("-o %s: exit %d, %s", out, code, stderr)
		}
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Fatal("the input was overwritten")
	}
	target, link := filepath.Join(dir, "target.mp4"), filepath.Join(dir, "link.mp4")
	os.WriteFile(target, []byte("old"), 0o644)
	os.Symlink("target.mp4", link)
	if code, stderr := runBinary(t, bin, "render", "-i", in, "--tracks", tracks, "-o", link, "-y", "--preset", "ultrafast"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the output link was replaced by a file")
	}
	if n := ffprobeFrames(t, target); n != 5 {
		t.Errorf("the link's target has %d frames, want 5", n)
	}
}

// FFmpeg's own lines stay out of the way: a damaged input is reported in our words, and
// FFmpeg's lines appear only with --verbose. A render that fails after the encoder opened
// does not first say which encoder auto chose.
func TestFFmpegLinesOnlyWithVerbose(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	whole, cut := filepath.Join(dir, "whole.mkv"), filepath.Join(dir, "cut.mkv")
	if err := video.Synthesize(whole, 320, 240, 30, 10); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(whole)
	os.WriteFile(cut, b[:len(b)/2], 0o644)
	code, stderr := runBinary(t, bin, "render", "-i", cut, "--scene", "seed", "-o", filepath.Join(dir, "a.mkv"), "--preset", "ultrafast")
	if code != exitDamaged || strings.Contains(stderr, "ffmpeg: ") || !strings.Contains(stderr, "input damaged") {
		t.Errorf("without --verbose: exit %d, stderr:\n%s\nwant exit 3, the damage in our words and no FFmpeg lines", code, stderr)
	}
	code, stderr = runBinary(t, bin, "render", "-i", cut, "--scene", "seed", "-o", filepath.Join(dir, "b.mkv"), "--preset", "ultrafast", "--verbose")
	if code != exitDamaged || !strings.Contains(stderr, "ffmpeg: ") {
		t.Errorf("with --verbose: exit %d, stderr:\n%s\nwant FFmpeg's lines", code, stderr)
	}
	// Frame 25 to 1 s (frame 10) holds nothing: found out after the encoder opened.
	code, stderr = runBinary(t, bin, "render", "-i", whole, "--scene", "seed", "-o", filepath.Join(dir, "c.mkv"), "--start", "25", "--end", "1s")
	if code != exitUsage || strings.Contains(stderr, "encoder auto") || !strings.HasPrefix(stderr, "trackink render: ") {
		t.Errorf("an empty range: exit %d, stderr:\n%s\nwant exit 2 and only our message", code, stderr)
	}
	noHiddenFiles(t, dir)
}
