package kernels

import (
	"errors"
	"fmt"
	"time"

	"trackink/composite"
	"trackink/render"
)

// GPU is the device backend (render.Backend) on any Device: the CUDA driver, or the
// emulated device. It is the host side of the kernels: it owns the device buffers, packs
// each frame's primitives and parameter block, and replays one captured graph per frame.
//
// Per frame: the primitives, the laid-out labels, the parameter block and the frame's
// planes are copied into fixed device buffers; the graph (bin, boxes, lines, curves,
// labels, composite) is launched; the status and the planes are copied back. A frame
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
type GPU struct {
	dev     Device
	workers int
	font    *render.Font
	atlas   *atlas
	timed   bool
	last    render.Timings

	params    Ptr
	host      *hostRecords
	atlasBuf  buf
	bufs      buffers
	caps      caps
	graph     Graph
	graphKey  caps
	hasGraph  bool
	captures  int
	regrows   int // frames run again after a bin list overflowed
	events    [7]Event
	hasEvents bool

	labels []tkLabel
	glyphs []tkGlyph
}

// hostRecords are the host copies of the parameter block and the status. They live in an
// allocation of their own: memory handed to the driver must not share a Go object with Go
// pointers (cgo scans the whole object and refuses it), and GPU holds many.
type hostRecords struct {
	p      tkParams
	status [1 + kinds]int32
}

// buf is one device allocation.
type buf struct {
	ptr  Ptr
	size int
}

type buffers struct {
	boxes, lines, curves, labels, glyphs  buf
	chordStart, chordPartial, curveStroke buf
	binStart, binCursor, binPartial       [kinds]buf
	binItems                              [kinds]buf
	layer, status                         buf
	planes                                [3]buf
}

// caps are the sizes the launch grids depend on; a change means a new capture.
type caps struct {
	tilesX, tilesY               int
	boxes, lines, curves, labels int
}

// minCap is the smallest capacity of any list: small scenes grow past it rarely.
const minCap = 64

// New returns a backend on dev that owns dev (Close closes it), with the label font
// render.NewFont(opts.LabelSize) packed into a glyph atlas on the device.
func New(dev Device, opts render.Options) (*GPU, error) {
	f, err := render.NewFont(opts.LabelSize)
	if err != nil {
		return nil, err
	}
	g := &GPU{dev: dev, font: f, timed: opts.Timed, workers: opts.Workers, host: new(hostRecords)}
	if e, ok := dev.(*EmuDevice); ok {
		g.workers = e.Workers()
	}
	if g.workers <= 0 {
		g.workers = 1
	}
	if g.params, err = dev.Alloc(int(sizeofParams)); err != nil {
		return nil, err
	}
	g.atlas = newAtlas(f)
	if err := g.ensure(&g.atlasBuf, len(g.atlas.bytes)); err != nil {
		return nil, err
	}
	if err := dev.CopyIn(g.atlasBuf.ptr, g.atlas.bytes); err != nil {
		return nil, err
	}
	return g, nil
}

// NewEmu returns the backend on the emulated device: the kernels' sources running on the
// CPU (the CLI's --backend emu).
func NewEmu(opts render.Options) (render.Backend, error) {
	return New(NewEmuDevice(EmuOptions{Workers: opts.Workers}), opts)
}

// Font implements render.Backend.
func (g *GPU) Font() *render.Font { return g.font }

// Workers implements render.Backend: host threads on the emulated device, 1 on a GPU.
func (g *GPU) Workers() int { return g.workers }

// Timings implements render.Backend: device time per stage of the last Draw, from events
// recorded between the stages (copies in and out are not counted).
func (g *GPU) Timings() render.Timings { return g.last }

// Captures returns how many times the frame's graph has been captured.
func (g *GPU) Captures() int { return g.captures }

// Close implements render.Backend: it releases the device.
func (g *GPU) Close() {
	if g.dev == nil {
		return
	}
	if g.hasGraph {
		g.dev.FreeGraph(g.graph)
	}
	if g.hasEvents {
		for _, e := range g.events {
			g.dev.FreeEvent(e)
		}
	}
	g.dev.Close()
	g.dev = nil
}

