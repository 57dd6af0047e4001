package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trackink/internal/mediatest"
	"trackink/job"
	"trackink/video"
)

// nothingDrawnClip is a 2 s 320×240 H.264 clip with AAC audio, and an empty tracks file.
func nothingDrawnClip(t *testing.T) (clip, tracks string) {
	t.Helper()
	dir := t.TempDir()
	clip, tracks = filepath.Join(dir, "in.mp4"), filepath.Join(dir, "empty.txt")
	if err := video.Synthesize(clip, 320, 240, 50, 25); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tracks, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return clip, tracks
}

// A render whose tracks hold nothing writes the packets the ffmpeg CLI writes with the same
// encoder settings, every stream's: the decoder's frames reach x264 as they are.
func TestRenderNothingDrawnIsFFmpeg(t *testing.T) {
	in, tracks := nothingDrawnClip(t)
	dir := t.TempDir()
	ours, theirs := filepath.Join(dir, "ours.mp4"), filepath.Join(dir, "ffmpeg.mp4")
	run(t, "render", "-i", in, "--tracks", tracks, "--preset", "ultrafast", "--quiet", "-o", ours)
	if out, err := exec.Command("ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-i", in,
		"-map", "0", "-c", "copy", "-c:v:0", "libx264", "-preset", "ultrafast", theirs).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	want, got := mediatest.Packets(t, theirs, "0"), mediatest.Packets(t, ours, "0")
	if len(want) == 0 || !slices.Equal(want, got) {
		t.Errorf("packets differ from ffmpeg's: %s", mediatest.Difference(want, got))
	}
}

// With nothing tracked, a camera look still draws: every frame is scanned and stamped, as
// a --frame preview of it is, not passed through as the source's.
func TestRenderNothingTrackedKeepsTheCameraLook(t *testing.T) {
	in, tracks := nothingDrawnClip(t)
	dir := t.TempDir()
	plain, cctv := filepath.Join(dir, "plain.mp4"), filepath.Join(dir, "cctv.mp4")
	run(t, "render", "-i", in, "--tracks", tracks, "--preset", "ultrafast", "--quiet", "-o", plain)
	run(t, "render", "-i", in, "--tracks", tracks, "--look", "cctv", "--preset", "ultrafast", "--quiet", "-o", cctv)
	want, got := mediatest.Pictures(mediatest.Frames(t, plain)), mediatest.Pictures(mediatest.Frames(t, cctv))
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d frames with the camera look, %d without", len(got), len(want))
	}
	for i := range got {
		if got[i] == want[i] {
			t.Fatalf("frame %d is the same with the camera look as without", i+1)
		}
	}
}

// bench --e2e reports the render with nothing drawn beside the others, and says that it
// wrote ffmpeg's packets; ffmpeg re-encoding its own output, the control for the peer that
// re-encodes ours; and the twin, ffmpeg coding the render's frames afresh, which writes the
// render's video packets: a second drawer drew the same street scene from the start.
func TestBenchE2ERows(t *testing.T) {
	in, _ := nothingDrawnClip(t)
	code, stdout, stderr := trackink("bench", "--e2e", in, "--scene", "mot17", "--preset", "ultrafast", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep job.E2EReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if !rep.BareSame || rep.BareS <= 0 || rep.BareCPUS <= 0 || rep.BareRatio <= 0 || rep.BareCPURatio <= 0 || rep.BarePeakMiB <= 0 || rep.Frames != 50 {
		t.Errorf("nothing-drawn row %+v", rep)
	}
	if rep.AgainS <= 0 || rep.AgainCPUS <= 0 || rep.AgainPeakMiB <= 0 || rep.AgainCPURatio != rep.AgainCPUS/rep.PlainCPUS {
		t.Errorf("ffmpeg-again row %+v: want ffmpeg re-encoding its own output, and its ratio to ffmpeg on the input", rep)
	}
	if rep.TwinSame == nil || !*rep.TwinSame || rep.TwinS <= 0 || rep.TwinCPUS <= 0 || rep.TwinPeakMiB <= 0 || rep.TwinCPURatio != rep.OursCPUS/rep.TwinCPUS {
		t.Errorf("twin row %+v: want the render's packets, and the render's CPU time over the twin's", rep)
	}
}

// On a clip of variable frame rate the peers code the frames the render codes, each once:
// ffmpeg's default into .mp4 duplicated frames to fill the gaps (tree.avi: 449 frames for
// 68), and the ratios compared unequal work.
func TestBenchE2EVariableRate(t *testing.T) {
	in := filepath.Join(t.TempDir(), "vfr.mkv")
	// 40 of 50 frames at 25 fps, a 0.4 s gap where frames 10 to 19 were.
	if out, err := exec.Command("ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25,trim=end_frame=50",
		"-vf", "select='not(between(n,10,19))'", "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "ultrafast", in).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	code, stdout, stderr := trackink("bench", "--e2e", in, "--preset", "ultrafast", "--no-twin", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep job.E2EReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if rep.Frames != 40 || !rep.BareSame {
		t.Errorf("%d frames, nothing drawn the same packets as ffmpeg's: %v; want 40, true", rep.Frames, rep.BareSame)
	}
}

// --no-twin leaves the twin out, and says nothing of it.
func TestBenchE2ENoTwin(t *testing.T) {
	in, _ := nothingDrawnClip(t)
	code, stdout, stderr := trackink("bench", "--e2e", in, "--preset", "ultrafast", "--no-twin")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "our frames") || !strings.Contains(stdout, "nothing drawn to ffmpeg") {
		t.Errorf("--no-twin printed:\n%s\nwant the other rows and no twin", stdout)
	}
}

// bench --e2e checks its settings before any work, as render does: a mistake is a usage
// error (exit 2) naming the flag, not, minutes in, after the clip was synthesised, exit 1
// naming a library's field (video.Options.CRF) or with x264's own complaint; a clip that is
// missing or a directory is named by --e2e.
func TestBenchE2EChecksFirst(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nothere.mp4")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--crf", "99", "--e2e", "synth"}, "--crf 99: is outside 0..51"},
		// Once the encoder's default, 23, under a header saying -crf 0.
		{[]string{"--crf", "0", "--e2e", "synth"}, "--crf 0: bench times lossy renders, 1..51"},
		{[]string{"--crf", "-1", "--e2e", "synth"}, "--crf -1: is outside 0..51"},
		{[]string{"--preset", "bogus", "--e2e", "synth"}, `--preset "bogus": libx264 takes ultrafast`},
		{[]string{"--preset", "bogus", "--e2e", "synth", "--scene", "mot17"}, `--preset "bogus"`},
		{[]string{"--e2e", missing}, "--e2e " + missing + ": no such file"},
		{[]string{"--e2e", dir}, "--e2e " + dir + " is a directory"},
		{[]string{"--e2e="}, "--e2e: give the video to render, or synth"},
	} {
		code, stdout, stderr := trackink(append([]string{"bench"}, tt.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "synthesising") || strings.Contains(stderr, "video.Options") {
			t.Errorf("bench %v: exit %d, stdout %q, stderr %q; want exit 2 before any work, saying %q", tt.args, code, stdout, stderr, tt.want)
		}
	}
}
