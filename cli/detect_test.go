package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"trackink/detect"
	"trackink/internal/needs"
	"trackink/scene"
)

// sharedModel is the model kept beside the repository.
var sharedModel = filepath.Join("..", "..", "shared", "models", detect.ModelFile)

// withModel points the detector at the model beside the repository, or skips (fails under
// CI, which has it) where it or the clip is absent.
func withModel(t *testing.T) {
	t.Helper()
	needs.File(t, sharedModel, "the model is kept in ../shared/models beside the repository")
	needs.File(t, vtestPath, "Debian's opencv-doc has it")
	_, err := detect.LocateRuntime("")
	needs.Met(t, err)
	t.Setenv(detect.ModelEnv, sharedModel)
}

// TestDetectPeopleBadOptions: the detector's flags are checked before any file is read, each
// mistake exit 2 naming its flag.
func TestDetectPeopleBadOptions(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.txt")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--detect", "people", "--classes", "persn"}, `unknown class "persn"`},
		{[]string{"--detect", "people", "--min-score", "1"}, "--min-score"},
		{[]string{"--detect", "people", "--start-score", "2"}, "--start-score"},
		{[]string{"--detect", "motion", "--classes", "car"}, "--classes is for --detect objects, people; --detect motion does not use it"},
		{[]string{"--detect", "people", "--model", filepath.Join(t.TempDir(), "none.onnx")}, "none.onnx"},
	} {
		args := append([]string{"track", "-i", "missing.mp4", "-o", out}, c.args...)
		code, _, stderr := trackink(args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want an error saying %s", c.args, code, stderr, c.want)
		}
	}
	// A missing model names where it was looked for and where to get it.
	t.Setenv(detect.ModelEnv, "")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	code, _, stderr := trackink("track", "-i", "missing.mp4", "-o", out, "--detect", "people")
	if code == 0 || !strings.Contains(stderr, detect.ModelSHA256) || !strings.Contains(stderr, "$"+detect.ModelEnv) {
		t.Errorf("no model: exit %d, %q", code, stderr)
	}
}

