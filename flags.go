package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"trackink/kernels"
	"trackink/knn"
	"trackink/render"
	"trackink/scene"
)

// styleFlags are the drawing flags shared by render and bench. Sizes left at −1 follow the
// frame's height (render.DefaultStyle).
type styleFlags struct {
	pointRadius, lineWidth, curveWidth, boxStroke float32
	bend, linkOpacity, fillOpacity, roundness     float32
	labelSize, trail                              int
	trailWidth, trailOpacity                      float32
	noLabels, dropIgnored                         bool
	k, maxDegree                                  int
	maxDY, maxDist, hysteresis                    float64
	knnBackend, knnFlag                           string
	anchor, backend                               string
	workers                                       int
}

// register adds the flags; backendFlag names the search-backend flag (render calls it --knn,
// bench, whose --knn selects the link benchmark, --knn-backend).
func (s *styleFlags) register(fs *pflag.FlagSet, backendFlag string) {
	s.knnFlag = backendFlag
	d := render.DefaultStyle(2160)
	scaled(fs, &s.pointRadius, "point-radius", "5 px at 2160 lines, scaled", "radius of tracked points in px, 0 hides them")
	scaled(fs, &s.lineWidth, "line-width", "2 px at 2160 lines, scaled", "width of straight links in px, 0 hides them")
	scaled(fs, &s.curveWidth, "curve-width", "as --line-width", "width of curved links in px, 0 hides them")
	fs.Float32Var(&s.bend, "bend", d.Bend, "curve bend: control point offset as a fraction of the link's length")
	fs.Float32Var(&s.linkOpacity, "link-opacity", d.LinkOpacity, "opacity of links, 0..1")
	scaled(fs, &s.boxStroke, "box-stroke", "3 px at 2160 lines, scaled", "box outline width in px, 0 for none")
	fs.Float32Var(&s.fillOpacity, "fill-opacity", d.FillOpacity, "opacity of box fills, 0..1")
	fs.Float32Var(&s.roundness, "roundness", d.Roundness, "box corner radius as a fraction of half the shorter side, 0..1")
	fs.IntVar(&s.labelSize, "label-size", 0, "label font size in px")
	fs.Lookup("label-size").DefValue = "frame height / 54, at least 10"
	fs.BoolVar(&s.noLabels, "no-labels", false, "do not draw box labels")
	fs.IntVar(&s.trail, "trail", 0, "draw each track's last N positions as a fading curve (0 = off)")
	scaled(fs, &s.trailWidth, "trail-width", "3 px at 2160 lines, scaled", "trail width in px")
	fs.Float32Var(&s.trailOpacity, "trail-opacity", d.TrailOpacity, "opacity of a trail's newest end, 0..1")
	fs.IntVar(&s.k, "k", knn.DefaultK, "link each point to its k nearest neighbours")
	fs.Float64Var(&s.maxDY, "max-dy", 0, "drop links whose vertical extent exceeds this many px (0 = off)")
	fs.Float64Var(&s.maxDist, "max-dist", 0, "drop links longer than this many px (0 = off)")
	fs.IntVar(&s.maxDegree, "max-degree", 0, "keep at most this many links per point, shortest first (0 = off)")
	fs.Float64Var(&s.hysteresis, "hysteresis", knn.DefaultHysteresis, "keep a link while it stays within (1+h) of qualifying, so jitter does not make links blink (0 = off)")
	fs.StringVar(&s.knnBackend, backendFlag, knn.DefaultBackend, "nearest-neighbour search: grid, faiss or brute (all exact)")
	fs.StringVar(&s.anchor, "anchor", "bottom", "tracked point of a MOTChallenge box: bottom (bottom-centre) or centre")
	fs.BoolVar(&s.dropIgnored, "drop-ignored", false, "drop MOT ground-truth rows whose consider_flag is 0")
	fs.StringVar(&s.backend, "backend", "cpu", "renderer: cpu, cuda (needs a CUDA build and a GPU), emu (the CUDA kernels emulated on the CPU: slow, for checking), auto (cuda when usable, else cpu)")
	fs.IntVar(&s.workers, "workers", 0, "render threads")
	fs.Lookup("workers").DefValue = "one per CPU"
}

// scaled registers a size flag whose default follows the frame height: −1 until set.
func scaled(fs *pflag.FlagSet, v *float32, name, defaultText, usage string) {
	fs.Float32Var(v, name, -1, usage)
	fs.Lookup(name).DefValue = defaultText
}

