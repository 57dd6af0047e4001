// Package gpu is the GPU backend's host code (an overlay.Backend), written once against
// device.Device: on the CUDA device it draws on a GPU, on the emulated device it runs the
// same kernels on the CPU, and the tests hold both to the CPU renderer (package render).
package gpu

import (
	"errors"
	"fmt"
	"time"

	"trackink/composite"
	"trackink/kernels/device"
	"trackink/overlay"
)

// Backend is the GPU backend (overlay.Backend) on any device.Device: the CUDA driver, or the
// emulated device. It owns the device buffers, packs each frame's primitives and parameter
// block, and replays one captured graph per frame.
//
// Per frame: the primitives, the laid-out labels, the parameter block and the frame's
// planes are copied into fixed device buffers; the graph (bin, boxes, lines, curves,
// labels, composite) is launched; the status and the planes are copied back. A surface
// already in device memory (composite.DeviceNV12, an NVDEC frame) is not copied at all: its
// plane addresses go into the parameter block and the composite writes it in place. Every kernel
// takes the same single argument, the parameter block's address, and reads all other
// addresses and all counts from the block, so that a buffer that grows is only a new
// address in the next frame's block. A graph is captured again only when a launch's grid
// changes: a new frame size (tiles) or a primitive capacity that grew. When a bin list
// outgrows its capacity the kernels draw nothing and flag it; Draw then grows that buffer
// and runs the frame again. A timed backend (trackink bench, --stats-json) launches the
// kernels one by one with events between the stages instead: CUDA cannot time an event
// recorded during capture.
//
// With StartLinks it also builds the links between the frame's points on the device
// (DrawLinked, links.go): the link kernels open the same graph, ahead of binning, and write
// the link primitives into the first slots of the line and curve buffers, the frame's own
// lines and curves following them.
type Backend struct {
	dev   device.Device
	font  *overlay.Font // the font atlas holds (nil before the first labels)
	atlas *atlas
	timed bool
	last  overlay.Timings

	params   device.Ptr
	host     *hostRecords
	atlasBuf buf
	bufs     buffers
	caps     caps
	graph    device.GraphExec
	graphKey caps
	hasGraph bool
	captures int
	regrows  int // frames run again after a bin list overflowed
	// On a timed frame marks[i] is recorded after the i-th run of kernels of one stage,
	// markStage[i], and marks[0] after the link kernels (before the first run): a stage's
	// time is the sum of its runs', each from the mark before it (a stage may run twice: the
	// composite before and after the labels). nMarks are this frame's.
	marks     []device.Event
	markStage []overlay.Stage
	nMarks    int

	links      *deviceLinks // nil unless StartLinks
	linksStart device.Event // recorded before the link kernels of a timed frame
	hasStart   bool         // linksStart was made

	labels []tkLabel
	glyphs []tkGlyph
	placed []overlay.PlacedGlyph

	fx   effectBufs // the box effects' (effects.go)
	cam  cameraBufs // the camera look's (camera.go)
	echo echoRing   // the echo trails' kept layers (echo.go)
}

// hostRecords are the host copies of the parameter block and the status. They live in an
// allocation of their own: memory handed to the driver must not share a Go object with Go
// pointers (cgo scans the whole object and refuses it), and Backend holds many.
type hostRecords struct {
	p      tkParams
	status [1 + kinds]int32
}

// buf is one device allocation.
type buf struct {
	ptr  device.Ptr
	size int
}

type buffers struct {
	boxes, lines, curves, labels, glyphs  buf
	chordStart, chordPartial, curveStroke buf
	binStart, binCursor, binPartial       [kinds]buf
	binItems, binFill                     [kinds]buf // the same size: capEntries
	layer, status                         buf
	planes                                [3]buf
}

// caps are the sizes the launch grids depend on; a change means a new capture.
type caps struct {
	tilesX, tilesY               int
	boxes, lines, curves, labels int
	linkPoints                   int // deviceLinks.capN; 0 without device links
}

// minCap is the smallest capacity of any list: small scenes grow past it rarely.
const minCap = 64

