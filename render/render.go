// Package render is the CPU backend: it rasterises a frame's primitives (package overlay)
// into the overlay layer with analytic anti-aliasing (package sdf) and composites the layer
// onto the frame (package composite).
//
// The frame is cut into composite.TileSize tiles. The bin stage lists, for each tile, the
// primitives that can reach it (a long diagonal line is listed only in the band of tiles it
// crosses). Workers then take tiles one at a time and run the other stages on each (boxes,
// lines, curves, labels, composite) while the tile's FP32 layer sits in cache; a tile that
// nothing reaches costs one check. Each stage visits only the pixels its primitives can
// cover. A tile is drawn by one worker in a fixed order, so the output is the same bytes
// whatever the number of workers. After the first frames nothing is allocated per frame.
//
// One file per stage, each the twin of the CUDA kernel of the same name (kernels/*.cu):
// bin.go, effects.go (which changes the frame under boxes before the tiles are drawn, on all
// the workers), boxes.go, lines.go, curves.go, echo.go (the echo trails' kept layers),
// labels.go, composite.go, camera.go (the
// camera look over the whole frame after the tiles, on all the workers); tile.go holds what the
// stages share (tile.cuh's twin). The stages and their order are overlay's stage table.
package render

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"trackink/composite"
	"trackink/overlay"
)

const ts = composite.TileSize

// Renderer draws overlays onto frames of one size at a time. It is not safe for concurrent
// use; Close stops its workers.
type Renderer struct {
	w, h    int
	bins    bins
	workers []*worker
	timed   bool

	// Per-draw state read by the workers.
	prims    *overlay.Primitives
	space    composite.Space // the layer's, for dst
	dst      composite.HostSurface
	prefetch composite.Prefetcher // dst, when it is one
	next     atomic.Int64
	start    chan struct{}
	// binCurves asks the curve-binning goroutine to run; it answers on curvesBinned.
	binCurves, curvesBinned chan struct{}
	done                    sync.WaitGroup
	last                    overlay.Timings
	// job is what the workers run when started: drawTiles, or a phase of the effects.
	job func(*worker)
	// fx is the effects stage's state (effects.go).
	fx                        effectsScratch
	cam                       cameraScratch // the camera stage's (camera.go)
	echo                      echoLayers    // the echo stage's kept layers (echo.go)
	tilesJob, fxJob, applyJob func(*worker)
	camJob                    func(*worker)
}

type worker struct {
	tile    composite.Tile
	scratch stageScratch
	spent   overlay.Timings
	fx      fxWork
}

// stageScratch is a worker's scratch space for the stages.
type stageScratch struct {
	curves *curveScratch
	band   planarColors // a box's side bands, by column
	spans  rowSpans     // a line's
	line   [1]chord     // a dashed line, as a chord
	echo   echoScratch  // the echo stage's
}

// New returns a renderer with its worker goroutines started.
func New(opts overlay.BackendOptions) (*Renderer, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	n := opts.Workers
	if n == 0 {
		n = runtime.GOMAXPROCS(0)
	}
	r := &Renderer{timed: opts.Timed, start: make(chan struct{}),
		binCurves: make(chan struct{}), curvesBinned: make(chan struct{})}
	r.tilesJob, r.fxJob, r.applyJob, r.camJob = r.drawTiles, r.effectsJob, r.applyJobRun, r.cameraJob
	for range n {
		w := &worker{scratch: stageScratch{curves: newCurveScratch()}}
		r.workers = append(r.workers, w)
		go r.run(w, r.start)
	}
	go r.runCurveBinning(r.binCurves)
	return r, nil
}

// NewBackend is New as an overlay.NewBackend.
func NewBackend(opts overlay.BackendOptions) (overlay.Backend, error) { return New(opts) }

// Workers implements overlay.Backend.
func (r *Renderer) Workers() int { return len(r.workers) }

// Close implements overlay.Backend: it stops the workers.
func (r *Renderer) Close() {
	if r.start != nil {
		close(r.start)
		close(r.binCurves)
		r.start = nil
	}
}

// runCurveBinning and run take their channel as an argument: Close clears the field.
func (r *Renderer) runCurveBinning(requests <-chan struct{}) {
	for range requests {
		r.bins.binCurves(r.prims, &r.space, r.w, r.h)
		r.curvesBinned <- struct{}{}
	}
}

// Timings implements overlay.Backend: the stages of the last Draw, bin to composite (zero
// unless timed).
func (r *Renderer) Timings() overlay.Timings { return r.last }

