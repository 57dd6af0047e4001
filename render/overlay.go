package render

import (
	"fmt"
	"time"

	"trackink/composite"
	"trackink/knn"
	"trackink/scene"
)

// Backend draws a frame's primitives and composites them onto the frame. Renderer is the CPU
// backend; package kernels provides the CUDA backend and its CPU emulation.
type Backend interface {
	// Draw renders p and composites it onto f.
	Draw(f composite.Frame, p *Primitives) error
	// Timings returns the per-stage times of the last Draw (zero unless timed).
	Timings() Timings
	// Font returns the label font, which places labels.
	Font() *Font
	// Workers returns how many tiles are drawn at once (for reports).
	Workers() int
	// Close releases the backend's resources.
	Close()
}

// Overlay draws tracking frames onto video frames: it keeps the link graph across frames
// (for hysteresis), builds each frame's primitives in its style and renders them. It owns a
// Renderer; Close releases both.
type Overlay struct {
	Style   Style
	backend Backend
	graph   *knn.Graph
	trails  *Trails // nil when the style draws none
	prims   Primitives
	empty   scene.Frame
	// links is the time the last Draw spent on the link graph.
	links     time.Duration
	lastLinks int
}

// OverlayOptions configure NewOverlay.
type OverlayOptions struct {
	Render Options
	Style  Style
	Links  knn.Options
	// NewBackend starts the backend; nil means the CPU Renderer.
	NewBackend func(Options) (Backend, error)
}

// NewOverlay validates the options and starts a renderer.
func NewOverlay(o OverlayOptions) (*Overlay, error) {
	if err := o.Style.Validate(); err != nil {
		return nil, err
	}
	g, err := knn.New(o.Links)
	if err != nil {
		return nil, err
	}
	newBackend := o.NewBackend
	if newBackend == nil {
		newBackend = func(opts Options) (Backend, error) { return New(opts) }
	}
	r, err := newBackend(o.Render)
	if err != nil {
		g.Close()
		return nil, err
	}
	ov := &Overlay{Style: o.Style, backend: r, graph: g}
	if o.Style.Trail > 0 {
		ov.trails = NewTrails(o.Style.Trail)
	}
	return ov, nil
}

// Backend returns the overlay's backend (for its Timings and Font).
func (o *Overlay) Backend() Backend { return o.backend }

// Draw composites tracking frame sf (nil: nothing tracked) onto f. Frames must come in
// order for the links' hysteresis to work.
func (o *Overlay) Draw(f composite.Frame, sf *scene.Frame) error {
	if sf == nil {
		sf = &o.empty
	}
	t0 := time.Now()
	edges, err := o.graph.Update(sf.Points)
	if err != nil {
		return fmt.Errorf("links of frame %d: %w", sf.Index, err)
	}
	o.links = time.Since(t0)
	o.lastLinks = len(edges)
	w, h := f.Size()
	o.prims.Build(sf, edges, &o.Style, o.backend.Font(), w, h)
	if o.trails != nil && sf != &o.empty {
		o.trails.Update(sf)
		o.trails.AddTo(&o.prims, sf, &o.Style)
	}
	return o.backend.Draw(f, &o.prims)
}

// LinkTime returns the time the last Draw spent building the link graph.
func (o *Overlay) LinkTime() time.Duration { return o.links }

// Close stops the renderer and frees the link search.
func (o *Overlay) Close() error {
	o.backend.Close()
	return o.graph.Close()
}

// Links returns the number of links the last Draw drew.
func (o *Overlay) Links() int { return o.lastLinks }
