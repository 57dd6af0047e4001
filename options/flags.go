package options

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"trackink/internal/field"
	"trackink/job"
	"trackink/kernels/device"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
)

// FlagError turns a *field.Error from a library's Validate into a usage error naming the
// flag of fs that sets the field; other errors pass through.
func FlagError(fs *pflag.FlagSet, err error) error {
	var fe *field.Error
	if !errors.As(err, &fe) {
		return err
	}
	// Where several flags set the field, a given one names it, the field's own flag first
	// (--lossless for Lossless, which --crf 0 also sets), else the first.
	if flags := flagsOfField(fs, fe.Field); len(flags) > 0 {
		f := flags[0]
		if k := slices.IndexFunc(flags, func(f *pflag.Flag) bool { return f.Changed }); k >= 0 {
			f = flags[k]
		}
		if k := slices.IndexFunc(flags, func(f *pflag.Flag) bool { return f.Changed && ownField(fs, f.Name) == fe.Field }); k >= 0 {
			f = flags[k]
		}
		if f.Value.Type() == "bool" || fe.Value == nil {
			return UsageError{fmt.Errorf("--%s: %s", f.Name, fe.Msg)}
		}
		value, hint := fmt.Sprint(fe.Value), ""
		if _, set := fe.Value.(bool); set { // a bool field that the flag's value sets
			value = f.Value.String()
		}
		if s, ok := fe.Value.(string); ok {
			value, hint = fmt.Sprintf("%q", s), ValueHint(f.Name, s)
		}
		return UsageError{fmt.Errorf("--%s %s: %s%s", f.Name, value, fe.Msg, hint)}
	}
	return UsageError{err}
}

// Style holds the drawing, link and backend flags shared by render and bench: a built-in
// look (--look), changed by a style file (--style) and by the flags themselves (style.go). Sizes default to overlay.Auto: scaled to the
// frame's height.
type Style struct {
	Style       overlay.Style // the look, as the flags set it
	noLabels    bool
	LabelWords  string      // --label-words
	LabelLines  string      // --label-lines
	Links       knn.Options // the link graph's flags
	Backend     string      // --backend
	workers     int
	look, File  string         // --look, --style
	fromFile    map[string]int // the keys the style file set, and their lines
	defaultLook string
	ListLooks   bool // --list-looks
	// What options found: where frames are drawn (--backend), and whether --color-by
	// was given, on the command line or in the style file.
	Place        job.Placement
	ColorByAsked bool
}

