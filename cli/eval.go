package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"trackink/eval"
	"trackink/internal/prose"
	"trackink/options"
	"trackink/scene"
	"trackink/video"

	"github.com/spf13/pflag"
)

const evalExamples = `Examples:
  # A tracker's output against ground truth, at MOTChallenge's IoU 0.5 (HOTA, DetA and
  # AssA, averaged over HOTA's own IoU thresholds 0.05 to 0.95, whatever --iou, first):
  trackink eval --gt gt.txt --tracks tracks.txt

  # Several sequences, each --gt with the --tracks in the same place, and an OVERALL row
  # (which combines the sequences' counts, as the benchmarks do); the measures as one JSON
  # object for a script:
  trackink eval --gt MOT17-02/gt/gt.txt --tracks out/MOT17-02.txt \
                --gt MOT17-04/gt/gt.txt --tracks out/MOT17-04.txt --json

  # A stricter match, and tracks from trackink itself:
  trackink eval --gt gt.txt --tracks tracks.jsonl --iou 0.7

  # MOTChallenge's official scorer's figures (TrackEval: boxes on distractors removed,
  # pedestrians alone scored):
  trackink eval --gt MOT17-02/gt/gt.txt --tracks out/MOT17-02.txt --rules trackeval

  # Ultralytics' yolo track results (normalised: the video gives the size), classes named:
  trackink eval --gt gt.txt --tracks runs/track/exp/labels -i in.mp4 --class-names data.yaml`

func evalCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := options.NewFlagSet("eval", "--gt GT --tracks TRACKS [--gt GT2 --tracks TRACKS2 …] [flags]", evalExamples, stderr)
	gts := fs.StringArray("gt", nil, "ground truth: any tracking file trackink reads (repeat for more sequences)")
	tracks := fs.StringArray("tracks", nil, "the tracker's output for the --gt in the same place")
	var sc options.Scoring // --iou and --rules, read as render --gt reads them
	fs.Float64Var(&sc.IoU, "iou", eval.DefaultIoU, "the least IoU at which a track box may match a ground-truth box, above 0 and at most 1 (CLEAR-MOT and identity measures; HOTA uses its own thresholds)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of a table, with HOTA's DetRe, DetPr, AssRe, AssPr, LocA, HOTA(0) and LocA(0) too")
	frameBase := fs.String("frame-base", "auto", "the number both files give the video's first frame: 0, 1, or auto (each format's own)")
	frameOffset := fs.Int("frame-offset", 0, "the tracks' frame t is the ground truth's frame t + N (tracks of a clip cut from frame 101: 100), -10000000..10000000")
	byClass := fs.Bool("by-class", false, "match a track box only with ground truth of its class (any case; person is pedestrian), scoring each class apart (py-motmetrics' rules; default: on for KITTI ground truth read by them; given with KITTI and no --rules, it keeps them)")
	fs.StringVar(&sc.Rules, "rules", "auto", "whose rules to score by: motmetrics (py-motmetrics: MOTChallenge rows with consider flag 0 left out, every other box counts), "+
		"trackeval (MOTChallenge's and KITTI's official scorer: boxes on distractors and in KITTI's DontCare regions removed, only pedestrians, or KITTI's Car and Pedestrian, scored), "+
		"or auto (trackeval for KITTI ground truth, as its devkit scores, motmetrics otherwise)")
	frameCol := fs.String("frame-column", options.DefaultFrameColumn, "supervision CSV: the column holding the frame number")
	untracked := fs.String("untracked", "skip", "track boxes without a track id: skip (left out, with a warning, as render and tracks leave them out), or refuse (the tracks file, naming the line)")
	var tf options.Tracks // the tracks' reader: render's and tracks' --class-names
	tf.RegisterClassNames(fs)
	tf.RegisterTracksSize(fs)
	tf.Note = func(s string) { fmt.Fprintf(stderr, "trackink eval: note: %s\n", s) }
	in := fs.StringP("input", "i", "", "the video the tracks belong to (its size scales YOLO's normalised coordinates and --tracks-size's, and shows tracks made at another size)")
	w := fs.Int("width", 0, "the video's width, instead of -i (not with it)")
	h := fs.Int("height", 0, "the video's height, instead of -i (not with it)")
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		switch {
		case len(*gts) == 0 || len(*tracks) == 0:
			return options.UsageError{Err: errors.New("give the ground truth with --gt and the tracker's output with --tracks")}
		case len(*gts) != len(*tracks):
			return options.UsageError{Err: fmt.Errorf("--gt given %s and --tracks %s: give one --tracks for each --gt",
				prose.Plural(len(*gts), "time"), prose.Plural(len(*tracks), "time"))}
		case *w < 0 || *h < 0:
			return options.UsageError{Err: fmt.Errorf("--width %d, --height %d: sizes cannot be negative", *w, *h)}
		case *untracked != "skip" && *untracked != "refuse":
			return options.UsageError{Err: fmt.Errorf("--untracked %q: want skip or refuse", *untracked)}
		}
		if err := checkSizeFlags(fs, *in); err != nil {
			return err
		}
		base, err := scene.ParseFrameBase(*frameBase)
		if err != nil {
			return options.UsageError{Err: fmt.Errorf("--frame-base: %w", err)}
		}
		if err := options.CheckFrameOffset(*frameOffset); err != nil {
			return err
		}
		rules, auto, err := sc.Check() // for auto, rules are chosen by each ground truth's format
		if err != nil {
			return err
		}
		if !auto && rules == eval.TrackEval && fs.Changed("by-class") {
			return options.UsageError{Err: errors.New("--by-class with --rules trackeval: TrackEval picks the classes itself " +
				"(MOTChallenge's pedestrians; KITTI's Car and Pedestrian, each apart); give --rules motmetrics to choose")}
		}
		for i := range *gts {
			for _, f := range [][2]string{{"--gt", (*gts)[i]}, {"--tracks", (*tracks)[i]}} {
				if err := options.CheckInput(f[0], f[1], true); err != nil {
					return err
				}
			}
		}
		if err := checkSequencesOnce(*gts, *tracks); err != nil {
			return err
		}
		if tf.ClassNames != "" && tf.ClassNames != options.NoClassNames {
			if err := options.CheckInput("--class-names", tf.ClassNames, false); err != nil {
				return err
			}
		}
		tf.Anchor, tf.FrameBase, tf.FrameColumn, tf.Untracked = "bottom", *frameBase, *frameCol, "skip"
		if *in != "" {
			// A missing file is a mistake on the command line (2); one FFmpeg cannot read is
			// a failure (1), as in every command.
			if err := options.CheckInput("-i", *in, false); err != nil {
				return err
			}
			info, err := video.Probe(context.Background(), *in, 0)
			if err != nil {
				return fmt.Errorf("-i %s: %w", *in, err)
			}
			*w, *h, tf.Turned = info.DisplayWidth, info.DisplayHeight, info.Rotation%180 == 90
		}
		if err := tf.CheckSize(*w, *h); err != nil { // after -i, which gives the size
			return err
		}
		// Ground truth without a track id cannot be scored: such a file is refused, naming
		// the line.
		opts := scene.Options{FrameBase: base, FrameColumn: *frameCol, Width: *w, Height: *h, Untracked: scene.RefuseUntracked}
		var rows []eval.Named
		names := eval.SequenceNames(*gts, *tracks)
		for i := range *gts {
			g, seqRules, err := loadTruth((*gts)[i], opts, auto, rules, fs.Changed("by-class"), warnerFor(stderr, "eval"))
			if err != nil {
				return err
			}
			t, err := loadTracksForEval(tf, (*tracks)[i], *w, *h, *untracked == "refuse", stderr)
			if err != nil {
				return err
			}
			o := evalOptions((*gts)[i], g, sc.IoU, seqRules)
			o.FrameOffset = *frameOffset
			if fs.Changed("by-class") {
				o.ByClass = *byClass
			}
			if err := checkTrackClasses(warnerFor(stderr, "eval"), (*tracks)[i], g, t, seqRules); err != nil {
				return err
			}
			if o.ByClass {
				warnNoClassShared(stderr, (*tracks)[i], g, t)
			}
			row := eval.Named{Name: names[i],
				GTFrames:    eval.Numbered(eval.FrameRange{First: g.FirstIndex(), Last: g.LastIndex()}, base.Of(g.Format())),
				TrackFrames: eval.Numbered(eval.FrameRange{First: t.FirstIndex(), Last: t.LastIndex()}, base.Of(t.Format())), Rules: seqRules}
			scored := eval.FrameRange{First: t.FirstIndex() + o.FrameOffset, Last: t.LastIndex() + o.FrameOffset}
			switch {
			case g.Summary().Boxes == 0:
				fmt.Fprintf(stderr, "trackink eval: warning: %s: the ground truth %s holds no boxes: every track box is a false positive\n", row.Name, (*gts)[i])
			case everyBoxIgnored(g):
				why := "by its format's rules"
				if g.Format() == scene.FormatMOT {
					why = "(its consider flag, the 7th field, is 0 on every row; TrackEval's rules read a fraction there, " +
						"such as a tracker's score, as 0: --rules motmetrics scores such a file)"
				}
				fmt.Fprintf(stderr, "trackink eval: warning: %s: every box of the ground truth %s is one to leave out %s, so nothing is scored\n",
					row.Name, (*gts)[i], why)
			case t.Summary().Boxes == 0:
				fmt.Fprintf(stderr, "trackink eval: warning: %s: %s holds no boxes: every ground-truth box is a miss\n", row.Name, (*tracks)[i])
			case !row.GTFrames.Overlaps(scored):
				fmt.Fprintf(stderr, "trackink eval: warning: %s: the ground truth (frames %s) and the tracks (frames %s) share no frame: --frame-base or --frame-offset off?\n",
					row.Name, row.GTFrames, row.TrackFrames)
			default:
				warnOutsideTruth(stderr, row, t, o.FrameOffset)
			}
			for k, c := range eval.ScoreClasses(g, t, o) {
				row.Class, row.ClassIndex, row.Result = c.Class, k, c.Result
				rows = append(rows, row)
			}
		}
		if *asJSON {
			return eval.WriteJSON(stdout, rows, sc.IoU)
		}
		fmt.Fprintf(stdout, "IoU ≥ %g; MOTP is the matches' mean IoU; rules: %s\n", sc.IoU, eval.RulesOf(rows))
		return eval.WriteTable(stdout, append(rows, eval.OverallRows(rows)...))
	}
}

