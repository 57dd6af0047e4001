package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"trackink/job"
	"trackink/options"
	"trackink/scene"
)

// renderDetect is render's --detect: the built-in tracker runs on each decoded frame just
// before the overlay draws on it (job.Live), so a video is tracked and drawn in one decode;
// --save-tracks writes what it tracked.
type renderDetect struct {
	options.Detect
	saveTracks  string
	saveTarget  string
	format      scene.Format
	names       string // the class names beside --save-tracks (options.Detect.NamesFile); "" for none
	namesTarget string
	stale       string // without names, the old class names there (staleNames), removed with -y
	live        *job.Live
	close       func() // stops the tracker and frees the detector; nil before check
}

func (d *renderDetect) register(fs *pflag.FlagSet) {
	d.Detect.Register(fs, "track the video while rendering it, instead of --tracks")
	fs.StringVar(&d.saveTracks, "save-tracks", "", "with --detect: also write what was tracked, .txt (MOTChallenge text) or .jsonl (JSON Lines); --tracks with it renders the same picture")
}

// check refuses, before any work, what --detect cannot do and a bad --save-tracks, and
// takes the tracker's options.
func (d *renderDetect) check(fs *pflag.FlagSet, f *renderFlags) error {
	if d.Preset == "" {
		if d.saveTracks != "" {
			return options.UsageError{Err: errors.New("--save-tracks writes what --detect tracked: give --detect PRESET too")}
		}
		return options.CheckNoDetectFlags(fs)
	}
	switch {
	case f.tracks.Path != "" || f.sceneName != "":
		return options.UsageError{Err: errors.New("--detect finds the tracks itself: give it instead of --tracks or --scene")}
	case f.input == "" || isPicture(f.input):
		return options.UsageError{Err: errors.New("--detect follows objects from frame to frame: -i must be a video")}
	case f.video.FrameOffset != 0:
		return options.UsageError{Err: errors.New("--frame-offset lines a tracks file's frames up with the video's; --detect tracks the video's own frames: leave it out")}
	case f.tracks.Size != "":
		return options.UsageError{Err: errors.New("--tracks-size scales a tracks file made at another size; --detect tracks the picture itself: leave it out")}
	case d.saveTracks != "" && isPicture(f.output):
		return options.UsageError{Err: errors.New("--save-tracks writes what a video render tracked; for the tracks up to a frame, trackink track --detect with --end N")}
	case f.video.Segment != "":
		// A segment would have to replay the tracker from the first frame to draw what the
		// whole render draws: tracking once and rendering segments from the file is cheaper.
		return options.UsageError{Err: errors.New("--detect with --segment: track first (trackink track), then render segments from the file (--tracks)")}
	}
	if err := options.CheckNotReading(fs); err != nil {
		return err
	}
	so, err := f.tracks.Options(0, 0)
	if err != nil {
		return err
	}
	o, closeDetector, err := d.Options(fs)
	if err != nil {
		return err
	}
	d.live = job.NewLive(o, so.Anchor, d.saveTracks != "", d.ClassNames)
	d.live.Asked = job.Asked{Preset: d.Preset, Classes: fs.Changed("classes")}
	d.close = func() {
		d.live.Close() // its detections in flight end before their networks are freed
		closeDetector()
	}
	return nil
}

// output registers --save-tracks with the run's files (after -o and the others: it may be
// none of them) and keeps the path to write.
func (d *renderDetect) output(files *runFiles) error {
	if d.live == nil || d.saveTracks == "" {
		return nil
	}
	var err error
	if d.saveTarget, err = files.Output("--save-tracks", d.saveTracks); err != nil {
		return err
	}
	if d.format, err = options.TracksFormat("--save-tracks", d.saveTracks); err != nil {
		return err
	}
	if d.names = d.NamesFile(d.saveTracks, d.format); d.names != "" {
		d.namesTarget, err = files.Output("--save-tracks (its class names)", d.names)
		return err
	}
	d.stale, err = staleNames(files, "--save-tracks", d.saveTracks, d.format)
	if !files.Overwrite {
		d.stale = "" // none is there: staleNames refused the run otherwise
	}
	return err
}

// addPartners adds --save-tracks and its class names to the files that land with the
// video; none without --save-tracks.
func (d *renderDetect) addPartners(p *partners) {
	if d.saveTarget == "" {
		return
	}
	p.add("--save-tracks", d.saveTracks, d.saveTarget, func(w io.Writer, _ job.Report) error { return d.live.Write(w, d.format) })
	if d.names != "" {
		p.add("--save-tracks (its class names)", d.names, d.namesTarget,
			func(w io.Writer, _ job.Report) error { return scene.WriteClassNames(w, d.live.Names()) })
	}
	p.dropStale(d.stale, true) // set only with -y (output)
}

// sayLost warns of what the tracks --save-tracks wrote could not hold, and says where their
// classes' names are unless quiet.
func (d *renderDetect) sayLost(stderr io.Writer, quiet bool) {
	for _, what := range d.live.Lost() {
		fmt.Fprintf(stderr, "trackink render: warning: --save-tracks %s: %s\n", d.saveTracks, what)
	}
	if d.names != "" && !quiet {
		fmt.Fprintf(stderr, "trackink render: note: --save-tracks %s: %s\n", d.saveTracks, classesNote(d.names))
	}
}
