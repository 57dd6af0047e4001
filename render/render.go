// Package render draws trackink's overlay layer: boxes, links, curves and labels, with
// analytic anti-aliasing (see package sdf), and composites it onto a frame.
//
// The frame is cut into composite.TileSize tiles. A binning stage lists, for each tile, the
// primitives that can reach it (a long diagonal line is listed only in the band of tiles it
// crosses). Workers then take tiles one at a time and run the stages on each (boxes, lines,
// curves, labels, composite) while the tile's FP32 layer sits in cache; a tile that nothing
// reaches costs one check. Each stage visits only the pixels its primitives can cover. A tile
// is drawn by one worker in a fixed order, so the output is the same bytes whatever the
// number of workers. After the first frames nothing is allocated per frame.
//
// Stage names follow the seeds' GPU design (bin, lines, curves, boxes, labels, composite), so
// the CPU stages and the CUDA kernels can be read side by side and benchmarked alike.
package render

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"trackink/composite"
)

// Stage identifies a rendering stage in Timings.
type Stage int

// The stages, in the order the renderer runs them on a tile.
const (
	StageBin Stage = iota
	StageBoxes
	StageLines
	StageCurves
	StageLabels
	StageComposite
	NumStages
)

var stageNames = [NumStages]string{"bin", "boxes", "lines", "curves", "labels", "composite"}

func (s Stage) String() string { return stageNames[s] }

// Timings are the time one Draw spent per stage. Bin runs alone; the other stages run on all
// workers at once, and their figure is the summed time of all workers divided by the number
// of workers, so that the stages add up to the wall time of the draw.
type Timings [NumStages]time.Duration

// Renderer draws overlays onto frames of one size at a time. It is not safe for concurrent
// use; Close stops its workers.
type Renderer struct {
	w, h    int
	font    *Font
	bins    bins
	workers []*worker
	timed   bool

	// Per-draw state read by the workers.
	prims *Primitives
	frame composite.HostFrame
	next  atomic.Int64
	start chan struct{}
	// binCurves asks the curve-binning goroutine to run; it answers on curvesBinned.
	binCurves, curvesBinned chan struct{}
	done                    sync.WaitGroup
	last                    Timings
}

type worker struct {
	tile    composite.Tile
	scratch curveScratch
	spent   [NumStages]time.Duration
}

// Options configure a Renderer.
type Options struct {
	// Workers is the number of tiles drawn at once; 0 means one per CPU.
	Workers int
	// LabelSize is the labels' font size in pixels.
	LabelSize int
	// Timed makes Draw record per-stage Timings (a few clock reads per tile).
	Timed bool
}

// New returns a renderer with its worker goroutines started.
func New(opts Options) (*Renderer, error) {
	n := opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	f, err := NewFont(opts.LabelSize)
	if err != nil {
		return nil, err
	}
	r := &Renderer{font: f, timed: opts.Timed, start: make(chan struct{}),
		binCurves: make(chan struct{}), curvesBinned: make(chan struct{})}
	for range n {
		w := &worker{}
		r.workers = append(r.workers, w)
		go r.run(w, r.start)
	}
	go r.runCurveBinning(r.binCurves)
	return r, nil
}

// Workers returns the number of tiles drawn at once.
func (r *Renderer) Workers() int { return len(r.workers) }

// Font returns the label font, which places labels (see Primitives.AddBoxLabel).
func (r *Renderer) Font() *Font { return r.font }

// Close stops the workers.
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
		r.bins.binCurves(r.prims, r.w, r.h)
		r.curvesBinned <- struct{}{}
	}
}

// Timings returns the per-stage times of the last Draw (zero unless Options.Timed).
func (r *Renderer) Timings() Timings { return r.last }

// Draw renders p and composites it onto f.
func (r *Renderer) Draw(f composite.Frame, p *Primitives) error {
	if r.start == nil {
		return errors.New("render: Draw after Close")
	}
	hf, ok := f.(composite.HostFrame)
	if !ok {
		return fmt.Errorf("render: the CPU renderer cannot draw on a %T (a frame in GPU memory needs the cuda backend)", f)
	}
	w, h := f.Size()
	if w <= 0 || h <= 0 {
		return fmt.Errorf("render: frame size %dx%d", w, h)
	}
	if w != r.w || h != r.h {
		r.w, r.h = w, h
		r.bins.resize(w, h)
	}
	t0 := time.Now()
	// Curves are binned on their own goroutine while this one bins the other kinds.
	r.prims = p
	r.binCurves <- struct{}{}
	r.bins.binOthers(p, r.font)
	<-r.curvesBinned
	r.last = Timings{}
	if r.timed {
		r.last[StageBin] = time.Since(t0)
	}

	r.frame = hf
	r.next.Store(0)
	r.done.Add(len(r.workers))
	for range r.workers {
		r.start <- struct{}{}
	}
	r.done.Wait()
	r.prims, r.frame = nil, nil
	if r.timed {
		for _, wk := range r.workers {
			for s := StageBoxes; s < NumStages; s++ {
				r.last[s] += wk.spent[s] / time.Duration(len(r.workers))
				wk.spent[s] = 0
			}
		}
	}
	return nil
}

func (r *Renderer) run(wk *worker, start <-chan struct{}) {
	for range start {
		r.drawTiles(wk)
		r.done.Done()
	}
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

// drawTile runs the stages on one tile.
func (r *Renderer) drawTile(wk *worker, tx, ty int) {
	b := &r.bins
	p := r.prims
	i := ty*b.tilesX + tx
	if b.empty(i) {
		return
	}
	t := &wk.tile
	t.Reset(tx*ts, ty*ts, min(ts, r.w-tx*ts), min(ts, r.h-ty*ts))
	clock := r.clock()
	drawBoxes(t, p.Boxes, b.boxBins.tile(i))
	clock = r.lap(wk, StageBoxes, clock)
	drawLines(t, p.Lines, b.lineBins.tile(i))
	clock = r.lap(wk, StageLines, clock)
	drawCurves(t, &wk.scratch, p.Curves, b.chords, b.chordBins.tile(i))
	clock = r.lap(wk, StageCurves, clock)
	drawLabels(t, p.Labels, r.font, b.glyphs, b.glyphStart, b.labelBins.tile(i))
	clock = r.lap(wk, StageLabels, clock)
	r.frame.Over(t)
	t.Clear()
	r.lap(wk, StageComposite, clock)
}

func (r *Renderer) clock() time.Time {
	if !r.timed {
		return time.Time{}
	}
	return time.Now()
}

func (r *Renderer) lap(wk *worker, s Stage, since time.Time) time.Time {
	if !r.timed {
		return since
	}
	now := time.Now()
	wk.spent[s] += now.Sub(since)
	return now
}