// Register adds the flags; searchFlag names the search-backend flag (render calls it
// --knn; bench, whose --knn selects the link benchmark, --knn-backend). defaultLook is the
// look without --look.
func (s *Style) Register(fs *pflag.FlagSet, searchFlag, defaultLook string) {
	s.defaultLook = defaultLook
	st := &s.Style
	*st, _ = overlay.Preset(defaultLook)
	fs.StringVar(&s.look, "look", defaultLook, "a built-in look to start from: "+s.lookList()+" (--list-looks describes them)")
	fs.StringVar(&s.File, "style", "", "a style file (TOML: any of the style flags as key = value) applied over the look; flags win")
	fs.BoolVar(&s.ListLooks, "list-looks", false, "list the built-in looks and what each is for")
	auto := func(v *float32, name, defaultText, usage string) {
		fs.Var(sizeValue{v}, name, usage)
		if *v == overlay.Auto {
			fs.Lookup(name).DefValue = defaultText
		}
	}
	auto(&st.PointRadius, "point-radius", "6 px at 2160 lines, scaled, at least 2.5", "radius of tracked points in px, 0 hides them")
	auto(&st.LineWidth, "line-width", "4 px at 2160 lines, scaled, at least 2", "width of straight links in px, 0 hides them")
	auto(&st.CurveWidth, "curve-width", "as --line-width", "width of curved links in px, 0 hides them")
	fs.Float32Var(&st.Bend, "bend", st.Bend, "curve bend: control point offset as a fraction of the link's length")
	auto(&st.BoxStroke, "box-stroke", "4 px at 2160 lines, scaled, at least 2", "box outline width in px, 0 for none")
	fs.Float32Var(&st.Roundness, "roundness", st.Roundness, "box corner radius as a fraction of half the shorter side, 0..1")
	fs.Var(choiceValue{&st.BoxStyle, overlay.BoxStyles}, "box-style", "box outline: "+strings.Join(overlay.BoxStyles, ", ")+" (dashes follow the outline by arc length)")
	fs.Float32Var(&st.BracketLength, "bracket-length", st.BracketLength, "with --box-style corners: each bracket's length as a fraction of its side, 0..0.5")
	fs.Var(choiceValue{&st.LinkStyle, overlay.LinkStyles}, "link-style", "links (lines and curves): "+strings.Join(overlay.LinkStyles, ", ")+" (dashes scale with the width unless --dash sets them, measured by arc length; electric: a jagged arc, new every frame, on the straight links; sparkle: soft dots scattered along each link, new every frame)")
	fs.IntVar(&st.LabelSize, "label-size", 0, "label font size in px")
	fs.Lookup("label-size").DefValue = "frame height / 54, at least 10"
	fs.StringVar(&st.Font, "font", st.Font, "a TrueType or OpenType font file (.ttf, .otf, .ttc) to set labels in; Go Medium (built in) draws the characters it lacks, and a hollow box those neither has")
	fs.Lookup("font").DefValue = "Go Medium, built in"
	fs.BoolVar(&s.noLabels, "no-labels", !st.Labels, "do not draw box labels (a look without them draws them when a label flag is given: --label, --label-size…)")
	fs.StringVar(&st.LabelFormat, "label", st.LabelFormat, "label text: fields "+strings.Join(overlay.LabelFieldNames(), " ")+", numbers as {score:.2f}; a word whose field has no value is left out")
	fs.Lookup("label").DefValue = overlay.DefaultLabelFormat
	fs.StringVar(&s.LabelWords, "label-words", "", "a file of words, one a line, that {word} picks from (one per track, never changing)")
	fs.StringVar(&s.LabelLines, "label-lines", "", "a text file whose lines {line} shows: each track starts at its own line and scrolls on to the next every --label-line-frames frames")
	fs.BoolVar(&st.LabelsOverlap, "labels-overlap", st.LabelsOverlap, "place every label at its place (above its box, or --label-anchor's) even where it covers another (default: labels move out of each other's way)")
	fs.IntVar(&st.Trail, "trail", st.Trail, "draw each track's last N positions as a fading curve (0 = off)")
	auto(&st.TrailWidth, "trail-width", "4 px at 2160 lines, scaled, at least 2", "trail width in px")
	registerDrawFlags(fs, st)
	fs.Var(colorByValue{&st.ColorBy}, "color-by", "what picks an item's colour: track, class (classes numbered in order of first appearance), or source (each --tracks file its own)")
	fs.Var(classColorsValue{&st.ClassColors}, "class-colors", "colours of classes, over the palette's: person=#ff0000,car=#00ff00")
	fs.StringVar(&st.Palette, "palette", overlay.DefaultPalette, "the colours items take: "+strings.Join(overlay.Palettes(), ", "))
	for _, c := range []struct {
		v    *overlay.OptionalColor
		name string
		what string
	}{{&st.BoxColor, "box-color", "box outlines"}, {&st.FillColor, "fill-color", "box fills"}, {&st.LinkColor, "link-color", "links"},
		{&st.PointColor, "point-color", "tracked points"}, {&st.TrailColor, "trail-color", "trails"},
		{&st.LabelColor, "label-color", "label backgrounds"}, {&st.LabelTextColor, "label-text-color", "label text"},
		{&st.LabelOutlineColor, "label-outline-color", "label text outlines (--label-outline)"}} {
		auto := "each item's own colour"
		switch c.name {
		case "label-text-color":
			auto = "black or white, whichever reads on the background"
		case "label-outline-color":
			auto = "black or white, whichever contrasts more with the text"
		}
		fs.Var(colorValue{c.v}, c.name, "#rrggbb[aa] or a colour name (red, orange, cyan…) for all "+c.what+" (auto: "+auto+")")
	}
	for _, o := range []struct {
		v    *float32
		name string
		what string
	}{{&st.BoxOpacity, "box-opacity", "box outlines"}, {&st.FillOpacity, "fill-opacity", "box fills"}, {&st.LinkOpacity, "link-opacity", "links"},
		{&st.PointOpacity, "point-opacity", "tracked points"}, {&st.LabelOpacity, "label-opacity", "label backgrounds"},
		{&st.TrailOpacity, "trail-opacity", "a trail's newest end"}} {
		fs.Float32Var(o.v, o.name, *o.v, "opacity of "+o.what+", 0..1")
	}
	registerEffectFlags(fs, st)
	registerGlowFlags(fs, st)
	fs.IntVar(&s.Links.K, "k", knn.DefaultK, "link each point to its k nearest neighbours")
	fs.Float64Var(&s.Links.MaxDY, "max-dy", 0, "drop links whose vertical extent exceeds this many px (0 = off)")
	fs.Float64Var(&s.Links.MaxDist, "max-dist", 0, "drop links longer than this many px (0 = off)")
	fs.IntVar(&s.Links.MaxDegree, "max-degree", 0, "keep at most this many links per point, shortest first (0 = off; at most --max-links-per-point)")
	fs.Float64Var(&s.Links.Hysteresis, "hysteresis", knn.DefaultHysteresis, "keep a link while it stays within (1+h) of qualifying, so jitter does not make links blink (0 = off)")
	s.registerLinkGraph(fs)
	fs.StringVar(&s.Links.Backend, searchFlag, knn.DefaultBackend, "nearest-neighbour search: "+strings.Join(knn.Backends(), ", ")+" (all exact)")
	fs.StringVar(&s.Backend, "backend", "cpu", "renderer: cpu, cuda (needs a CUDA build and a GPU), emu (the CUDA kernels emulated on the CPU: slow, for checking), auto (cuda when usable, else cpu)")
	fs.IntVar(&s.workers, "workers", 0, "render threads, at most "+strconv.Itoa(overlay.MaxWorkers))
	fs.Lookup("workers").DefValue = "one per CPU"
}

