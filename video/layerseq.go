package video

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/asticode/go-astiav"
)

// sequenceOutput is a numbered picture sequence being written (a layer as name_%05d.png):
// image2 writes the pictures, numbered from 1, into a hidden partial directory beside the
// target, .NAME.<n>.partial, and commit moves them into place under the pattern's names,
// numbered by their video frames, so that the sequence appears whole or not at all and
// never replaces a picture without Overwrite.
type sequenceOutput struct {
	target string // the pattern asked for
	dir    string // the partial directory
	fc     *astiav.FormatContext
}

// createSequence checks the target pattern (its directory exists; without overwrite its
// picture for frame first does not) and creates the partial directory.
func createSequence(target string, overwrite bool, first int) (*sequenceOutput, error) {
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("output directory %s does not exist", dir)
	}
	name, err := sequenceName(target, first)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(name); err == nil && !overwrite {
		return nil, fmt.Errorf("%w: %s (of %s)", ErrOutputExists, name, target)
	}
	base := strings.ReplaceAll(filepath.Base(target), "%", "")
	partial, err := os.MkdirTemp(dir, "."+base+".*.partial")
	if err != nil {
		return nil, fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	return &sequenceOutput{target: target, dir: partial}, nil
}

// pattern is the image2 pattern of the pictures in the partial directory.
func (s *sequenceOutput) pattern() string {
	return filepath.Join(s.dir, "%d"+filepath.Ext(s.target))
}

// commit finishes the muxer and moves pictures 1..frames into place as the target's
// pictures first..first+frames−1. Without overwrite each is linked, and if one exists
// already those placed are taken back and the error wraps ErrOutputExists; with overwrite
// each is renamed over its old one, and the old sequence's pictures numbered after the new
// one's last are removed, so that what the pattern names is the new sequence.
func (s *sequenceOutput) commit(out *output, overwrite bool, first, frames int) error {
	if err := out.fc.WriteTrailer(); err != nil {
		return fmt.Errorf("video: finishing %s: %w", s.target, err)
	}
	var placed []string
	for k := 1; k <= frames; k++ {
		from := strings.Replace(s.pattern(), "%d", strconv.Itoa(k), 1)
		to, err := sequenceName(s.target, first+k-1)
		if err == nil {
			err = syncPath(from)
		}
		if err == nil {
			err = placeFile(from, to, overwrite)
		}
		if err != nil {
			for _, p := range placed {
				os.Remove(p)
			}
			return err
		}
		if !overwrite {
			placed = append(placed, to)
		}
	}
	if overwrite {
		for n := first + frames; ; n++ {
			stale, err := sequenceName(s.target, n)
			if err != nil || os.Remove(stale) != nil {
				break
			}
		}
	}
	if err := syncDir(filepath.Dir(s.target)); err != nil {
		return fmt.Errorf("output directory %s could not be synced: %w (the pictures are in place)", filepath.Dir(s.target), err)
	}
	return nil
}

// placeFile gives a finished picture its final name: a rename, or without overwrite a link.
func placeFile(from, to string, overwrite bool) error {
	if err := os.Chmod(from, 0o644); err != nil {
		return err
	}
	if overwrite {
		return os.Rename(from, to)
	}
	if err := os.Link(from, to); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%w: %s", ErrOutputExists, to)
		}
		return fmt.Errorf("moving the output into place: %w", err)
	}
	return os.Remove(from)
}

// syncPath makes a written file's data durable before it gets its final name.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return syncFile(f)
}

// discard frees the muxer and removes the partial directory with what it holds (after a
// commit, nothing).
func (s *sequenceOutput) discard() {
	if s.fc != nil {
		s.fc.Free()
	}
	os.RemoveAll(s.dir)
}
