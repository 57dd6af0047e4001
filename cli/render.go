package cli

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"trackink/job"
	"trackink/options"
	"trackink/overlay"
	"trackink/scene"

	"github.com/spf13/pflag"
)

type renderFlags struct {
	style     options.Style
	tracks    options.Tracks
	input     string
	sceneName string
	frame     int
	output    string
	overwrite bool
	width     int
	height    int
	video     options.Video
	files     runFiles     // what the run reads and writes (checkFiles)
	detect    renderDetect // --detect: track while rendering (render_detect.go)
	truth     renderTruth  // --gt: the tracks' errors against ground truth (render_truth.go)
}

const renderExamples = `Examples:
  # Draw a tracker's output (MOTChallenge, JSON Lines, CSV, KITTI, CVAT, YOLO) onto a video, audio kept:
  trackink render -i in.mp4 --tracks tracks.txt -o out.mp4

  # Preview one frame (frames count from 1, as in MOTChallenge) before rendering the whole video:
  trackink render -i in.mp4 --tracks tracks.txt --frame 60 -o preview.png

  # A built-in look, and each track's last 30 positions as a fading trail:
  trackink render -i in.mp4 --tracks tracks.txt --look hud --trail 30 -o out.mp4

  # No tracker at hand: track what moves with the built-in tracker:
  trackink render -i in.mp4 --detect motion -o out.mp4

  # Your own look in a style file (keys are the flags' names), e.g. mine.toml:
  #   box-style = "corners"
  #   label = "{class} {id}"
  #   color-by = "class"
  trackink render -i in.mp4 --tracks tracks.txt --style mine.toml -o out.mp4

  # Ground truth and a tracker's output together, each file its colour, its name in the labels:
  trackink render -i in.mp4 --tracks gt.txt --tracks tracks.jsonl --color-by source --label '{source} #{id}' -o both.mp4

  # A tracker's errors against ground truth, as trackink eval counts them (MOTA, FP, FN, IDSW):
  trackink render -i in.mp4 --tracks tracks.txt --gt gt.txt -o errors.mp4

  # Seconds 10 to 20 only; tracks frame 1 is video frame 101; x265 at quality 20:
  trackink render -i in.mkv --tracks t.jsonl --start 10s --end 20s --frame-offset 100 --encoder libx265 --crf 20 -o out.mkv

  # Segment 2 (from 0) of 4 into segs/, for trackink join (in a Slurm array: --segment auto/4):
  trackink render -i in.mp4 --tracks t.txt --segment 2/4 -o segs/`

func renderCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	f, fs := newRenderFlags(stderr)
	return fs, f.run(fs, stderr)
}

// newRenderFlags returns the render command's flags, registered on its flag set.
func newRenderFlags(stderr io.Writer) (*renderFlags, *pflag.FlagSet) {
	f := new(renderFlags)
	fs := options.NewFlagSet("render", "-i INPUT --tracks FILE [--tracks FILE2 …] -o OUTPUT [flags]", renderExamples, stderr)
	fs.StringVarP(&f.input, "input", "i", "", "input video (anything FFmpeg reads) or picture (.png, .jpg); without it, a blank canvas of --width × --height")
	fs.StringArrayVar(&f.tracks.Paths, "tracks", nil, "tracking data: MOTChallenge, trackink JSON Lines, supervision CSV, KITTI, CVAT XML, or a YOLO results directory (docs/formats.md); - reads standard input; given again, the files are drawn together, each track its own ({source} in labels, --color-by source)")
	fs.StringVar(&f.sceneName, "scene", "", "a built-in test scene instead of --tracks: seed, trackink bench's 100 synthetic tracks")
	fs.IntVar(&f.frame, "frame", 1, "draw this one frame into a picture (-o .png, .jpg): of a video, its frame N (1-based, as --start and MOTChallenge count) as the render with the same --start and --end draws it (unset: its first frame); onto a picture, tracks frame N (at most 10000000; a video's --start, --end, --frame-offset and encoding flags are refused); a video's preview refuses the encoding flags (--encoder, --crf, --odd-size...): it is the frame as drawn")
	fs.StringVarP(&f.output, "output", "o", "", "output video (.mp4, .mkv, .mov) or picture (.png, .jpg)")
	fs.BoolVarP(&f.overwrite, "yes", "y", false, "overwrite the output if it exists (never the input)")
	fs.IntVar(&f.width, "width", scene.SeedWidth, "canvas width without -i (refused with it: the size is the input's)")
	fs.IntVar(&f.height, "height", scene.SeedHeight, "canvas height without -i (refused with it: the size is the input's)")
	f.tracks.Register(fs)
	f.tracks.Warn = func(s string) { fmt.Fprintf(stderr, "trackink render: warning: %s\n", s) }
	f.tracks.Note = func(s string) {
		if !f.video.Quiet {
			fmt.Fprintf(stderr, "trackink render: note: %s\n", s)
		}
	}
	f.style.Register(fs, "knn", "default")
	f.video.Register(fs)
	f.detect.register(fs)
	f.truth.register(fs)
	return f, fs
}