// overlay builds the overlay options for frames of the given height.
func (s *styleFlags) overlay(height int, timed bool) (render.OverlayOptions, error) {
	st := render.DefaultStyle(height)
	set := func(dst *float32, v float32) {
		if v >= 0 {
			*dst = v
		}
	}
	set(&st.PointRadius, s.pointRadius)
	set(&st.LineWidth, s.lineWidth)
	set(&st.CurveWidth, s.curveWidth)
	if s.curveWidth < 0 && s.lineWidth >= 0 {
		st.CurveWidth = s.lineWidth
	}
	set(&st.BoxStroke, s.boxStroke)
	set(&st.TrailWidth, s.trailWidth)
	st.Trail, st.TrailOpacity = s.trail, s.trailOpacity
	st.Bend, st.LinkOpacity, st.FillOpacity, st.Roundness = s.bend, s.linkOpacity, s.fillOpacity, s.roundness
	st.Labels = !s.noLabels
	for _, f := range []struct {
		name string
		v    float32
	}{{"--point-radius", s.pointRadius}, {"--line-width", s.lineWidth}, {"--curve-width", s.curveWidth}, {"--box-stroke", s.boxStroke}, {"--trail-width", s.trailWidth}} {
		if f.v < 0 && f.v != -1 {
			return render.OverlayOptions{}, usageError{fmt.Errorf("%s %g is negative", f.name, f.v)}
		}
	}
	if err := st.Validate(); err != nil {
		return render.OverlayOptions{}, usageError{err}
	}
	labelSize := s.labelSize
	if labelSize == 0 {
		labelSize = render.DefaultLabelSize(height)
	}
	if labelSize < 4 || labelSize > 512 {
		return render.OverlayOptions{}, usageError{fmt.Errorf("--label-size %d is outside 4..512", labelSize)}
	}
	if s.workers < 0 {
		return render.OverlayOptions{}, usageError{fmt.Errorf("--workers %d is negative", s.workers)}
	}
	switch s.knnBackend {
	case knn.BackendGrid, knn.BackendFAISS, knn.BackendBrute:
	default:
		return render.OverlayOptions{}, usageError{fmt.Errorf("--%s %q: want grid, faiss or brute", s.knnFlag, s.knnBackend)}
	}
	links := knn.Options{K: s.k, MaxDY: s.maxDY, MaxDist: s.maxDist, MaxDegree: s.maxDegree,
		Hysteresis: s.hysteresis, Backend: s.knnBackend}
	if err := links.Validate(); err != nil {
		return render.OverlayOptions{}, usageError{err}
	}
	newBackend, err := backendFor(s.backend)
	if err != nil {
		return render.OverlayOptions{}, err
	}
	return render.OverlayOptions{
		Render:     render.Options{Workers: s.workers, LabelSize: labelSize, Timed: timed},
		Style:      st,
		Links:      links,
		NewBackend: newBackend,
	}, nil
}

// readerOptions are the scene readers' options.
func (s *styleFlags) readerOptions() (scene.Options, error) {
	switch strings.ToLower(s.anchor) {
	case "bottom", "bottom-centre", "bottom-center":
		return scene.Options{Anchor: scene.BottomCenter, DropIgnored: s.dropIgnored}, nil
	case "centre", "center":
		return scene.Options{Anchor: scene.Center, DropIgnored: s.dropIgnored}, nil
	}
	return scene.Options{}, usageError{fmt.Errorf("--anchor %q: want bottom or centre", s.anchor)}
}

// backendFor returns the constructor of a named backend; nil is the CPU renderer.
func backendFor(name string) (func(render.Options) (render.Backend, error), error) {
	switch name {
	case "cpu":
		return nil, nil
	case "emu":
		return kernels.NewEmu, nil
	case "cuda":
		return kernels.NewCUDA, nil
	case "auto":
		if kernels.Probe().Usable() {
			return kernels.NewCUDA, nil
		}
		return nil, nil
	}
	return nil, usageError{fmt.Errorf("--backend %q: want cpu, cuda, emu or auto", name)}
}

// backendName says which backend "auto" resolves to, for messages.
func backendName(name string) string {
	if name != "auto" {
		return name
	}
	r := kernels.Probe()
	if r.Usable() {
		return "cuda"
	}
	return "cpu (" + r.Problem + ")"
}