// ensure gives b at least n bytes (n ≥ 1), reallocating (contents lost) when it has fewer.
func (g *GPU) ensure(b *buf, n int) error {
	n = max(n, 1)
	if b.size >= n {
		return nil
	}
	if b.size > 0 {
		g.dev.Free(b.ptr)
		*b = buf{}
	}
	p, err := g.dev.Alloc(n)
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

// Draw implements render.Backend.
func (g *GPU) Draw(f composite.Frame, p *render.Primitives) error {
	if g.dev == nil {
		return errors.New("kernels: Draw after Close")
	}
	hf, err := describe(f)
	if err != nil {
		return err
	}
	g.labels, g.glyphs = g.labels[:0], g.glyphs[:0]
	if len(p.Labels) > 0 {
		g.labels, g.glyphs = g.atlas.layout(p.Labels, g.font, g.labels, g.glyphs)
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
			return fmt.Errorf("kernels: bin lists still overflow after growing (totals %v)", g.host.status[1:])
		}
		for k := range kinds {
			if need := int(g.host.status[1+k]); need > int(g.host.p.CapEntries[k]) {
				if err := g.ensure(&g.bufs.binItems[k], 4*grow(0, need)); err != nil {
					return err
				}
			}
		}
	}
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
func (g *GPU) prepare(hf *frameDesc, p *render.Primitives) error {
	c := g.caps
	c.tilesX, c.tilesY = (hf.w+tileSize-1)/tileSize, (hf.h+tileSize-1)/tileSize
	c.boxes, c.lines = grow(max(c.boxes, minCap), len(p.Boxes)), grow(max(c.lines, minCap), len(p.Lines))
	c.curves, c.labels = grow(max(c.curves, minCap), len(p.Curves)), grow(max(c.labels, minCap), len(g.labels))
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
			{&b.binItems[k], 4 * minCap * tiles / 16},
		} {
			if err := g.ensure(e.b, e.n); err != nil {
				return err
			}
		}
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
func (g *GPU) upload(hf *frameDesc, p *render.Primitives) error {
	b := &g.bufs
	c := g.caps
	tiles := c.tilesX * c.tilesY
	planes := hf.device
	if !hf.onDevice() {
		planes = [3]Ptr{b.planes[0].ptr, b.planes[1].ptr, b.planes[2].ptr}
	}
	q := tkParams{
		Width: int32(hf.w), Height: int32(hf.h), TilesX: int32(c.tilesX), TilesY: int32(c.tilesY),
		NBoxes: int32(len(p.Boxes)), NLines: int32(len(p.Lines)), NCurves: int32(len(p.Curves)),
		NLabels: int32(len(g.labels)), NGlyphs: int32(len(g.glyphs)), Format: hf.format,
		Boxes: uint64(b.boxes.ptr), Lines: uint64(b.lines.ptr), Curves: uint64(b.curves.ptr),
		Labels: uint64(b.labels.ptr), Glyphs: uint64(b.glyphs.ptr), Atlas: uint64(g.atlasBuf.ptr),
		ChordStart: uint64(b.chordStart.ptr), CurveStroke: uint64(b.curveStroke.ptr), Layer: uint64(b.layer.ptr), Status: uint64(b.status.ptr),
		Plane0: uint64(planes[0]), Plane1: uint64(planes[1]), Plane2: uint64(planes[2]),
		Stride0: int32(hf.strides[0]), Stride1: int32(hf.strides[1]), Stride2: int32(hf.strides[2]),
		YOff: hf.coeffs.yOff, YR: hf.coeffs.yR, YG: hf.coeffs.yG, YB: hf.coeffs.yB,
		CbR: hf.coeffs.cbR, CbG: hf.coeffs.cbG, CbB: hf.coeffs.cbB,
		CrR: hf.coeffs.crR, CrG: hf.coeffs.crG, CrB: hf.coeffs.crB,
	}
	q.Scans[0] = tkScan{A: uint64(b.chordStart.ptr), Partial: uint64(b.chordPartial.ptr), N: int32(len(p.Curves) + 1)}
	for k := range kinds {
		q.CapEntries[k] = int32(b.binItems[k].size / 4)
		q.BinStart[k], q.BinCursor[k], q.BinItems[k] = uint64(b.binStart[k].ptr), uint64(b.binCursor[k].ptr), uint64(b.binItems[k].ptr)
		q.Scans[1+k] = tkScan{A: uint64(b.binStart[k].ptr), Partial: uint64(b.binPartial[k].ptr), N: int32(tiles + 1)}
	}
	g.host.p = q
	for _, e := range []struct {
		dst Ptr
		src []byte
	}{
		{b.boxes.ptr, boxesBytes(p.Boxes)}, {b.lines.ptr, linesBytes(p.Lines)}, {b.curves.ptr, curvesBytes(p.Curves)},
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
func (g *GPU) launch() error {
	if !g.timed {
		return g.dev.LaunchGraph(g.graph)
	}
	if !g.hasEvents {
		for i := range g.events {
			e, err := g.dev.NewEvent()
			if err != nil {
				return err
			}
			g.events[i] = e
		}
		g.hasEvents = true
	}
	return g.record(g.caps)
}

// capture records the frame's launches into a graph. The grids cover the capacities, not
// this frame's counts; threads past a count return at once.
func (g *GPU) capture(c caps) error {
	if err := g.dev.BeginCapture(); err != nil {
		return err
	}
	err := g.record(c)
	graph, endErr := g.dev.EndCapture()
	if err != nil {
		if endErr == nil {
			g.dev.FreeGraph(graph)
		}
		return err
	}
	if endErr != nil {
		return endErr
	}
	g.graph = graph
	return nil
}

// Launch configurations, in the order of the stages.
func (g *GPU) record(c caps) error {
	tiles := c.tilesX * c.tilesY
	per := func(n int) uint32 { return uint32(max(1, (n+binThreads-1)/binThreads)) }
	maxPrims := max(c.boxes, c.lines, c.curves, c.labels)
	lin := Dim3{binThreads, 1, 1}
	one := Dim3{1, 1, 1}
	tileGrid := Dim3{uint32(c.tilesX), uint32(c.tilesY), 1}
	steps := []struct {
		kernel      string
		grid, block Dim3
		event       int // record events[event] after the launch; -1 for none
	}{
		{"tk_begin", Dim3{per(tiles + 1), kinds, 1}, lin, -1},
		{"tk_curve_chords", Dim3{per(c.curves), 1, 1}, lin, -1},
		{"tk_scan_sums_chords", Dim3{per(chunks(c.curves + 1)), 1, 1}, lin, -1},
		{"tk_scan_mid_chords", one, one, -1},
		{"tk_scan_apply_chords", Dim3{per(chunks(c.curves + 1)), 1, 1}, lin, -1},
		{"tk_bin_count", Dim3{per(maxPrims), kinds, 1}, lin, -1},
		{"tk_scan_sums_bins", Dim3{per(chunks(tiles + 1)), kinds, 1}, lin, -1},
		{"tk_scan_mid_bins", Dim3{1, kinds, 1}, one, -1},
		{"tk_scan_apply_bins", Dim3{per(chunks(tiles + 1)), kinds, 1}, lin, -1},
		{"tk_bin_cursor", Dim3{per(tiles + 1), kinds, 1}, lin, -1},
		{"tk_bin_fill", Dim3{per(maxPrims), kinds, 1}, lin, -1},
		{"tk_bin_sort", Dim3{per(tiles), kinds, 1}, lin, 1},
		{"tk_boxes", tileGrid, Dim3{blockX, blockY, 1}, 2},
		{"tk_lines", tileGrid, Dim3{blockX, blockY, 1}, 3},
		{"tk_curves", tileGrid, Dim3{blockX, blockY, 1}, 4},
		{"tk_labels", tileGrid, Dim3{blockX, blockY, 1}, 5},
		{"tk_composite", tileGrid, Dim3{compX, compY, 1}, 6},
	}
	if g.timed {
		if err := g.dev.Record(g.events[0]); err != nil {
			return err
		}
	}
	for _, s := range steps {
		if err := g.dev.Launch(s.kernel, s.grid, s.block, g.params); err != nil {
			return fmt.Errorf("%s: %w", s.kernel, err)
		}
		if g.timed && s.event >= 0 {
			if err := g.dev.Record(g.events[s.event]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *GPU) readTimings() error {
	g.last = render.Timings{}
	if !g.timed {
		return nil
	}
	for s := render.StageBin; s < render.NumStages; s++ {
		d, err := g.dev.Elapsed(g.events[s], g.events[s+1])
		if err != nil {
			return err
		}
		g.last[s] = max(d, time.Duration(0))
	}
	return nil
}