// run is the render command on the flags of fs, f's.
func (f *renderFlags) run(fs *pflag.FlagSet, stderr io.Writer) runFunc {
	return func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		if err := f.checkTracks(); err != nil {
			return err
		}
		if f.style.ListLooks {
			f.style.PrintLooks(stdout)
			return nil
		}
		if f.detect.ListDetect {
			options.PrintDetectPresets(stdout)
			return nil
		}
		// From here on SIGINT, SIGTERM and SIGHUP end the render (signals.go), reading the
		// tracks included.
		ctx, stop := signalContext()
		defer stop()
		// The style file, the font and the label files are read here: one that is a named
		// pipe waits for its writer in Go's open, which a stop signal cannot end.
		opts, err := untilInterrupted(ctx, func() (overlay.Options, error) { return f.style.Options(fs, f.video.StatsJSON != "") })
		if err != nil {
			return err
		}
		if err := f.style.CheckTuners(fs, &opts.Style); err != nil {
			return err
		}
		if err := f.truth.check(fs, f); err != nil {
			return err
		}
		if err := f.detect.check(fs, f); err != nil {
			return err
		}
		if f.detect.close != nil {
			defer f.detect.close()
		}
		for _, n := range f.detect.Notes {
			fmt.Fprintf(stderr, "trackink render: warning: %s\n", n)
		}
		switch {
		case f.detect.Preset != "":
		case f.tracks.Path == "" && f.sceneName == "":
			return options.UsageError{Err: errors.New("no tracks: give --tracks FILE, or --detect PRESET to track the video")}
		case f.tracks.Path != "" && f.sceneName != "":
			return options.UsageError{Err: errors.New("--tracks and --scene: give one")}
		}
		if f.sceneName != "" && f.sceneName != "seed" {
			return options.UsageError{Err: fmt.Errorf("--scene %q: the built-in scene is seed", f.sceneName)}
		}
		if err := f.checkColorBySource(opts); err != nil {
			return err
		}
		if err := checkSizeFlags(fs, f.input); err != nil {
			return err
		}
		isVideo := f.input != "" && !isPicture(f.input)
		if err := f.checkFrame(fs, isVideo); err != nil {
			return err
		}
		target, err := f.checkFiles(isVideo)
		if err != nil {
			return err
		}
		if err := f.detect.output(&f.files); err != nil {
			return err
		}
		switch {
		case f.video.Layer && !isVideo:
			return options.UsageError{Err: errors.New("--layer-only writes a video's overlay: give -i VIDEO and -o .mov, .webm, name_%05d.png, or NAME.png for one frame (--frame)")}
		case f.video.Layer && isPicture(f.output) && !strings.EqualFold(filepath.Ext(f.output), ".png"):
			return options.UsageError{Err: fmt.Errorf("--layer-only -o %s: a layer needs an alpha channel, which %s has not: -o NAME.png", f.output, strings.ToUpper(strings.TrimPrefix(filepath.Ext(f.output), ".")))}
		case f.video.Layer && isPicture(f.output) && !fs.Changed("frame"):
			// One picture is one frame's layer, named; every frame's is a numbered sequence.
			return options.UsageError{Err: fmt.Errorf("--layer-only -o %s: one frame's layer: give --frame N (every frame's: -o name_%%05d.png)", f.output)}
		}
		if f.video.Layer && f.video.Segment != "" {
			return options.UsageError{Err: errors.New("--layer-only and --segment: a layer is rendered whole (the join writes H.264, which has no alpha)")}
		}
		if isVideo && isPicture(f.output) {
			return renderPreview(ctx, f, fs, opts, target, stderr)
		}
		if isVideo {
			return renderVideo(ctx, f, fs, opts, target, stderr)
		}
		switch {
		case isPicture(f.output):
		case f.input == "":
			return options.UsageError{Err: fmt.Errorf("-o %s: without -i, render draws one picture on a blank canvas (-o NAME.png or .jpg); give the video to draw on with -i", f.output)}
		default:
			return options.UsageError{Err: fmt.Errorf("-o %s: -i %s is a picture, and so is what is drawn on it: -o NAME.png or .jpg", f.output, f.input)}
		}
		enc, err := job.PictureEncoder(f.output)
		if err != nil {
			return err
		}
		// A picture read from a pipe waits for its writer in Go's open, which cannot be
		// ended: a stop signal leaves it behind.
		img, err := untilInterrupted(ctx, func() (*image.RGBA, error) { return job.LoadCanvas(f.input, f.width, f.height) })
		if err != nil {
			return err
		}
		if _, err := job.Still(ctx, f.job(ctx, opts, stderr), img, f.frame); errors.Is(err, context.Canceled) {
			return interrupted(ctx)
		} else if err != nil {
			return err
		}
		removeStalePartials(target, stderr)
		return writeAtomic(ctx, target, f.overwrite, func(out io.Writer) error { return enc(out, img) })
	}
}

