package cli

import (
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"trackink/internal/needs"
)

// TestPreviewFrame: render -i VIDEO --frame N -o still.png draws frame N (1-based) as the
// render draws it: the box where the tracks put it in frame N, the trail of the frames
// before it, the colours of FFmpeg's own decoding of the rendered video's frame N.
func TestPreviewFrame(t *testing.T) {
	// One box moving 20 px right a frame: x = 20·n.
	var rows []string
	for n := 1; n <= 12; n++ {
		rows = append(rows, fmt.Sprintf("%d,1,%d,60,40,80,1,-1,-1,-1", n, 20*n))
	}
	dir, in, tracks := clipWithTracks(t, 320, 240, 12, strings.Join(rows, "\n")+"\n")
	preview := func(name string, flags ...string) image.Image {
		t.Helper()
		out := filepath.Join(dir, name)
		args := append([]string{"render", "-i", in, "--tracks", tracks, "-o", out, "--no-labels", "--fill-opacity", "0", "--box-color", "#ff00ff", "--box-stroke", "4"}, flags...)
		if code, _, stderr := trackink(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", flags, code, stderr)
		}
		return readPicture(t, out)
	}
	magenta := func(img image.Image, x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		return r>>8 > 200 && g>>8 < 90 && b>>8 > 200
	}
	// Frame 6's box spans x 120..160; its left edge at 120 is magenta, frame 1's (20) not.
	p6 := preview("p6.png", "--frame", "6")
	if !magenta(p6, 120, 100) || magenta(p6, 20, 100) {
		t.Error("--frame 6 does not draw tracks frame 6's box")
	}
	if p1 := preview("p1.png", "--frame", "1"); !magenta(p1, 20, 100) {
		t.Error("--frame 1 does not draw tracks frame 1's box: frames are not 1-based")
	}
	// With --frame-offset 6, video frame 6 comes before tracks frame 1: the frame undrawn and
	// a warning (once "the video ends before it", exit 2).
	out := filepath.Join(dir, "before.png")
	code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "-o", out, "--no-labels", "--box-color", "#ff00ff", "--frame", "6", "--frame-offset", "6")
	if code != 0 || !strings.Contains(stderr, "video frame 6 comes before tracks frame 1") {
		t.Errorf("--frame 6 --frame-offset 6: exit %d, %s", code, stderr)
	} else if before := readPicture(t, out); magenta(before, 120, 100) || magenta(before, 20, 100) {
		t.Error("--frame 6 --frame-offset 6 drew a box")
	}
	if p7 := preview("p7.png", "--frame", "7", "--frame-offset", "6"); !magenta(p7, 20, 100) {
		t.Error("--frame 7 --frame-offset 6 does not draw tracks frame 1's box")
	}
	// A trail runs through the bottom centres of frames 1..5 (x 40..120, y 140), as in the
	// render.
	trail := preview("trail.png", "--frame", "6", "--trail", "10", "--trail-color", "#0000ff", "--trail-width", "6")
	if r, g, b, _ := trail.At(80, 140).RGBA(); b>>8 < 150 || r>>8 > 100 || g>>8 > 100 {
		t.Errorf("no trail at (80, 140) in the preview of frame 6: %v %v %v", r>>8, g>>8, b>>8)
	}
	// The same frame of the rendered video, as FFmpeg decodes it.
	whole := filepath.Join(dir, "whole.mkv")
	if code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "-o", whole, "--no-labels", "--fill-opacity", "0", "--box-color", "#ff00ff", "--box-stroke", "4", "--lossless", "--quiet"); code != 0 {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	ref := filepath.Join(dir, "ref.png")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-i", whole, "-vf", `select=eq(n\,5)`, "-frames:v", "1", ref).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	if d := meanPixelDiff(p6, readPicture(t, ref)); d > 2 { // measured 0.64: swscale upsamples chroma, ToRGBA does not
		t.Errorf("the preview of frame 6 differs from the render's frame 6 by %.2f a channel on average", d)
	}
}

// TestPreviewRefusals: --frame with a video output, or past the video's end, is a mistake
// on the command line.
func TestPreviewRefusals(t *testing.T) {
	dir, in, tracks := clipWithTracks(t, 160, 120, 5, "1,1,10,10,40,40,1,-1,-1,-1\n")
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--frame", "3", "-o", filepath.Join(dir, "o.mp4")}, "--frame draws one frame into a picture"},
		{[]string{"--frame", "6", "-o", filepath.Join(dir, "o.png")}, "--frame 6: the video has 5 frames"},
		{[]string{"--frame", "0", "-o", filepath.Join(dir, "o.png")}, "--frame 0: frames are numbered from 1"},
	} {
		args := append([]string{"render", "-i", in, "--tracks", tracks}, tc.args...)
		if code, _, stderr := trackink(args...); code != exitUsage || !strings.Contains(stderr, tc.says) {
			t.Errorf("%v: exit %d, %q; want %d saying %q", tc.args, code, stderr, exitUsage, tc.says)
		}
	}
}