// Options returns the drawer's options: the preset, then the style file, then the flags
// given on the command line; validated, errors naming the flag of fs.
func (s *Style) Options(fs *pflag.FlagSet, timed bool) (overlay.Options, error) {
	if err := s.applyLook(fs); err != nil {
		return overlay.Options{}, err
	}
	var err error
	if s.Place, err = placeBackend(s.Backend); err != nil {
		return overlay.Options{}, err
	}
	_, inFile := s.fromFile["color-by"]
	s.ColorByAsked = fs.Changed("color-by") || inFile
	o := overlay.Options{Style: s.Style, Links: s.Links, NewBackend: s.Place.New,
		Backend: overlay.BackendOptions{Workers: s.workers, Timed: timed}}
	o.Style.Labels = !s.noLabels || s.labelsAsked(fs)
	if s.LabelWords != "" {
		if o.Style.LabelWords, err = readTextLines("--label-words", s.LabelWords, true); err != nil {
			return o, err
		}
	}
	if s.LabelLines != "" {
		if o.Style.LabelLines, err = readTextLines("--label-lines", s.LabelLines, false); err != nil {
			return o, err
		}
	}
	if o.Style.BoxRadius != overlay.Auto && o.Style.BoxSize != [2]float32{} {
		// Rivals (rivalKeys): both from the style file, or both from the command line (a
		// file's is skipped where the command line gives its rival).
		if radiusLine, inFile := s.fromFile["box-radius"]; inFile {
			return o, UsageError{fmt.Errorf("%s:%d: box-radius, and box-size on line %d: both size --box-from's boxes: give one (box-size for rectangles)",
				s.File, radiusLine, s.fromFile["box-size"])}
		}
		return o, UsageError{fmt.Errorf("--box-radius %g and --box-size %s: both size --box-from's boxes: give one (--box-size WxH for rectangles)",
			o.Style.BoxRadius, boxSizeValue{&o.Style.BoxSize})}
	}
	if err := o.Validate(); err != nil {
		return o, s.fileError(fs, err)
	}
	return o, nil
}