// job is the render the flags describe, bar its video options: the look, where it is drawn,
// the tracks, and the messages, printed to stderr (what the render says, unless --quiet;
// warnings always).
func (f *renderFlags) job(ctx context.Context, opts overlay.Options, stderr io.Writer) job.Options {
	o := job.Options{Overlay: opts, Place: f.style.Place, ColorByAsked: f.style.ColorByAsked,
		Tracks: job.Tracks{Name: strings.Join(f.tracks.Paths, " and "), Seed: f.sceneName == "seed", Live: f.detect.live},
		Say: func(line string) {
			if !f.video.Quiet {
				fmt.Fprintln(stderr, line)
			}
		},
		Warn: func(line string) { fmt.Fprintf(stderr, "trackink render: warning: %s\n", line) }}
	if o.Tracks.Live == nil && !o.Tracks.Seed {
		o.Tracks.Load = func(w, h int, turned bool) (*scene.Tracks, error) {
			f.tracks.Turned = turned
			return untilInterrupted(ctx, func() (*scene.Tracks, error) { return f.tracks.LoadAll(w, h) })
		}
		if f.truth.path != "" {
			f.tracks.WithTruth = true
			o.Tracks.Judge = func(tr *scene.Tracks, w, h int) (*job.Judged, error) {
				return untilInterrupted(ctx, func() (*job.Judged, error) { return f.truth.judge(f, tr, w, h, stderr) })
			}
		}
	}
	return o
}

// checkTracks refuses --tracks files that cannot be drawn together: the same file twice, by
// any names (its tracks drawn over themselves), more than scene.MaxSources. It sets Path,
// which the checks that follow look at, to the first file. (Standard input, -, read twice is refused
// with the other inputs, checkFiles.)
func (f *renderFlags) checkTracks() error {
	paths := f.tracks.Paths
	if len(paths) == 0 {
		return nil
	}
	f.tracks.Path = paths[0]
	if len(paths) > scene.MaxSources {
		return options.UsageError{Err: fmt.Errorf("--tracks is given %d times: at most %d files are drawn together", len(paths), scene.MaxSources)}
	}
	// The files, not the names, are compared: a.txt, ./a.txt, its absolute path and a link
	// to it are one file. One that cannot be stat'ed is named by the read that follows.
	type file struct {
		path string
		info os.FileInfo
	}
	seen := make([]file, 0, len(paths))
	for _, p := range paths {
		if p == "-" {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		i := slices.IndexFunc(seen, func(o file) bool { return os.SameFile(o.info, fi) })
		switch {
		case i >= 0 && seen[i].path == p:
			return options.UsageError{Err: fmt.Errorf("--tracks %s is given twice: its tracks would be drawn over themselves", p)}
		case i >= 0:
			return options.UsageError{Err: fmt.Errorf("--tracks %s and --tracks %s are the same file: its tracks would be drawn over themselves", seen[i].path, p)}
		}
		seen = append(seen, file{p, fi})
	}
	return nil
}

// checkColorBySource refuses --color-by source (the flag, or the style file's key) where
// no --tracks file is drawn: it gives each file its colour, and --detect and --scene draw
// none, so every item would take one colour, and --tracks is refused beside them.
func (f *renderFlags) checkColorBySource(opts overlay.Options) error {
	if opts.Style.ColorBy != overlay.BySource || !f.style.ColorByAsked || f.tracks.Path != "" {
		return nil
	}
	without := "--detect tracks the video itself, with no file"
	if f.detect.Preset == "" {
		without = "--scene seed draws its own tracks, with no file"
	}
	return options.UsageError{Err: fmt.Errorf("--color-by source colours each --tracks file its own colour: %s (give --color-by track or class)", without)}
}

// untilInterrupted runs load and returns what it returns, or returns at once with the
// interrupted status when ctx (signalContext's) ends: reading a large tracking file takes a
// while, a file that is a named pipe waits for its writer in open(2), and the readers cannot
// be stopped half-way, so the process leaves them behind.
func untilInterrupted[T any](ctx context.Context, load func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := load()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, interrupted(ctx)
	}
}
