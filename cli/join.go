package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"trackink/options"
	"trackink/outfile"
	"trackink/video"

	"github.com/spf13/pflag"
)

const joinExamples = `Examples:
  # The segments of in.mp4 in segs/ (written by trackink render --segment i/N -o segs/):
  trackink join -i in.mp4 --segments segs/ -o out.mp4

  # Segments named one by one (in any order):
  trackink join -i in.mp4 --segments a.seg-0000-of-0002.mp4,b/a.seg-0001-of-0002.mp4 -o out.mp4`

// joinCommand is the join command: it concatenates the segments of one render (render
// --segment) into the output the whole render would have written, without re-encoding
// (video.Join).
func joinCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	var source, output string
	var segments []string
	var overwrite, quiet, verbose bool
	fs := options.NewFlagSet("join", "-i SOURCE --segments DIR|FILE,FILE... -o OUTPUT [flags]", joinExamples, stderr)
	fs.StringVarP(&source, "input", "i", "", "the video the segments were rendered from: its audio, subtitles and metadata are copied")
	fs.StringSliceVar(&segments, "segments", nil, "the directory holding the segments (those named after the input), or the segment files")
	fs.StringVarP(&output, "output", "o", "", "the joined video (.mp4, .mkv, .mov)")
	fs.BoolVarP(&overwrite, "yes", "y", false, "overwrite the output if it exists (never the input or a segment)")
	fs.BoolVar(&quiet, "quiet", false, "no progress line and no informational messages (warnings still print)")
	fs.BoolVar(&verbose, "verbose", false, "print FFmpeg's own log lines as they come")
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		ctx, stop := signalContext()
		defer stop()
		switch {
		case source == "":
			return options.UsageError{Err: errors.New("no input: give -i SOURCE, the video the segments were rendered from")}
		case len(segments) == 0:
			return options.UsageError{Err: errors.New("no segments: give --segments DIR or --segments FILE,FILE...")}
		}
		files := runFiles{Run: outfile.Run{Overwrite: overwrite}}
		if err := files.input("-i", source, false); err != nil {
			return err
		}
		segs, err := segmentFiles(source, segments)
		if err != nil {
			return err
		}
		// A directory of segments is read as a whole: the join is not written into it (a
		// name of a segment's shape would be taken for one by the next join of it).
		for _, s := range segments {
			if st, err := os.Stat(s); err == nil && st.IsDir() {
				files.Input("--segments", s)
			}
		}
		for _, s := range segs {
			if err := files.input("--segments", s, false); err != nil {
				return err
			}
		}
		target, err := files.Output("-o", output)
		if err != nil {
			return err
		}
		if err := video.CheckJoinContainer(target); err != nil {
			return options.FlagError(fs, err)
		}
		say := func(format string, a ...any) {
			if !quiet {
				fmt.Fprintf(stderr, format+"\n", a...)
			}
		}
		o := video.JoinOptions{Source: source, Segments: segs, Output: target, Overwrite: overwrite,
			Log: func(line string) { say("%s", line) }}
		if verbose {
			o.FFmpegLog = func(line string) { fmt.Fprintln(stderr, line) }
		}
		progress := newProgressLine(stderr, !quiet && isTerminal(stderr))
		o.Progress = progress.update
		removeStalePartials(target, stderr)
		if err := checkCreatable(target); err != nil {
			return err
		}
		stats, err := video.Join(ctx, o)
		progress.done()
		if quiet {
			for _, w := range stats.Warnings {
				fmt.Fprintf(stderr, "trackink join: warning: %s\n", w)
			}
		}
		switch {
		case err == nil:
			say("wrote %s: %d segments, %d frames, %.1f MB in %.2f s (%.0f MB/s)", output, stats.Segments, stats.Frames,
				float64(stats.Bytes)/1e6, stats.Wall.Seconds(), float64(stats.Bytes)/1e6/stats.Wall.Seconds())
			return nil
		case errors.Is(err, context.Canceled):
			return interrupted(ctx)
		}
		var damaged *video.DamagedSegmentError
		if errors.As(err, &damaged) {
			// The join cannot know the render's other flags (the tracks, the look): the
			// command says where they go. -y: a segment cut short no longer says it is one,
			// and render replaces only what does without it (replaceableSegment).
			return fmt.Errorf("%w; render it again as the others were (the same tracks and flags), then join again: trackink render -i %s --tracks TRACKS --segment %d/%d -o %s -y [FLAGS]",
				err, source, damaged.Index, damaged.Count, filepath.Dir(damaged.Path)+string(filepath.Separator))
		}
		return outputError(output, source, err)
	}
}

// segmentFiles resolves --segments: one directory stands for the segments of source in it
// (video.SegmentFiles); otherwise the values are the segment files.
func segmentFiles(source string, values []string) ([]string, error) {
	if len(values) == 1 {
		if st, err := os.Stat(values[0]); err == nil && st.IsDir() {
			files, err := video.SegmentFiles(values[0], source)
			if err != nil {
				return nil, fmt.Errorf("--segments %s: %w", values[0], err)
			}
			return files, nil
		}
	}
	return values, nil
}
