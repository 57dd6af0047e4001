package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"trackink/job"
	"trackink/outfile"
	"trackink/scene"
	"trackink/video"
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

func init() {
	commands["track"] = command{"find and follow objects in a video (bright, dark, motion, color, points) and write their tracks", runTrack}
}

func runTrack(args []string, stdout, stderr io.Writer) error {
	var (
		input, output string
		overwrite     bool
		quiet         bool
		anchor        string
		start, end    string
		det           detectFlags
	)
	fs := newFlagSet("track", "-i VIDEO -o TRACKS (.txt | .jsonl) [--detect PRESET] [flags]", trackExamples, stderr)
	fs.StringVarP(&input, "input", "i", "", "input video (anything FFmpeg reads)")
	fs.StringVarP(&output, "output", "o", "", "tracks to write: .txt (MOTChallenge text) or .jsonl (trackink JSON Lines)")
	fs.BoolVarP(&overwrite, "yes", "y", false, "overwrite the output if it exists")
	fs.BoolVar(&quiet, "quiet", false, "no progress line and no informational messages (warnings still print)")
	fs.StringVar(&anchor, "anchor", "bottom", "JSON Lines: the point each box carries, bottom (bottom-centre) or centre, as render --anchor reads MOT text")
	fs.StringVar(&start, "start", "", "first frame to track: a 1-based frame number (120) or a time (1.5s, 00:00:01.5); the tracks keep the video's frame numbers")
	fs.StringVar(&end, "end", "", "last frame to track (a frame number, inclusive) or a time (exclusive)")
	det.register(fs, "what to find and follow (default bright)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if det.listDetect {
		printDetectPresets(stdout)
		return nil
	}
	if det.preset == "" {
		det.preset = "bright"
	}
	o, closeDetector, err := det.options(fs)
	if err != nil {
		return err
	}
	defer closeDetector()
	for _, n := range det.notes {
		fmt.Fprintf(stderr, "trackink track: note: %s\n", n)
	}
	tf := trackFlags{anchor: anchor, frameBase: "auto", untracked: "skip"}
	so, err := tf.options(0, 0)
	if err != nil {
		return err
	}
	if input == "" {
		return usageError{errors.New("no input: give -i VIDEO")}
	}
	if isPicture(input) {
		return usageError{fmt.Errorf("input %s is a still picture: track follows objects from frame to frame and needs a video (.mp4, .mkv, .mov…)", input)}
	}
	if output == "" {
		return usageError{errors.New("no output: give -o TRACKS (.txt or .jsonl)")}
	}
	files := runFiles{outfile.Run{Overwrite: overwrite}}
	if err := files.input("-i", input, false); err != nil {
		return err
	}
	target, err := files.Output("-o", output)
	if err != nil {
		return err
	}
	format, err := tracksFormat("-o", output)
	if err != nil {
		return err
	}
	live := job.NewLive(o, so.Anchor, true, det.classNames)
	var outs partners
	outs.add("-o", output, target, func(w io.Writer, _ job.Report) error { return live.Write(w, format) })
	names := det.namesFile(output, format)
	if names != "" {
		namesTarget, err := files.Output("-o (its class names)", names)
		if err != nil {
			return err
		}
		outs.add("-o (its class names)", names, namesTarget, func(w io.Writer, _ job.Report) error { return scene.WriteClassNames(w, live.Names()) })
	}
	opened, err := video.Open(input, 0)
	if err != nil {
		return err
	}
	defer opened.Close()
	info := opened.Info()
	if info.Frames == 1 {
		return usageError{fmt.Errorf("input %s is a still picture (one frame): track follows objects from frame to frame and needs a video", input)}
	}
	ctx, stop := signalContext()
	defer stop()
	say := func(format string, a ...any) {
		if !quiet {
			fmt.Fprintf(stderr, format+"\n", a...)
		}
	}
	progress := newProgressLine(stderr, !quiet && isTerminal(stderr))
	vo := video.Options{Source: opened, Progress: progress.update, Log: func(line string) { say("%s", line) }}
	if vo.Start, err = video.ParsePosition(start); err != nil {
		return usageError{fmt.Errorf("--start: %w", err)}
	}
	if vo.End, err = video.ParsePosition(end); err != nil {
		return usageError{fmt.Errorf("--end: %w", err)}
	}
	// The files are created before any work, so that a directory that cannot take them is
	// found now, and written together at the end.
	if err := outs.create(stderr); err != nil {
		return err
	}
	defer outs.discard()
	vo.Input = input
	stats, err := live.Track(ctx, vo, info.Frames)
	progress.done()
	if ferr := flagError(fs, err); errors.As(ferr, new(usageError)) {
		return ferr
	}
	if quiet {
		for _, w := range stats.Warnings {
			fmt.Fprintf(stderr, "trackink track: warning: %s\n", w)
		}
	}
	damaged := errors.Is(err, video.ErrInputDamaged)
	switch {
	case errors.Is(err, context.Canceled):
		return interrupted(ctx)
	case errors.Is(err, video.ErrNothingToRender):
		return usageError{fmt.Errorf("%w; no tracks written", err)}
	case err != nil && !damaged:
		// No frame in the video, or none that decoded: nothing was written, so a failure,
		// not the damaged input's status (whose output is kept).
		return fmt.Errorf("%w; no tracks written", err)
	}
	if werr := outs.commit(ctx, overwrite); werr != nil {
		return outputError(output, input, werr)
	}
	if names != "" {
		fmt.Fprintf(stderr, "trackink track: note: classes are numbers in field 8 (x), named in %s: read them back with --class-names %s\n", names, names)
	}
	if damaged {
		return exitError{exitDamaged, fmt.Errorf("%w; wrote the tracks of the %d frames that decoded to %s", err, stats.Frames, output)}
	}
	for _, what := range live.Lost() {
		fmt.Fprintf(stderr, "trackink track: note: %s\n", what)
	}
	if live.Tracked() == 0 {
		fmt.Fprintf(stderr, "trackink track: warning: nothing was tracked in %d frames; %s\n", stats.Frames, live.NothingHint())
	}
	say("wrote %s: %d tracks over %d frames (%d with something tracked), %s at %dx%d analysis (1/%d), %.1f fps",
		output, live.LastID(), stats.Frames, live.Tracked(), o.Mode, info.Width/live.Factor(), info.Height/live.Factor(), live.Factor(), stats.FPS)
	return nil
}