// labelsAsked says whether a label flag (a template, a size, a font…), on the command line or
// in the style file, asks for the labels that the look leaves off, and --no-labels was not
// given: the flag would do nothing otherwise.
func (s *Style) labelsAsked(fs *pflag.FlagSet) bool {
	if fs.Changed("no-labels") {
		return false
	}
	asked := false
	fs.Visit(func(f *pflag.Flag) {
		if o, ok := optionOf(fs.Name(), f.Name); ok && o.group == groupLabels && f.Name != "labels-overlap" {
			asked = true
		}
	})
	return asked
}

// Tracks are the tracking-file readers' flags, shared by render and tracks (and, through
// RegisterClassNames and RegisterTracksSize, eval's tracks).
type Tracks struct {
	Path string // --tracks; with several, the first
	// Paths are render's --tracks, given once or more: several are drawn together
	// (LoadAll). Empty where the command takes one file (Path).
	Paths                  []string
	Anchor, FrameBase      string   // --anchor, --frame-base
	Untracked, FrameColumn string   // --untracked, --frame-column
	ClassNames             string   // --class-names
	classNames             []string // the names the file gave, once read (Options)
	dropIgnored            bool
	frameColumn            *pflag.Flag // --frame-column's, to tell whether it was given
	Size                   string      // --tracks-size
	// Turned is whether the picture the tracks are drawn on is a frame stored sideways and
	// shown turned a quarter (--orientation display of a video rotated 90° or 270°).
	Turned bool
	// WithTruth: a ground truth is read with these flags too (render --gt), whose format
	// checkFormats does not see: --frame-column may be the ground truth's.
	WithTruth bool
	// Warn, when set, says what the tracks look wrong for (sizeHint).
	Warn func(string)
	// Note, when set, says where the class names came from when no --class-names named
	// them (ClassNamesFile).
	Note func(string)
}

// NoClassNames is the --class-names value that reads the tracks without class names, even
// with a names file beside them.
const NoClassNames = "none"

// ClassNamesFile is the file the class numbers' names are read from: --class-names's, or,
// without it, the names file beside the tracks file where there is one (NamesBeside: t.names
// beside t.txt, as track and --save-tracks write MOTChallenge text), so that saved tracks
// draw back with their classes; "" for none (--class-names none).
func (t *Tracks) ClassNamesFile() string {
	switch t.ClassNames {
	case NoClassNames:
		return ""
	case "":
	default:
		return t.ClassNames
	}
	return namesFileBeside(t.Path)
}

// namesFileBeside is the names file beside the tracks file at path (NamesBeside) where both
// are files and path's name allows MOTChallenge text (not .jsonl or .xml, whose boxes name
// their classes); else "".
func namesFileBeside(path string) string {
	if path == "" || path == "-" || !scene.ReadBackAs(path, scene.FormatMOT) || !isFile(path) {
		return ""
	}
	if beside := NamesBeside(path); beside != path && isFile(beside) {
		return beside
	}
	return ""
}

// NamesBesideTracks reads the names of the class numbers of the tracks file at path from the
// names file beside it (namesFileBeside), and returns them and that file; none where there
// is none. One that is not a names file is a mistake of the command line, as a
// --class-names file is, saying where it came from.
func NamesBesideTracks(path string) (names []string, file string, err error) {
	if file = namesFileBeside(path); file == "" {
		return nil, "", nil
	}
	if names, err = scene.ReadClassNames(file); err != nil {
		return nil, file, UsageError{fmt.Errorf("the class names beside the tracks (--class-names none reads them without): %w", err)}
	}
	return names, file, nil
}