// chordsPerCurve and entriesPerTile size the grids of the binning kernels whose work is
// counted only on the device (record): the chords of a curve and a tile's list entries
// (per kind) in a usual frame, with room. A frame with more takes a few more strides.
const (
	chordsPerCurve = 32
	entriesPerTile = 8
)

// New returns a backend on dev that owns dev (Close closes it).
func New(dev device.Device, opts overlay.BackendOptions) (*Backend, error) {
	g := &Backend{dev: dev, timed: opts.Timed, host: new(hostRecords)}
	var err error
	if g.params, err = dev.Alloc(int(sizeofParams)); err != nil {
		return nil, err
	}
	// Every address in the parameter block must be device memory, the atlas's too before
	// the first labels bring a font (the fake driver checks, as a GPU may fault).
	if err := g.ensure(&g.atlasBuf, 1); err != nil {
		return nil, err
	}
	return g, nil
}

// NewEmu returns the backend on the emulated device: the kernels' sources running on the
// CPU on opts.Workers threads (the CLI's --backend emu).
func NewEmu(opts overlay.BackendOptions) (overlay.Backend, error) {
	return New(device.NewEmu(device.EmuOptions{Workers: opts.Workers}), opts)
}

// NewCUDA returns the backend on GPU 0 (the CLI's --backend cuda); without the cuda build
// tag it returns device.ErrNoCUDA.
func NewCUDA(opts overlay.BackendOptions) (overlay.Backend, error) {
	d, err := device.OpenCUDA(0)
	if err != nil {
		return nil, err
	}
	g, err := New(d, opts)
	if err != nil {
		d.Close()
		return nil, err
	}
	return g, nil
}

// Workers implements overlay.Backend: host threads on the emulated device, 1 on a GPU.
func (g *Backend) Workers() int { return g.dev.Workers() }

// Timings implements overlay.Backend: device time per stage of the last Draw, from events
// recorded between the stages (copies in and out are not counted).
func (g *Backend) Timings() overlay.Timings { return g.last }

// Close implements overlay.Backend: it releases the device.
func (g *Backend) Close() {
	if g.dev == nil {
		return
	}
	if g.hasGraph {
		g.dev.FreeGraph(g.graph)
	}
	for _, e := range g.marks {
		g.dev.FreeEvent(e)
	}
	if g.hasStart {
		g.dev.FreeEvent(g.linksStart)
	}
	g.dev.Close()
	g.dev = nil
}

// useFont makes the atlas font f's: a fresh one holding its glyphs when f is not the font
// the atlas holds.
func (g *Backend) useFont(f *overlay.Font) {
	if f != g.font {
		g.font, g.atlas = f, &atlas{}
		g.atlas.add(f)
	}
}

// syncAtlas copies the atlas to the device when labels have added glyphs to it since the
// last copy (a frame with characters no frame before had), into a buffer with room to grow.
func (g *Backend) syncAtlas() error {
	a := g.atlas
	if a.uploaded == len(a.bytes) {
		return nil
	}
	if err := g.ensure(&g.atlasBuf, grow(g.atlasBuf.size, len(a.bytes))); err != nil {
		return err
	}
	if err := g.dev.CopyIn(g.atlasBuf.ptr, a.bytes); err != nil {
		return err
	}
	a.uploaded = len(a.bytes)
	return nil
}

// ensure gives b at least n bytes (n ≥ 1), reallocating (contents lost) when it has fewer.
func (g *Backend) ensure(b *buf, n int) error { return b.ensure(g.dev, n) }

// ensure gives b at least n bytes of dev's memory (n ≥ 1), reallocating (contents lost)
// when it has fewer.
func (b *buf) ensure(dev device.Device, n int) error {
	n = max(n, 1)
	if b.size >= n {
		return nil
	}
	if b.size > 0 {
		dev.Free(b.ptr)
		*b = buf{}
	}
	p, err := dev.Alloc(n)
	if err != nil {
		return err
	}
	*b = buf{p, n}
	return nil
}

// grow returns the capacity for n items: cap itself while it suffices, else n plus half.
func grow(c, n int) int {
	if n <= c {
		return c
	}
	return max(minCap, n+n/2)
}

func chunks(n int) int { return (n + scanChunk - 1) / scanChunk }

