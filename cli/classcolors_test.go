package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestColorByClass: MOT17 ground truth's pedestrian and reflection (whose names hash to one
// colour) are drawn in two colours; --class-colors sets a class's colour; --color-by class
// on tracks without classes says so once, and a look that colours by class does not.
func TestColorByClass(t *testing.T) {
	dir := t.TempDir()
	pic, gt, plain := filepath.Join(dir, "in.png"), filepath.Join(dir, "gt.txt"), filepath.Join(dir, "plain.txt")
	writePicture(t, pic, 200, 100)
	// Track 1 a pedestrian (class 1), track 2 a reflection (class 12): boxes 10..60 and 110..160.
	os.WriteFile(gt, []byte("1,1,10,20,50,60,1,1,1\n1,2,110,20,50,60,0,12,1\n"), 0o644)
	os.WriteFile(plain, []byte("1,1,10,20,50,60\n"), 0o644)
	out := filepath.Join(dir, "out.png")
	render := func(tracks string, flags ...string) string {
		t.Helper()
		args := append([]string{"render", "-i", pic, "--tracks", tracks, "-o", out, "-y", "--fill-opacity", "1", "--no-labels", "--point-radius", "0"}, flags...)
		code, _, stderr := trackink(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", flags, code, stderr)
		}
		return stderr
	}
	render(gt, "--color-by", "class")
	img := readPicture(t, out)
	if img.At(35, 50) == img.At(135, 50) {
		t.Errorf("pedestrian and reflection share the colour %v", img.At(35, 50))
	}
	render(gt, "--color-by", "class", "--class-colors", "reflection=#ff0000")
	if r, g, b, _ := readPicture(t, out).At(135, 50).RGBA(); r>>8 != 255 || g>>8 != 0 || b>>8 != 0 {
		t.Errorf("--class-colors reflection=#ff0000: %v %v %v", r>>8, g>>8, b>>8)
	}
	style := filepath.Join(dir, "s.toml")
	os.WriteFile(style, []byte("color-by = \"class\"\nclass-colors = \"pedestrian=#0000ff\"\n"), 0o644)
	render(gt, "--style", style)
	if r, g, b, _ := readPicture(t, out).At(35, 50).RGBA(); r>>8 != 0 || g>>8 != 0 || b>>8 != 255 {
		t.Errorf("class-colors in a style file: %v %v %v", r>>8, g>>8, b>>8)
	}
	if stderr := render(plain, "--color-by", "class"); strings.Count(stderr, "the tracks have no classes") != 1 {
		t.Errorf("--color-by class without classes: %q", stderr)
	}
	if stderr := render(plain, "--look", "clean"); strings.Contains(stderr, "no classes") {
		t.Errorf("--look clean warns: %q", stderr)
	}
	if stderr := render(gt, "--class-colors", "pedestrain=#00ff00"); !strings.Contains(stderr, `no box is of class "pedestrain" (did you mean pedestrian?)`) {
		t.Errorf("--class-colors with a class the tracks lack: %q", stderr)
	}
}
