package options

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"trackink/detect"
	"trackink/outfile"
	"trackink/scene"
	"trackink/tracker"
)

// Detect are the built-in tracker's flags, shared by track and render --detect: a
// preset (--detect) and the options that change it.
type Detect struct {
	Preset     string          // --detect
	ListDetect bool            // --list-detect
	o          tracker.Options // the flags' values; only those given override the preset
	model      string
	classes    string
	MinScore   float64  // --min-score
	Notes      []string // what the detector's files call for saying (detect.Network.Notes)
	ClassNames []string // a network's classes: their names, numbered in MOT text
}

// Networks is how many networks Detector makes on n CPUs, each detecting a frame of its
// own (tracker.Tracker.Ahead), and the threads each runs on: a network a CPU,
// single-threaded, up to 8 networks (each holds 20 to 50 MB), the CPUs shared out between
// them beyond that. Detector counts the CPUs the process may use (GOMAXPROCS: the CPUs
// it may run on, and a container's CPU limit).
func Networks(n int) (networks, threads int) {
	networks = min(max(n, 1), 8)
	return networks, max(n/networks, 1)
}

// Register adds the tracker's flags to fs; presetUsage begins --detect's help.
func (d *Detect) Register(fs *pflag.FlagSet, presetUsage string) {
	o := &d.o
	*o = tracker.DefaultOptions(tracker.Bright)
	fs.StringVar(&d.Preset, "detect", "", presetUsage+": "+strings.Join(tracker.PresetNames(), ", ")+" (--list-detect describes them)")
	fs.BoolVar(&d.ListDetect, "list-detect", false, "list the detection presets and what each is for, and the classes --classes takes")
	fs.IntVar(&o.AnalysisSize, "analysis-size", o.AnalysisSize, "analyse frames box-filtered down to at least this many lines (by a whole factor)")
	fs.Float64Var(&o.Threshold, "threshold", o.Threshold, "8-bit threshold instead of the automatic one: luma (bright, dark), background difference (motion), chroma (color), corner strength, or with --point-seed its map's value in levels (points); -1 automatic")
	fs.Float64Var(&o.Sensitivity, "sensitivity", o.Sensitivity, "0..1: higher finds fainter objects (moves the automatic threshold)")
	fs.Float64Var(&o.MinArea, "min-area", o.MinArea, "smallest region kept, as a fraction of the frame's area (people, objects: 0.002, about 16x16 px at the network's input)")
	fs.Float64Var(&o.MaxArea, "max-area", o.MaxArea, "largest region kept, as a fraction of the frame's area (people, objects: 1)")
	fs.IntVar(&o.MaxObjects, "max-objects", o.MaxObjects, "most objects a frame keeps, largest (or strongest) first (points: 200)")
	fs.Float64Var(&o.Hue, "hue", o.Hue, "color: regions within 30° of this hue in degrees (0 red, 120 green, 240 blue); -1 any saturated colour")
	fs.Float64Var(&o.MaxMove, "max-move", o.MaxMove, "farthest an object moves between frames, as a fraction of the frame's diagonal (points: 0.02)")
	fs.IntVar(&o.Confirm, "confirm", o.Confirm, "frames in a row a new object must be seen before it gets an id (points: 1)")
	fs.IntVar(&o.Grace, "grace", o.Grace, "frames a lost object is predicted before its track ends (points: 0; people, objects: 15)")
	fs.Float64Var(&o.Smooth, "smooth", o.Smooth, "0..1: smoothing of positions and sizes (a constant-velocity Kalman filter; points: 0)")
	fs.StringVar(&o.PointSeed, "point-seed", o.PointSeed, "points: what new points are seeded on: corners, edges (the luma's gradient: outlines), color (saturated areas) or color-edges (colour boundaries); but for corners, --sensitivity is the share of the frame's pixels, strongest first, a seed may be on")
	fs.Float64Var(&o.PointSize, "point-size", o.PointSize, "points in MOTChallenge text: the side in px of the box centred on each point")
	fs.StringVar(&d.model, "model", "", "people, objects: the YOLOX-Nano ONNX file (default: $"+detect.ModelEnv+", models/ beside trackink, ~/.local/share/trackink/models)")
	fs.StringVar(&d.classes, "classes", "", "objects: the classes to find, comma-separated COCO names (person,car,dog; --list-detect lists them); people finds person only")
	fs.Float64Var(&d.MinScore, "min-score", detect.DefaultOptions().MinScore, "people, objects: the lowest detection score a box is taken at, 0..1 (boxes below --start-score only continue tracks)")
	fs.Float64Var(&o.StartScore, "start-score", tracker.DefaultOptions(tracker.Objects).StartScore, "people, objects: the detection score a box needs to start a track, 0..1")
}