// TestModelFileMistakes: --model naming a missing file or a directory is a mistake on the
// command line, exit 2 naming the flag, as every file flag's is (it was exit 1, "model …");
// a model file larger than an ONNX model can be is refused before it is read (a 4 GB file
// took a 4.3 GB allocation), exit 1. Each from $TRACKINK_MODEL is exit 1 naming the
// variable. The 4 GiB file is sparse.
func TestModelFileMistakes(t *testing.T) {
	dir := t.TempDir()
	missing, big := filepath.Join(dir, "none.onnx"), filepath.Join(dir, "big.onnx")
	f, err := os.Create(big)
	if err == nil {
		err = errors.Join(f.Truncate(4<<30), f.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe.onnx")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	fromEnv := " (from $" + detect.ModelEnv + "): "
	for _, c := range []struct {
		name      string
		flag, env string // --model, $TRACKINK_MODEL
		code      int
		says      string
	}{
		{"--model missing", missing, "", exitUsage, "--model " + missing + ": no such file or directory"},
		{"--model a directory", dir, "", exitUsage, "--model " + dir + " is a directory"},
		// It said "model …: not a regular file", exit 1, not naming the flag.
		{"--model a named pipe", pipe, "", exitUsage, "--model " + pipe + ": not a regular file"},
		{"--model too large", big, "", exitFailure, big + ": 4294967296 bytes (4.0 GiB): larger than an ONNX model can be"},
		// A file: URL is its file, as for every file flag (it passed the check, then failed
		// in the detector); another URL is no file.
		{"--model a file: URL of a missing file", "file:" + missing, "", exitUsage, "--model file:" + missing + ": no such file or directory"},
		{"--model a URL", "https://example.com/yolox_nano.onnx", "", exitUsage, "--model https://example.com/yolox_nano.onnx: give the model's file, not a URL"},
		{"$TRACKINK_MODEL missing", "", missing, exitFailure, missing + fromEnv + "no such file or directory"},
		{"$TRACKINK_MODEL a directory", "", dir, exitFailure, dir + fromEnv + "not a regular file"},
		{"$TRACKINK_MODEL too large", "", big, exitFailure, big + fromEnv + "4294967296 bytes (4.0 GiB): larger than an ONNX model can be"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(detect.ModelEnv, c.env)
			for _, command := range []string{"track", "render"} {
				args := []string{command, "-i", vtestPath, "--detect", "people", "-o", filepath.Join(dir, "out.mp4")}
				if command == "track" {
					args[len(args)-1] = filepath.Join(dir, "t.txt")
				}
				if c.flag != "" {
					args = append(args, "--model", c.flag)
				}
				code, _, stderr := trackink(args...)
				if code != c.code || !strings.Contains(stderr, c.says) {
					t.Errorf("%s: exit %d, %q; want exit %d saying %q", command, code, stderr, c.code, c.says)
				}
			}
		})
	}
}

// TestTruncatedRuntimeRefused: ONNX Runtime's library cut short (the first 200,000 or
// 20,000,000 bytes of it) is refused, exit 1, naming the file, saying it is truncated and
// where to get a good copy; dlopen crashed the process on it with SIGBUS (a Go crash dump,
// exit 2).
func TestTruncatedRuntimeRefused(t *testing.T) {
	lib, err := detect.LocateRuntime("")
	needs.Met(t, err)
	whole, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model := filepath.Join(dir, detect.ModelFile)
	if err := os.WriteFile(model, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(detect.ModelEnv, model) // refused before the model is read
	for _, size := range []int{200_000, 20_000_000} {
		if size >= len(whole) {
			t.Fatalf("%s has %d bytes: want more than %d", lib, len(whole), size)
		}
		cut := filepath.Join(dir, fmt.Sprintf("cut%d.so", size))
		if err := os.WriteFile(cut, whole[:size], 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv(detect.RuntimeEnv, cut)
		out := filepath.Join(dir, "t.txt")
		code, _, stderr := trackink("track", "-i", vtestPath, "--detect", "people", "--end", "3", "-o", out)
		for _, want := range []string{cut + " (from $" + detect.RuntimeEnv + "): truncated", "get a good copy from"} {
			if code != exitFailure || !strings.Contains(stderr, want) {
				t.Errorf("the first %d bytes: exit %d, %q; want exit 1 saying %q", size, code, stderr, want)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("the first %d bytes: %s written", size, out)
		}
	}
}

// TestRelativeRuntimePath: $TRACKINK_ONNXRUNTIME naming a library in the working directory
// without a slash (libort.so) loads it, as ./libort.so does: dlopen searched the library
// path for the bare name and failed with "cannot open shared object file".
func TestRelativeRuntimePath(t *testing.T) {
	withModel(t)
	bin := binary(t)
	lib, err := detect.LocateRuntime("")
	needs.Met(t, err)
	model, err := filepath.Abs(sharedModel)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(lib, filepath.Join(dir, "libort.so")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"libort.so", "./libort.so"} {
		cmd := exec.Command(bin, "track", "-i", vtestPath, "--detect", "people", "--end", "2", "-o", "t.txt", "-y", "--quiet")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), detect.RuntimeEnv+"="+name, detect.ModelEnv+"="+model)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s=%s: %v: %s", detect.RuntimeEnv, name, err, out)
		}
	}
}

// TestTrackerFlagsOnlyWhereRead: a tracker flag that the mode given does not read, a
// tracker flag without --detect, and a reader's flag with --detect would each do nothing:
// each is exit 2 naming the flag, before any file is read.
func TestTrackerFlagsOnlyWhereRead(t *testing.T) {
	out := filepath.Join(t.TempDir(), "o.mp4")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "--tracks", "t.txt", "--threshold", "50"}, "--threshold is the built-in tracker's: it needs --detect"},
		{[]string{"render", "--tracks", "t.txt", "--min-score", "0.5"}, "--min-score is the built-in tracker's"},
		{[]string{"render", "--detect", "motion", "--class-names", "c.names"}, "--class-names is for reading a tracks file"},
		{[]string{"render", "--detect", "motion", "--frame-base", "0"}, "--frame-base is for reading a tracks file"},
		{[]string{"render", "--detect", "motion", "--hue", "30"}, "--hue is for --detect color; --detect motion does not use it"},
		{[]string{"track", "--detect", "people", "--threshold", "40"}, "--threshold is for --detect bright, dark, motion, color, points"},
		{[]string{"track", "--detect", "bright", "--point-size", "4"}, "--point-size is for --detect points, dense-points"},
		{[]string{"track", "--detect", "points", "--grace", "3"}, "--grace is for --detect bright"},
		{[]string{"render", "--detect", "color", "--point-seed", "edges"}, "--point-seed is for --detect points, dense-points; --detect color does not use it"},
		{[]string{"track", "--detect", "lights", "--start-score", "0.5"}, "--start-score is for --detect objects, people; --detect lights"},
	} {
		args := append([]string{c.args[0], "-i", "missing.mp4", "-o", out}, c.args[1:]...)
		code, _, stderr := trackink(args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %s", c.args, code, stderr, c.want)
		}
	}
	// What the modes do read stays accepted: these fail only on the missing input.
	for _, args := range [][]string{
		{"render", "--detect", "motion", "--anchor", "centre", "--threshold", "30", "--grace", "4"},
		{"track", "--detect", "color", "--hue", "120"},
		{"track", "--detect", "dense-points", "--point-size", "4", "--max-move", "0.01"},
		{"render", "--detect", "points", "--point-seed", "color-edges", "--sensitivity", "0.3"},
	} {
		code, _, stderr := trackink(append([]string{args[0], "-i", "missing.mp4", "-o", out}, args[1:]...)...)
		if !strings.Contains(stderr, "missing.mp4") {
			t.Errorf("%v: exit %d, %q; want only the missing input refused", args, code, stderr)
		}
	}
}

