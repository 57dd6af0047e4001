package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/options"
	"trackink/scene"
)

// motTracks reads MOTChallenge rows.
func motTracks(t *testing.T, rows []string) *scene.Tracks {
	t.Helper()
	tr, err := scene.Read(strings.NewReader(strings.Join(rows, "\n")+"\n"), "t.txt", scene.FormatAuto, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestSizeHint: tracks made at 1920×1080 drawn on a 1280×720 video are named with their
// reach and the size they were made at; tracks of the video's size whose boxes run a little
// past its edges (people walking out of the picture) are not.
func TestSizeHint(t *testing.T) {
	var big, fits []string
	for i := range 20 {
		big = append(big, fmt.Sprintf("1,%d,%d,%d,60,150,1,-1,-1,-1", i+1, 90*i+60, 40*i%900))
		fits = append(fits, fmt.Sprintf("1,%d,%d,300,60,150,1,-1,-1,-1", i+1, 60*i))
	}
	big = append(big, "2,1,1862,930,60,152,1,-1,-1,-1")
	fits = append(fits, "2,1,1250,650,60,150,1,-1,-1,-1") // runs 40 px past the right, 80 below
	hint := options.SizeHint(motTracks(t, big), 1280, 720)
	if !strings.Contains(hint, "tracks reach 1922×1082, past the 1280×720 picture") || !strings.Contains(hint, "made at 1920×1080? --tracks-size 1920x1080") {
		t.Errorf("hint %q", hint)
	}
	if hint := options.SizeHint(motTracks(t, fits), 1280, 720); hint != "" {
		t.Errorf("tracks that fit: hint %q", hint)
	}
}

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
