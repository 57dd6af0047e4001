package overlay

import (
	"fmt"
	"time"

	"trackink/composite"
	"trackink/internal/field"
	"trackink/knn"
	"trackink/scene"
)

// Backend rasterises a frame's primitives and composites them onto a surface: package
// render is the CPU backend, package kernels/gpu the CUDA kernels' (on a GPU or on the
// emulated device).
type Backend interface {
	// Draw renders p and composites it onto dst.
	Draw(dst composite.Surface, p *Primitives) error
	// Timings returns the per-stage times of the last Draw (zero unless timed). A backend
	// fills the stages it runs: StageBin to StageComposite, and StageLinks when it builds
	// the links (LinkBackend).
	Timings() Timings
	// Workers returns how many tiles are drawn at once (for reports).
	Workers() int
	// Close releases the backend's resources.
	Close()
}

// MaxWorkers is the most BackendOptions.Workers may ask for. Each worker holds its own
// scratch (about 100 KB before it draws, a goroutine or a host thread, and more once it
// draws a tile), and more workers than cores only add that memory and contention: a large
// server has a few hundred cores, and a 1080p frame has 510 tiles to share out. 1024 is
// past both, costs about 100 MB, and a typo (--workers 100000) no longer exhausts memory.
const MaxWorkers = 1024

// BackendOptions configure a Backend.
type BackendOptions struct {
	// Workers is the number of tiles drawn at once (CPU threads; the emulated device's
	// host threads), at most MaxWorkers; 0 means one per CPU.
	Workers int
	// Timed makes Draw record per-stage Timings.
	Timed bool
}

// NewBackend starts a backend.
type NewBackend func(BackendOptions) (Backend, error)

// Options configure a Drawer.
type Options struct {
	Style   Style
	Links   knn.Options
	Backend BackendOptions
	// NewBackend starts the backend (render.NewBackend for the CPU).
	NewBackend NewBackend
}

// Validate reports the first invalid option as a *field.Error.
func (o *Options) Validate() error {
	if err := o.Style.Validate(); err != nil {
		return err
	}
	if err := o.Links.Validate(); err != nil {
		return err
	}
	return o.Backend.Validate()
}

// Validate reports an invalid option as a *field.Error.
func (o BackendOptions) Validate() error {
	if o.Workers < 0 {
		return field.Errorf("overlay.BackendOptions.Workers", o.Workers, "must not be negative")
	}
	if o.Workers > MaxWorkers {
		return field.Errorf("overlay.BackendOptions.Workers", o.Workers, "must be at most %d (0 is one per CPU)", MaxWorkers)
	}
	return nil
}

// Drawer draws the tracking frames of one video onto its frames, in order: it keeps the
// link graph (for hysteresis) from frame to frame, has a Builder make each frame's
// primitives in its style (resolved for the frame's height at the first frame) and the
// backend draw them. A backend that builds the links itself (LinkBackend) gets the frame's
// points instead of link primitives, and keeps the link graph. Close releases the backend
// and the link search.
type Drawer struct {
	style    Style     // as given; resolved for each frame size by the builder
	typeface *Typeface // Style.Font's; nil for Go Medium
	backend  Backend
	graph    *knn.Graph  // the links on the host; nil when linker builds them
	linker   LinkBackend // the backend, when it builds the links
	builder  *Builder    // for frames of width w and height h; nil before the first frame
	life     *lifetime   // Style.MinLife and Fade; nil when neither is set
	links    knn.Options // the link search's, MaxDist set from Style.LinkReach at the first frame
	w, h     int

	prims     Primitives
	linkFrame LinkFrame
	scratch   composite.Surface // what Advance hands a LinkBackend to draw on
	empty     scene.Frame
	timings   Timings
	lastLinks int
	// index is the last frame's number: a frame with nothing tracked (nil) is the one
	// after it, for what counts frames with or without tracks (the camera look's grain and
	// clock).
	index int
	// echo is the frames' echo trails (Style.Echo), replay the frames advanced through
	// whose layers the backend has yet to keep; nil when off.
	echo   EchoPass
	replay *echoReplay
	// judgement is the next frame's (Judge).
	judgement *Judgement
}

