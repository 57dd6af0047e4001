package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"trackink/eval"
	"trackink/internal/prose"
	"trackink/job"
	"trackink/options"
	"trackink/scene"
)

// renderTruth is render's --gt: the tracks scored against ground truth frame by frame as
// trackink eval scores them, and the errors drawn with them (job.Judge).
type renderTruth struct {
	path    string
	scoring options.Scoring
	rules   eval.Rules
	auto    bool
}

func (g *renderTruth) register(fs *pflag.FlagSet) {
	fs.Var(truthPath{&g.path}, "gt", "ground truth for --tracks (any format --tracks takes, read as trackink eval reads --gt): "+
		"its boxes drawn dashed under the tracks, missed ones red; false positives tagged FP, identity switches IDSW; "+
		"MOTA, FP, FN and IDSW so far in the top-right corner")
	g.scoring.Register(fs)
}

// truthPath is render's --gt, refused a second time: eval takes --gt once for each
// sequence, and a render given two (an eval command line copied) scored against the last
// alone, without a word.
type truthPath struct{ p *string }

func (v truthPath) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v truthPath) Type() string { return "string" }

func (v truthPath) Set(s string) error {
	if *v.p != "" {
		return fmt.Errorf("given twice (also %s): render scores the tracks against one ground truth; eval takes --gt for each sequence", *v.p)
	}
	*v.p = s
	return nil
}

// check refuses, before any work, --gt where there is no tracks file to score (--detect,
// --scene) and the scoring flags without --gt or out of range.
func (g *renderTruth) check(fs *pflag.FlagSet, f *renderFlags) error {
	if g.path == "" {
		for _, name := range []string{"iou", "rules"} {
			if fs.Changed(name) {
				return options.UsageError{Err: errors.New("--" + name + " says how --gt scores the tracks: give --gt FILE too")}
			}
		}
		return nil
	}
	switch {
	case f.detect.Preset != "":
		// The judgement of a frame needs the frames before it scored (a segment's, a
		// --start's): the tracks of the whole video, which --detect finds while drawing.
		return options.UsageError{Err: errors.New("--gt with --detect: track first (trackink track --detect PRESET -o tracks.txt), then render --tracks tracks.txt --gt")}
	case f.sceneName != "":
		return options.UsageError{Err: errors.New("--gt scores a tracker's output (--tracks FILE); the built-in --scene has no ground truth")}
	case f.tracks.Path == "-":
		return options.UsageError{Err: errors.New("--gt with --tracks -: give the tracks as a file")}
	case len(f.tracks.Paths) > 1:
		// The judgement matches one tracker's ids to the truth's; two files' tracks are not
		// one tracker's.
		return options.UsageError{Err: errors.New("--gt scores one tracker's output: give one --tracks (to draw ground truth beside a tracker's output, give both as --tracks, --color-by source)")}
	}
	var err error
	g.rules, g.auto, err = g.scoring.Check()
	return err
}

// judge reads the ground truth for w × h pictures as eval reads --gt (its rules' consider and
// ignore flags; YOLO's coordinates scaled by the picture) and scores tracks, read as drawn,
// against it. The ground truth is the video's, frame for frame, numbered as its format
// numbers frames (MOTChallenge from 1, KITTI from 0): --frame-base and --frame-offset place
// the tracks alone, as in eval, where the same flags lined tracks of a clip cut from frame
// 101 up with their video and put the ground truth 100 frames late. Nor does --tracks-size
// scale it: the tracker saw another size, not the annotators.
func (g *renderTruth) judge(f *renderFlags, tracks *scene.Tracks, w, h int, stderr io.Writer) (*job.Judged, error) {
	so, err := f.tracks.Options(w, h)
	if err != nil {
		return nil, err
	}
	opts := scene.Options{FrameColumn: so.FrameColumn, Width: w, Height: h, Untracked: scene.RefuseUntracked}
	warn := warnerFor(stderr, "render")
	gt, rules, err := loadTruth(g.path, opts, g.auto, g.rules, false, warn)
	if err != nil {
		return nil, err
	}
	if m, misfit := gt.Misfit(w, h); misfit {
		made := "another size"
		if m.MadeW > 0 {
			made = fmt.Sprintf("%d×%d", m.MadeW, m.MadeH)
		}
		warn("--gt %s reaches %d×%d, past the %d×%d picture (%s of %d centred outside it): "+
			"ground truth of the video at %s? It is drawn and scored at the picture's size, as eval scores it: render the video it was made on",
			g.path, m.ReachW, m.ReachH, w, h, prose.Plural(m.Outside, "box"), m.Boxes, made)
	}
	if err := checkTrackClasses(warn, f.tracks.Path, gt, tracks, rules); err != nil {
		return nil, err
	}
	o := evalOptions(g.path, gt, g.scoring.IoU, rules)
	o.FrameOffset = f.video.FrameOffset
	return job.Judge(gt, tracks, o), nil
}

// evalOptions are the options eval scores ground truth gt, read from path, by with the
// rules and no --by-class or --frame-offset: class by class for KITTI under py-motmetrics'
// rules, MOT20's distractors for a MOT20 sequence: one whose name (eval.SequenceName:
// MOT20-05/gt/gt.txt is MOT20-05) is MOT20's, as TrackEval's benchmark names its sequences.
// (The path's other directories do not count: MOT17 ground truth kept under MOT20-runs/ is
// MOT17's.)
func evalOptions(path string, gt *scene.Tracks, iou float64, rules eval.Rules) eval.Options {
	return eval.Options{IoU: iou, Rules: rules, MOT20: strings.HasPrefix(eval.SequenceName(path), "MOT20-"),
		ByClass: gt.Format() == scene.FormatKITTI && rules == eval.PyMotmetrics}
}