// TestPreviewOfDamagedVideo: a preview past damage in the input warns of it as the render
// does, writes the frame the render draws there, and exits 3, as the render does; one before
// the damage is a plain preview. It once exited 0 and said nothing, though from the damage
// on the frame shown is a later one than its number (here 5 frames later).
func TestPreviewOfDamagedVideo(t *testing.T) {
	dir := t.TempDir()
	whole, zeroed, tracks := filepath.Join(dir, "whole.avi"), filepath.Join(dir, "zeroed.avi"), filepath.Join(dir, "t.txt")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-frames:v", "60",
		"-c:v", "mpeg4", "-q:v", "4", "-g", "10", whole).CombinedOutput(); err != nil {
		t.Skipf("this FFmpeg cannot write AVI with MPEG-4: %v: %s", err, out)
	}
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	clear(b[len(b)/2 : len(b)/2+len(b)/10]) // a tenth of the file at its middle: frames lost
	os.WriteFile(zeroed, b, 0o644)
	os.WriteFile(tracks, []byte("1,1,10,10,40,40,1,-1,-1,-1\n"), 0o644)
	for _, tc := range []struct {
		frame string
		code  int
	}{{"5", 0}, {"50", exitDamaged}} {
		out := filepath.Join(dir, "f"+tc.frame+".png")
		code, _, stderr := trackink("render", "-i", zeroed, "--tracks", tracks, "--frame", tc.frame, "-o", out)
		if code != tc.code || strings.Contains(stderr, "input damaged") != (tc.code == exitDamaged) {
			t.Errorf("--frame %s: exit %d, %q; want %d, damage warned of only past it", tc.frame, code, stderr, tc.code)
		}
		if code == exitDamaged && !strings.Contains(stderr, "frames lost before it, and from it on every frame comes 5 frames early") {
			t.Errorf("--frame %s: %q does not say the frames come early", tc.frame, stderr)
		}
		if _, err := os.Stat(out); err != nil {
			t.Errorf("--frame %s: no picture: %v", tc.frame, err)
		}
	}
}

// TestPreviewPastATruncatedEnd: a preview of a frame past where a cut Matroska file's
// video stops (before its DURATION tag says) is the damage, exit 1, as a render from there
// is; it was refused as a frame past the video's end, exit 2, at a time before that end.
// A frame before the cut is a plain preview.
func TestPreviewPastATruncatedEnd(t *testing.T) {
	dir := t.TempDir()
	whole, cut, tracks := filepath.Join(dir, "whole.mkv"), filepath.Join(dir, "cut.mkv"), filepath.Join(dir, "t.txt")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "50",
		"-c:v", "libx264", "-preset", "ultrafast", whole).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cut, b[:len(b)/2], 0o644)
	os.WriteFile(tracks, []byte("1,1,10,10,40,40,1,-1,-1,-1\n"), 0o644)
	for _, tc := range []struct {
		frame string
		code  int
		says  string
	}{{"5", 0, ""}, {"45", 1, "cut.mkv is damaged and ends after"}} {
		code, _, stderr := trackink("render", "-i", cut, "--tracks", tracks, "--frame", tc.frame, "-o", filepath.Join(dir, "f"+tc.frame+".png"))
		if code != tc.code || !strings.Contains(stderr, tc.says) {
			t.Errorf("--frame %s: exit %d, %q; want %d saying %q", tc.frame, code, stderr, tc.code, tc.says)
		}
	}
}

// TestPreviewDetectFromPipe: --frame with --detect reads the video twice (the tracker up to
// the frame, then the frame), which a pipe cannot give: refused before it is read, exit 2
// naming the flags. It read the pipe's head and failed on opening it again: "Invalid data
// found when processing input", exit 1.
func TestPreviewDetectFromPipe(t *testing.T) {
	dir := t.TempDir()
	needs.File(t, vtestPath, "Debian's opencv-doc has it")
	pipe, out := filepath.Join(dir, "pipe"), filepath.Join(dir, "p.png")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(vtestPath) // 8 MB: still being written when read again
	if err != nil {
		t.Fatal(err)
	}
	written := make(chan struct{})
	go func() { // the writer, as cat vtest.avi > pipe; it ends once no one reads
		defer close(written)
		if w, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			w.Write(b)
			w.Close()
		}
	}()
	t.Cleanup(func() {
		// A reader that leaves at once, for a writer still waiting for one: again until the
		// writer has ended, since on a loaded machine its open may come after the first.
		for {
			if r, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				r.Close()
			}
			select {
			case <-written:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
	code, _, stderr := trackink("render", "-i", pipe, "--detect", "motion", "--frame", "5", "-o", out)
	if want := "--frame with --detect: the tracker reads -i " + pipe + " up to the frame, and the frame is read again"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %q; want %d saying %q", code, stderr, exitUsage, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a picture was written")
	}
}

// TestStillFrameBounded: drawn on a canvas or a picture, --frame is a tracks frame, within
// the tracks' limit (10 000 000): a larger one was replayed frame by frame, for minutes and
// past a stop signal, or for ever (9223372036854775807).
func TestStillFrameBounded(t *testing.T) {
	dir := t.TempDir()
	tracks, pic := filepath.Join(dir, "t.txt"), filepath.Join(dir, "in.png")
	os.WriteFile(tracks, []byte("1,1,10,10,20,20,1,-1,-1,-1\n"), 0o644)
	writePicture(t, pic, 32, 24)
	for _, in := range [][]string{{"--width", "32", "--height", "24"}, {"-i", pic}} {
		for _, frame := range []string{"10000001", "2147483647", "9223372036854775807"} {
			out := filepath.Join(dir, "o.png")
			args := append([]string{"render", "--tracks", tracks, "-o", out, "--frame", frame}, in...)
			code, _, stderr := trackink(args...)
			if want := "--frame " + frame + ": is beyond the frame limit of 10000000"; code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("%v: exit %d, %q; want %d saying %q", args[1:], code, stderr, exitUsage, want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("%v: a picture was written", args[1:])
			}
		}
	}
}

// meanPixelDiff is the mean absolute difference of two same-sized pictures' R, G and B.
func meanPixelDiff(a, b image.Image) float64 {
	var sum float64
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			for _, d := range []int{int(ar>>8) - int(br>>8), int(ag>>8) - int(bg>>8), int(ab>>8) - int(bb>>8)} {
				sum += float64(max(d, -d))
			}
		}
	}
	return sum / float64(3*r.Dx()*r.Dy())
}