// Draw implements overlay.Backend.
func (r *Renderer) Draw(dst composite.Surface, p *overlay.Primitives) error {
	if r.start == nil {
		return errors.New("render: Draw after Close")
	}
	hs, ok := dst.(composite.HostSurface)
	if !ok {
		return fmt.Errorf("render: the CPU renderer cannot draw on a %T (a frame in GPU memory needs the cuda backend)", dst)
	}
	w, h := dst.Size()
	if w <= 0 || h <= 0 {
		return fmt.Errorf("render: frame size %dx%d", w, h)
	}
	if len(p.Labels) > 0 && p.Font == nil {
		return errors.New("render: labels without a font")
	}
	if w != r.w || h != r.h {
		r.w, r.h = w, h
		r.bins.resize(w, h)
	}
	t0 := time.Now()
	// Curves are binned on their own goroutine while this one bins the other kinds.
	r.prims, r.space = p, hs.Space()
	r.binCurves <- struct{}{}
	r.bins.binOthers(p, &r.space)
	<-r.curvesBinned
	r.last = overlay.Timings{}
	if r.timed {
		r.last[overlay.StageBin] = time.Since(t0)
	}
	if len(p.Effects) > 0 {
		t1 := time.Now()
		if err := r.runEffects(hs, p); err != nil {
			return err
		}
		if r.timed {
			r.last[overlay.StageEffects] = time.Since(t1)
		}
	}

	if p.Echo.On() {
		r.echo.begin(p.Echo, &r.space, w, h, r.bins.tilesX, r.bins.tilesY)
	}
	r.dst = hs
	r.prefetch, _ = hs.(composite.Prefetcher)
	r.dispatch(r.tilesJob)
	r.prims, r.dst, r.prefetch = nil, nil, nil
	if p.Echo.On() {
		r.echo.end()
	}
	if p.Camera.On() {
		t1 := time.Now()
		if err := r.runCamera(hs, p); err != nil {
			return err
		}
		if r.timed {
			r.last[overlay.StageCamera] = time.Since(t1)
		}
	}
	if r.timed {
		for _, wk := range r.workers {
			for s := overlay.StageBoxes; s <= overlay.StageComposite; s++ {
				r.last[s] += wk.spent[s] / time.Duration(len(r.workers))
				wk.spent[s] = 0
			}
		}
	}
	return nil
}

func (r *Renderer) run(wk *worker, start <-chan struct{}) {
	for range start {
		r.job(wk)
		r.done.Done()
	}
}

// dispatch runs job on every worker, handing out work by r.next, and waits for them.
func (r *Renderer) dispatch(job func(*worker)) {
	r.job = job
	r.next.Store(0)
	r.done.Add(len(r.workers))
	for range r.workers {
		r.start <- struct{}{}
	}
	r.done.Wait()
}

// drawTiles takes tiles until none is left. Work is handed out in pairs of horizontally
// adjacent tiles: a 4:2:0 chroma row of one 64-pixel tile is 32 bytes, half a cache line, so
// two workers on neighbouring tiles would write the same lines (false sharing) when they
// composite; a pair covers whole lines.
func (r *Renderer) drawTiles(wk *worker) {
	b := &r.bins
	pairsX := (b.tilesX + 1) / 2
	n := int64(pairsX * b.tilesY)
	for {
		c := r.next.Add(1) - 1
		if c >= n {
			return
		}
		ty, tx := int(c)/pairsX, 2*(int(c)%pairsX)
		r.drawTile(wk, tx, ty)
		if tx+1 < b.tilesX {
			r.drawTile(wk, tx+1, ty)
		}
	}
}

// drawTile runs the per-tile stages on one tile, in the stage table's order.
func (r *Renderer) drawTile(wk *worker, tx, ty int) {
	b := &r.bins
	p := r.prims
	i := ty*b.tilesX + tx
	echo := p.Echo.On()
	if b.empty(i) && !(echo && r.echo.reach[i]) {
		return
	}
	t := &wk.tile
	t.Reset(tx*ts, ty*ts, min(ts, r.w-tx*ts), min(ts, r.h-ty*ts))
	if r.prefetch != nil {
		// The frame's samples under the tile load while the stages draw it.
		r.prefetch.Prefetch(t.X0, t.Y0, t.W, t.H)
	}
	clock := r.clock()
	sc := &wk.scratch
	drawBoxes(t, p.Boxes, b.boxPaints, b.boxBins.tile(i), sc, &p.Glow)
	clock = r.lap(wk, overlay.StageBoxes, clock)
	drawLines(t, p.Lines, b.lineColors, b.lineEnds, b.lineBins.tile(i), sc, &p.Glow)
	clock = r.lap(wk, overlay.StageLines, clock)
	drawCurves(t, sc.curves, p.Curves, b.curveColors, b.chords, b.chordBins.tile(i), &p.Glow)
	clock = r.lap(wk, overlay.StageCurves, clock)
	if echo {
		r.echo.keep(t, i)
		if p.Echo.Keep {
			t.Clear()
			return
		}
		r.echo.under(t, i, &sc.echo)
		clock = r.lap(wk, overlay.StageEcho, clock)
	}
	labels, blend, fade := b.labelBins.tile(i), p.Blend, p.Transparency
	if (blend != composite.BlendOver || fade > 0) && len(labels) > 0 {
		// Labels are text to be read: composited over the frame after the rest of the
		// overlay has been added or screened onto it, never added themselves (dark text
		// adds nothing, and a plate added over pale ground is white on white), and at
		// their own opacity, not the layer's (--overlay-opacity).
		compositeTile(r.dst, t, &r.space, blend, fade)
		clock = r.lap(wk, overlay.StageComposite, clock)
		blend, fade = composite.BlendOver, 0
	}
	drawLabels(t, p.Labels, b.labelPaints, p.Font, b.glyphs, b.glyphStart, labels, sc)
	clock = r.lap(wk, overlay.StageLabels, clock)
	compositeTile(r.dst, t, &r.space, blend, fade)
	r.lap(wk, overlay.StageComposite, clock)
}

func (r *Renderer) clock() time.Time {
	if !r.timed {
		return time.Time{}
	}
	return time.Now()
}

func (r *Renderer) lap(wk *worker, s overlay.Stage, since time.Time) time.Time {
	if !r.timed {
		return since
	}
	now := time.Now()
	wk.spent[s] += now.Sub(since)
	return now
}