// Draw implements overlay.Backend.
func (g *Backend) Draw(dst composite.Surface, p *overlay.Primitives) error {
	if g.links != nil {
		return errors.New("gpu: Draw on a backend that builds the links: use DrawLinked")
	}
	return g.draw(dst, p)
}

// draw draws p, and the links of the frame DrawLinked started, onto dst.
func (g *Backend) draw(dst composite.Surface, p *overlay.Primitives) error {
	if g.dev == nil {
		return errors.New("gpu: Draw after Close")
	}
	hf, err := describe(dst)
	if err != nil {
		return err
	}
	g.labels, g.glyphs = g.labels[:0], g.glyphs[:0]
	if len(p.Labels) > 0 {
		if p.Font == nil {
			return errors.New("gpu: labels without a font")
		}
		g.useFont(p.Font)
		g.labels, g.glyphs, g.placed = g.atlas.layout(p.Labels, g.font, g.labels, g.glyphs, g.placed)
		if err := g.syncAtlas(); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		if err := g.prepare(&hf, p); err != nil {
			return err
		}
		if err := g.upload(&hf, p); err != nil {
			return err
		}
		if hf.onDevice() {
			if err := g.dev.AfterLegacy(); err != nil {
				return err
			}
		}
		if err := g.launch(); err != nil {
			return err
		}
		if err := g.dev.CopyOut(structBytes(&g.host.status), g.bufs.status.ptr); err != nil {
			return err
		}
		if g.host.status[0]&statusOverflow == 0 {
			break
		}
		// A bin list outgrew its buffer; the kernels drew nothing. Grow and run again:
		// the totals are exact, so one more run suffices.
		g.regrows++
		if attempt > 0 {
			return fmt.Errorf("gpu: bin lists still overflow after growing (totals %v)", g.host.status[1:])
		}
		for k := range kinds {
			if need := int(g.host.status[1+k]); need > int(g.host.p.CapEntries[k]) {
				for _, b := range []*buf{&g.bufs.binItems[k], &g.bufs.binFill[k]} {
					if err := g.ensure(b, 4*grow(0, need)); err != nil {
						return err
					}
				}
			}
		}
	}
	g.echo.end(&p.Echo)
	// A device frame was composited in place; reading the status back waited for it.
	for i, pl := range hf.planes {
		if err := g.dev.CopyOut(pl, g.bufs.planes[i].ptr); err != nil {
			return err
		}
	}
	return g.readTimings()
}

// prepare sizes every buffer for this frame and captures the graph again when a grid
// changed.
func (g *Backend) prepare(hf *frameDesc, p *overlay.Primitives) error {
	c := g.caps
	lineSlots, curveSlots := g.linkSlots()
	c.tilesX, c.tilesY = (hf.w+tileSize-1)/tileSize, (hf.h+tileSize-1)/tileSize
	c.boxes, c.lines = grow(max(c.boxes, minCap), len(p.Boxes)), grow(max(c.lines, minCap), lineSlots+len(p.Lines))
	c.curves, c.labels = grow(max(c.curves, minCap), curveSlots+len(p.Curves)), grow(max(c.labels, minCap), len(g.labels))
	if g.links != nil {
		c.linkPoints = g.links.capN
	}
	g.caps = c
	tiles := c.tilesX * c.tilesY
	b := &g.bufs
	for _, e := range []struct {
		b *buf
		n int
	}{
		{&b.boxes, c.boxes * boxBytes}, {&b.lines, c.lines * lineBytes}, {&b.curves, c.curves * curveBytes},
		{&b.labels, c.labels * labelBytes}, {&b.glyphs, len(g.glyphs) * glyphBytes},
		{&b.chordStart, 4 * (c.curves + 1)}, {&b.curveStroke, 4 * c.curves}, {&b.chordPartial, 4 * chunks(c.curves+1)},
		{&b.status, 4 * (1 + kinds)},
		{&b.planes[0], len(hf.planes[0])}, {&b.planes[1], len(hf.planes[1])}, {&b.planes[2], len(hf.planes[2])},
	} {
		if err := g.ensure(e.b, e.n); err != nil {
			return err
		}
	}
	for k := range kinds {
		for _, e := range []struct {
			b *buf
			n int
		}{
			{&b.binStart[k], 4 * (tiles + 1)}, {&b.binCursor[k], 4 * tiles}, {&b.binPartial[k], 4 * chunks(tiles+1)},
			{&b.binItems[k], 4 * minCap * tiles / 16}, {&b.binFill[k], 4 * minCap * tiles / 16},
		} {
			if err := g.ensure(e.b, e.n); err != nil {
				return err
			}
		}
	}
	if err := g.echo.prepare(g.dev, &p.Echo, hf.w, hf.h, tiles*tileSize*tileSize); err != nil {
		return err
	}
	layer := tiles * tileSize * tileSize * 8
	if b.layer.size < layer {
		if err := g.ensure(&b.layer, layer); err != nil {
			return err
		}
		// The layer is zero between frames: composite clears what the stages drew.
		if err := g.dev.Zero(b.layer.ptr, b.layer.size); err != nil {
			return err
		}
	}
	if g.timed || g.hasGraph && g.graphKey == c {
		return nil
	}
	if g.hasGraph {
		g.dev.FreeGraph(g.graph)
		g.hasGraph = false
	}
	if err := g.capture(c); err != nil {
		return err
	}
	g.graphKey, g.hasGraph = c, true
	g.captures++
	return nil
}