// New validates the options and starts the backend and the link search: the backend's own
// when it is a LinkBackend and the graph is one it builds (knn.Options.OnDevice), else a
// knn.Graph, whose links the backend draws as lines and curves like any other.
func New(o Options) (*Drawer, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.NewBackend == nil {
		return nil, fmt.Errorf("overlay: no backend")
	}
	var tf *Typeface
	if o.Style.Font != "" {
		var err error
		if tf, err = LoadTypeface(o.Style.Font); err != nil {
			return nil, err
		}
	}
	b, err := o.NewBackend(o.Backend)
	if err != nil {
		return nil, err
	}
	d := &Drawer{style: o.Style, typeface: tf, backend: b, links: o.Links, life: newLifetime(o.Style)}
	if s := &o.Style; s.Echo > 0 {
		d.echo = EchoPass{Frames: s.Echo, Decay: s.EchoDecay, Offset: s.EchoOffset, Scale: s.EchoScale}
		d.replay = newEchoReplay(s.Echo)
	}
	if d.links.Graph == "" {
		d.links.Graph = o.Style.LinkGraph // the look's graph, when the options name none
	}
	if o.Links.MaxDist == 0 && o.Style.LinkReach > 0 {
		// The links' reach is a fraction of the frame's width: the search starts with the
		// first frame (resize), when the width is known.
		return d, nil
	}
	if err := d.startLinks(); err != nil {
		b.Close()
		return nil, err
	}
	return d, nil
}

// startLinks starts the link search with d.links: the backend's own when it is a
// LinkBackend and the graph one the device builds (k nearest), else a knn.Graph.
func (d *Drawer) startLinks() error {
	// Electric, sparkle, shaped and gradient links are built on the host (addElectric,
	// addSparkle, addShaped, gradient), so a LinkBackend draws them as primitives like any other; so are links with echoes, whose
	// primitives the Drawer keeps for a segment's replay (echo.go), pulsing, flowing or bending away (linkvariety.go),
	// haloed (halo.go), and jittered (jitter.go: drawn between moved points).
	s := &d.style
	if lb, ok := d.backend.(LinkBackend); ok && d.links.OnDevice() && s.LinkStyle != "electric" && s.LinkStyle != "sparkle" && !s.shaped() && !s.LinkGradient && s.Echo == 0 &&
		s.LinkPulse == 0 && !s.BendAway && s.LinkFlow == 0 && !s.haloed() && s.Jitter == 0 {
		d.linker = lb
		return lb.StartLinks(d.links)
	}
	var err error
	d.graph, err = knn.New(d.links)
	return err
}

// Backend returns the drawer's backend (for reports).
func (d *Drawer) Backend() Backend { return d.backend }

// Draw composites tracking frame tf (nil: nothing tracked) onto dst. Frames must come in
// order for the links' hysteresis, the trails and the labels' places and ages to work.
func (d *Drawer) Draw(dst composite.Surface, tf *scene.Frame) error {
	w, h := dst.Size()
	links, err := d.step(w, h, tf)
	if err != nil {
		return err
	}
	if d.linker != nil {
		if err := d.linker.DrawLinked(dst, &d.prims, &d.linkFrame); err != nil {
			return err
		}
		d.timings = d.backend.Timings()
		return nil
	}
	if d.replay != nil && d.replay.held > 0 {
		if err := d.replay.replay(d.backend, dst, &d.prims); err != nil {
			return err
		}
	}
	if err := d.backend.Draw(dst, &d.prims); err != nil {
		return err
	}
	d.timings = d.backend.Timings()
	d.timings[StageLinks] = links
	return nil
}

