package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"trackink/internal/field"
	"trackink/kernels/device"
	"trackink/kernels/gpu"
	"trackink/knn"
	"trackink/overlay"
	"trackink/render"
	"trackink/scene"
)

// fieldFlags maps each option field the library packages validate to the flag that sets it:
// the one table between their *field.Error and the user's words. Where commands name a flag
// differently (bench's --knn selects the link benchmark), both names are listed and the
// command's own is used.
var fieldFlags = map[string][]string{
	"overlay.Style.PointRadius":      {"point-radius"},
	"overlay.Style.LineWidth":        {"line-width"},
	"overlay.Style.CurveWidth":       {"curve-width"},
	"overlay.Style.BoxStroke":        {"box-stroke"},
	"overlay.Style.TrailWidth":       {"trail-width"},
	"overlay.Style.LinkOpacity":      {"link-opacity"},
	"overlay.Style.FillOpacity":      {"fill-opacity"},
	"overlay.Style.Roundness":        {"roundness"},
	"overlay.Style.TrailOpacity":     {"trail-opacity"},
	"overlay.Style.Trail":            {"trail"},
	"overlay.Style.Bend":             {"bend"},
	"overlay.Style.LabelSize":        {"label-size"},
	"overlay.BackendOptions.Workers": {"workers"},
	"knn.Options.K":                  {"k"},
	"knn.Options.MaxDY":              {"max-dy"},
	"knn.Options.MaxDist":            {"max-dist"},
	"knn.Options.MaxDegree":          {"max-degree"},
	"knn.Options.Hysteresis":         {"hysteresis"},
	"knn.Options.Backend":            {"knn", "knn-backend"},
}

// flagError turns a *field.Error from a library's Validate into a usage error naming the
// flag of fs that sets the field; other errors pass through.
func flagError(fs *pflag.FlagSet, err error) error {
	var fe *field.Error
	if !errors.As(err, &fe) {
		return err
	}
	for _, name := range fieldFlags[fe.Field] {
		if f := fs.Lookup(name); f != nil && f.Value.Type() != "bool" {
			value := fmt.Sprint(fe.Value)
			if _, ok := fe.Value.(string); ok {
				value = fmt.Sprintf("%q", fe.Value)
			}
			return usageError{fmt.Errorf("--%s %s: %s", name, value, fe.Msg)}
		}
	}
	return usageError{err}
}

// styleFlags are the drawing, link and backend flags shared by render and bench. Sizes
// default to overlay.Auto: the seed scene's look at 2160 lines, scaled to the frame.
type styleFlags struct {
	style    overlay.Style
	noLabels bool
	links    knn.Options
	backend  string
	workers  int
}

// register adds the flags; searchFlag names the search-backend flag (render calls it
// --knn; bench, whose --knn selects the link benchmark, --knn-backend).
func (s *styleFlags) register(fs *pflag.FlagSet, searchFlag string) {
	st := &s.style
	*st = overlay.DefaultStyle()
	auto := func(v *float32, name, defaultText, usage string) {
		fs.Float32Var(v, name, overlay.Auto, usage)
		fs.Lookup(name).DefValue = defaultText
	}
	auto(&st.PointRadius, "point-radius", "5 px at 2160 lines, scaled", "radius of tracked points in px, 0 hides them")
	auto(&st.LineWidth, "line-width", "2 px at 2160 lines, scaled", "width of straight links in px, 0 hides them")
	auto(&st.CurveWidth, "curve-width", "as --line-width", "width of curved links in px, 0 hides them")
	fs.Float32Var(&st.Bend, "bend", st.Bend, "curve bend: control point offset as a fraction of the link's length")
	fs.Float32Var(&st.LinkOpacity, "link-opacity", st.LinkOpacity, "opacity of links, 0..1")
	auto(&st.BoxStroke, "box-stroke", "3 px at 2160 lines, scaled", "box outline width in px, 0 for none")
	fs.Float32Var(&st.FillOpacity, "fill-opacity", st.FillOpacity, "opacity of box fills, 0..1")
	fs.Float32Var(&st.Roundness, "roundness", st.Roundness, "box corner radius as a fraction of half the shorter side, 0..1")
	fs.IntVar(&st.LabelSize, "label-size", 0, "label font size in px")
	fs.Lookup("label-size").DefValue = "frame height / 54, at least 10"
	fs.BoolVar(&s.noLabels, "no-labels", false, "do not draw box labels")
	fs.IntVar(&st.Trail, "trail", 0, "draw each track's last N positions as a fading curve (0 = off)")
	auto(&st.TrailWidth, "trail-width", "3 px at 2160 lines, scaled", "trail width in px")
	fs.Float32Var(&st.TrailOpacity, "trail-opacity", st.TrailOpacity, "opacity of a trail's newest end, 0..1")
	fs.IntVar(&s.links.K, "k", knn.DefaultK, "link each point to its k nearest neighbours")
	fs.Float64Var(&s.links.MaxDY, "max-dy", 0, "drop links whose vertical extent exceeds this many px (0 = off)")
	fs.Float64Var(&s.links.MaxDist, "max-dist", 0, "drop links longer than this many px (0 = off)")
	fs.IntVar(&s.links.MaxDegree, "max-degree", 0, "keep at most this many links per point, shortest first (0 = off)")
	fs.Float64Var(&s.links.Hysteresis, "hysteresis", knn.DefaultHysteresis, "keep a link while it stays within (1+h) of qualifying, so jitter does not make links blink (0 = off)")
	fs.StringVar(&s.links.Backend, searchFlag, knn.DefaultBackend, "nearest-neighbour search: "+strings.Join(knn.Backends(), ", ")+" (all exact)")
	fs.StringVar(&s.backend, "backend", "cpu", "renderer: cpu, cuda (needs a CUDA build and a GPU), emu (the CUDA kernels emulated on the CPU: slow, for checking), auto (cuda when usable, else cpu)")
	fs.IntVar(&s.workers, "workers", 0, "render threads")
	fs.Lookup("workers").DefValue = "one per CPU"
}