// upload writes this frame's data and parameter block into the device buffers.
func (g *Backend) upload(hf *frameDesc, p *overlay.Primitives) error {
	b := &g.bufs
	c := g.caps
	tiles := c.tilesX * c.tilesY
	planes := hf.devicePlanes
	if !hf.onDevice() {
		planes = [3]device.Ptr{b.planes[0].ptr, b.planes[1].ptr, b.planes[2].ptr}
	}
	lineSlots, curveSlots := g.linkSlots()
	nLines, nCurves := lineSlots+len(p.Lines), curveSlots+len(p.Curves)
	q := tkParams{
		Width: int32(hf.w), Height: int32(hf.h), TilesX: int32(c.tilesX), TilesY: int32(c.tilesY),
		NBoxes: int32(len(p.Boxes)), NLines: int32(nLines), NCurves: int32(nCurves),
		NLabels: int32(len(g.labels)), NGlyphs: int32(len(g.glyphs)), Format: hf.format,
		Boxes: uint64(b.boxes.ptr), Lines: uint64(b.lines.ptr), Curves: uint64(b.curves.ptr),
		Labels: uint64(b.labels.ptr), Glyphs: uint64(b.glyphs.ptr), Atlas: uint64(g.atlasBuf.ptr),
		ChordStart: uint64(b.chordStart.ptr), CurveStroke: uint64(b.curveStroke.ptr), Layer: uint64(b.layer.ptr), Status: uint64(b.status.ptr),
		Plane0: uint64(planes[0]), Plane1: uint64(planes[1]), Plane2: uint64(planes[2]),
		Stride0: int32(hf.strides[0]), Stride1: int32(hf.strides[1]), Stride2: int32(hf.strides[2]),
		Space: hf.space.M, Blend: int32(p.Blend),
		GlowRadius: p.Glow.Radius, GlowInv: p.Glow.Inv, GlowOpacity: p.Glow.Opacity,
		Transparency: p.Transparency,
	}
	q.Scans[0] = tkScan{A: uint64(b.chordStart.ptr), Partial: uint64(b.chordPartial.ptr), N: int32(nCurves + 1)}
	for k := range kinds {
		q.CapEntries[k] = int32(min(b.binItems[k].size, b.binFill[k].size) / 4)
		q.BinStart[k], q.BinCursor[k] = uint64(b.binStart[k].ptr), uint64(b.binCursor[k].ptr)
		q.BinItems[k], q.BinFill[k] = uint64(b.binItems[k].ptr), uint64(b.binFill[k].ptr)
		q.Scans[1+k] = tkScan{A: uint64(b.binStart[k].ptr), Partial: uint64(b.binPartial[k].ptr), N: int32(tiles + 1)}
	}
	if g.links != nil {
		q.Links = uint64(g.links.block)
		if err := g.links.upload(); err != nil {
			return err
		}
	}
	var err error
	if q.Effects, err = g.uploadEffects(hf, p.Effects, planes); err != nil {
		return err
	}
	if q.Camera, err = g.uploadCamera(hf, &p.Camera, planes); err != nil {
		return err
	}
	g.echo.params(&q, &p.Echo)
	g.host.p = q
	// The frame's own lines and curves follow the link slots.
	lines, curves := b.lines.ptr+device.Ptr(lineSlots*lineBytes), b.curves.ptr+device.Ptr(curveSlots*curveBytes)
	for _, e := range []struct {
		dst device.Ptr
		src []byte
	}{
		{b.boxes.ptr, boxesBytes(p.Boxes)}, {lines, linesBytes(p.Lines)}, {curves, curvesBytes(p.Curves)},
		{b.labels.ptr, bytesOf(g.labels)}, {b.glyphs.ptr, bytesOf(g.glyphs)},
		{b.planes[0].ptr, hf.planes[0]}, {b.planes[1].ptr, hf.planes[1]}, {b.planes[2].ptr, hf.planes[2]},
		{g.params, structBytes(&g.host.p)},
	} {
		if err := g.dev.CopyIn(e.dst, e.src); err != nil {
			return err
		}
	}
	return nil
}

