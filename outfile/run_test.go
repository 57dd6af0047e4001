package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRunRule: an output is never one of the run's inputs (however spelled or linked) nor
// another of its outputs, and replaces a file only with Overwrite (a segment always).
func TestRunRule(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, name := range []string{"in.txt", "old.txt"} {
		if err := os.WriteFile(p(name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(p("in.txt"), p("hard.txt")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		overwrite bool
		segment   bool
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
		{name: "no name", path: "", refused: true},
		{name: "a missing directory", path: p("none/new.txt"), refused: true},
	} {
		r := Run{Overwrite: tc.overwrite}
		r.Input("-i", p("in.txt"))
		for _, o := range tc.outputs {
			if _, err := r.Output("--other", o); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		var err error
		if tc.segment {
			_, err = r.Segment("-o", tc.path)
		} else {
			_, err = r.Output("-o", tc.path)
		}
		if got := errors.Is(err, ErrRefused); got != tc.refused || !tc.refused && err != nil {
			t.Errorf("%s: %v, refused: %v, want %v", tc.name, err, got, tc.refused)
		}
	}
}