// Advance takes tracking frame tf through the drawer as Draw does on a w × h frame, without
// drawing it: the link graph's hysteresis, the trails and the labels' places and ages move
// on exactly as if the frame had been drawn. A segment of a video (trackink render
// --segment) advances through the render's frames before its first, and then draws what the
// whole render draws. It builds the frame's primitives, a few microseconds at tracking
// sizes, so that no state Build keeps can be missed. A backend that keeps the links on the
// device (LinkBackend) gets the frame's points with no primitives on a small frame of its
// own, so that its link state moves on too. With echo trails it holds the last frames'
// primitives, which the next Draw has the backend keep as their layers (echo.go).
func (d *Drawer) Advance(w, h int, tf *scene.Frame) error {
	if _, err := d.step(w, h, tf); err != nil {
		return err
	}
	if d.replay != nil {
		d.replay.hold(&d.prims)
	}
	if d.linker == nil {
		return nil
	}
	if d.scratch == nil {
		const side = 16
		d.scratch = &composite.YUV420P{Y: make([]byte, side*side), U: make([]byte, side*side/4), V: make([]byte, side*side/4),
			StrideY: side, StrideU: side / 2, StrideV: side / 2, W: side, H: side}
	}
	d.prims.Reset()
	return d.linker.DrawLinked(d.scratch, &d.prims, &d.linkFrame)
}

// step moves the drawer's state on by frame tf on a w × h frame and builds its primitives
// (into prims, and the link frame for a LinkBackend); it returns the time the host's link
// graph took.
func (d *Drawer) step(w, h int, tf *scene.Frame) (time.Duration, error) {
	if d.builder == nil || w != d.w || h != d.h {
		if err := d.resize(w, h); err != nil {
			return 0, err
		}
	}
	d.index++
	if tf != nil {
		d.index = tf.Index
	}
	d.builder.frame = d.index
	d.builder.judgement, d.judgement = d.judgement, nil
	if tf == nil {
		tf = &d.empty
	}
	if d.life != nil {
		tf = d.life.apply(tf)
		d.builder.fades = d.life.fades // read by the Build below, before the next apply
	}
	if d.linker != nil {
		d.builder.Build(&d.prims, tf, nil)
		d.builder.LinkFrame(tf, &d.linkFrame)
		return 0, nil // no echoes: startLinks keeps links on the host with them (echo.go)
	}
	t0 := time.Now()
	edges, err := d.graph.Update(tf.Points)
	if err != nil {
		return 0, fmt.Errorf("links of frame %d: %w", tf.Index, err)
	}
	links := time.Since(t0)
	d.lastLinks = len(edges)
	d.builder.Build(&d.prims, tf, edges)
	d.prims.Echo = d.echo
	return links, nil
}

// resize makes the builder (the style resolved for the height, its label font) for w × h
// frames. The video pipeline keeps one size, so this runs once.
func (d *Drawer) resize(w, h int) error {
	st := d.style.ForHeight(h)
	started := d.graph != nil || d.linker != nil
	if !started {
		d.links.MaxDist = float64(d.style.LinkReach) * float64(w)
	}
	if st.LinkFade == Auto && d.links.MaxDist > 0 {
		st.LinkFade = float32(d.links.MaxDist) // the links' reach: the reach's or --max-dist
	}
	f, err := NewFontOf(d.typeface, st.LabelSize)
	if err != nil {
		return err
	}
	b, err := NewBuilder(st, f, w, h)
	if err != nil {
		return err
	}
	d.builder, d.w, d.h = b, w, h
	if !started {
		return d.startLinks()
	}
	return nil
}

// Font returns the labels' font (its Missing characters are worth a warning); nil before
// the first frame.
func (d *Drawer) Font() *Font {
	if d.builder == nil {
		return nil
	}
	return d.builder.font
}

// Timings returns the per-stage times of the last Draw: the backend's stages when it is
// timed, and the links always when the host builds them (a LinkBackend times them with its
// stages).
func (d *Drawer) Timings() Timings { return d.timings }

// Links returns the number of links the last Draw drew.
func (d *Drawer) Links() (int, error) {
	if d.linker != nil {
		return d.linker.Links()
	}
	return d.lastLinks, nil
}

// LinksCapped returns what the caps on links per point and per frame have dropped so far
// (knn.Graph.Capped); zero when the backend builds the links (the device's kNN links are
// bounded by n·k, and not counted).
func (d *Drawer) LinksCapped() knn.Capped {
	if d.graph == nil {
		return knn.Capped{}
	}
	return d.graph.Capped()
}

// Close stops the backend and frees the link search.
func (d *Drawer) Close() error {
	d.backend.Close()
	if d.graph == nil {
		return nil
	}
	return d.graph.Close()
}