// People returns the tracker options of --detect people, with its networks (the default
// model, found as Detector finds it) open in them; close frees them.
func People() (o tracker.Options, close func(), err error) {
	d := Detect{Preset: "people", MinScore: detect.DefaultOptions().MinScore}
	p, _ := tracker.LookupPreset(d.Preset)
	o = p.Options
	close, err = d.Detector(&o)
	return o, close, err
}

// Detector makes the networks of a mode Objects preset and sets them in o, as many as
// Networks says; close frees them.
func (d *Detect) Detector(o *tracker.Options) (close func(), err error) {
	if o.Mode != tracker.Objects {
		return func() {}, nil
	}
	p, _ := tracker.LookupPreset(d.Preset)
	names := strings.Join(p.Classes, ",")
	if d.classes != "" {
		names = d.classes
	}
	var classes []int
	if names != "" {
		if classes, err = detect.ClassIndices(names); err != nil {
			return nil, UsageError{fmt.Errorf("--classes: %w", err)}
		}
	}
	if err := checkPresetClasses(d.Preset, p.Classes, d.classes, classes); err != nil {
		return nil, err
	}
	if !(d.MinScore > 0 && d.MinScore < 1) {
		return nil, UsageError{fmt.Errorf("--min-score %g: must be above 0 and below 1", d.MinScore)}
	}
	// A --model file that does not exist, cannot be read, is a directory or is no file at
	// all (a named pipe, a device: the detector reads a file) is a mistake on the command
	// line, as any file flag's (exit 2, naming the flag); what is wrong with the file itself
	// (too large, not a model) is the detector's to say.
	model, err := d.modelPath()
	if err != nil {
		return nil, err
	}
	if model != "" {
		if err := CheckInput("--model", d.model, false); err != nil {
			return nil, err
		}
		if st, err := os.Stat(model); err == nil && !st.Mode().IsRegular() {
			return nil, UsageError{fmt.Errorf("--model %s: not a regular file (a named pipe or a device): give the model's file", d.model)}
		}
	}
	do := detect.DefaultOptions()
	do.Model, do.Classes, do.MinScore = model, classes, d.MinScore
	networks, threads := Networks(runtime.GOMAXPROCS(0))
	do.Threads = threads
	first, err := detect.New(do)
	if err != nil {
		return nil, err
	}
	made := []*detect.Network{first}
	for len(made) < networks {
		made = append(made, first.Clone()) // the model read and checked once
	}
	o.Detectors = nil
	for _, n := range made {
		o.Detectors = append(o.Detectors, n)
	}
	d.Notes = first.Notes
	// The network's boxes carry a class, one or several: MOTChallenge text numbers them
	// (NamesFile), so that read back with their names they draw as they did (labels, and
	// colours by class). One class wrote plain MOTChallenge, and its boxes came back
	// classless: "#1 0.71" for "#1 person 0.71".
	d.ClassNames = detect.Classes
	return func() {
		for _, n := range made {
			n.Close()
		}
	}, nil
}

// checkPresetClasses refuses --classes (given, its indices asked) naming a class that a
// preset of its own classes (people: person) does not find: --detect people --classes car
// tracked cars only, without a word, under a preset that says it finds people. The
// classes of the preset itself are taken, as they change nothing.
func checkPresetClasses(preset string, own []string, given string, asked []int) error {
	if len(own) == 0 || given == "" {
		return nil
	}
	var others []string
	for _, c := range asked {
		if !slices.Contains(own, detect.Classes[c]) {
			others = append(others, detect.Classes[c])
		}
	}
	if len(others) == 0 {
		return nil
	}
	return UsageError{fmt.Errorf("--classes %s with --detect %s: %s finds %s only, not %s; for other classes use --detect objects --classes %s",
		given, preset, preset, strings.Join(own, ", "), strings.Join(others, ", "), given)}
}

