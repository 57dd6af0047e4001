package video

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"trackink/outfile"

	"github.com/asticode/go-astiav"
)

// sequenceOutput is a numbered picture sequence being written (a layer as name_%05d.png):
// image2 writes the pictures, numbered from 1, into a hidden partial directory beside the
// target, .NAME.<n>.partial, and commit moves them into place under the pattern's names,
// numbered by their video frames, so that the sequence appears whole or not at all and
// never replaces a picture without Overwrite.
type sequenceOutput struct {
	target  string // the pattern asked for
	partial *outfile.PartialDir
	fc      *astiav.FormatContext
}

// createSequence checks the target pattern (its directory exists; without overwrite none
// of its pictures, outfile.SequencePictures, does) and creates the partial directory.
func createSequence(target string, overwrite bool) (*sequenceOutput, error) {
	if _, err := sequenceName(target, 1); err != nil {
		return nil, err
	}
	if have := outfile.SequencePictures(target); len(have) > 0 && !overwrite {
		return nil, fmt.Errorf("%w: %s (of %s)", outfile.ErrExists, have[0], target)
	}
	partial, err := outfile.CreatePartialDir(filepath.Dir(target), strings.ReplaceAll(filepath.Base(target), "%", ""))
	if err != nil {
		return nil, err
	}
	return &sequenceOutput{target: target, partial: partial}, nil
}

// pattern is the image2 pattern of the pictures in the partial directory.
func (s *sequenceOutput) pattern() string {
	return filepath.Join(s.partial.Dir, "%d"+filepath.Ext(s.target))
}

// commit finishes the muxer and moves pictures 1..frames into place as the target's
// pictures first..first+frames−1. Without overwrite each is linked, and if one exists
// already those placed are taken back and the error wraps outfile.ErrExists; with overwrite
// each is renamed over its old one, and the old sequence's other pictures (before the new
// first or after its last, outfile.SequencePictures: the set a run without overwrite is
// refused over) are removed, so that what the pattern names is the new sequence. A ctx
// that has ended places nothing.
func (s *sequenceOutput) commit(ctx context.Context, out *output, overwrite bool, first, frames int) error {
	if ctx.Err() != nil {
		return cancelled(ctx)
	}
	if err := out.fc.WriteTrailer(); err != nil {
		return fmt.Errorf("video: finishing %s: %w", s.target, err)
	}
	if ctx.Err() != nil {
		return cancelled(ctx) // a stop while the last pictures were written
	}
	files := make([][2]string, frames)
	for k := 1; k <= frames; k++ {
		to, err := sequenceName(s.target, first+k-1)
		if err != nil {
			return err
		}
		files[k-1] = [2]string{strconv.Itoa(k) + filepath.Ext(s.target), to}
	}
	if err := s.partial.Commit(files, overwrite); err != nil {
		return err
	}
	if overwrite {
		placed := map[string]bool{}
		for _, f := range files {
			placed[f[1]] = true
		}
		for _, old := range outfile.SequencePictures(s.target) {
			if st, err := os.Lstat(old); err != nil || st.IsDir() || placed[old] {
				continue // gone already; a directory is no picture to remove
			}
			if err := os.Remove(old); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("video: removing the old sequence's %s: %w (the new pictures are in place)", old, err)
			}
		}
	}
	return nil
}

// discard frees the muxer and removes the partial directory with what it holds (after a
// commit, nothing).
func (s *sequenceOutput) discard() {
	if s.fc != nil {
		s.fc.Free()
	}
	s.partial.Discard()
}
