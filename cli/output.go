package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"trackink/options"
	"trackink/outfile"
	"trackink/video"
)

// outputError words video's output errors for the command line.
func outputError(output, input string, err error) error {
	switch {
	case errors.Is(err, outfile.ErrIsInput):
		return options.UsageError{Err: fmt.Errorf("output %s is the input %s: write to another file", output, input)}
	case errors.Is(err, video.ErrOutputIsSegment):
		return options.UsageError{Err: fmt.Errorf("output %s is one of the segments: write to another file", output)}
	case errors.Is(err, outfile.ErrExists):
		// The file that appeared may be another output than output: --stats-json's.
		var ee *outfile.ExistsError
		if errors.As(err, &ee) {
			output = ee.Path
		}
		return fmt.Errorf("output %s exists (use -y to overwrite it)", output)
	}
	return err
}

// removeStalePartials removes the partial files that renders killed before they finished
// left in the output's directory, and says so.
func removeStalePartials(target string, stderr io.Writer) {
	removed, err := outfile.RemoveStalePartials(filepath.Dir(target))
	if err != nil {
		fmt.Fprintf(stderr, "trackink: warning: %v\n", err)
	}
	for _, p := range removed {
		fmt.Fprintf(stderr, "trackink: removed %s (%.1f MB), the partial output of a trackink run that was killed\n",
			filepath.Join(filepath.Dir(target), p.Name), float64(p.Size)/1e6)
	}
}

// writeAtomic writes a file whole or not at all (outfile.Write), its errors in the command
// line's words: a stop signal (ctx, signalContext) is the interrupted status, an output that
// appeared meanwhile is refused without -y.
func writeAtomic(ctx context.Context, path string, overwrite bool, write func(io.Writer) error) error {
	err := outfile.Write(ctx, path, overwrite, write)
	if ctx.Err() != nil {
		return interrupted(ctx)
	}
	return outputError(path, "", err)
}

// checkCreatable creates target's partial file and discards it, before a command's long
// work (join's checksums of every segment, the reading of the tracks): a directory the
// output cannot be written in is found then, not after the work, as render's partners are
// (outfile.Partner).
func checkCreatable(target string) error {
	p, err := outfile.CreatePartial(target)
	if err != nil {
		return err
	}
	p.Discard()
	return nil
}