// modelPath is --model's file: a path, or a file: URL's (which CheckInput takes, as for
// the other file flags); another URL is refused, as the network is a local file.
func (d *Detect) modelPath() (string, error) {
	path, ok := outfile.LocalPath(d.model)
	if !ok {
		return "", UsageError{fmt.Errorf("--model %s: give the model's file, not a URL (trackink downloads nothing)", d.model)}
	}
	return path, nil
}

// ModelFile is the model file the detector reads, for the run's inputs (no output may be
// it, -y or not): "" for a preset that runs no network, or where no model is found (the
// detector says so).
func (d *Detect) ModelFile() string {
	p, ok := tracker.LookupPreset(d.Preset)
	if !ok || p.Options.Mode != tracker.Objects {
		return ""
	}
	model, err := d.modelPath()
	if err != nil {
		return ""
	}
	path, err := detect.LocateModel(model)
	if err != nil {
		return ""
	}
	return path
}

// NamesFile is the class-names file written beside a MOTChallenge tracks file whose boxes
// carry classes (the people and objects networks'): t.txt's is t.names, one name a line
// (darknet's .names, which --class-names reads); "" when there is none to write.
func (d *Detect) NamesFile(tracksPath string, f scene.Format) string {
	if d.ClassNames == nil || f != scene.FormatMOT {
		return ""
	}
	return NamesBeside(tracksPath)
}

// NamesBeside is the class-names file that goes with MOTChallenge text at tracksPath: t.txt's
// is t.names.
func NamesBeside(tracksPath string) string {
	return strings.TrimSuffix(tracksPath, filepath.Ext(tracksPath)) + ".names"
}

// Options are the preset's options with the flags given on the command line over them, and
// for people and objects the detector, which close frees; mistakes are usage errors naming
// the flag.
func (d *Detect) Options(fs *pflag.FlagSet) (o tracker.Options, close func(), err error) {
	p, ok := tracker.LookupPreset(d.Preset)
	if !ok {
		return o, nil, UsageError{fmt.Errorf("--detect %q: want one of %s (--list-detect describes them)", d.Preset, strings.Join(tracker.PresetNames(), ", "))}
	}
	o = p.Options
	if err := checkModeFlags(fs, d.Preset, o.Mode); err != nil {
		return o, nil, err
	}
	set := map[string]func(){
		"analysis-size": func() { o.AnalysisSize = d.o.AnalysisSize },
		"threshold":     func() { o.Threshold = d.o.Threshold },
		"sensitivity":   func() { o.Sensitivity = d.o.Sensitivity },
		"min-area":      func() { o.MinArea = d.o.MinArea },
		"max-area":      func() { o.MaxArea = d.o.MaxArea },
		"max-objects":   func() { o.MaxObjects = d.o.MaxObjects },
		"hue":           func() { o.Hue = d.o.Hue },
		"max-move":      func() { o.MaxMove = d.o.MaxMove },
		"confirm":       func() { o.Confirm = d.o.Confirm },
		"grace":         func() { o.Grace = d.o.Grace },
		"smooth":        func() { o.Smooth = d.o.Smooth },
		"point-size":    func() { o.PointSize = d.o.PointSize },
		"point-seed":    func() { o.PointSeed = d.o.PointSeed },
		"start-score":   func() { o.StartScore = d.o.StartScore },
	}
	for name, apply := range set {
		if fs.Changed(name) {
			apply()
		}
	}
	if err := FlagError(fs, o.Validate()); err != nil {
		return o, nil, err
	}
	if err := d.checkScores(fs, o); err != nil {
		return o, nil, err
	}
	close, err = d.Detector(&o)
	return o, close, err
}

// checkScores refuses, exit 2, --classes that names no class (it found every class, as if
// not given) and a --start-score under the --min-score below which the detector keeps no
// box (every box kept would start a track, as if it were not given).
func (d *Detect) checkScores(fs *pflag.FlagSet, o tracker.Options) error {
	if fs.Changed("classes") && strings.Trim(d.classes, ", \t") == "" {
		return UsageError{fmt.Errorf("--classes %q names no class: give one or more, comma-separated (person,car,dog; --list-detect lists them)", d.classes)}
	}
	if fs.Changed("start-score") && o.StartScore < d.MinScore {
		return UsageError{fmt.Errorf("--start-score %g is under --min-score %g, below which the detector keeps no box: give --start-score %g or more, or a lower --min-score",
			o.StartScore, d.MinScore, d.MinScore)}
	}
	return nil
}