// TestTrackPeople: track --detect people on 30 frames of vtest.avi from frame 200 writes
// person boxes with scores, numbered as the video's frames, the tracks render --detect
// saves (track detects several frames at once, a network a core; the render one frame at
// a time); --classes with a class that is not there tracks nothing and says what to try.
func TestTrackPeople(t *testing.T) {
	withModel(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "people.jsonl")
	code, _, stderr := trackink("track", "-i", vtestPath, "--detect", "people", "--start", "200", "--end", "229", "-o", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	tr, err := scene.Load(out, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var f scene.Frame
	if tr.FirstIndex() != 200 || tr.LastIndex() != 229 {
		t.Errorf("frames %d..%d, want 200..229 (the first frame tracked's walkers confirmed at once)", tr.FirstIndex(), tr.LastIndex())
	}
	if tr.Frame(215, &f) == nil || len(f.Boxes) < 4 {
		t.Fatalf("frame 215: %d boxes; want the walkers", len(f.Boxes))
	}
	for _, b := range f.Boxes {
		if b.Class != "person" || !b.HasScore || b.H < b.W {
			t.Errorf("box %+v: want an upright person box with a score", b)
		}
	}
	saved := filepath.Join(dir, "saved.jsonl")
	code, _, stderr = trackink("render", "-i", vtestPath, "--detect", "people", "--start", "200", "--end", "229",
		"--save-tracks", saved, "-o", filepath.Join(dir, "v.mkv"), "--quiet")
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(saved)
	if code != 0 || string(a) != string(b) {
		t.Errorf("render --detect --save-tracks (exit %d, %s) saved other tracks than track wrote", code, stderr)
	}
	code, _, stderr = trackink("track", "-i", vtestPath, "--detect", "objects", "--classes", "giraffe", "--end", "5", "-o", filepath.Join(dir, "g.txt"), "--quiet")
	if code != 0 || !strings.Contains(stderr, "nothing was tracked in 5 frames; try") {
		t.Errorf("no giraffes: exit %d, %q", code, stderr)
	}
}

// TestRenderDetectFrame: render --detect --frame N draws frame N as the whole render draws
// it: the same picture as render --tracks of the tracks it saves, in JSON Lines and in
// MOTChallenge text read with the names written beside it (once only with --class-names
// t.names, without which the labels lost their class). The text once lost the one
// class of --detect people: "#1 0.71" for "#1 person 0.71", and hud coloured by track.
func TestRenderDetectFrame(t *testing.T) {
	withModel(t)
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	render := func(args ...string) {
		t.Helper()
		if code, _, stderr := trackink(append([]string{"render", "-i", vtestPath, "--look", "hud", "--quiet"}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	render("--detect", "people", "--frame", "40", "-o", p("a.png"))
	a, _ := os.ReadFile(p("a.png"))
	for _, c := range []struct {
		saved   string
		readers []string
	}{
		{"t.jsonl", nil},
		{"t.txt", nil}, // t.names beside it read with it
	} {
		render("--detect", "people", "--end", "40", "--save-tracks", p(c.saved), "--lossless", "-o", p("v.mkv"), "-y")
		render(append([]string{"--tracks", p(c.saved), "--frame", "40", "-o", p("b.png"), "-y"}, c.readers...)...)
		b, _ := os.ReadFile(p("b.png"))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("render --detect --frame 40 differs from render --tracks of its saved %s", c.saved)
		}
	}
}

// A model that is not the tested file is used, and said so with both sha256s.
func TestDetectNotesAnotherModel(t *testing.T) {
	withModel(t)
	b, err := os.ReadFile(sharedModel)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.onnx")
	// The same network with one more protobuf field (number 15, a varint), which ONNX
	// Runtime skips: another file, the same model.
	if err := os.WriteFile(other, append(b, 0x78, 0x0a), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := trackink("track", "-i", vtestPath, "--detect", "people", "--model", other, "--end", "2",
		"-o", filepath.Join(t.TempDir(), "t.txt"), "--quiet")
	if code != 0 || !strings.Contains(stderr, "warning: model "+other) || !strings.Contains(stderr, detect.ModelSHA256) {
		t.Errorf("exit %d, %q; want a warning naming the model and the tested sha256, --quiet or not", code, stderr)
	}
}

// Boxes tracked into MOTChallenge text keep their classes: the class numbers go in field x
// and their names in NAME.names beside it, which --class-names reads back to the classes
// JSON Lines holds; one class (people) too (person is 0, which TrackEval's MOTChallenge
// evaluation takes: it refuses numbers above 1). People once wrote plain MOTChallenge and
// came back classless. JSON Lines needs no names file.
func TestMOTClassNamesBesideTracks(t *testing.T) {
	withModel(t)
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, args := range [][]string{
		{"track", "--detect", "objects", "-o", p("o.txt")},
		{"track", "--detect", "objects", "-o", p("j.jsonl")},
		{"track", "--detect", "people", "-o", p("p.txt")},
		{"render", "--detect", "objects", "--save-tracks", p("s.txt"), "--preset", "ultrafast", "-o", p("v.mp4")},
	} {
		code, _, stderr := trackink(append(args, "-i", vtestPath, "--end", "30", "--quiet")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if strings.Contains(stderr, "note:") { // --quiet: no informational messages (once said)
			t.Errorf("%v --quiet: %s", args, stderr)
		}
	}
	jsonl, err := scene.Load(p("j.jsonl"), scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		txt  string
		want []string
	}{
		{"o.txt", jsonl.Classes()},
		{"s.txt", jsonl.Classes()},
		{"p.txt", []string{"person"}},
	} {
		names, err := scene.ReadClassNames(strings.TrimSuffix(p(c.txt), ".txt") + ".names")
		if err != nil {
			t.Errorf("%s: %v", c.txt, err)
			continue
		}
		mot, err := scene.Load(p(c.txt), scene.Options{ClassNames: names})
		if err != nil {
			t.Fatal(err)
		}
		if got := mot.Classes(); len(c.want) == 0 || !slices.Equal(got, c.want) {
			t.Errorf("%s read with its names: classes %v, want %v", c.txt, got, c.want)
		}
	}
	if _, err := os.Stat(p("j.names")); err == nil {
		t.Errorf("j.names written: JSON Lines needs none")
	}
}
