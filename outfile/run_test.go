package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestRunRule: an output is never one of the run's inputs (however spelled or linked) nor
// another of its outputs, and replaces a file only with Overwrite (a segment and a retried
// task's file always, the run's other checks standing).
func TestRunRule(t *testing.T) {
	dir, p := filesIn(t, "in.txt", "old.txt")
	if err := os.Link(p("in.txt"), p("hard.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		overwrite bool
		segment   bool
		retried   bool
		outputs   []string // earlier outputs of the run
		path      string
		refused   bool
	}{
		{name: "a new file", path: p("new.txt")},
		{name: "the input", overwrite: true, path: p("in.txt"), refused: true},
		{name: "the input, spelled otherwise", overwrite: true, path: filepath.Join(dir, ".", "sub", "..", "in.txt"), refused: true},
		{name: "a hard link to the input", overwrite: true, path: p("hard.txt"), refused: true},
		{name: "another output", outputs: []string{p("new.txt")}, path: filepath.Join(dir, "./new.txt"), refused: true},
		{name: "an existing file", path: p("old.txt"), refused: true},
		{name: "an existing file, overwrite", overwrite: true, path: p("old.txt")},
		{name: "an existing segment", segment: true, path: p("old.txt")},
		{name: "a directory where the segment goes", segment: true, path: dir, refused: true},
		{name: "an existing file, retried", retried: true, path: p("old.txt")},
		{name: "the input, retried", retried: true, path: p("in.txt"), refused: true},
		{name: "another output, retried", retried: true, outputs: []string{p("new.txt")}, path: p("new.txt"), refused: true},
		{name: "a named pipe, retried", retried: true, path: p("fifo"), refused: true},
		{name: "no name", path: "", refused: true},
		{name: "a missing directory", path: p("none/new.txt"), refused: true},
		// Moved into place over them, a partial file replaced them: root's /dev/null
		// became a file of tracks.
		{name: "a named pipe", overwrite: true, path: p("fifo"), refused: true},
		{name: "a device", overwrite: true, path: os.DevNull, refused: true},
		{name: "standard output", overwrite: true, path: "/dev/stdout", refused: true},
	} {
		r := Run{Overwrite: tc.overwrite}
		r.Input("-i", p("in.txt"))
		for _, o := range tc.outputs {
			if _, err := r.Output("--other", o); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		var err error
		switch {
		case tc.segment:
			_, err = r.Segment("-o", tc.path)
		case tc.retried:
			_, err = r.Retried("-o", tc.path)
		default:
			_, err = r.Output("-o", tc.path)
		}
		if got := errors.Is(err, ErrRefused); got != tc.refused || !tc.refused && err != nil {
			t.Errorf("%s: %v, refused: %v, want %v", tc.name, err, got, tc.refused)
		}
	}
}

// TestRunInputDirectory: a directory the run reads (a YOLO results directory, read for the
// label files in it) takes no output, new or replacing one, even with Overwrite, however the
// output is spelled; beside it, outputs are written as ever.
func TestRunInputDirectory(t *testing.T) {
	_, p := filesIn(t, "out.txt")
	for _, d := range []string{"labels/sub", "labels2"} {
		if err := os.MkdirAll(p(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"labels/v_1.txt", "labels/v_2.txt", "labels2/x.txt"} {
		if err := os.WriteFile(p(f), []byte("0 0.5 0.5 0.1 0.1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(p("labels/v_2.txt"), p("into.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("labels", p("lnk")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, input, path string
		refused           bool
	}{
		{"a label file", p("labels"), p("labels/v_2.txt"), true},
		{"a new label file", p("labels"), p("labels/v_7.txt"), true},
		{"another file in it", p("labels"), p("labels/stats.json"), true},
		{"a file in a directory under it", p("labels"), p("labels/sub/v_9.txt"), true},
		{"spelled ./a/../", p("labels"), p("labels/sub/../v_9.txt"), true},
		{"a picture sequence in it", p("labels"), p("labels/f_%05d.png"), true},
		{"through a symbolic link to a file in it", p("labels"), p("into.txt"), true},
		{"through a symbolic link to it", p("labels"), p("lnk/v_7.txt"), true},
		{"given as a symbolic link", p("lnk"), p("labels/v_7.txt"), true},
		{"given with a slash", p("labels") + "/", p("labels/v_7.txt"), true},
		{"beside it", p("labels"), p("out.txt"), false},
		{"a directory named with its name as a prefix", p("labels"), p("labels2/x.txt"), false},
		{"a file's directory is not a directory input", p("labels/v_1.txt"), p("labels/v_7.txt"), false},
	} {
		r := Run{Overwrite: true}
		r.Input("--tracks", tc.input)
		_, err := r.Output("--stats-json", tc.path)
		if got := errors.Is(err, ErrRefused); got != tc.refused || !tc.refused && err != nil {
			t.Errorf("%s: %v, refused: %v, want %v", tc.name, err, got, tc.refused)
		} else if tc.refused && !strings.Contains(err.Error(), "--stats-json") || tc.refused && !strings.Contains(err.Error(), "--tracks") {
			t.Errorf("%s: %v, want both flags named", tc.name, err)
		}
	}
}

// TestRunSequences: a numbered picture sequence (f_%05d.png) is every picture it names,
// whatever the width of its number: an output sequence is refused over an input sequence
// spelled with another width, a file among its pictures is refused beside it, and a picture
// of it that exists already is refused without Overwrite, named. An input given as a file:
// URL is the file.
func TestRunSequences(t *testing.T) {
	_, p := filesIn(t, "f_1.png", "f_2.png", "old_00790.png", "in.mp4", "a_1.png", "a_2.png", "b_7.png", "st_00120.png")
	for _, tc := range []struct {
		name      string
		input     string
		overwrite bool
		outputs   []string // earlier outputs of the run
		path      string
		refused   string // in the error; "" for none
	}{
		{"a new sequence", p("f_%d.png"), false, nil, p("new_%05d.png"), ""},
		{"the input sequence, another width", p("f_%d.png"), true, nil, p("f_%1d.png"), "is the input"},
		{"the input sequence, zero-padded", p("f_%d.png"), true, nil, p("f_%05d.png"), "is the input"},
		{"a picture of the input sequence", p("f_%d.png"), true, nil, p("f_2.png"), "is the input"},
		{"a file among the output's pictures", p("in.mp4"), true, []string{p("x_%05d.png")}, p("x_00002.png"), "is also"},
		{"a sequence with a picture already", p("in.mp4"), false, nil, p("old_%05d.png"), "old_00790.png exists"},
		{"a sequence with a picture already, overwrite", p("in.mp4"), true, nil, p("old_%05d.png"), ""},
		// Only the names image2 writes for the pattern are its pictures: a_%05d.png never
		// writes a_1.png, nor st_%d.png st_00120.png; b_%d.png writes b_7.png.
		{"another width's pictures are not the sequence's", p("in.mp4"), false, nil, p("a_%05d.png"), ""},
		{"unpadded pictures are not a padded sequence's", p("in.mp4"), false, nil, p("st_%d.png"), ""},
		{"a picture past the new last", p("in.mp4"), false, nil, p("b_%d.png"), "b_7.png exists"},
		{"a padded picture of %5d", p("in.mp4"), false, nil, p("st_%5d.png"), "st_00120.png exists"},
		{"a file of another width beside an output sequence", p("in.mp4"), true, []string{p("x_%05d.png")}, p("x_2.png"), ""},
		{"a percent sign alone is a name", p("in.mp4"), false, nil, p("100%.png"), ""},
		{"an escaped percent sign", p("in.mp4"), true, []string{p("a%%_%d.png")}, p("a%_7.png"), "is also"},
		{"the input as a file:// URL", "file://" + p("in.mp4"), true, nil, p("in.mp4"), "is the input"},
		{"the input as a file: URL", "file:" + p("in.mp4"), true, nil, p("in.mp4"), "is the input"},
	} {
		r := Run{Overwrite: tc.overwrite}
		r.Input("-i", tc.input)
		for _, o := range tc.outputs {
			if _, err := r.Output("--other", o); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		_, err := r.Output("-o", tc.path)
		if tc.refused == "" && err != nil || tc.refused != "" && (!errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.refused)) {
			t.Errorf("%s: %v, want refused: %q", tc.name, err, tc.refused)
		}
	}
}

// SequencePictures: a pattern's pictures are the names image2 writes for it, the number
// padded with zeros to the pattern's width and never beyond, whatever else the directory
// holds; they are what a run is refused over without Overwrite and what one with it replaces.
func TestSequencePictures(t *testing.T) {
	dir, p := filesIn(t, "a_1.png", "a_2.png", "a_10.png", "a_01.png", "a_00001.png", "a_000002.png",
		"a_123456.png", "a_1.jpg", "a_x.png", "a_.png", "a_-1.png", "a_99999999999.png", "b_0.png", "b_00.png",
		"c%_3.png", ".a_00001.png.1.partial")
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"a_%d.png", []string{"a_1.png", "a_10.png", "a_123456.png", "a_2.png"}},
		{"a_%1d.png", []string{"a_1.png", "a_10.png", "a_123456.png", "a_2.png"}},
		{"a_%02d.png", []string{"a_01.png", "a_10.png", "a_123456.png"}},
		{"a_%05d.png", []string{"a_00001.png", "a_123456.png"}},
		{"a_%5d.png", []string{"a_00001.png", "a_123456.png"}}, // image2 pads %5d with zeros too
		{"a_%06d.png", []string{"a_000002.png", "a_123456.png"}},
		{"b_%d.png", []string{"b_0.png"}},
		{"b_%0d.png", []string{"b_0.png"}},
		{"c%%_%d.png", []string{"c%_3.png"}},
		{"a_1.png", nil},       // no sequence
		{"a_%d_%d.png", nil},   // two numbers: no sequence
		{"a_%s.png", nil},      // not a number
		{"none/a_%d.png", nil}, // no directory
	} {
		pattern := p(tc.pattern)
		var got []string
		for _, have := range SequencePictures(pattern) {
			rel, err := filepath.Rel(dir, have)
			if err != nil || filepath.Join(dir, rel) != have {
				t.Errorf("%s: %s is not spelled in the pattern's directory", tc.pattern, have)
			}
			got = append(got, rel)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("SequencePictures(%s) = %v, want %v", tc.pattern, got, tc.want)
		}
	}
}

// filesIn makes a directory holding the named files, and returns it and a function that
// gives a name's path in it.
func filesIn(t *testing.T, names ...string) (string, func(string) string) {
	t.Helper()
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, name := range names {
		if err := os.WriteFile(p(name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, p
}

// LocalPath: the file FFmpeg opens for a name, the file: protocol's too; no file for other URLs.
func TestLocalPath(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		ok         bool
	}{
		{"in.mp4", "in.mp4", true},
		{"2024-01-01T12:30:00.mp4", "2024-01-01T12:30:00.mp4", true},
		{"file:in:1.mp4", "in:1.mp4", true},
		{"file:///data/in.mp4", "///data/in.mp4", true},
		{"https://example.com/in.mp4", "", false},
		{"rtsp://camera/stream", "", false},
	} {
		path, ok := LocalPath(tc.name)
		if ok != tc.ok || ok && path != tc.path {
			t.Errorf("LocalPath(%q) = %q, %v; want %q, %v", tc.name, path, ok, tc.path, tc.ok)
		}
	}
}
