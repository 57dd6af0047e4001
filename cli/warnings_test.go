package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTracksSize: --tracks-size scales the tracks to the picture, and a render says when
// it seems to be needed.
func TestTracksSize(t *testing.T) {
	dir := t.TempDir()
	pic, tracks := filepath.Join(dir, "in.png"), filepath.Join(dir, "t.txt")
	writePicture(t, pic, 320, 180)
	// Made at 1280×720: a box at 800..1200 × 400..680, 4 times the picture's size.
	os.WriteFile(tracks, []byte("1,1,800,400,400,280\n"), 0o644)
	out := filepath.Join(dir, "out.png")
	code, _, stderr := trackink("render", "-i", pic, "--tracks", tracks, "-o", out, "--fill-opacity", "0.8", "--no-labels")
	if code != 0 || !strings.Contains(stderr, "made at 1280×720? --tracks-size 1280x720") {
		t.Errorf("without --tracks-size: exit %d, %q", code, stderr)
	}
	code, _, stderr = trackink("render", "-i", pic, "--tracks", tracks, "-o", out, "-y", "--fill-opacity", "0.8", "--no-labels", "--tracks-size", "1280x720")
	if code != 0 || strings.Contains(stderr, "warning") {
		t.Fatalf("--tracks-size: exit %d, %q", code, stderr)
	}
	// Scaled by 1/4: the box fills 200..300 × 100..170.
	img := readPicture(t, out)
	if r, g, b, _ := img.At(250, 135).RGBA(); r == g && g == b {
		t.Error("no box at (250, 135) after --tracks-size 1280x720")
	}
	if code, _, stderr := trackink("render", "-i", pic, "--tracks", tracks, "-o", out, "-y", "--tracks-size", "1280"); code != exitUsage || !strings.Contains(stderr, `--tracks-size "1280": want WIDTHxHEIGHT`) {
		t.Errorf("--tracks-size 1280: exit %d, %q", code, stderr)
	}
}

// TestNoVideoEndsWarningForEnd: tracks going on past --end are no news.
func TestNoVideoEndsWarningForEnd(t *testing.T) {
	var rows []string
	for n := 1; n <= 10; n++ {
		rows = append(rows, fmt.Sprintf("%d,1,10,10,40,40", n))
	}
	dir, in, tracks := clipWithTracks(t, 160, 120, 10, strings.Join(rows, "\n")+"\n")
	code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "-o", filepath.Join(dir, "out.mp4"), "--end", "5", "--preset", "ultrafast", "--quiet")
	if code != 0 || strings.Contains(stderr, "the video ends at") {
		t.Errorf("--end 5: exit %d, %q", code, stderr)
	}
}
