package cli

import (
	"cmp"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trackink/internal/mediatest"
	"trackink/scene"
)

// Two files, each with a track 3, one MOTChallenge text and one JSON Lines: track 3 of a
// and track 3 of b at the other side of the picture.
const (
	mergeMOT   = "1,3,20,40,60,100,1,-1,-1,-1\n2,3,30,40,60,100,1,-1,-1,-1\n"
	mergeJSONL = `{"frame":1,"boxes":[{"id":3,"x":300,"y":40,"w":60,"h":100}]}
{"frame":2,"boxes":[{"id":3,"x":310,"y":40,"w":60,"h":100}]}
`
)

// render --tracks A --tracks B draws both files; what cannot be drawn together is refused
// naming the file at fault.
func TestRenderTwoTracksFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := writeFile(t, dir, "a.txt", mergeMOT), writeFile(t, dir, "b.jsonl", mergeJSONL)
	bad := writeFile(t, dir, "bad.jsonl", mergeJSONL+`{"frame":3,"boxes":[{"id":3,"x":1,"y":1,"w":-1,"h":1}]}`+"\n")
	gt := writeFile(t, dir, "gt.txt", mergeMOT)
	big := writeFile(t, dir, "big.txt", mergeMOT+"3,2147483647,20,40,60,100,1,-1,-1,-1\n")
	missing := filepath.Join(dir, "nope.txt")
	// a.txt under other names: relative with ./, through a link.
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	dotted := "./a.txt"
	out := filepath.Join(dir, "o.png")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"MOT text and JSON Lines", []string{"--tracks", a, "--tracks", b}, 0, ""},
		{"a missing file", []string{"--tracks", a, "--tracks", missing}, 2, "--tracks " + missing + ": no such file or directory"},
		{"a bad line", []string{"--tracks", a, "--tracks", bad}, 1, bad + ":3: boxes[0].w"},
		{"an id too large to keep apart", []string{"--tracks", a, "--tracks", big}, 1, big + ":3: field 2 (id): 2147483647 is beyond 1073741823"},
		{"standard input twice", []string{"--tracks", "-", "--tracks", "-"}, 2, "--tracks - and --tracks - both read standard input"},
		{"one file twice", []string{"--tracks", a, "--tracks", a}, 2, "--tracks " + a + " is given twice"},
		{"one file by two paths", []string{"--tracks", a, "--tracks", dotted}, 2, "--tracks " + a + " and --tracks " + dotted + " are the same file"},
		{"one file and a link to it", []string{"--tracks", link, "--tracks", b, "--tracks", a}, 2, "--tracks " + link + " and --tracks " + a + " are the same file"},
		{"ground truth", []string{"--tracks", a, "--tracks", b, "--gt", gt}, 2, "--gt scores one tracker's output: give one --tracks"},
		{"--detect", []string{"--tracks", a, "--tracks", b, "--detect", "motion"}, 2, "--detect finds the tracks itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"render", "--width", "400", "--height", "200", "-o", out, "-y", "--quiet"}, tc.args...)
			code, _, stderr := trackink(args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d with %q: %s", code, tc.code, tc.want, stderr)
			}
		})
	}
}

// Track 3 of one file and track 3 of another are two tracks: two colours (by track, or by
// file with --color-by source), and two trails that never join (the space between the
// boxes stays bare with trails on).
func TestSameIDsInTwoFilesAreTwoTracks(t *testing.T) {
	dir := t.TempDir()
	a, b := writeFile(t, dir, "a.txt", mergeMOT), writeFile(t, dir, "b.jsonl", mergeJSONL)
	for _, by := range []string{"track", "source"} {
		out := filepath.Join(dir, by+".png")
		run(t, "render", "--tracks", a, "--tracks", b, "--width", "400", "--height", "200", "--frame", "2",
			"--trail", "5", "--max-dist", "1", "--color-by", by, "-o", out, "--quiet")
		pic := readRGBA(t, out)
		left, right := vividest(pic, image.Rect(0, 0, 150, 200)), vividest(pic, image.Rect(250, 0, 400, 200))
		if left == right {
			t.Errorf("--color-by %s: both tracks 3 are drawn in %v", by, left)
		}
		if c := vividest(pic, image.Rect(150, 0, 250, 200)); c != [3]uint8{96, 96, 96} {
			t.Errorf("--color-by %s: something of colour %v between the two tracks 3", by, c)
		}
	}
}

// vividest is the colour of r's pixel whose channels differ most (the background's grey
// differs least).
func vividest(pic *image.RGBA, r image.Rectangle) [3]uint8 {
	best, spread := [3]uint8{96, 96, 96}, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := pic.RGBAAt(x, y)
			if s := int(max(c.R, c.G, c.B)) - int(min(c.R, c.G, c.B)); s > spread {
				best, spread = [3]uint8{c.R, c.G, c.B}, s
			}
		}
	}
	return best
}