// isFile reports whether path is a regular file (or a link to one).
func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// DefaultFrameColumn is --frame-column's default, the supervision reader's
// (scene.Options.FrameColumn).
const DefaultFrameColumn = "frame_index"

// Register adds the readers' flags to fs (--tracks itself is the command's).
func (t *Tracks) Register(fs *pflag.FlagSet) {
	fs.StringVar(&t.Anchor, "anchor", "bottom", "tracked point of a box: bottom (bottom-centre) or centre")
	fs.BoolVar(&t.dropIgnored, "drop-ignored", false, "drop MOT ground-truth rows whose consider_flag is 0")
	fs.StringVar(&t.FrameBase, "frame-base", "auto", "the number the tracks give the video's first frame: 0, 1, or auto (the format's own: 0 for KITTI, CVAT and supervision CSV, 1 otherwise)")
	fs.StringVar(&t.Untracked, "untracked", "skip", "detections without a track id: skip, or draw (without id, links or trail)")
	fs.StringVar(&t.FrameColumn, "frame-column", DefaultFrameColumn, "supervision CSV: the column holding the frame number")
	t.frameColumn = fs.Lookup("frame-column")
	t.RegisterClassNames(fs)
	t.RegisterTracksSize(fs)
}

// RegisterTracksSize adds --tracks-size alone (eval's, as RegisterClassNames).
func (t *Tracks) RegisterTracksSize(fs *pflag.FlagSet) {
	fs.StringVar(&t.Size, "tracks-size", "", "the video size the tracks were made at, WxH (1920x1080): their coordinates are scaled to the picture's")
}

// RegisterClassNames adds --class-names alone, for a command that reads tracks files with
// flags of its own for the rest (eval).
func (t *Tracks) RegisterClassNames(fs *pflag.FlagSet) {
	fs.StringVar(&t.ClassNames, "class-names", "", "class names for class numbers: a file of one name a line, or a data YAML's names (default: NAME.names beside MOTChallenge tracks NAME.txt, where there is one; none: no names)")
}

// CheckNotReading refuses the readers' flags where no tracks file is read (--detect tracks
// the video): they would do nothing. --anchor, the tracked point of any box, is not one.
func CheckNotReading(fs *pflag.FlagSet) error {
	var t Tracks
	own := pflag.NewFlagSet("", pflag.ContinueOnError)
	t.Register(own)
	var err error
	own.VisitAll(func(f *pflag.Flag) {
		if err == nil && f.Name != "anchor" && fs.Changed(f.Name) {
			err = UsageError{fmt.Errorf("--%s is for reading a tracks file (--tracks); --detect tracks the video itself: leave it out", f.Name)}
		}
	})
	return err
}