// launch runs the frame's kernels: the captured graph, or, on a timed backend, the kernels
// one by one with an event after each stage. Events cannot go into the graph: CUDA refuses
// to time or wait for an event recorded during capture (CUDA_ERROR_CAPTURED_EVENT), so the
// stage times are device times of the same kernels launched without it.
func (g *Backend) launch() error {
	if !g.timed {
		return g.dev.LaunchGraph(g.graph)
	}
	if !g.hasStart {
		var err error
		if g.linksStart, err = g.dev.NewEvent(); err != nil {
			return err
		}
		g.hasStart = true
	}
	return g.record(g.caps)
}

// capture records the frame's launches into a graph. The grids cover the capacities, not
// this frame's counts (threads past a count return at once), or stride over counts only the
// device knows (the binning's chords and list entries).
func (g *Backend) capture(c caps) error {
	graph, err := captureGraph(g.dev, func() error { return g.record(c) })
	if err != nil {
		return err
	}
	g.graph = graph
	return nil
}

// captureGraph records the launches record makes on dev into a graph.
func captureGraph(dev device.Device, record func() error) (device.GraphExec, error) {
	if err := dev.BeginCapture(); err != nil {
		return 0, err
	}
	err := record()
	graph, endErr := dev.EndCapture()
	if err != nil {
		if endErr == nil {
			dev.FreeGraph(graph)
		}
		return 0, err
	}
	return graph, endErr
}

