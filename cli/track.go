package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"trackink/internal/prose"
	"trackink/job"
	"trackink/options"
	"trackink/outfile"
	"trackink/scene"
	"trackink/video"

	"github.com/spf13/pflag"
)

const trackExamples = `Examples:
  # Whatever moves in a fixed camera's video, as MOTChallenge text:
  trackink track -i street.mp4 --detect motion -o tracks.txt

  # 300 corners followed by optical flow, as JSON Lines (points stay points):
  trackink track -i dance.mp4 --detect points --max-objects 300 -o points.jsonl

  # Red balls only:
  trackink track -i juggling.mp4 --detect color --hue 0 -o balls.txt

  # Then draw them:
  trackink render -i street.mp4 --tracks tracks.txt --look plexus -o out.mp4`

// trackRun is track's flags, and what the run found out before it tracks.
type trackRun struct {
	input, output string
	overwrite     bool
	quiet         bool
	anchor        string
	start, end    string
	det           options.Detect
	stderr        io.Writer
	names         string // the class names file beside -o, "" for none
}

func trackCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	t := &trackRun{stderr: stderr}
	fs := options.NewFlagSet("track", "-i VIDEO -o TRACKS (.txt | .jsonl) [--detect PRESET] [flags]", trackExamples, stderr)
	fs.StringVarP(&t.input, "input", "i", "", "input video (anything FFmpeg reads)")
	fs.StringVarP(&t.output, "output", "o", "", "tracks to write: .txt (MOTChallenge text) or .jsonl (trackink JSON Lines)")
	fs.BoolVarP(&t.overwrite, "yes", "y", false, "overwrite the output if it exists")
	fs.BoolVar(&t.quiet, "quiet", false, "no progress line and no informational messages (warnings still print)")
	fs.StringVar(&t.anchor, "anchor", "bottom", "JSON Lines: the point each box carries, bottom (bottom-centre) or centre, as render --anchor reads MOT text")
	fs.StringVar(&t.start, "start", "", "first frame to track: a 1-based frame number (120) or a time (1.5s, 00:00:01.5); the tracks keep the video's frame numbers")
	fs.StringVar(&t.end, "end", "", "last frame to track (a frame number, inclusive) or a time (exclusive)")
	t.det.Register(fs, "what to find and follow (default bright)")
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		if t.det.ListDetect {
			options.PrintDetectPresets(stdout)
			return nil
		}
		// The range is read first: a mistake in it is found before the detector loads.
		start, err := video.ParsePosition(t.start)
		if err != nil {
			return options.UsageError{Err: fmt.Errorf("--start: %w", err)}
		}
		end, err := video.ParsePosition(t.end)
		if err != nil {
			return options.UsageError{Err: fmt.Errorf("--end: %w", err)}
		}
		if t.det.Preset == "" {
			t.det.Preset = "bright"
		}
		if err := checkTracksFormatFlags(fs, t.output); err != nil {
			return err
		}
		o, closeDetector, err := t.det.Options(fs)
		if err != nil {
			return err
		}
		defer closeDetector()
		for _, n := range t.det.Notes {
			fmt.Fprintf(stderr, "trackink track: warning: %s\n", n)
		}
		tf := options.Tracks{Anchor: t.anchor, FrameBase: "auto", Untracked: "skip"}
		so, err := tf.Options(0, 0)
		if err != nil {
			return err
		}
		live := job.NewLive(o, so.Anchor, true, t.det.ClassNames)
		live.Asked = job.Asked{Preset: t.det.Preset, Classes: fs.Changed("classes")}
		outs, err := t.outputs(live)
		if err != nil {
			return err
		}
		// From here on SIGINT, SIGTERM and SIGHUP end the run (signals.go), the open of the
		// input included: a pipe nobody writes to yet waits there.
		ctx, stop := signalContext()
		defer stop()
		opened, err := video.Open(ctx, t.input, 0)
		if errors.Is(err, context.Canceled) {
			return interrupted(ctx)
		}
		if err != nil {
			return err
		}
		defer opened.Close()
		info := opened.Info()
		if info.Frames == 1 {
			return options.UsageError{Err: fmt.Errorf("input %s is a still picture (one frame): track follows objects from frame to frame and needs a video", t.input)}
		}
		progress := newProgressLine(stderr, !t.quiet && isTerminal(stderr))
		vo := video.Options{Input: t.input, Source: opened, Progress: progress.update, Log: t.say}
		vo.Start, vo.End = start, end
		// The files are created before any work, so that a directory that cannot take them is
		// found now, and written together at the end.
		if err := outs.create(stderr); err != nil {
			return err
		}
		defer outs.discard()
		stats, err := live.Track(ctx, vo, info.Frames)
		progress.done()
		if ferr := options.FlagError(fs, err); errors.As(ferr, new(options.UsageError)) {
			return ferr
		}
		return t.finish(ctx, live, outs, stats, err)
	}
}