// warnOutsideTruth warns of track boxes in frames before the ground truth's first frame or
// after its last (row.GTFrames; the tracks' frame t is its t + offset): every one is a false
// positive, by the definition (every frame either file holds is scored), but TrackEval refuses
// such rows, and the usual cause is a tracker run on the whole video scored against ground
// truth of a part of it (a CVAT job's segment), which showed only in the footer's frames.
func warnOutsideTruth(stderr io.Writer, row eval.Named, t *scene.Tracks, offset int) {
	type spill struct {
		boxes, frames int
		span          eval.FileRange // the tracks' own frames, as the file numbers them
	}
	numbering := eval.FileRange{Shift: row.TrackFrames.Shift}
	before, after := spill{span: numbering}, spill{span: numbering}
	for f := range t.All() {
		var s *spill
		switch n := f.Index + offset; {
		case n < row.GTFrames.First:
			s = &before
		case n > row.GTFrames.Last:
			s = &after
		default:
			continue
		}
		boxes := 0
		for _, b := range f.Boxes {
			if b.ID != scene.NoID {
				boxes++
			}
		}
		if boxes == 0 {
			continue
		}
		s.boxes += boxes
		s.frames++
		if s.span.Empty() {
			s.span.First = f.Index
		}
		s.span.Last = f.Index
	}
	for _, c := range []struct {
		s     spill
		where string
	}{{before, "before the ground truth's first frame"}, {after, "past the ground truth's last frame"}} {
		if c.s.boxes == 0 {
			continue
		}
		fmt.Fprintf(stderr, "trackink eval: warning: %s: %s in %s (tracks frames %s) lie %s (ground truth frames %s): each is a false positive. "+
			"A tracker run on the whole video, scored against ground truth of a part of it? Score the tracks of the ground truth's frames alone "+
			"(or give --frame-offset, if the tracks count frames from the part's start)\n",
			row.Name, prose.Plural(c.s.boxes, "track box"), prose.Plural(c.s.frames, "frame"), c.s.span, c.where, row.GTFrames)
	}
}

