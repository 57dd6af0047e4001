package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"trackink/job"
	"trackink/options"
	"trackink/outfile"
	"trackink/scene"
	"trackink/video"

	"github.com/spf13/pflag"
)

const tracksExamples = `Examples:
  # What trackink understood of a tracker's output: format, frames, tracks, classes, extent:
  trackink tracks results.csv

  # Ultralytics YOLO results are normalised: give the video (or its size) to scale them:
  trackink tracks runs/track/exp/labels -i in.mp4 --class-names data.yaml

  # Convert KITTI labels to trackink JSON Lines (frames renumbered from 1):
  trackink tracks 0001.txt --to jsonl -o 0001.jsonl`

func tracksCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	var t options.Tracks
	fs := options.NewFlagSet("tracks", "FILE [--to jsonl|mot -o OUTPUT] [flags]", tracksExamples, stderr)
	to := fs.String("to", "", "convert to this format: jsonl (everything) or mot (tracked boxes)")
	out := fs.StringP("output", "o", "", "with --to: the converted file")
	overwrite := fs.BoolP("yes", "y", false, "overwrite the output if it exists")
	in := fs.StringP("input", "i", "", "the video the tracks belong to (its size scales YOLO's normalised coordinates)")
	w := fs.Int("width", 0, "the video's width, instead of -i (not with it)")
	h := fs.Int("height", 0, "the video's height, instead of -i (not with it)")
	t.Register(fs)
	t.Warn = func(s string) { fmt.Fprintf(stderr, "trackink tracks: warning: %s\n", s) }
	t.Note = func(s string) { fmt.Fprintf(stderr, "trackink tracks: note: %s\n", s) }
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.ParseWith(fs, args, 1, "the tracking file (or YOLO results directory; - for standard input)"); err != nil {
			return err
		}
		t.Path = fs.Arg(0)
		if *w < 0 || *h < 0 {
			return options.UsageError{Err: fmt.Errorf("--width %d, --height %d: sizes cannot be negative", *w, *h)}
		}
		if err := checkSizeFlags(fs, *in); err != nil {
			return err
		}
		var format scene.Format
		switch *to {
		case "":
			if *out != "" {
				return options.UsageError{Err: errors.New("-o goes with --to jsonl or --to mot")}
			}
		case "jsonl":
			format = scene.FormatJSONL
		case "mot":
			format = scene.FormatMOT
		default:
			return options.UsageError{Err: fmt.Errorf("--to %q: want jsonl or mot%s", *to, options.ValueHint("to", *to))}
		}
		files := runFiles{Run: outfile.Run{Overwrite: *overwrite}}
		if t.Path == "-" {
			files.readsStdin("tracks file -")
		}
		for _, f := range []struct{ flag, path string }{{"tracks file", trackFile(t.Path)}, {"-i", *in}, {"--class-names", t.ClassNamesFile()}} {
			if err := files.input(f.flag, f.path, f.flag == "tracks file"); err != nil {
				return err
			}
		}
		target, namesPath, namesTarget := "", "", ""
		if *to != "" {
			if *out == "-" {
				return options.UsageError{Err: errors.New("-o -: tracks --to writes a file, not standard output: give its name")}
			}
			var err error
			if target, err = files.Output("-o", *out); err != nil {
				return err
			}
			// A name whose extension says another format is refused: MOT text in x.jsonl or
			// x.xml, JSON Lines in x.csv would not be read back. Other names (MOT text in
			// out.csv, anything in out) are read back by their contents.
			if !scene.ReadBackAs(*out, format) {
				return options.UsageError{Err: fmt.Errorf("-o %s with --to %s: a file so named is not read as %s; name it %s", *out, *to, format, map[scene.Format]string{
					scene.FormatMOT: "NAME.txt", scene.FormatJSONL: "NAME.jsonl (or .ndjson)"}[format])}
			}
			// MOTChallenge text names its classes in a file beside it, written when the
			// tracks have classes, which is known only once they are read: the name is
			// checked now, before any work (it was refused after the summary was printed).
			if format == scene.FormatMOT {
				namesPath = options.NamesBeside(*out)
				if namesTarget, err = files.Output("-o (its class names)", namesPath); err != nil {
					return err
				}
			}
		}
		if target != "" {
			if err := checkCreatable(target); err != nil {
				return err
			}
		}
		// A stop signal ends the reading and the writing as it ends a render's: no output,
		// 128 + the signal; the open of the video included (a pipe nobody writes to waits).
		ctx, stop := signalContext()
		defer stop()
		if *in != "" {
			info, err := video.Probe(ctx, *in, 0)
			if errors.Is(err, context.Canceled) {
				return interrupted(ctx)
			}
			if err != nil {
				return err
			}
			// Trackers read frames as players show them.
			*w, *h, t.Turned = info.DisplayWidth, info.DisplayHeight, info.Rotation%180 == 90
		}
		tracks, err := untilInterrupted(ctx, func() (*scene.Tracks, error) { return t.Load(*w, *h) })
		if errors.Is(err, scene.ErrNeedsSize) {
			return sizeNeeded(t.Path)
		}
		if err != nil {
			return err
		}
		sum := tracks.Summary()
		if err := sum.WriteText(stdout); err != nil {
			return err
		}
		if *to == "" {
			return nil
		}
		// MOTChallenge text numbers the boxes' classes in field 8 and names them in a file
		// beside it, as track's does, so that the classes read back (--class-names).
		var names []string
		if classes := tracks.Classes(); format == scene.FormatMOT && len(classes) > 0 {
			names = t.ClassList(classes)
		}
		outs := &partners{}
		outs.add("-o", *out, target, func(wr io.Writer, _ job.Report) error {
			lost, err := scene.WriteWith(wr, tracks, format, scene.WriteOptions{ClassNames: names})
			for _, l := range lost {
				fmt.Fprintf(stderr, "trackink tracks: warning: %s\n", l)
			}
			return err
		})
		if names != nil {
			outs.add("-o (its class names)", namesPath, namesTarget, func(wr io.Writer, _ job.Report) error {
				return scene.WriteClassNames(wr, names)
			})
		} else {
			outs.dropStale(namesPath, *overwrite) // an old one would name the new file's classes
		}
		if err := outs.create(stderr); err != nil {
			return outputError(*out, "", err)
		}
		defer outs.discard()
		if err := outs.commit(ctx, *overwrite); err != nil {
			if ctx.Err() != nil {
				return interrupted(ctx)
			}
			return outputError(*out, "", err)
		}
		if names != nil {
			fmt.Fprintf(stderr, "trackink tracks: note: %s\n", classesNote(namesPath))
		}
		outs.noteRemoved(stderr, "tracks", *out)
		return nil
	}
}
