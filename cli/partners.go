package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"trackink/job"
	"trackink/video"
)

// partnerFile is a file a render writes beside its video (--save-tracks, --stats-json). It
// describes that video, so it lands with it or not at all: its partial file is created
// before any work (a directory that cannot take it is found then, not after the render) and
// moved into place together with the video (video.CommitAll, through Options.Partners).
type partnerFile struct {
	flag, path string // as given on the command line
	target     string // the file to write (runFiles.output)
	write      func(w io.Writer, r job.Report) error
	partial    *video.PartialFile
}

// createPartners sweeps the partial files killed renders left in the partners' directories
// and creates the partners' partial files. On an error the ones created are discarded.
func createPartners(files []partnerFile, stderr io.Writer) error {
	swept := map[string]bool{}
	for i := range files {
		p := &files[i]
		if dir := filepath.Dir(p.target); !swept[dir] {
			swept[dir] = true
			removeStalePartials(p.target, stderr)
		}
		var err error
		if p.partial, err = video.CreatePartial(p.target); err != nil {
			discardPartners(files)
			return fmt.Errorf("%s %s: %w", p.flag, p.path, err)
		}
	}
	return nil
}

// discardPartners deletes the partners' partial files that were not moved into place.
func discardPartners(files []partnerFile) {
	for _, p := range files {
		if p.partial != nil {
			p.partial.Discard()
		}
	}
}

// partnersHook is job.Options.Partners for files: once the video is complete, it writes
// each partner into its partial file and hands them over to be moved into place with it.
func partnersHook(files []partnerFile) func(job.Report) ([]*video.PartialFile, error) {
	if len(files) == 0 {
		return nil
	}
	return func(r job.Report) ([]*video.PartialFile, error) {
		partials := make([]*video.PartialFile, len(files))
		for i, p := range files {
			if err := p.write(p.partial, r); err != nil {
				return nil, fmt.Errorf("%s %s: %w", p.flag, p.path, err)
			}
			partials[i] = p.partial
		}
		return partials, nil
	}
}

// commitPartners writes files, whose partial files are created, and moves them into place
// together (video.CommitAll), the first as the main output: for a run whose outputs are
// all written at the end (track's tracks and class names). ctx ending stops the writing.
func commitPartners(ctx context.Context, overwrite bool, files []partnerFile) error {
	partials := make([]*video.PartialFile, len(files))
	for i, p := range files {
		err := p.write(ctxWriter{ctx, p.partial}, job.Report{})
		if ctx.Err() != nil {
			return interrupted(ctx)
		}
		if err != nil {
			return err
		}
		partials[i] = p.partial
	}
	return outputError(files[0].path, "", video.CommitAll(overwrite, partials...))
}