// Options are the readers' options for a video or picture of w × h pixels (YOLO's
// normalised coordinates are scaled by it).
func (t *Tracks) Options(w, h int) (scene.Options, error) {
	o := scene.Options{DropIgnored: t.dropIgnored, FrameColumn: t.FrameColumn, Width: w, Height: h}
	switch strings.ToLower(t.Anchor) {
	case "bottom", "bottom-centre", "bottom-center":
		o.Anchor = scene.BottomCenter
	case "centre", "center":
		o.Anchor = scene.Center
	default:
		return o, UsageError{fmt.Errorf("--anchor %q: want bottom or centre%s", t.Anchor, ValueHint("anchor", t.Anchor))}
	}
	var err error
	if o.FrameBase, err = scene.ParseFrameBase(t.FrameBase); err != nil {
		return o, UsageError{fmt.Errorf("--frame-base: %w", err)}
	}
	switch t.Untracked {
	case "skip":
		o.Untracked = scene.SkipUntracked
	case "draw":
		o.Untracked = scene.DrawUntracked
	default:
		return o, UsageError{fmt.Errorf("--untracked %q: want skip or draw%s", t.Untracked, ValueHint("untracked", t.Untracked))}
	}
	if t.classNames == nil {
		switch t.ClassNames {
		case NoClassNames:
		case "":
			var file string
			t.classNames, file, err = NamesBesideTracks(t.Path)
			if err != nil {
				return o, err
			}
			if file != "" && t.Note != nil {
				t.Note(fmt.Sprintf("class numbers named by %s, beside %s (--class-names none reads the tracks without)", file, t.Path))
			}
		default:
			if t.classNames, err = scene.ReadClassNames(t.ClassNames); err != nil {
				// A settings file, as --label-words is: what is wrong with it is a mistake
				// on the command line, naming the flag (and the file's line).
				return o, UsageError{fmt.Errorf("--class-names %w", err)}
			}
		}
	}
	o.ClassNames, o.NoLabelsFile = t.classNames, t.ClassNames == NoClassNames
	return o, nil
}

// ClassList numbers the tracks' classes (in order of first appearance) for MOTChallenge
// text: the --class-names list the tracks were read with (Load), so that each number keeps
// its meaning, with any other class after it; else the classes as they come.
func (t *Tracks) ClassList(classes []string) []string {
	names := slices.Clone(t.classNames)
	if names == nil {
		return classes
	}
	for _, c := range classes {
		if !slices.Contains(names, c) {
			names = append(names, c)
		}
	}
	return names
}

// Load reads the tracking file for a w × h video or picture; "-" reads standard input,
// its format told by its content. A reader's flag for another format than the file's is
// refused, before the file is read where its format can be told (checkFormatsFirst).
func (t *Tracks) Load(w, h int) (*scene.Tracks, error) {
	if err := t.checkFormatsFirst([]string{t.Path}); err != nil {
		return nil, err
	}
	o, err := t.Options(w, h)
	if err != nil {
		return nil, err
	}
	tr, err := t.LoadWith(o, w, h)
	if err != nil {
		return nil, err
	}
	if err := t.checkFormats(tr.Format()); err != nil {
		return nil, err
	}
	return tr, nil
}

// formatFlag is a reader's flag that only one format reads, and whether it was given.
type formatFlag struct {
	given  bool
	flag   string
	format scene.Format
}

// formatFlags are the reader's flags that only one format reads.
func (t *Tracks) formatFlags() []formatFlag {
	return []formatFlag{
		{t.dropIgnored, "--drop-ignored", scene.FormatMOT},
		{t.frameColumn != nil && t.frameColumn.Changed && !t.WithTruth, "--frame-column", scene.FormatSupervision},
	}
}

// checkFormats refuses, exit 2, a reader's flag that only one format reads when none of
// formats, the tracks files', is that one: the files were read as if it had not been given.
func (t *Tracks) checkFormats(formats ...scene.Format) error {
	for _, c := range t.formatFlags() {
		if c.given && !slices.Contains(formats, c.format) {
			return UsageError{fmt.Errorf("%s reads %s, and the tracks are %s: leave it out", c.flag, c.format, formatList(formats))}
		}
	}
	return nil
}

// checkFormatsFirst is checkFormats before the files at paths are read, from the formats
// their names and first lines tell (scene.FormatOf), so that a long file is not read for
// nothing. Standard input, or a file whose format cannot be told, is left to checkFormats
// once read (and to the reader, which says what is wrong).
func (t *Tracks) checkFormatsFirst(paths []string) error {
	if !slices.ContainsFunc(t.formatFlags(), func(c formatFlag) bool { return c.given }) {
		return nil
	}
	formats := make([]scene.Format, len(paths))
	for k, p := range paths {
		if p == "-" {
			return nil
		}
		f, err := scene.FormatOf(p)
		if err != nil {
			return nil // a pipe, read once by the reader; what the reader says is wrong
		}
		formats[k] = f
	}
	return t.checkFormats(formats...)
}

