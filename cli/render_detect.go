package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"trackink/composite"
	"trackink/scene"
	"trackink/video"
)

// renderDetect is render's --detect: the built-in tracker runs on each decoded frame just
// before the overlay draws on it, so a video is tracked and drawn in one decode. A new
// object's box appears from the frame it is confirmed in (--confirm): the render draws as
// it goes and does not go back; the tracks --save-tracks writes hold the same frames, so
// rendering them with --tracks gives the same picture.
type renderDetect struct {
	detectFlags
	saveTracks  string
	saveTarget  string
	format      scene.Format
	names       string // the class names beside --save-tracks (detectFlags.namesFile); "" for none
	namesTarget string
	live        *liveTracks
	close       func() // frees the detector; nil before check
}

func (d *renderDetect) register(fs *pflag.FlagSet) {
	d.detectFlags.register(fs, "track the video while rendering it, instead of --tracks")
	fs.StringVar(&d.saveTracks, "save-tracks", "", "with --detect: also write what was tracked, .txt (MOTChallenge text) or .jsonl (JSON Lines); --tracks with it renders the same picture")
}

// check refuses, before any work, what --detect cannot do and a bad --save-tracks, and
// takes the tracker's options.
func (d *renderDetect) check(fs *pflag.FlagSet, f *renderFlags) error {
	if d.preset == "" {
		if d.saveTracks != "" {
			return usageError{errors.New("--save-tracks writes what --detect tracked: give --detect PRESET too")}
		}
		return nil
	}
	switch {
	case f.tracks.path != "" || f.sceneName != "":
		return usageError{errors.New("--detect finds the tracks itself: give it instead of --tracks or --scene")}
	case f.input == "" || isPicture(f.input):
		return usageError{errors.New("--detect follows objects from frame to frame: -i must be a video")}
	case f.video.frameOffset != 0:
		return usageError{errors.New("--frame-offset lines a tracks file's frames up with the video's; --detect tracks the video's own frames: leave it out")}
	case f.tracks.size != "":
		return usageError{errors.New("--tracks-size scales a tracks file made at another size; --detect tracks the picture itself: leave it out")}
	case d.saveTracks != "" && isPicture(f.output):
		return usageError{errors.New("--save-tracks writes what a video render tracked; for the tracks up to a frame, trackink track --detect with --end N")}
	case f.video.segment != "":
		// A segment would have to replay the tracker from the first frame to draw what the
		// whole render draws: tracking once and rendering segments from the file is cheaper.
		return usageError{errors.New("--detect with --segment: track first (trackink track), then render segments from the file (--tracks)")}
	}
	so, err := f.tracks.options(0, 0)
	if err != nil {
		return err
	}
	o, closeDetector, err := d.options(fs)
	if err != nil {
		return err
	}
	d.close = closeDetector
	d.live = &liveTracks{o: o, anchor: so.Anchor, keep: d.saveTracks != "", names: d.classNames}
	return nil
}

// output registers --save-tracks with the run's files (after -o and the others: it may be
// none of them) and keeps the path to write.
func (d *renderDetect) output(files *runFiles) error {
	if d.live == nil || d.saveTracks == "" {
		return nil
	}
	var err error
	if d.saveTarget, err = files.output("--save-tracks", d.saveTracks); err != nil {
		return err
	}
	if d.format, err = tracksFormat("--save-tracks", d.saveTracks); err != nil {
		return err
	}
	if d.names = d.namesFile(d.saveTracks, d.format); d.names != "" {
		d.namesTarget, err = files.output("--save-tracks (its class names)", d.names)
	}
	return err
}

// start returns the render's DrawFunc: td's, with the tracker before it under --detect.
func (d *renderDetect) start(ctx context.Context, vo *video.Options, input string, frames int, src *trackSource, td *trackDrawer, say func(string, ...any)) (video.DrawFunc, error) {
	if d.live == nil {
		return td.drawFunc(), nil
	}
	pv := *vo
	pv.Input = input
	if err := d.live.prime(ctx, pv, frames); err != nil {
		return nil, err
	}
	if vo.DeviceFrames {
		// The tracker reads host planes; frames decoded by NVDEC come to host memory once,
		// as they do for the CPU backend, and the overlay is drawn there.
		vo.DeviceFrames = false
		say("--detect: frames are tracked and drawn in host memory (the tracker analyses the decoded planes on the CPU)")
	}
	src.live = d.live
	live := d.live
	return func(n int, dst composite.Surface) error {
		if _, err := live.step(n, dst); err != nil {
			return err
		}
		return td.draw(n, dst)
	}, nil
}

// partners are --save-tracks and its class names as files that land with the video
// (partnerFile); none without --save-tracks.
func (d *renderDetect) partners() []partnerFile {
	if d.saveTarget == "" {
		return nil
	}
	files := []partnerFile{{flag: "--save-tracks", path: d.saveTracks, target: d.saveTarget,
		write: func(w io.Writer, _ video.Stats) error { return d.live.write(w, d.format) }}}
	if d.names != "" {
		files = append(files, partnerFile{flag: "--save-tracks (its class names)", path: d.names, target: d.namesTarget,
			write: func(w io.Writer, _ video.Stats) error { return scene.WriteClassNames(w, d.live.names) }})
	}
	return files
}

// sayLost says what the tracks --save-tracks wrote could not hold, and where their
// classes' names are.
func (d *renderDetect) sayLost(stderr io.Writer) {
	for _, what := range d.live.lost {
		fmt.Fprintf(stderr, "trackink render: note: --save-tracks %s: %s\n", d.saveTracks, what)
	}
	if d.names != "" {
		fmt.Fprintf(stderr, "trackink render: note: --save-tracks %s: classes are numbers in field 8 (x), named in %s: read them back with --class-names %s\n",
			d.saveTracks, d.names, d.names)
	}
}