// regionModes are the modes that find regions in the picture itself, by a threshold.
var regionModes = []string{tracker.Bright, tracker.Dark, tracker.Motion, tracker.Color}

// detectFlagModes are the tracker's flags that some modes do not read, each with the modes
// that do; the others (--analysis-size, --max-objects, --max-move, --confirm) every mode
// reads.
var detectFlagModes = map[string][]string{
	"threshold":   append(slices.Clip(regionModes), tracker.Points),
	"sensitivity": append(slices.Clip(regionModes), tracker.Points),
	"hue":         {tracker.Color},
	"point-size":  {tracker.Points},
	"point-seed":  {tracker.Points},
	"grace":       append(slices.Clip(regionModes), tracker.Objects),
	"smooth":      append(slices.Clip(regionModes), tracker.Objects),
	"min-area":    append(slices.Clip(regionModes), tracker.Objects),
	"max-area":    append(slices.Clip(regionModes), tracker.Objects),
	"model":       {tracker.Objects},
	"classes":     {tracker.Objects},
	"min-score":   {tracker.Objects},
	"start-score": {tracker.Objects},
}

// checkModeFlags refuses a tracker flag given with a preset whose mode does not read it,
// which would silently do nothing (--hue with --detect motion), naming the presets that do.
func checkModeFlags(fs *pflag.FlagSet, preset, mode string) error {
	for _, name := range slices.Sorted(maps.Keys(detectFlagModes)) {
		modes := detectFlagModes[name]
		if !fs.Changed(name) || slices.Contains(modes, mode) {
			continue
		}
		var users []string
		for _, p := range tracker.Presets() {
			if slices.Contains(modes, p.Options.Mode) {
				users = append(users, p.Name)
			}
		}
		return UsageError{fmt.Errorf("--%s is for --detect %s; --detect %s does not use it", name, strings.Join(users, ", "), preset)}
	}
	return nil
}

// CheckNoDetectFlags refuses the tracker's flags where nothing is tracked (the tracks come
// from a file): they would do nothing.
func CheckNoDetectFlags(fs *pflag.FlagSet) error {
	var d Detect
	own := pflag.NewFlagSet("", pflag.ContinueOnError)
	d.Register(own, "")
	var err error
	own.VisitAll(func(f *pflag.Flag) {
		if err == nil && f.Name != "detect" && f.Name != "list-detect" && fs.Changed(f.Name) {
			err = UsageError{fmt.Errorf("--%s is the built-in tracker's: it needs --detect (without it the tracks come from --tracks)", f.Name)}
		}
	})
	return err
}

// PrintDetectPresets lists the tracker's presets with what each finds (--list-detect).
func PrintDetectPresets(w io.Writer) {
	for _, p := range tracker.Presets() {
		fmt.Fprintf(w, "%-13s %s\n", p.Name, p.About)
	}
	fmt.Fprintf(w, "\nclasses for --classes (objects): %s\n", strings.Join(detect.Classes, ", "))
	aliases := slices.Sorted(maps.Keys(detect.ClassAliases))
	for i, a := range aliases {
		aliases[i] = a + " (" + detect.ClassAliases[a] + ")"
	}
	fmt.Fprintf(w, "also taken, darknet's spellings: %s\n", strings.Join(aliases, ", "))
}

// TracksFormat is the format a tracks file is written in, by its extension.
func TracksFormat(flag, path string) (scene.Format, error) {
	switch {
	case strings.HasSuffix(strings.ToLower(path), ".txt"):
		return scene.FormatMOT, nil
	case strings.HasSuffix(strings.ToLower(path), ".jsonl"), strings.HasSuffix(strings.ToLower(path), ".ndjson"):
		return scene.FormatJSONL, nil
	}
	return 0, UsageError{fmt.Errorf("%s %s: write tracks to .txt (MOTChallenge text) or .jsonl / .ndjson (JSON Lines)", flag, path)}
}
