package video

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"trackink/internal/mediatest"
)

// Frames whose pts do not increase are moved a frame's duration past the frame before, and
// the frames after them with them: the video keeps its frame rate and length, every frame,
// and one warning says how many were moved and the first. Before, each was moved one tick
// (1 ms in Matroska) and warned about, a line a frame: the reviewer's 200 frames at 10 fps
// all at pts 1000 made 199 warnings and a 0.3 s video.
func TestPtsThatDoNotIncrease(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.mkv")
	makeSource(t, "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-frames:v", "20", "-c:v", "libx264", "-bf", "0", "-y", clean)
	for _, tc := range []struct {
		name, setts string
		warning     string  // in the one warning
		seconds     float64 // the output's duration
	}{
		{"all at one time", "pts=1000:dts=1000", "the pts of 19 frames did not increase (the first: frame 2, pts 1.000s after 1.000s)", 2.0},
		{"stopping half-way", `pts=min(N\,9)*100:dts=min(N\,9)*100`,
			"the pts of 10 frames did not increase (the first: frame 11, pts 0.900s after 0.900s)", 2.0},
		// One late frame: the video lasts a frame longer.
		{"one repeated", `pts=if(eq(N\,2)\,100\,N*100):dts=if(eq(N\,2)\,100\,N*100)`,
			"the pts of 1 frame did not increase (the first: frame 3, pts 0.100s after 0.100s)", 2.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "in.mkv")
			makeSource(t, "-i", clean, "-c", "copy", "-bsf:v", "setts="+tc.setts, "-y", in)
			out, st, _, err := render(t, in, ".mp4", Options{})
			if err != nil {
				t.Fatal(err)
			}
			var moved []string
			for _, w := range st.Warnings {
				if strings.Contains(w, "pts") {
					moved = append(moved, w)
				}
			}
			if len(moved) != 1 || !strings.Contains(moved[0], tc.warning) {
				t.Errorf("warnings about pts: %q, want one saying %q", moved, tc.warning)
			}
			if n := len(mediatest.Frames(t, out)); n != 20 {
				t.Errorf("%d frames, want 20", n)
			}
			b, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out).Output()
			if err != nil {
				t.Fatal(err)
			}
			if d, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err != nil || d < tc.seconds-0.01 || d > tc.seconds+0.01 {
				t.Errorf("the output lasts %s s, want %.1f", strings.TrimSpace(string(b)), tc.seconds)
			}
		})
	}
}