// formatList names formats for people, each once: "trackink JSON Lines and KITTI tracking labels".
func formatList(formats []scene.Format) string {
	var names []string
	for _, f := range formats {
		if s := f.String(); !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	return strings.Join(names, " and ")
}

// LoadAll reads the tracks files of Paths (Path alone where there are none) for a w × h
// picture and draws them together (scene.Merge). The readers' flags apply to every file
// (--frame-base auto is each file's format's own, --tracks-size scales them all), and
// without --class-names each file's class numbers are named by the names file beside it;
// what looks wrong for the picture is told of each file by its name.
func (t *Tracks) LoadAll(w, h int) (*scene.Tracks, error) {
	paths := t.Paths
	if len(paths) == 0 {
		paths = []string{t.Path}
	}
	names := make([]string, len(paths))
	for k, p := range paths {
		names[k] = cmp.Or(trackFile(p), "stdin")
	}
	if len(paths) == 1 {
		tr, err := t.Load(w, h)
		if err != nil {
			return nil, err
		}
		return scene.Merge([]*scene.Tracks{tr}, names)
	}
	if err := t.checkFormatsFirst(paths); err != nil {
		return nil, err
	}
	parts, formats := make([]*scene.Tracks, len(paths)), make([]scene.Format, len(paths))
	for k, p := range paths {
		one := *t
		one.Path = p
		if t.ClassNames == "" { // the names beside this file, not the first's
			one.classNames = nil
		}
		if t.Warn != nil {
			one.Warn = func(s string) { t.Warn("tracks file " + names[k] + ": " + s) }
		}
		o, err := one.Options(w, h)
		if err != nil {
			return nil, err
		}
		// An id too large to be kept apart from the other files' is refused at its line.
		o.File, o.Files = k, len(paths)
		tr, err := one.LoadWith(o, w, h)
		if err != nil {
			return nil, err
		}
		if t.ClassNames != "" { // read once: the file may be a pipe
			t.classNames = one.classNames
		}
		parts[k] = tr
		formats[k] = tr.Format()
	}
	if err := t.checkFormats(formats...); err != nil {
		return nil, err
	}
	return scene.Merge(parts, names)
}

// trackFile is the file a --tracks value names: "" for standard input.
func trackFile(path string) string {
	if path == "-" {
		return ""
	}
	return path
}

// LoadWith is Load with the reader's options o: Options' for w × h, as the caller changed
// them (eval's untracked boxes).
func (t *Tracks) LoadWith(o scene.Options, w, h int) (*scene.Tracks, error) {
	var (
		tr  *scene.Tracks
		err error
	)
	if t.Path == "-" {
		tr, err = scene.Read(os.Stdin, "stdin", scene.FormatAuto, o)
	} else {
		tr, err = scene.Load(t.Path, o)
	}
	switch {
	case err != nil:
		return nil, err
	case t.Size != "":
		return tr, t.scaleTracks(tr, w, h)
	case t.Warn != nil && w > 0 && h > 0:
		if hint := sizeHint(tr, w, h, t.Turned); hint != "" {
			t.Warn(hint)
		}
	}
	return tr, nil
}

// placeBackend is job.Place for --backend name, on this machine.
func placeBackend(name string) (job.Placement, error) {
	if !slices.Contains(job.Backends, name) {
		return job.Placement{}, UsageError{fmt.Errorf("--backend %q: want cpu, cuda, emu or auto%s", name, ValueHint("backend", name))}
	}
	return job.Place(name, device.Probe)
}

// BackendFor returns the constructor of a named backend.
func BackendFor(name string) (overlay.NewBackend, error) {
	p, err := placeBackend(name)
	return p.New, err
}

// BackendName says which backend "auto" resolves to, for messages.
func BackendName(name string) string {
	p, err := job.Place(name, device.Probe)
	if err != nil {
		return name
	}
	return p.Name()
}
