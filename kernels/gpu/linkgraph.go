package gpu

import (
	"errors"

	"trackink/kernels/device"
	"trackink/knn"
	"trackink/scene"
)

// LinkGraph is the device's link update on its own, without drawing: the kernels of
// DrawLinked's links, captured into a graph of their own. `trackink bench --knn --backend
// cuda|emu` times it beside knn's host backends (it is a knn.Linker), and the tests hold it
// to knn.Graph frame by frame. Update runs one frame and waits for it; Edges reads its
// links back, which drawing never needs.
type LinkGraph struct {
	dev      device.Device
	links    *deviceLinks
	params   device.Ptr
	host     *tkParams // the parameter block's host copy: only its links field is set
	graph    device.GraphExec
	graphKey int // the links' capN the graph was captured for
	hasGraph bool
	out      []knn.Edge
}

// NewLinkGraph returns the link update with opts on dev, which it owns (Close closes it).
func NewLinkGraph(dev device.Device, opts knn.Options) (*LinkGraph, error) {
	l, err := newDeviceLinks(dev, opts)
	if err != nil {
		dev.Close()
		return nil, err
	}
	g := &LinkGraph{dev: dev, links: l, host: new(tkParams)}
	if g.params, err = dev.Alloc(int(sizeofParams)); err != nil {
		dev.Close()
		return nil, err
	}
	return g, nil
}

// Update implements knn.Linker: it computes the links of one frame (track ids unique, any
// order) on the device and waits for them.
func (g *LinkGraph) Update(pts []scene.Point) error {
	if g.dev == nil {
		return errors.New("gpu: Update after Close")
	}
	if err := g.links.frame(pts, nil, nil); err != nil {
		return err
	}
	if !g.hasGraph || g.graphKey != g.links.capN {
		if err := g.capture(); err != nil {
			return err
		}
	}
	if err := g.links.upload(); err != nil {
		return err
	}
	g.host.Links = uint64(g.links.block)
	if err := g.dev.CopyIn(g.params, structBytes(g.host)); err != nil {
		return err
	}
	if err := g.dev.LaunchGraph(g.graph); err != nil {
		return err
	}
	if err := g.dev.Sync(); err != nil {
		return err
	}
	g.links.commit()
	return nil
}

// capture records the link kernels for the links' present capacity.
func (g *LinkGraph) capture() error {
	if g.hasGraph {
		g.dev.FreeGraph(g.graph)
		g.hasGraph = false
	}
	graph, err := captureGraph(g.dev, func() error {
		return g.links.record(func(kernel string, grid, block device.Dim3) error {
			return g.dev.Launch(kernel, grid, block, g.params)
		})
	})
	if err != nil {
		return err
	}
	g.graph, g.graphKey, g.hasGraph = graph, g.links.capN, true
	return nil
}

// Edges implements knn.Linker: the last frame's links as knn.Graph.Update returns them
// (indices into that frame's points, sorted by track ids), valid until the next call.
func (g *LinkGraph) Edges() ([]knn.Edge, error) {
	if g.dev == nil {
		return nil, errors.New("gpu: Edges after Close")
	}
	var err error
	g.out, err = g.links.edges(g.out)
	return g.out, err
}

// Close releases the device.
func (g *LinkGraph) Close() error {
	if g.dev != nil {
		g.dev.Close()
		g.dev = nil
	}
	return nil
}