// Segments of a render of two files join to exactly the whole render's frames, trails,
// hysteresis and ages on: the segment's replay is of the merged tracks.
func TestSegmentsJoinWithTwoTracksFiles(t *testing.T) {
	in, first := mediatest.Clip(t, "mp4"), writeJitteryTracks(t)
	// The second file: another jittery scene, as MOTChallenge text, its ids the first's.
	second := writeJittery(t, 200, 150, "second.txt", scene.FormatMOT)
	look := []string{"--tracks", first, "--tracks", second, "--trail", "10", "--label", "{source} #{id} {age}", "--curve-width", "1", "--lossless"}
	want := joinsExactly(t, in, look...)
	// The second file is drawn: the render of the first alone differs.
	alone := filepath.Join(t.TempDir(), "alone.mp4")
	run(t, append([]string{"render", "-i", in, "-o", alone, "--quiet"}, slices.Delete(slices.Clone(look), 2, 4)...)...)
	if slices.Equal(mediatest.Frames(t, alone), want) {
		t.Error("the render of the first file alone is the render of both")
	}
}

// A tracks file drawn beside others that draws nothing (empty, or frames the render does
// not reach) is named, as it is alone: in a video render, a preview and a still.
func TestEachTracksFileThatDrawsNothingIsNamed(t *testing.T) {
	dir := t.TempDir()
	a, b := writeFile(t, dir, "a.txt", mergeMOT), writeFile(t, dir, "b.jsonl", mergeJSONL)
	empty := writeFile(t, dir, "empty.txt", "")
	late := writeFile(t, dir, "late.txt", "200,3,20,40,60,100,1,-1,-1,-1\n201,3,20,40,60,100,1,-1,-1,-1\n")
	in := mediatest.Clip(t, "mp4")
	video := []string{"-i", in, "-o", filepath.Join(dir, "o.mp4"), "--end", "4"}
	preview := []string{"-i", in, "-o", filepath.Join(dir, "o.png"), "--frame", "2"}
	still := []string{"--width", "400", "--height", "200", "-o", filepath.Join(dir, "s.png"), "--frame", "2"}
	for _, tc := range []struct {
		name  string
		args  []string
		files []string
		want  string // in stderr; "" for no "nothing of"
	}{
		{"video, a file past the end", video, []string{a, late}, "nothing of " + late + " is drawn: the frames rendered show tracks frames 1 to 4 (--frame-offset 0), and it has frames 200 to 201"},
		{"video, an empty file", video, []string{empty, a}, "nothing of " + empty + " is drawn: the file is empty"},
		{"video, both drawn", video, []string{a, b}, ""},
		{"preview, a file past the end", preview, []string{a, late}, "nothing of " + late + " is tracked in video frame 2 (tracks frame 2; it covers frames 200 to 201): check --frame-offset"},
		{"preview, an empty file", preview, []string{a, empty}, "nothing of " + empty + " is tracked in video frame 2 (tracks frame 2; it covers frames none: the file is empty)"},
		{"preview, both drawn", preview, []string{a, b}, ""},
		{"still, a file past the end", still, []string{a, late}, "nothing of " + late + " is tracked in frame 2 (it covers frames 200 to 201)"},
		{"still, an empty file", still, []string{empty, b}, "nothing of " + empty + " is tracked in frame 2 (it covers frames none: the file is empty)"},
		{"still, both drawn", still, []string{a, b}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"render", "-y"}, tc.args...)
			for _, f := range tc.files {
				args = append(args, "--tracks", f)
			}
			code, _, stderr := trackink(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if tc.want == "" && strings.Contains(stderr, "nothing of") || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want %q", stderr, cmp.Or(tc.want, "no file named as drawing nothing"))
			}
			// The files that draw are not named.
			for _, f := range tc.files {
				if !strings.Contains(tc.want, f) && strings.Contains(stderr, "nothing of "+f) {
					t.Errorf("%s is named as drawing nothing: %s", f, stderr)
				}
			}
		})
	}
}

// --color-by source colours each --tracks file: with --detect or --scene there is none (and
// --tracks is refused beside --detect), so it is refused naming the flags, not drawn in
// one colour with advice that is refused in turn.
func TestColorBySourceWithoutTracksFiles(t *testing.T) {
	dir := t.TempDir()
	in := mediatest.Clip(t, "mp4")
	style := writeFile(t, dir, "s.toml", "color-by = \"source\"\n")
	out := []string{"-i", in, "-o", filepath.Join(dir, "o.png"), "--frame", "2", "-y"}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"--detect", []string{"--detect", "motion", "--color-by", "source"}, 2, "--color-by source colours each --tracks file its own colour: --detect tracks the video itself"},
		{"--detect, the style file", []string{"--detect", "motion", "--style", style}, 2, "--color-by source colours each --tracks file its own colour: --detect tracks the video itself"},
		{"--scene seed", []string{"--scene", "seed", "--color-by", "source"}, 2, "--color-by source colours each --tracks file its own colour: --scene seed draws its own tracks"},
		{"--detect by track", []string{"--detect", "motion", "--color-by", "track"}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := trackink(append(append([]string{"render"}, out...), tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || tc.code == 0 && strings.Contains(stderr, "--color-by") {
				t.Errorf("exit %d, want %d with %q: %s", code, tc.code, tc.want, stderr)
			}
		})
	}
}