// checkTracksFormatFlags refuses, exit 2, a flag that only one format of -o writes, given
// for the other (--point-size for JSON Lines, whose points are points): the tracks would
// come out as without it. An -o of neither format is outputs' to refuse.
func checkTracksFormatFlags(fs *pflag.FlagSet, output string) error {
	format, err := options.TracksFormat("-o", output)
	if err != nil {
		return nil
	}
	for _, c := range []struct {
		flag   string
		format scene.Format
	}{{"anchor", scene.FormatJSONL}, {"point-size", scene.FormatMOT}} {
		if fs.Changed(c.flag) && format != c.format {
			return options.UsageError{Err: fmt.Errorf("--%s is written in %s only, and -o %s is %s: leave it out", c.flag, c.format, output, format)}
		}
	}
	return nil
}

// outputs checks -i and -o and returns the files the run writes: the tracks, and the class
// names beside MOTChallenge text when the classes need naming.
func (t *trackRun) outputs(live *job.Live) (*partners, error) {
	switch {
	case t.input == "":
		return nil, options.UsageError{Err: errors.New("no input: give -i VIDEO")}
	case isPicture(t.input):
		return nil, options.UsageError{Err: fmt.Errorf("input %s is a still picture: track follows objects from frame to frame and needs a video (.mp4, .mkv, .mov…)", t.input)}
	case t.output == "":
		return nil, options.UsageError{Err: errors.New("no output: give -o TRACKS (.txt or .jsonl)")}
	}
	files := runFiles{Run: outfile.Run{Overwrite: t.overwrite}}
	if err := files.input("-i", t.input, false); err != nil {
		return nil, err
	}
	if err := files.input("--model", t.det.ModelFile(), false); err != nil {
		return nil, err
	}
	target, err := files.Output("-o", t.output)
	if err != nil {
		return nil, err
	}
	format, err := options.TracksFormat("-o", t.output)
	if err != nil {
		return nil, err
	}
	outs := &partners{}
	outs.add("-o", t.output, target, func(w io.Writer, _ job.Report) error { return live.Write(w, format) })
	if t.names = t.det.NamesFile(t.output, format); t.names != "" {
		namesTarget, err := files.Output("-o (its class names)", t.names)
		if err != nil {
			return nil, err
		}
		outs.add("-o (its class names)", t.names, namesTarget, func(w io.Writer, _ job.Report) error { return scene.WriteClassNames(w, live.Names()) })
	} else {
		stale, err := staleNames(&files, "-o", t.output, format)
		if err != nil {
			return nil, err
		}
		outs.dropStale(stale, t.overwrite)
	}
	return outs, nil
}

// finish writes what was tracked, unless tracking failed (err), and says what it wrote.
func (t *trackRun) finish(ctx context.Context, live *job.Live, outs *partners, stats video.Stats, err error) error {
	if t.quiet {
		for _, w := range stats.Warnings {
			fmt.Fprintf(t.stderr, "trackink track: warning: %s\n", w)
		}
	}
	damaged := errors.Is(err, video.ErrInputDamaged)
	switch {
	case errors.Is(err, context.Canceled):
		return interrupted(ctx)
	case errors.Is(err, video.ErrNothingToRender):
		return options.UsageError{Err: fmt.Errorf("%w; no tracks written", err)}
	case err != nil && !damaged:
		// No frame in the video, or none that decoded: nothing was written, so a failure,
		// not the damaged input's status (whose output is kept).
		return fmt.Errorf("%w; no tracks written", err)
	}
	if werr := outs.commit(ctx, t.overwrite); werr != nil {
		return outputError(t.output, t.input, werr)
	}
	if t.names != "" {
		if !t.quiet {
			fmt.Fprintf(t.stderr, "trackink track: note: %s\n", classesNote(t.names))
		}
	}
	if !t.quiet {
		outs.noteRemoved(t.stderr, "track", t.output)
	}
	if damaged {
		return exitError{exitDamaged, fmt.Errorf("%w; wrote the tracks of the %s that decoded to %s", err, prose.Plural(stats.Frames, "frame"), t.output)}
	}
	for _, what := range live.Lost() {
		fmt.Fprintf(t.stderr, "trackink track: warning: %s\n", what)
	}
	if live.Tracked() == 0 {
		fmt.Fprintf(t.stderr, "trackink track: warning: nothing was tracked in %s; %s\n", prose.Plural(stats.Frames, "frame"), live.NothingHint(stats.Frames))
	}
	aw, ah, factor := live.Analysis()
	t.say(fmt.Sprintf("wrote %s: %s over %s (%d with something tracked), %s at %dx%d analysis (1/%d), %.1f fps",
		t.output, prose.Plural(live.LastID(), "track"), prose.Plural(stats.Frames, "frame"), live.Tracked(), live.Mode(), aw, ah, factor, stats.FPS))
	return nil
}

// say prints an informational line, unless --quiet.
func (t *trackRun) say(line string) {
	if !t.quiet {
		fmt.Fprintln(t.stderr, line)
	}
}
