package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"trackink/internal/prose"
	"trackink/job"
	"trackink/options"
	"trackink/overlay"
	"trackink/video"
)

// renderVideo is the video half of the render command: it renders the tracks onto every
// frame of a video (job.Render) into target (the output, or the file it links to), with a
// progress line, the files that land with it (--save-tracks, --stats-json) and the
// messages of the run.
func renderVideo(ctx context.Context, f *renderFlags, fs *pflag.FlagSet, opts overlay.Options, target string, stderr io.Writer) error {
	vo, err := f.videoOptions(fs, target)
	if err != nil {
		return err
	}
	var partners partners
	f.detect.addPartners(&partners)
	if f.video.StatsTarget != "" {
		partners.add("--stats-json", f.video.StatsJSON, f.video.StatsTarget,
			func(w io.Writer, r job.Report) error { return writeStats(w, r.Stats, r.Stages) })
	}
	if err := partners.create(stderr); err != nil {
		return err
	}
	defer partners.discard()
	jo := f.job(ctx, opts, stderr)
	jo.Partners = partners.hook()
	jo.Segment = job.Segment{Index: f.video.SegIndex, Count: f.video.SegCount}
	vo.Log = jo.Say
	if f.video.Verbose {
		vo.FFmpegLog = func(line string) { fmt.Fprintln(stderr, line) }
	}
	progress := newProgressLine(stderr, !f.video.Quiet && isTerminal(stderr))
	vo.Progress = progress.update
	jo.Video = vo
	jo.Sweep = func(target string) { removeStalePartials(target, stderr) }
	rep, err := job.Render(ctx, jo)
	progress.done()
	if f.video.Quiet {
		for _, w := range rep.Warnings {
			jo.Warn(w)
		}
	}
	// Whether the video ended (or broke off at damage) rather than the render failing.
	reachedEnd := err == nil || errors.Is(err, video.ErrInputDamaged)
	if f.detect.saveTarget != "" && reachedEnd {
		f.detect.sayLost(stderr, f.video.Quiet)
		if !f.video.Quiet {
			partners.noteRemoved(stderr, "render", "--save-tracks "+f.detect.saveTracks)
		}
	}
	switch {
	case err == nil && rep.Plan != nil:
		jo.Say(fmt.Sprintf("wrote %s: frames %d to %d (%d) in %.1f s (%.1f fps; %s replayed first), encoder %s",
			target, rep.Plan.SegFirst, rep.Plan.SegLast, rep.Frames, rep.Wall.Seconds(), rep.FPS, prose.Plural(rep.Replayed, "tracks frame"), rep.Encoder))
		return nil
	case err == nil:
		jo.Say(fmt.Sprintf("wrote %s: %s in %.1f s (%.1f fps), encoder %s", f.output, prose.Plural(rep.Frames, "frame"), rep.Wall.Seconds(), rep.FPS, rep.Encoder))
		return nil
	case errors.Is(err, video.ErrInputDamaged):
		return exitError{exitDamaged, fmt.Errorf("%w; wrote the %s that decoded to %s", err, prose.Plural(rep.Frames, "frame"), f.output)}
	case errors.Is(err, context.Canceled):
		return interrupted(ctx)
	}
	return outputError(f.output, f.input, options.FlagError(fs, err))
}

// videoOptions are the video options of the render of video f.input into target, checked
// without opening the input: with a picture output (-o .png), a preview's, whose output
// options are job.Preview's own; otherwise the video's. Either way the GPU they name, which
// this machine must have: a preview decodes with --hwaccel as the video would (it said
// "decoder msmpeg4 has no CUDA support" on a machine with no GPU at all), and encodes none.
func (f *renderFlags) videoOptions(fs *pflag.FlagSet, target string) (video.Options, error) {
	if isPicture(f.output) {
		vo, err := f.video.Options(fs, f.input, "frame.mkv", true)
		if err != nil {
			return vo, err
		}
		decoding := vo
		decoding.Encoder = ""
		return vo, options.CheckDevices(fs, decoding)
	}
	vo, err := f.video.Options(fs, f.input, target, f.overwrite)
	if err != nil {
		return vo, err
	}
	return vo, options.CheckDevices(fs, vo)
}

// isPicture reports whether a path names a still picture rather than a video (a numbered
// sequence of pictures, frames_%04d.png, is a video).
func isPicture(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".jpg", ".jpeg":
		return !video.IsSequence(path)
	}
	return false
}
