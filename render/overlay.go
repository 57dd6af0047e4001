package render

import (
	"fmt"
	"time"

	"trackink/composite"
	"trackink/knn"
	"trackink/scene"
)

// Overlay draws tracking frames onto video frames: it keeps the link graph across frames
// (for hysteresis), builds each frame's primitives in its style and renders them. It owns a
// Renderer; Close releases both.
type Overlay struct {
	Style    Style
	renderer *Renderer
	graph    *knn.Graph
	prims    Primitives
	empty    scene.Frame
	// links is the time the last Draw spent on the link graph, when timed.
	links     time.Duration
	lastLinks int
}

// OverlayOptions configure NewOverlay.
type OverlayOptions struct {
	Render Options
	Style  Style
	Links  knn.Options
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
	r, err := New(o.Render)
	if err != nil {
		g.Close()
		return nil, err
	}
	return &Overlay{Style: o.Style, renderer: r, graph: g}, nil
}

// Renderer returns the overlay's renderer (for its Timings and Font).
func (o *Overlay) Renderer() *Renderer { return o.renderer }

// Draw composites tracking frame sf (nil: nothing tracked) onto f. Frames must come in
// order for the links' hysteresis to work.
func (o *Overlay) Draw(f composite.Frame, sf *scene.Frame) error {
	if sf == nil {
		sf = &o.empty
	}
	t0 := o.renderer.clock()
	edges, err := o.graph.Update(sf.Points)
	if err != nil {
		return fmt.Errorf("links of frame %d: %w", sf.Index, err)
	}
	if o.renderer.timed {
		o.links = time.Since(t0)
	}
	o.lastLinks = len(edges)
	w, h := f.Size()
	o.prims.Build(sf, edges, &o.Style, o.renderer.Font(), w, h)
	return o.renderer.Draw(f, &o.prims)
}

// LinkTime returns the time the last Draw spent building the link graph (zero unless the
// renderer is timed).
func (o *Overlay) LinkTime() time.Duration { return o.links }

// Close stops the renderer and frees the link search.
func (o *Overlay) Close() error {
	o.renderer.Close()
	return o.graph.Close()
}

// Links returns the number of links the last Draw drew.
func (o *Overlay) Links() int { return o.lastLinks }
