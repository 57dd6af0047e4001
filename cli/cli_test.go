package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"trackink/goldens"
	"trackink/kernels/device"
	"trackink/overlay"
)

// trackink runs the command line in-process and returns its exit status and output.
func trackink(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// writeFile writes data to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writePicture(t *testing.T, path string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 200
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func readPicture(t *testing.T, path string) image.Image {
	t.Helper()
	img, err := goldens.ReadPNG(path)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestRenderDrawsTracksOntoAPicture(t *testing.T) {
	dir := t.TempDir()
	in, tracks, out := filepath.Join(dir, "in.png"), filepath.Join(dir, "t.txt"), filepath.Join(dir, "out.png")
	writePicture(t, in, 160, 120)
	// Track 3 in frame 2: a 40×50 box at (60, 30).
	os.WriteFile(tracks, []byte("2,3,60,30,40,50,0.9,-1,-1,-1\n"), 0o644)
	code, _, stderr := trackink("render", "-i", in, "--tracks", tracks, "--frame", "2", "-o", out, "--no-labels")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	img := readPicture(t, out)
	grey := color.RGBAModel.Convert(color.RGBA{200, 200, 200, 255})
	if got := color.RGBAModel.Convert(img.At(5, 5)); got != grey {
		t.Errorf("pixel far from the box changed: %v", got)
	}
	if got := color.RGBAModel.Convert(img.At(60, 55)); got == grey {
		t.Errorf("pixel on the box's left edge is untouched")
	}
	if got := color.RGBAModel.Convert(img.At(80, 55)); got == grey {
		t.Errorf("pixel inside the translucent fill is untouched")
	}
}

func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	in, good, bad, exists := filepath.Join(dir, "in.png"), filepath.Join(dir, "good.txt"), filepath.Join(dir, "bad.txt"), filepath.Join(dir, "exists.png")
	writePicture(t, in, 64, 64)
	os.WriteFile(good, []byte("1,1,10,10,20,20,1,-1,-1,-1\n"), 0o644)
	os.WriteFile(bad, []byte("1,1,10,10,20,20,1,-1,-1,-1\n1,2,5,5,-3,20,1,-1,-1,-1\n"), 0o644)
	os.WriteFile(exists, []byte("keep me"), 0o644)
	fakePNG := filepath.Join(dir, "fake.png")
	os.WriteFile(fakePNG, []byte("not a picture"), 0o644)
	blank := filepath.Join(dir, "blank.txt")
	os.WriteFile(blank, []byte("# none\n\n"), 0o644)
	// A word longer than a label holds, and a line far past the reader's buffer: refused at
	// their lines, the long one without reading it whole (a 100 MiB line took 24 GB).
	longWord, hugeLine := filepath.Join(dir, "long.txt"), filepath.Join(dir, "huge.txt")
	os.WriteFile(longWord, []byte("ok\n"+strings.Repeat("w", 300)+"\n"), 0o644)
	os.WriteFile(hugeLine, []byte("ok\n"+strings.Repeat("w", 1<<20)+"\n"), 0o644)
	gap, twice := filepath.Join(dir, "gap.names"), filepath.Join(dir, "twice.yaml")
	os.WriteFile(gap, []byte("person\n\ncar\n"), 0o644)
	os.WriteFile(twice, []byte("names:\n  0: person\n  0: car\n"), 0o644)
	labels := filepath.Join(dir, "labels") // YOLO results, whose coordinates need the size
	os.Mkdir(labels, 0o755)
	os.WriteFile(filepath.Join(labels, "clip_1.txt"), []byte("0 0.5 0.5 0.1 0.2 0.9 1\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no output", []string{"render", "-i", in, "--tracks", good}, 2, "-o FILE"},
		{"no tracks", []string{"render", "-i", in, "-o", filepath.Join(dir, "o.png")}, 2, "no tracks: give --tracks FILE"},
		{"bad field", []string{"render", "-i", in, "--tracks", bad, "-o", filepath.Join(dir, "o.png")}, 1, "bad.txt:2: field 5"},
		{"missing tracks", []string{"render", "-i", in, "--tracks", filepath.Join(dir, "nope.txt"), "-o", filepath.Join(dir, "o.png")}, 2, "nope.txt: no such file"},
		{"output exists", []string{"render", "-i", in, "--tracks", good, "-o", exists}, 2, "-o " + exists + " exists (use -y"},
		{"missing directory", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "no", "o.png")}, 2, "does not exist"},
		{"not a picture", []string{"render", "-i", fakePNG, "--tracks", good, "-o", filepath.Join(dir, "o.png")}, 1, "not a PNG or JPEG"},
		{"not a video", []string{"render", "-i", good, "--tracks", good, "-o", filepath.Join(dir, "o.mp4")}, 1, "good.txt"},
		{"one frame into a video", []string{"render", "-i", filepath.Join(dir, "in.mp4"), "--tracks", good, "--frame", "3", "-o", filepath.Join(dir, "o.mp4")}, 2, "--frame draws one frame into a picture"},
		{"missing video", []string{"render", "-i", filepath.Join(dir, "in.mp4"), "--tracks", good, "-o", filepath.Join(dir, "o.mp4")}, 2, "in.mp4: no such file"},
		{"picture onto itself", []string{"render", "-i", in, "--tracks", good, "-o", in, "-y"}, 2, "is the input"},
		{"bad start", []string{"render", "-i", good, "--tracks", good, "-o", filepath.Join(dir, "o.mp4"), "--start", "soon"}, 2, "--start"},
		{"bad k", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--k", "0"}, 2, "--k"},
		// Once "output o.mp4: want a .png or .jpg picture", saying neither why nor what -i does.
		{"video from no video", []string{"render", "--tracks", good, "-o", filepath.Join(dir, "o.mp4")}, 2, "without -i, render draws one picture on a blank canvas"},
		{"video from a picture", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.mp4")}, 2, "-i " + in + " is a picture"},
		// A broken style file names the flag, as every settings file's error does (once not).
		{"style file broken", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--style", bad}, 2, "--style " + bad + ":1: want key = value"},
		{"bad opacity", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--fill-opacity", "2"}, 2, "--fill-opacity"},
		{"bad backend", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--knn", "annoy"}, 2, "--knn"},
		{"missing font", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--font", filepath.Join(dir, "nope.ttf")}, 2, "--font"},
		{"not a font", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--font", good}, 2, "good.txt is not a TrueType or OpenType font"},
		// Files the flags name, missing or a directory: exit 2 naming the flag, as --font
		// (once a missing --style, --label-words or --class-names exited 1, and
		// a directory said "is a directory" without the flag).
		{"missing style", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--style", filepath.Join(dir, "nope.toml")}, 2, "--style " + filepath.Join(dir, "nope.toml") + ": no such file"},
		{"style is a directory", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--style", dir}, 2, "--style " + dir + " is a directory"},
		{"missing label words", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--label-words", filepath.Join(dir, "nope.txt")}, 2, "--label-words " + filepath.Join(dir, "nope.txt") + ": no such file"},
		{"label words a directory", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--label-words", dir}, 2, "--label-words " + dir + " is a directory"},
		{"missing label lines", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--label-lines", filepath.Join(dir, "nope.txt")}, 2, "--label-lines " + filepath.Join(dir, "nope.txt") + ": no such file"},
		{"no label words", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--label", "{word}", "--label-words", blank}, 2, "--label-words " + blank + ": no words in it"},
		{"a label word too long", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--label", "{word}", "--label-words", longWord}, 2,
			"--label-words " + longWord + ":2: the line is 300 bytes long; a label holds at most 256"},
		{"a label line of a megabyte", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--label", "{line}", "--label-lines", hugeLine}, 2,
			"--label-lines " + hugeLine + ":2: the line is longer than 64 KiB"},
		{"missing class names", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--class-names", filepath.Join(dir, "nope.txt")}, 2, "--class-names " + filepath.Join(dir, "nope.txt") + ": no such file"},
		{"class names a directory", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--class-names", dir}, 2, "--class-names " + dir + " is a directory"},
		{"tracks: class names a directory", []string{"tracks", good, "--class-names", dir}, 2, "--class-names " + dir + " is a directory"},
		// A class-names file that is not one: exit 2 naming the flag and the line, as a bad
		// --label-words file (it was exit 1, naming neither flag nor rule).
		{"class names with a gap", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--class-names", gap}, 2, "--class-names " + gap + ":2: blank: class 1 needs a name"},
		{"tracks: class names with a gap", []string{"tracks", good, "--class-names", gap}, 2, "--class-names " + gap + ":2: blank"},
		{"class named twice", []string{"render", "-i", in, "--tracks", good, "-o", filepath.Join(dir, "o.png"), "--class-names", twice}, 2, "--class-names " + twice + ":3: class 0 is named twice"},
		{"tracks: class named twice", []string{"tracks", good, "--class-names", twice}, 2, "--class-names " + twice + ":3: class 0 is named twice"},
		// YOLO results with neither -i nor --width and --height: exit 2 naming them, as in
		// eval (it was exit 1, naming Options.Width and Height).
		{"tracks: YOLO without the size", []string{"tracks", labels}, 2, labels + ": YOLO coordinates are fractions of the picture, so the video's size is needed: give the video with -i, or --width and --height"},
		{"style of bench missing", []string{"bench", "--style", filepath.Join(dir, "nope.toml")}, 2, "--style " + filepath.Join(dir, "nope.toml") + ": no such file"},
		{"unknown flag", []string{"render", "--colour", "red"}, 2, "unknown flag"},
		// --tracks given twice draws both files (TestRenderTwoTracksFiles); the first was
		// once dropped without a word. The same file twice would draw over itself.
		{"tracks twice", []string{"render", "-i", in, "--tracks", good, "--tracks", good, "-o", filepath.Join(dir, "o.png")}, 2, "--tracks " + good + " is given twice: its tracks would be drawn over themselves"},
		{"unknown command", []string{"paint"}, 2, "unknown command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := trackink(tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr, tc.code, tc.msg)
			}
		})
	}
	if b, _ := os.ReadFile(exists); string(b) != "keep me" {
		t.Error("an existing output was overwritten without -y")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*partial*")); len(m) > 0 {
		t.Errorf("partial files left behind: %v", m)
	}
}

func TestRenderOverwritesWithYes(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "seed.png")
	os.WriteFile(out, []byte("old"), 0o644)
	if code, _, stderr := trackink("render", "--scene", "seed", "--width", "320", "--height", "180", "-o", out, "-y"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if img := readPicture(t, out); img.Bounds().Dx() != 320 {
		t.Errorf("output is %v", img.Bounds())
	}
}

func TestHelpHasExamples(t *testing.T) {
	for name := range commands {
		code, stdout, _ := trackink(name, "--help")
		if code != 0 || !strings.Contains(stdout, "Example") {
			t.Errorf("%s --help: exit %d, output %q", name, code, stdout)
		}
	}
	if code, stdout, _ := trackink("help"); code != 0 || !strings.Contains(stdout, "render") {
		t.Errorf("help: exit %d, %q", code, stdout)
	}
	// Once the general help and exit 0, as if the command existed.
	if code, _, stderr := trackink("help", "rendr"); code != exitUsage || !strings.Contains(stderr, `unknown command "rendr" (did you mean render?)`) {
		t.Errorf("help rendr: exit %d, %q", code, stderr)
	}
	if code, _, stderr := trackink("Render"); code != exitUsage || !strings.Contains(stderr, "did you mean render?") {
		t.Errorf("Render: exit %d, %q", code, stderr)
	}
	// No command is a usage error, its help with the errors; a flag before any command is
	// a flag, not a command named "--hlep".
	if code, stdout, stderr := trackink(); code != exitUsage || stdout != "" || !strings.Contains(stderr, "render") {
		t.Errorf("no command: exit %d, stdout %q, stderr %q; want 2, the help on stderr", code, stdout, stderr)
	}
	for flag, want := range map[string]string{"--hlep": `unknown flag "--hlep" (did you mean --help?)`,
		"--verison": `unknown flag "--verison" (did you mean --version?)`, "-y": `unknown flag "-y": give a command first`} {
		if code, _, stderr := trackink(flag); code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, %q; want 2 saying %q", flag, code, stderr, want)
		}
	}
}

func TestBenchJSON(t *testing.T) {
	code, stdout, stderr := trackink("bench", "--scene", "seed", "--frames", "16", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	for _, k := range []string{"scene", "backend", "width", "height", "frames", "stages_ms", "total_median_ms", "allocs_per_frame"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("no %q in %s", k, stdout)
		}
	}
	stages, _ := rep["stages_ms"].(map[string]any)
	for _, s := range overlay.Stages() {
		if _, ok := stages[s.String()]; !ok {
			t.Errorf("no stage %q", s)
		}
	}
	if rep["width"] != 3840.0 || rep["height"] != 2160.0 || rep["scene"] != "seed" {
		t.Errorf("wrong scene: %s", stdout)
	}
	// A rare buffer growth (or the runtime refilling a cache after a GC) shows as a fraction
	// over 16 frames; an allocation every frame would be ≥ 1.
	if rep["allocs_per_frame"].(float64) >= 1 {
		t.Errorf("the renderer allocates in steady state: %s", stdout)
	}
	if rep["total_median_ms"].(float64) <= 0 {
		t.Errorf("total is not positive: %s", stdout)
	}
}

func TestGoldenCommand(t *testing.T) {
	code, stdout, stderr := trackink("golden", "--dir", filepath.Join("..", "goldens", "testdata"), "--only", "curves,zero-length", "--out", t.TempDir())
	if code != 0 || !strings.Contains(stdout, "2 golden scenes passed") {
		t.Errorf("exit %d: %s %s", code, stdout, stderr)
	}
	// A wrong picture fails with status 1 and writes the diff.
	dir, out := t.TempDir(), t.TempDir()
	writePicture(t, filepath.Join(dir, "curves.png"), 480, 360)
	code, stdout, _ = trackink("golden", "--dir", dir, "--only", "curves", "--out", out)
	if code != 1 || !strings.Contains(stdout, "FAIL curves") {
		t.Errorf("wrong golden: exit %d, %s", code, stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "curves.diff.png")); err != nil {
		t.Errorf("no diff picture: %v", err)
	}
	// A golden missing, unreadable or of another size fails that scene, and the others are
	// still compared; the advice makes that one alone (--update rewrote them all, and
	// took every other failure for the truth).
	dir, out = t.TempDir(), t.TempDir()
	writePicture(t, filepath.Join(dir, "curves.png"), 640, 360) // drawn 480×360
	os.WriteFile(filepath.Join(dir, "trails.png"), []byte("not a PNG"), 0o644)
	code, stdout, _ = trackink("golden", "--dir", dir, "--only", "curves,labels-edges,trails", "--out", out)
	for _, want := range []string{
		"FAIL curves             the golden is 640×360, the scene draws 480×360; drawn: " + filepath.Join(out, "curves.actual.png"),
		"FAIL labels-edges       no golden " + filepath.Join(dir, "labels-edges.png") + ": `trackink golden --dir " + dir + " --update --only labels-edges` makes it",
		"FAIL trails", "`trackink golden --dir " + dir + " --update --only trails` makes it (then look at it) anew",
	} {
		if code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("missing, bad and other-sized goldens: exit %d, %s; want 1 saying %q", code, stdout, want)
		}
	}
	// --out is a directory, made where it is missing, in a directory that is there.
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	for path, want := range map[string]string{file: "is a file", filepath.Join(file, "x"): "no directory " + file, "/nonexistent-trackink/x": "no directory /nonexistent-trackink"} {
		if code, _, stderr := trackink("golden", "--dir", dir, "--only", "curves", "--out", path); code != 2 || !strings.Contains(stderr, "--out "+path+": "+want) {
			t.Errorf("--out %s: exit %d, %s; want 2 saying %q", path, code, stderr, want)
		}
	}
	// Another backend is checked against the CPU's pictures, and may not rewrite them.
	code, stdout, stderr = trackink("golden", "--backend", "emu", "--dir", filepath.Join("..", "goldens", "testdata"), "--only", "labels-edges,trails", "--out", t.TempDir())
	if code != 0 || !strings.Contains(stdout, "2 golden scenes passed") {
		t.Errorf("--backend emu: exit %d: %s %s", code, stdout, stderr)
	}
	code, _, stderr = trackink("golden", "--backend", "emu", "--update", "--dir", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "CPU renderer") {
		t.Errorf("--update --backend emu: exit %d, %s", code, stderr)
	}
}

// TestEmulatedBackendMatchesCPU renders the seed scene through --backend emu (the CUDA
// kernels on the CPU) and --backend cpu: the same picture within one code value.
func TestEmulatedBackendMatchesCPU(t *testing.T) {
	dir := t.TempDir()
	out := map[string]image.Image{}
	for _, b := range []string{"cpu", "emu"} {
		path := filepath.Join(dir, b+".png")
		if code, _, stderr := trackink("render", "--scene", "seed", "--width", "320", "--height", "180", "--backend", b, "-o", path); code != 0 {
			t.Fatalf("--backend %s: exit %d: %s", b, code, stderr)
		}
		out[b] = readPicture(t, path)
	}
	worst := 0
	for y := 0; y < 180; y++ {
		for x := 0; x < 320; x++ {
			a, b := color.RGBAModel.Convert(out["cpu"].At(x, y)).(color.RGBA), color.RGBAModel.Convert(out["emu"].At(x, y)).(color.RGBA)
			for _, d := range []int{int(a.R) - int(b.R), int(a.G) - int(b.G), int(a.B) - int(b.B)} {
				worst = max(worst, d, -d)
			}
		}
	}
	if worst > 1 {
		t.Errorf("cpu and emu differ by up to %d code values", worst)
	}
	code, _, stderr := trackink("render", "--scene", "seed", "--width", "320", "--height", "180", "--backend", "cuda", "-o", filepath.Join(dir, "c.png"))
	switch {
	case device.CUDABuilt && code != 0: // a cuda build runs only where a driver is (or the fake one)
		t.Errorf("--backend cuda in a CUDA build: exit %d, %s", code, stderr)
	case !device.CUDABuilt && (code == 0 || !strings.Contains(stderr, "without CUDA")):
		t.Errorf("--backend cuda in a build without CUDA: exit %d, %s", code, stderr)
	}
}

// TestTracksCommand: tracks says what a file holds and converts it; a file numbered from 0
// is refused with the flag that reads it, and read with it.
func TestTracksCommand(t *testing.T) {
	dir := t.TempDir()
	kitti := filepath.Join(dir, "0001.txt")
	os.WriteFile(kitti, []byte("0 1 Car 0 0 -10 100 120 200 180 1.5 1.6 3.9 1 1 10 0.1\n"+
		"0 -1 DontCare -1 -1 -10 10 10 20 20 -1 -1 -1 -1000 -1000 -1000 -10\n"+
		"1 2 Pedestrian 0 0 -10 300 100 330 190 1.5 1.6 3.9 1 1 10 0.1\n"), 0o644)
	code, stdout, stderr := trackink("tracks", kitti)
	if code != 0 || !strings.Contains(stdout, "KITTI") || !strings.Contains(stdout, "Car 1, Pedestrian 1") || !strings.Contains(stdout, "DontCare") {
		t.Errorf("tracks: exit %d, %s %s", code, stdout, stderr)
	}
	out := filepath.Join(dir, "out.jsonl")
	if code, _, stderr := trackink("tracks", kitti, "--to", "jsonl", "-o", out); code != 0 {
		t.Fatalf("--to jsonl: exit %d, %s", code, stderr)
	}
	b, _ := os.ReadFile(out)
	if got := strings.Count(string(b), "\n"); got != 2 || !strings.Contains(string(b), `"label":"Pedestrian"`) {
		t.Errorf("converted file:\n%s", b)
	}
	if code, _, stderr := trackink("tracks", kitti, "--to", "jsonl", "-o", out); code != exitUsage || !strings.Contains(stderr, "-y") {
		t.Errorf("converting onto an existing file without -y: exit %d, %s", code, stderr)
	}
	zero := filepath.Join(dir, "zero.txt")
	os.WriteFile(zero, []byte("0,1,10,10,20,20,1,-1,-1,-1\n"), 0o644)
	if code, _, stderr := trackink("tracks", zero); code != 1 || !strings.Contains(stderr, "--frame-base 0") {
		t.Errorf("a 0-based MOT file: exit %d, %s; want the fix named", code, stderr)
	}
	if code, stdout, stderr := trackink("tracks", zero, "--frame-base", "0"); code != 0 || !strings.Contains(stdout, "from 1 to 1") {
		t.Errorf("--frame-base 0: exit %d, %s %s", code, stdout, stderr)
	}
	// The name must not say another format: MOT text in x.jsonl or x.xml, JSON Lines in y.txt
	// or y.csv would not read back (.xml and .csv were once let through).
	for _, args := range [][]string{{"tracks", kitti, "--to", "mot", "-o", filepath.Join(dir, "x.jsonl")}, {"tracks", kitti, "--to", "jsonl", "-o", filepath.Join(dir, "y.txt")},
		{"tracks", kitti, "--to", "mot", "-o", filepath.Join(dir, "x.xml")}, {"tracks", kitti, "--to", "jsonl", "-o", filepath.Join(dir, "y.csv")}} {
		if code, _, stderr := trackink(args...); code != exitUsage || !strings.Contains(stderr, "name it") {
			t.Errorf("%v: exit %d, %s; want the name asked for", args, code, stderr)
		}
	}
	// Other names are read back by their contents (once refused too).
	for to, name := range map[string]string{"mot": "x.csv", "jsonl": "plain"} {
		o := filepath.Join(dir, name)
		if code, _, stderr := trackink("tracks", kitti, "--to", to, "-o", o); code != 0 {
			t.Errorf("--to %s -o %s: exit %d, %s", to, name, code, stderr)
		} else if code, stdout, stderr := trackink("tracks", o); code != 0 || !strings.Contains(stdout, map[string]string{"mot": "MOTChallenge", "jsonl": "JSON Lines"}[to]) {
			t.Errorf("tracks %s: exit %d, %s %s", name, code, stdout, stderr)
		}
	}
	// MOT text numbers the classes, named in a file beside it, and reads back with them
	// (the classes were once lost); both files are written or neither.
	mot := filepath.Join(dir, "k.txt")
	kNames := filepath.Join(dir, "k.names")
	if code, _, stderr := trackink("tracks", kitti, "--to", "mot", "-o", mot); code != 0 || !strings.Contains(stderr, "named in "+kNames) {
		t.Errorf("--to mot of classes: exit %d, %s", code, stderr)
	}
	if b, err := os.ReadFile(kNames); string(b) != "Car\nPedestrian\n" {
		t.Errorf("k.names: %q, %v", b, err)
	}
	// The names beside the text are read with it (once only with --class-names, and
	// without it the classes were lost); --class-names none or another file overrides them.
	other := filepath.Join(dir, "other.names")
	os.WriteFile(other, []byte("truck\nbus\n"), 0o644)
	for _, c := range []struct {
		args    []string
		classes string // the summary's; "" none
		note    bool   // the names beside said read
	}{
		{nil, "Car 1, Pedestrian 1", true},
		{[]string{"--class-names", kNames}, "Car 1, Pedestrian 1", false},
		{[]string{"--class-names", other}, "bus 1, truck 1", false},
		{[]string{"--class-names", "none"}, "", false},
	} {
		code, stdout, stderr := trackink(append([]string{"tracks", mot}, c.args...)...)
		hasClasses := c.classes != "" && strings.Contains(stdout, c.classes) || c.classes == "" && !strings.Contains(stdout, "Car")
		if code != 0 || !hasClasses || c.note != strings.Contains(stderr, "note: class numbers named by "+kNames) {
			t.Errorf("tracks k.txt %v: exit %d, %s %s; want classes %q, a note %v", c.args, code, stdout, stderr, c.classes, c.note)
		}
	}
	// render says where the names came from, unless --quiet (once said regardless).
	picture := filepath.Join(dir, "in.png")
	writePicture(t, picture, 400, 300)
	for _, quiet := range []bool{false, true} {
		args := []string{"render", "-i", picture, "--tracks", mot, "-o", filepath.Join(dir, "o.png"), "-y"}
		if quiet {
			args = append(args, "--quiet")
		}
		if code, _, stderr := trackink(args...); code != 0 || quiet == strings.Contains(stderr, "note: class numbers named by "+kNames) {
			t.Errorf("render --quiet=%v: exit %d, %q", quiet, code, stderr)
		}
	}
	// A names file beside that is not one is a mistake, named as such.
	os.WriteFile(kNames, []byte("Car\n\nPedestrian\n"), 0o644)
	if code, _, stderr := trackink("tracks", mot); code != exitUsage || !strings.Contains(stderr, "the class names beside the tracks (--class-names none reads them without): "+kNames+":2: blank") {
		t.Errorf("tracks k.txt beside a broken k.names: exit %d, %s", code, stderr)
	}
	if code, _, stderr := trackink("tracks", mot, "--class-names", "none"); code != 0 {
		t.Errorf("tracks k.txt --class-names none beside a broken k.names: exit %d, %s", code, stderr)
	}
	os.Remove(kNames)
	lone := filepath.Join(dir, "lone.txt")
	os.WriteFile(filepath.Join(dir, "lone.names"), []byte("mine\n"), 0o644)
	// Refused before any work: the whole summary was printed first. Tracks without classes
	// write no names, but that is known only once they are read: refused too.
	classless := filepath.Join(dir, "classless.txt")
	os.WriteFile(classless, []byte("1,1,10,10,20,20,1,-1,-1,-1\n"), 0o644)
	for _, in := range []string{kitti, classless} {
		if code, stdout, stderr := trackink("tracks", in, "--to", "mot", "-o", lone); code != exitUsage || stdout != "" || !strings.Contains(stderr, "-o (its class names) "+filepath.Join(dir, "lone.names")+" exists") {
			t.Errorf("--to mot onto an existing names file: exit %d, stdout %q, %s; want exit 2 before the tracks are read", code, stdout, stderr)
		}
	}
	if _, err := os.Stat(lone); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the tracks were written without their names: %v", err)
	}
	// -o - once wrote a file called "-".
	for _, args := range [][]string{{"tracks"}, {"tracks", kitti, "--to", "csv", "-o", out}, {"tracks", kitti, "-o", out}, {"tracks", kitti, "--untracked", "maybe"},
		{"tracks", kitti, "--to", "jsonl", "-o", "-"}} {
		if code, _, stderr := trackink(args...); code != 2 {
			t.Errorf("%v: exit %d, %s; want a usage error", args, code, stderr)
		}
	}
}

// TestRenderEveryFormat draws frame 1 of each format's fixture (scene/testdata/formats) onto
// a blank canvas: something must be drawn.
func TestRenderEveryFormat(t *testing.T) {
	dir := t.TempDir()
	formats := filepath.Join("..", "scene", "testdata", "formats")
	for _, tc := range []struct {
		name  string
		extra []string
	}{
		{"supervision.csv", nil},
		{"kitti_0000.txt", nil},
		{"cvat_video.xml", nil},
		{"yolo", []string{"--class-names", filepath.Join(formats, "coco8.yaml")}},
	} {
		out := filepath.Join(dir, tc.name+".png")
		args := append([]string{"render", "--tracks", filepath.Join(formats, tc.name), "--width", "3840", "--height", "2160", "--frame", "1", "-o", out}, tc.extra...)
		code, _, stderr := trackink(args...)
		if code != 0 {
			t.Errorf("%s: exit %d, %s", tc.name, code, stderr)
			continue
		}
		img := readPicture(t, out)
		blank := img.At(0, 0)
		drawn := 0
		for y := 0; y < 2160; y += 4 {
			for x := 0; x < 3840; x += 4 {
				if img.At(x, y) != blank {
					drawn++
				}
			}
		}
		if drawn == 0 {
			t.Errorf("%s: nothing drawn on frame 1", tc.name)
		}
	}
}

// fullWriter takes n bytes, then fails as a full disk does.
type fullWriter struct{ n int }

func (f *fullWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, syscall.ENOSPC
	}
	f.n -= len(p)
	return len(p), nil
}

// What a command prints is its result: cut short, it is a failure (exit 1, saying so),
// not a success. completion printed a cut script into ~/.zfunc and exited 0.
func TestOutputCutShortFails(t *testing.T) {
	for _, args := range [][]string{{"completion", "zsh"}, {"completion", "bash"}, {"version"}, {"help"},
		{"render", "--help"}, {"track", "--list-detect"}, {"golden", "--list"}} {
		var errOut bytes.Buffer
		code := Main(args, &fullWriter{n: 10}, &errOut)
		if code != exitFailure || !strings.Contains(errOut.String(), "writing to standard output: "+syscall.ENOSPC.Error()) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and the write error", args, code, errOut.String())
		}
		if code := Main(args, io.Discard, io.Discard); code != 0 {
			t.Errorf("%v to a writer that takes all: exit %d", args, code)
		}
	}
}