// Launch configurations, in the order of the stages.
func (g *Backend) record(c caps) error {
	tiles := c.tilesX * c.tilesY
	per := func(n int) uint32 { return uint32(max(1, (n+binThreads-1)/binThreads)) }
	// The binning kernels stride over their work (bin.cu), so their grids need only be wide
	// enough to give every thread about one item in a usual frame: binLanes threads per box,
	// line and label, chordLanes per chord, and for the sort one per list entry. The chord
	// and entry totals are known only on the device: the grids guess them per curve and
	// per tile.
	binWork := max(binLanes*max(c.boxes, c.lines, c.labels), chordLanes*chordsPerCurve*c.curves)
	sortWork := entriesPerTile * tiles
	lin := device.Dim3{X: binThreads, Y: 1, Z: 1}
	one := device.Dim3{X: 1, Y: 1, Z: 1}
	tileGrid := device.Dim3{X: uint32(c.tilesX), Y: uint32(c.tilesY), Z: 1}
	tileBlock := device.Dim3{X: blockX, Y: blockY, Z: 1}
	steps := []struct {
		stage       overlay.Stage
		kernel      string
		grid, block device.Dim3
	}{
		{overlay.StageBin, "tk_begin", device.Dim3{X: per(tiles + 1), Y: kinds, Z: 1}, lin},
		{overlay.StageBin, "tk_curve_chords", device.Dim3{X: per(c.curves), Y: 1, Z: 1}, lin},
		{overlay.StageBin, "tk_scan_sums_chords", device.Dim3{X: per(chunks(c.curves + 1)), Y: 1, Z: 1}, lin},
		{overlay.StageBin, "tk_scan_mid_chords", one, one},
		{overlay.StageBin, "tk_scan_apply_chords", device.Dim3{X: per(chunks(c.curves + 1)), Y: 1, Z: 1}, lin},
		{overlay.StageBin, "tk_bin_count", device.Dim3{X: per(binWork), Y: kinds, Z: 1}, lin},
		{overlay.StageBin, "tk_scan_sums_bins", device.Dim3{X: per(chunks(tiles + 1)), Y: kinds, Z: 1}, lin},
		{overlay.StageBin, "tk_scan_mid_bins", device.Dim3{X: 1, Y: kinds, Z: 1}, one},
		{overlay.StageBin, "tk_scan_apply_bins", device.Dim3{X: per(chunks(tiles + 1)), Y: kinds, Z: 1}, lin},
		{overlay.StageBin, "tk_bin_cursor", device.Dim3{X: per(tiles + 1), Y: kinds, Z: 1}, lin},
		{overlay.StageBin, "tk_bin_fill", device.Dim3{X: per(binWork), Y: kinds, Z: 1}, lin},
		{overlay.StageBin, "tk_bin_sort", device.Dim3{X: per(sortWork), Y: kinds, Z: 1}, lin},
		{overlay.StageEffects, "tk_effects_copy", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
		{overlay.StageEffects, "tk_effects_gauss_weights", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
		{overlay.StageEffects, "tk_effects_gauss", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
		{overlay.StageEffects, "tk_effects_sort", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
		{overlay.StageEffects, "tk_effects", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
		{overlay.StageBoxes, "tk_boxes", tileGrid, tileBlock},
		{overlay.StageLines, "tk_lines", tileGrid, tileBlock},
		{overlay.StageCurves, "tk_curves", tileGrid, tileBlock},
		{overlay.StageEcho, "tk_echo", tileGrid, tileBlock},
		{overlay.StageComposite, "tk_composite_blended", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
		{overlay.StageLabels, "tk_labels", tileGrid, tileBlock},
		{overlay.StageComposite, "tk_composite", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
		{overlay.StageCamera, "tk_camera_copy", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
		{overlay.StageCamera, "tk_camera", tileGrid, device.Dim3{X: compX, Y: compY, Z: 1}},
	}
	if g.links != nil {
		if g.timed {
			if err := g.dev.Record(g.linksStart); err != nil {
				return err
			}
		}
		if err := g.links.record(func(kernel string, grid, block device.Dim3) error {
			return g.dev.Launch(kernel, grid, block, g.params)
		}); err != nil {
			return err
		}
	}
	g.nMarks = 0
	if err := g.mark(overlay.StageLinks); err != nil {
		return err
	}
	for i, s := range steps {
		if err := g.dev.Launch(s.kernel, s.grid, s.block, g.params); err != nil {
			return fmt.Errorf("%s: %w", s.kernel, err)
		}
		if i+1 == len(steps) || steps[i+1].stage != s.stage {
			if err := g.mark(s.stage); err != nil {
				return err
			}
		}
	}
	return nil
}

// mark records the next mark of a timed frame, after a run of stage s's kernels (making its
// event the first time); on a frame that is not timed it does nothing.
func (g *Backend) mark(s overlay.Stage) error {
	if !g.timed {
		return nil
	}
	if g.nMarks == len(g.marks) {
		e, err := g.dev.NewEvent()
		if err != nil {
			return err
		}
		g.marks, g.markStage = append(g.marks, e), append(g.markStage, s)
	}
	g.markStage[g.nMarks] = s
	g.nMarks++
	return g.dev.Record(g.marks[g.nMarks-1])
}

func (g *Backend) readTimings() error {
	g.last = overlay.Timings{}
	if !g.timed {
		return nil
	}
	if g.links != nil {
		d, err := g.dev.Elapsed(g.linksStart, g.marks[0])
		if err != nil {
			return err
		}
		g.last[overlay.StageLinks] = max(d, time.Duration(0))
	}
	for i := 1; i < g.nMarks; i++ {
		d, err := g.dev.Elapsed(g.marks[i-1], g.marks[i])
		if err != nil {
			return err
		}
		g.last[g.markStage[i]] += max(d, time.Duration(0))
	}
	return nil
}