// loadTruth reads ground truth for eval and returns the rules to score it by: rules, or with
// auto TrackEval's for KITTI ground truth (its devkit's) and py-motmetrics' otherwise.
// py-motmetrics' rules leave out the rows that MOTChallenge marks not to be considered, as
// the benchmark's evaluation leaves them out; TrackEval's need them, and KITTI's DontCare
// regions, marked (scene.Options.MarkIgnored).
func loadTruth(path string, o scene.Options, auto bool, rules eval.Rules, byClassSet bool, warn warner) (*scene.Tracks, eval.Rules, error) {
	o.DropIgnored, o.MarkIgnored = rules == eval.PyMotmetrics, rules == eval.TrackEval
	var kept []string // the warnings of the reading kept
	keep := func(format string, a ...any) { kept = append(kept, fmt.Sprintf(format, a...)) }
	load := func() (*scene.Tracks, error) { return scene.Load(path, o) }
	g, err := loadForEval("--gt", path, load, keep)
	if err == nil && auto && g.Format() == scene.FormatKITTI && !byClassSet {
		// A --by-class given with KITTI keeps the rules that heed it.
		o.DropIgnored, o.MarkIgnored, rules = false, true, eval.TrackEval
		kept = kept[:0]
		g, err = loadForEval("--gt", path, load, keep)
	}
	for _, w := range kept {
		warn("%s", w)
	}
	return g, rules, err
}

// checkSequencesOnce refuses a sequence given twice, the same ground truth with the same
// tracks (by file, whatever the path's spelling): the overall row counted it twice.
func checkSequencesOnce(gts, tracks []string) error {
	stat := func(paths []string) []os.FileInfo {
		infos := make([]os.FileInfo, len(paths))
		for i, p := range paths {
			infos[i], _ = os.Stat(p) // nil where it cannot: the read that follows names why
		}
		return infos
	}
	gtInfo, trackInfo := stat(gts), stat(tracks)
	same := func(paths []string, infos []os.FileInfo, i, j int) bool {
		return paths[i] == paths[j] || infos[i] != nil && infos[j] != nil && os.SameFile(infos[i], infos[j])
	}
	for i := range gts {
		for j := range i {
			if same(gts, gtInfo, i, j) && same(tracks, trackInfo, i, j) {
				return options.UsageError{Err: fmt.Errorf("--gt %s with --tracks %s is given twice (sequences %d and %d): the overall row would count it twice",
					gts[i], tracks[i], j+1, i+1)}
			}
		}
	}
	return nil
}

// everyBoxIgnored reports whether g holds boxes and marks every one of them ignored (scene.Box.Ignored).
func everyBoxIgnored(g *scene.Tracks) bool {
	n := 0
	for f := range g.All() {
		for _, b := range f.Boxes {
			if !b.Ignored {
				return false
			}
			n++
		}
	}
	return n > 0
}

// warner prints a command's warning: a format and its arguments, as fmt.Printf takes them.
type warner func(format string, a ...any)

// warnerFor is command's warner on stderr: "trackink COMMAND: warning: …", a line. The
// reading and checking eval and render --gt share say which command speaks.
func warnerFor(stderr io.Writer, command string) warner {
	return func(format string, a ...any) {
		fmt.Fprintf(stderr, "trackink %s: warning: %s\n", command, fmt.Sprintf(format, a...))
	}
}