// options returns the drawer's options, validated; errors name the flag of fs.
func (s *styleFlags) options(fs *pflag.FlagSet, timed bool) (overlay.Options, error) {
	newBackend, err := backendFor(s.backend)
	if err != nil {
		return overlay.Options{}, err
	}
	o := overlay.Options{Style: s.style, Links: s.links, NewBackend: newBackend,
		Backend: overlay.BackendOptions{Workers: s.workers, Timed: timed}}
	o.Style.Labels = !s.noLabels
	if err := o.Validate(); err != nil {
		return o, flagError(fs, err)
	}
	return o, nil
}

// trackFlags are the tracking-file readers' flags, shared by render and tracks.
type trackFlags struct {
	path                string
	anchor, frameBase   string
	untracked, frameCol string
	classNames          string
	dropIgnored         bool
}

func (t *trackFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&t.anchor, "anchor", "bottom", "tracked point of a box: bottom (bottom-centre) or centre")
	fs.BoolVar(&t.dropIgnored, "drop-ignored", false, "drop MOT ground-truth rows whose consider_flag is 0")
	fs.StringVar(&t.frameBase, "frame-base", "auto", "the number the tracks give the video's first frame: 0, 1, or auto (the format's own: 0 for KITTI, CVAT and supervision CSV, 1 otherwise)")
	fs.StringVar(&t.untracked, "untracked", "skip", "detections without a track id: skip, or draw (without id, links or trail)")
	fs.StringVar(&t.frameCol, "frame-column", "frame_index", "supervision CSV: the column holding the frame number")
	fs.StringVar(&t.classNames, "class-names", "", "class names for class numbers: a file of one name a line, or a data YAML's names")
}

// options are the readers' options for a video or picture of w × h pixels (YOLO's
// normalised coordinates are scaled by it).
func (t *trackFlags) options(w, h int) (scene.Options, error) {
	o := scene.Options{DropIgnored: t.dropIgnored, FrameColumn: t.frameCol, Width: w, Height: h}
	switch strings.ToLower(t.anchor) {
	case "bottom", "bottom-centre", "bottom-center":
		o.Anchor = scene.BottomCenter
	case "centre", "center":
		o.Anchor = scene.Center
	default:
		return o, usageError{fmt.Errorf("--anchor %q: want bottom or centre", t.anchor)}
	}
	var err error
	if o.FrameBase, err = scene.ParseFrameBase(t.frameBase); err != nil {
		return o, usageError{fmt.Errorf("--frame-base: %w", err)}
	}
	switch t.untracked {
	case "skip":
		o.Untracked = scene.SkipUntracked
	case "draw":
		o.Untracked = scene.DrawUntracked
	default:
		return o, usageError{fmt.Errorf("--untracked %q: want skip or draw", t.untracked)}
	}
	if t.classNames != "" {
		if o.ClassNames, err = scene.ReadClassNames(t.classNames); err != nil {
			return o, err
		}
	}
	return o, nil
}

// load reads the tracking file for a w × h video or picture.
func (t *trackFlags) load(w, h int) (*scene.Tracks, error) {
	o, err := t.options(w, h)
	if err != nil {
		return nil, err
	}
	return scene.Load(t.path, o)
}

// backendFor returns the constructor of a named backend.
func backendFor(name string) (overlay.NewBackend, error) {
	switch name {
	case "cpu":
		return render.NewBackend, nil
	case "emu":
		return gpu.NewEmu, nil
	case "cuda":
		return gpu.NewCUDA, nil
	case "auto":
		if device.Probe().Usable() {
			return gpu.NewCUDA, nil
		}
		return render.NewBackend, nil
	}
	return nil, usageError{fmt.Errorf("--backend %q: want cpu, cuda, emu or auto", name)}
}

// backendName says which backend "auto" resolves to, for messages.
func backendName(name string) string {
	if name != "auto" {
		return name
	}
	r := device.Probe()
	if r.Usable() {
		return "cuda"
	}
	return "cpu (" + r.Problem + ")"
}
