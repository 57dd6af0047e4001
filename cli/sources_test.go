package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"trackink/internal/mediatest"
)

// treeAVI is OpenCV's Cinepak sample: rgb24, and an AVI whose empty chunks repeat frames.
const treeAVI = "/usr/share/doc/opencv-doc/examples/data/tree.avi"

// Sources that are not 4:2:0 Y'CbCr, and image sequences, are rendered and tracked from the
// command line: the render says in one line what it converted, the output has every frame
// the source decodes to, a sequence without its first file is a mistake named before any
// work, and a sequence with a gap is refused (exit 1) naming the missing picture. (Every kind of source, sample by sample: video's TestSources.)
func TestSourcesOnTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	tracks := filepath.Join(dir, "t.txt")
	if err := os.WriteFile(tracks, []byte("1,1,40,40,80,60,1,-1,-1,-1\n3,1,60,50,80,60,1,-1,-1,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	seq := filepath.Join(dir, "frames_%04d.png")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "6",
		"-start_number", "1", seq).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	for _, tc := range []struct {
		name, in string
		frames   int
		past     string // what --frame frames+1 says
	}{
		{"image sequence", seq, 6, "--frame 7: the video ends before it (0.24 s)"},
		// 444 AVI chunks, 376 of them empty
		{"tree.avi", treeAVI, 68, "--frame 69: the video ends before it: its header says 444 frames, 29.60 s, but fewer frames decode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.in); tc.in == treeAVI && err != nil {
				t.Skipf("%s: %v (Debian's opencv-doc has it)", treeAVI, err)
			}
			out := filepath.Join(t.TempDir(), "out.mp4")
			code, _, stderr := trackink("render", "-i", tc.in, "--tracks", tracks, "-o", out)
			note := "warning: rgb24 source: converted to yuv420p (BT.709 limited) for the overlay and the encoder\n"
			if code != 0 || strings.Count(stderr, "warning:") != 1 || !strings.Contains(stderr, note) {
				t.Errorf("render: exit %d, %q; want 0 and the one note %q", code, stderr, note)
			}
			if n := len(mediatest.Frames(t, out)); n != tc.frames {
				t.Errorf("rendered %d frames, want %d", n, tc.frames)
			}
			code, _, stderr = trackink("track", "-i", tc.in, "-o", filepath.Join(t.TempDir(), "t.txt"))
			if code != 0 || !strings.Contains(stderr, fmt.Sprintf("over %d frames", tc.frames)) {
				t.Errorf("track: exit %d, %q; want 0, over %d frames", code, stderr, tc.frames)
			}
			// --frame past the last frame that decodes, though within the header's count.
			last, past := strconv.Itoa(tc.frames), strconv.Itoa(tc.frames+1)
			if code, _, stderr := trackink("render", "-i", tc.in, "--tracks", tracks, "--frame", last, "-o", filepath.Join(t.TempDir(), "last.png")); code != 0 {
				t.Errorf("--frame %s: exit %d, %q", last, code, stderr)
			}
			code, _, stderr = trackink("render", "-i", tc.in, "--tracks", tracks, "--frame", past, "-o", filepath.Join(t.TempDir(), "past.png"))
			if code != exitUsage || !strings.Contains(stderr, tc.past) {
				t.Errorf("--frame %s: exit %d, %q; want %d saying %q", past, code, stderr, exitUsage, tc.past)
			}
		})
	}
	missing := filepath.Join(dir, "none_%03d.png")
	code, _, stderr := trackink("render", "-i", missing, "--tracks", tracks, "-o", filepath.Join(dir, "x.mp4"))
	if code != 2 || !strings.Contains(stderr, "-i "+missing+": no first file of the image sequence") {
		t.Errorf("render of a sequence with no file: exit %d, %q; want 2 naming the pattern", code, stderr)
	}
	// A gap: image2 stops there, and the render was a video of the pictures before it,
	// exit 0. Refused, exit 1 (a bad input), naming the missing picture; nothing written.
	for _, n := range []string{"0001", "0002", "0004"} {
		if err := os.Link(filepath.Join(dir, "frames_"+n+".png"), filepath.Join(dir, "gap_"+n+".png")); err != nil {
			t.Fatal(err)
		}
	}
	gap, gapOut := filepath.Join(dir, "gap_%04d.png"), filepath.Join(dir, "gap.mp4")
	for _, args := range [][]string{{"render", "-i", gap, "--tracks", tracks, "-o", gapOut}, {"track", "-i", gap, "-o", filepath.Join(dir, "gap.txt")}} {
		code, _, stderr := trackink(args...)
		if code != 1 || !strings.Contains(stderr, "gap_0003.png is missing, but 1 picture after it exists (gap_0004.png)") {
			t.Errorf("%s of a sequence with a gap: exit %d, %q; want 1 naming the missing picture", args[0], code, stderr)
		}
	}
	for _, out := range []string{gapOut, filepath.Join(dir, "gap.txt")} {
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s written from a sequence with a gap", out)
		}
	}
}
