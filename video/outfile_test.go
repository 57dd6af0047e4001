package video

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The output may not be the input, whatever Overwrite says and however it is spelled: the
// same path, another spelling of it, a hard link, a symbolic link. The input is untouched.
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
		if !errors.Is(err, ErrOutputIsInput) {
			t.Errorf("output %s: %v, want ErrOutputIsInput", out, err)
		}
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Error("the input was changed")
	}
	noLeftovers(t, dir, "hard.mp4", "in.mp4", "soft.mp4")
}

// An output that is a symbolic link is written through: the file it points to gets the
// video (with Overwrite), the link stays a link. A link to nothing is refused.
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
	if _, _, _, err := render(t, in, ".mp4", Options{Output: link}); !errors.Is(err, ErrOutputExists) {
		t.Errorf("a link to an existing file without Overwrite: %v, want ErrOutputExists", err)
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
	noLeftovers(t, dir, "link.mp4", "target.mp4")

	dangling := filepath.Join(dir, "dangling.mp4")
	if err := os.Symlink("nowhere/x.mp4", dangling); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := render(t, in, ".mp4", Options{Output: dangling, Overwrite: true}); err == nil {
		t.Error("a link to nothing was accepted")
	}
}

// RemoveStalePartials removes the partial files no living writer holds, and only those.
func TestRemoveStalePartials(t *testing.T) {
	dir := t.TempDir()
	live, err := CreatePartial(filepath.Join(dir, "live.mp4"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Discard()
	// What a killed writer leaves: the name, and no lock.
	dead := filepath.Join(dir, ".dead.mp4.12345.partial.mp4")
	keep := []string{".notes.txt", "clip.partial.mp4", ".x.mp4.12.partial.mp4.bak"}
	for _, name := range append(keep, filepath.Base(dead)) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("0123456789"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveStalePartials(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0].Name != filepath.Base(dead) || removed[0].Size != 10 {
		t.Errorf("removed %+v, want only %s (10 bytes)", removed, filepath.Base(dead))
	}
	noLeftovers(t, dir, append([]string{filepath.Base(live.Name())}, keep...)...)

	// A finished writer's file is in place and its partial gone.
	if _, err := live.WriteString("done"); err != nil {
		t.Fatal(err)
	}
	if err := live.Commit(false); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "live.mp4")); err != nil || string(b) != "done" {
		t.Errorf("committed file: %q, %v", b, err)
	}
	if _, err := os.Stat(live.Name()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial file is still there after Commit: %v", err)
	}
}
