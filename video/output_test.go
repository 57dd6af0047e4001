package video

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"trackink/internal/testdir"
	"trackink/outfile"
)

func TestOutputIsInput(t *testing.T) {
	in := demoClip(t, ".mp4")
	dir := filepath.Dir(in)
	before, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	hard, soft := filepath.Join(dir, "hard.mp4"), filepath.Join(dir, "soft.mp4")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.mp4", soft); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{in, filepath.Join(dir, ".", "in.mp4"), hard, soft} {
		_, _, _, err := render(t, in, ".mp4", Options{Output: out, Overwrite: true})
		if !errors.Is(err, outfile.ErrIsInput) {
			t.Errorf("output %s: %v, want outfile.ErrIsInput", out, err)
		}
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Error("the input was changed")
	}
	testdir.Holds(t, dir, "hard.mp4", "in.mp4", "soft.mp4")
}

func TestOutputSymlinkWrittenThrough(t *testing.T) {
	in := demoClip(t, ".mp4")
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.mp4"), filepath.Join(dir, "link.mp4")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.mp4", link); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := render(t, in, ".mp4", Options{Output: link}); !errors.Is(err, outfile.ErrExists) {
		t.Errorf("a link to an existing file without Overwrite: %v, want outfile.ErrExists", err)
	}
	if _, _, _, err := render(t, in, ".mp4", Options{Output: link, Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the output link was replaced: %v %v", st, err)
	}
	if n := len(videoPTS(t, target)); n != clipFrames {
		t.Errorf("the link's target holds %d frames, want %d", n, clipFrames)
	}
	testdir.Holds(t, dir, "link.mp4", "target.mp4")

	dangling := filepath.Join(dir, "dangling.mp4")
	if err := os.Symlink("nowhere/x.mp4", dangling); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := render(t, in, ".mp4", Options{Output: dangling, Overwrite: true}); err == nil {
		t.Error("a link to nothing was accepted")
	}
}