// checkTrackClasses says what the ground truth's rules do with the track boxes of classes
// it does not score. MOTChallenge's ground truth is of people: TrackEval refuses tracks of
// other classes (an error here); under py-motmetrics' rules, which match them like any box,
// a warning counts them.
// TrackEval's rules for KITTI score Car and Pedestrian alone, the others unscored (a
// warning).
func checkTrackClasses(warn warner, path string, g, t *scene.Tracks, rules eval.Rules) error {
	var scored func(class string) bool
	switch {
	case g.Format() == scene.FormatMOT && (rules == eval.TrackEval || onlyPeople(g)):
		scored = mayBePerson
	case g.Format() == scene.FormatKITTI && rules == eval.TrackEval:
		scored = func(c string) bool { return strings.EqualFold(c, "Car") || strings.EqualFold(c, "Pedestrian") }
	default:
		return nil
	}
	others := map[string]int{} // boxes of each class not scored
	n := 0
	for f := range t.All() {
		for _, b := range f.Boxes {
			if !scored(b.Class) {
				others[b.Class]++
				n++
			}
		}
	}
	if n == 0 {
		return nil
	}
	var counts []string
	for _, c := range slices.Sorted(maps.Keys(others)) {
		counts = append(counts, fmt.Sprintf("%s: %d", classWord(c), others[c]))
	}
	what := "not people"
	if g.Format() == scene.FormatKITTI {
		what = "neither Car nor Pedestrian"
	}
	verb := "are"
	if n == 1 {
		verb = "is"
	}
	boxes := fmt.Sprintf("%s %s %s (%s)", prose.Plural(n, "track box"), verb, what, strings.Join(counts, ", "))
	switch {
	case g.Format() == scene.FormatKITTI:
		warn("%s: %s: TrackEval's rules for KITTI score those two classes alone", path, boxes)
	case rules == eval.TrackEval:
		// Most often another tracker's output, whose class numbers name no class here: the
		// way out is to name them, or to score by rules that do not look at classes.
		return fmt.Errorf("--tracks %s: %s: TrackEval's MOTChallenge evaluation scores pedestrians and refuses tracks of other classes "+
			"(class numbers above 1); if they are people, name the tracks' class numbers with --class-names FILE (a names file or a data YAML); "+
			"or score every box whatever its class, as py-motmetrics does (--rules motmetrics), or leave the other classes out "+
			"(trackink's own tracker: --detect people)", path, boxes)
	default:
		// py-motmetrics matches boxes whatever their class: such a box on a person is a
		// match, not the false positive this once said it was.
		warn("%s: %s: the MOTChallenge ground truth is of people, but py-motmetrics' rules match a box "+
			"whatever its class (--by-class matches it only with ground truth of its class, or of none, as MOT15's; --rules trackeval refuses such tracks)", path, boxes)
	}
	return nil
}

// warnNoClassShared warns, for --by-class, when no track box may match any ground-truth box
// by class (eval.SameClass; a box of no class matches any): the tracks then score nothing,
// and did without a word.
func warnNoClassShared(stderr io.Writer, path string, g, t *scene.Tracks) {
	classes := func(tr *scene.Tracks) map[string]bool {
		set := map[string]bool{}
		for f := range tr.All() {
			for _, b := range f.Boxes {
				if b.ID != scene.NoID && !b.Ignored {
					set[b.Class] = true
				}
			}
		}
		return set
	}
	gc, tc := classes(g), classes(t)
	if len(gc) == 0 || len(tc) == 0 || gc[""] || tc[""] {
		return
	}
	for a := range gc {
		for b := range tc {
			if eval.SameClass(a, b) {
				return
			}
		}
	}
	fmt.Fprintf(stderr, "trackink eval: warning: %s: --by-class: no track class is a ground-truth class (tracks: %s; ground truth: %s), so no track box can match: "+
		"name the tracks' classes as the ground truth names them (--class-names), or leave --by-class out\n",
		path, strings.Join(slices.Sorted(maps.Keys(tc)), ", "), strings.Join(slices.Sorted(maps.Keys(gc)), ", "))
}

// classWord names class c in a message: its name, "no class", or "class number N" for a
// number without a name.
func classWord(c string) string {
	switch {
	case c == "":
		return "no class"
	case isClassNumber(c):
		return "class number " + c
	}
	return c
}

// isClassNumber reports whether class c is a class number without a name, as the readers
// give one where no --class-names names it.
func isClassNumber(c string) bool {
	_, err := strconv.Atoi(c)
	return err == nil
}

// isPerson reports whether a box of class c may be a person: people's classes, or none.
func isPerson(c string) bool { return c == "" || eval.IsPerson(c) }

// mayBePerson reports whether a track box of class c may be a person as TrackEval's
// MOTChallenge evaluation judges one: a person by name (isPerson), or a class number without
// a name of at most 1, as TrackEval refuses only class numbers above 1
// (mot_challenge_2d_box.py: np.max(tracker_classes) > 1), so that COCO's person, 0, passes.
func mayBePerson(c string) bool {
	if isPerson(c) {
		return true
	}
	v, err := strconv.Atoi(c)
	return err == nil && v <= 1
}

// onlyPeople reports whether every box of ground truth g that is scored is a person's (as
// MOTChallenge's are once its rows of other classes, not to be considered, are left out).
func onlyPeople(g *scene.Tracks) bool {
	for f := range g.All() {
		for _, b := range f.Boxes {
			if !b.Ignored && !isPerson(b.Class) {
				return false
			}
		}
	}
	return true
}

// loadTracksForEval reads a tracker's output for eval (loadForEval) as render and tracks
// read tracks (options.Tracks, whose --class-names names its class numbers, or, without it,
// the names file beside it: NAME.names beside MOTChallenge text NAME.txt, which track
// writes), so that its classes are known.
//
// A box without a track id cannot be scored as a track. Such boxes are left out (eval.Score
// leaves out boxes without an id), with one warning that counts them, as render and tracks
// leave them out by default: real Ultralytics output has them (a frame the tracker returned
// nothing for keeps its raw detections), and refusing the file made every user filter it
// first. With refuse, the file is refused, naming the line.
func loadTracksForEval(tf options.Tracks, path string, w, h int, refuse bool, stderr io.Writer) (*scene.Tracks, error) {
	tf.Path = path
	// render's warning of tracks made at another size (and --tracks-size's scaling), where
	// the picture's size is known: such tracks scored MOTA −100 % without a word.
	tf.Warn = func(s string) { fmt.Fprintf(stderr, "trackink eval: warning: %s: %s\n", path, s) }
	o, err := tf.Options(w, h)
	if err != nil {
		return nil, err
	}
	// Kept as boxes of no id, so that every format's are counted alike (JSON Lines keeps
	// them whatever the policy).
	o.Untracked = scene.DrawUntracked
	if refuse {
		o.Untracked = scene.RefuseUntracked
	}
	t, err := loadForEval("--tracks", path, func() (*scene.Tracks, error) { return tf.LoadWith(o, w, h) }, warnerFor(stderr, "eval"))
	if err == nil {
		if n := t.Summary().Untracked; n > 0 {
			fmt.Fprintf(stderr, "trackink eval: warning: %s: %s without a track id (untracked detections) left out: a box without one cannot be scored as a track "+
				"(--untracked refuse refuses the file)\n", path, prose.Plural(n, "box"))
		}
	}
	return t, err
}

// sizeNeeded is the error of reading YOLO results (what names them) with no picture size
// given: a mistake on the command line, naming the flags that give the size, as in eval and
// tracks alike.
func sizeNeeded(what string) error {
	return options.UsageError{Err: fmt.Errorf("%s: %v: give the video with -i, or --width and --height", what, scene.ErrNeedsSize)}
}

// checkSizeFlags refuses --width or --height given with -i, which sizes the picture itself:
// they were dropped unsaid (the same flags of eval, tracks and render).
func checkSizeFlags(fs *pflag.FlagSet, in string) error {
	for _, name := range []string{"width", "height"} {
		if in != "" && fs.Changed(name) {
			return options.UsageError{Err: fmt.Errorf("-i %s and --%s: give one (the size is -i's; --width and --height give it without -i)", in, name)}
		}
	}
	return nil
}

// loadForEval reads one file for eval, refusing what it cannot score: a file it cannot parse
// (the error names the file, line and field) or one that holds points but no boxes, as a
// failure (exit 1) as every command does; a file that needs the picture's size without it,
// as a usage error.
func loadForEval(flag, path string, load func() (*scene.Tracks, error), warn warner) (*scene.Tracks, error) {
	t, err := load()
	if errors.Is(err, scene.ErrNeedsSize) {
		return nil, sizeNeeded(flag + " " + path)
	}
	var usage options.UsageError
	if errors.As(err, &usage) {
		return nil, err // names its flag (--tracks-size)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	s := t.Summary()
	if s.Boxes == 0 && s.Points > 0 {
		return nil, fmt.Errorf("%s %s holds only points (%d), no boxes: eval scores boxes", flag, path, s.Points)
	}
	for _, w := range s.Warnings {
		// The flag says which role the file plays: one file may be both.
		warn("%s %s: %s", flag, path, w)
	}
	return t, nil
}
