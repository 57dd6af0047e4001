package knn

import (
	"runtime"
	"sync/atomic"
	"time"
)

// The steps of Update that are shared between goroutines: loops over positions in which
// each position writes only its own entries, cut into fixed chunks of chunkSize positions.
// Which goroutine runs which chunk changes nothing in the answer, so it is the same for any
// number of goroutines.
const (
	stepNeighbours = iota // the grid's query, then the hysteresis choice of each point
	stepAdjacency         // adj(j): choices and choosers, MaxDist, MaxDY, j's MaxDegree-th link
	stepEmit              // the links kept at both ends; j's links to higher ranks
	stepEdges             // each point's edges to higher ranks, written from its rank's offset
)

// chunkRunner runs one chunk of a step; worker (0 for the caller, i for helper i) selects
// the goroutine's scratch space.
type chunkRunner interface {
	runChunk(step, chunk, worker int)
}

// parallelMin is the smallest frame, in points, whose steps are shared with the helper
// goroutines: below it the hand-overs cost about what they save (BenchmarkSharedSteps on two
// cores: 1.15–1.2× as fast at 500 points, 1.3× at 1 000, 1.5× at 2 000, 1.65–1.7× at 5 000).
const parallelMin = 1000

// defaultChunkSize is the number of positions in one chunk of a step.
const defaultChunkSize = 256

// maxWorkers bounds the goroutines (the caller included) that share a step. Two were
// measured; more are allowed up to this bound, which keeps the wake-ups per step few.
const maxWorkers = 8

// spinTime is how long a goroutine of the pool goes on spinning for the other side once no
// frame is under way (within one, helpers spin throughout: begin), before it sleeps.
const spinTime = 20 * time.Microsecond

// pool runs the chunks of a step on the caller's goroutine and up to maxWorkers−1 persistent
// helpers, started at the first frame that needs them and stopped by close. Chunks are
// claimed one at a time (each goroutine's own block first), so a helper that starts late
// (its core is busy with other work) simply runs fewer of them, and the caller does not
// wait for a helper that has not joined by the time every chunk is claimed. The pool never refers to the
// Graph between steps, so an unreachable Graph's cleanup can close it.
type pool struct {
	// minItems is the smallest frame whose steps are shared, chunkSize the positions in one
	// chunk: parallelMin and defaultChunkSize, smaller in tests.
	minItems, chunkSize int

	// The frame under way: the goroutines that share its steps (1: none) and the chunks of
	// each step; when it started (zero if it is not timed).
	workers, chunks int
	frameStart      time.Time

	// The step being run, written by the caller before it posts the step; runner is nil
	// between steps.
	runner chunkRunner
	step   int
	blocks []block // the chunks, one run of them for each goroutine sharing the step
	// Between begin and end, the number of helpers of the frame (1..active spin rather than
	// sleep); 0 outside a frame. Helpers past it, left from a frame with more, may sleep.
	active atomic.Int32

	helpers []*helper

	choice shareChoice // whether frames are shared
}

// shareChoice decides whether frames are shared, by their time. Sharing is faster only while
// a second core is free: when other programs use it, the caller waits for helpers the
// operating system has descheduled mid-chunk, and spinning helpers take CPU time from the
// caller. (With one other process busy on the second core, 5 000 points took 1.5 ms a frame
// on one goroutine and 3.1–3.3 ms shared; with this choice, 1.6–1.7 ms. On an idle machine:
// 1.5, 1.10 and 1.12–1.14 ms. Means over 1 000 frames.) So the frames keep to the mode that
// has been faster per point on average, and now and then a few frames try the other: every
// interval frames, an interval that starts at exploreMin and doubles, up to exploreMax, each
// time the try loses. A try is several frames, compared with the mean of the kept mode's
// frames since the last try, because a shared frame under load is usually fast and now and
// then very slow. Either way the links are the same.
type shareChoice struct {
	alone    bool    // the mode kept: one goroutine (true) or shared (false, the first)
	keptSum  float64 // the kept mode's ns per point, summed over its frames since the last try
	keptN    int     // and the number of those frames
	since    int     // frames since the last try ended
	interval int     // frames between tries; 0 before the first frame
	tryLeft  int     // frames of the try under way left to record; 0 when none is
	trySum   float64 // the sum of the try's ns per point so far
}

const (
	exploreMin = 16
	exploreMax = 256
	tryFrames  = 8
)

// share returns whether the next frame is shared.
func (c *shareChoice) share() bool {
	if c.interval == 0 {
		c.interval = exploreMin
	}
	if c.tryLeft == 0 {
		if c.since++; c.since >= c.interval {
			c.since, c.tryLeft, c.trySum = 0, tryFrames, 0
		}
	}
	return c.alone == (c.tryLeft > 0)
}

// record takes the time per point of the frame share answered for.
func (c *shareChoice) record(nsPerPoint float64) {
	if c.tryLeft == 0 {
		c.keptSum += nsPerPoint
		c.keptN++
		return
	}
	c.trySum += nsPerPoint
	if c.tryLeft--; c.tryLeft > 0 {
		return
	}
	if c.keptN == 0 || c.trySum/tryFrames < c.keptSum/float64(c.keptN) {
		c.alone, c.interval = !c.alone, exploreMin
		c.keptSum, c.keptN = c.trySum, tryFrames
		return
	}
	c.interval = min(2*c.interval, exploreMax)
	c.keptSum, c.keptN = 0, 0
}

// block is the run of chunks that one goroutine starts with: keeping a position on the same
// goroutine from step to step keeps its entries in that core's cache (claimed from one
// shared counter instead, 5 000 points took 1.16 ms a frame rather than 1.09). A goroutine
// that has run its own block claims the chunks left in the others.
type block struct {
	next, end atomic.Int32 // the next chunk to claim, and the end of the run
	_         [56]byte     // keeps two blocks' counters off one cache line
}

// helper is one helper goroutine's hand-over with the caller.
type helper struct {
	state atomic.Int32  // idle, posted (it may join), running (it has), done (it is out)
	wake  chan struct{} // a frame began or a step was posted; closed by pool.close
	done  chan struct{} // it is out of a step; closed when it exits
	_     [64]byte      // keeps the states of two helpers off one cache line
}

const (
	stepIdle int32 = iota
	stepPosted
	stepRunning
	stepDone
)

// startFrame sets the goroutines that share the steps of a frame of n points, and wakes the
// helpers if that is more than one: min(GOMAXPROCS, maxWorkers, the chunks of a step) when
// choice says sharing is the faster, 1 below minItems or when it says not. Frames that could
// be shared are timed, from here to endFrame, for choice, if usual says the frame's time
// tells the modes apart. A Graph's first frame does not: it sizes the buffers, may start the
// helpers, and has no last frame's neighbours to seed its search, so it takes several times
// a usual frame's time (counted, it once in a dozen benchmark runs made the first try of one
// goroutine win, and 5 000 points took 1.2 ms a frame, not 0.9). Such a frame keeps to the
// mode kept.
func (p *pool) startFrame(n int, usual bool) {
	p.workers, p.chunks, p.frameStart = 1, p.chunksOf(n), time.Time{}
	most := min(runtime.GOMAXPROCS(0), maxWorkers, p.chunks)
	if n < p.minItems || most < 2 {
		return
	}
	share := !p.choice.alone
	if usual {
		p.frameStart = time.Now()
		share = p.choice.share()
	}
	if share {
		p.workers = most
		p.begin()
	}
}

// endFrame ends the frame of n points that startFrame started: the helpers may sleep, and
// its time per point is recorded if it was timed and completed.
func (p *pool) endFrame(n int, completed bool) {
	p.end()
	if !p.frameStart.IsZero() && completed {
		p.choice.record(float64(time.Since(p.frameStart)) / float64(n))
	}
}

// chunksOf is the number of chunks of a step over n positions.
func (p *pool) chunksOf(n int) int { return (n + p.chunkSize - 1) / p.chunkSize }

// span returns the positions of chunk c of a step over n positions.
func (p *pool) span(c, n int) (lo, hi int) { return c * p.chunkSize, min((c+1)*p.chunkSize, n) }

// begin starts a frame whose steps p.workers goroutines share: it wakes the helpers, which
// spin until end, so that each step finds them awake. (Left to sleep after spinTime, a helper
// joined each step after a serial part late: at 5 000 points the neighbour step ran 1.26× as
// fast on two cores and the adjacency 1.44×; spinning, 1.41× and 1.93×. A sleeping helper
// takes about 140 µs to join, which is why begin is called before the points load.)
func (p *pool) begin() {
	for len(p.helpers) < p.workers-1 {
		h := &helper{wake: make(chan struct{}, 1), done: make(chan struct{}, 1)}
		p.helpers = append(p.helpers, h)
		go p.help(h, len(p.helpers))
	}
	p.active.Store(int32(p.workers - 1))
	for _, h := range p.helpers[:p.workers-1] {
		signal(h.wake)
	}
}

// end lets the helpers sleep once they have looked for a step for spinTime.
func (p *pool) end() { p.active.Store(0) }

// do runs the chunks of step of the frame under way on the caller and the p.workers−1
// helpers that begin woke.
func (p *pool) do(r chunkRunner, step int) {
	p.runner, p.step = r, step
	p.blocks = grow(p.blocks, p.workers)
	for w := range p.blocks {
		p.blocks[w].next.Store(int32(w * p.chunks / p.workers))
		p.blocks[w].end.Store(int32((w + 1) * p.chunks / p.workers))
	}
	hs := p.helpers[:p.workers-1]
	for _, h := range hs {
		h.state.Store(stepPosted)
		signal(h.wake)
	}
	p.work(0)
	for _, h := range hs {
		if !h.state.CompareAndSwap(stepPosted, stepIdle) { // it joined: wait for its last chunk
			p.waitFor(0, &h.state, stepDone, h.done)
			h.state.Store(stepIdle)
		}
	}
	p.runner = nil
}

// work claims and runs chunks until none are left: its own block's first, then the others'.
func (p *pool) work(worker int) {
	for i := range p.blocks {
		b := &p.blocks[(worker+i)%len(p.blocks)]
		for {
			c := b.next.Add(1) - 1
			if c >= b.end.Load() {
				break
			}
			p.runner.runChunk(p.step, int(c), worker)
		}
	}
}

// help is helper goroutine worker's loop: it runs its share of each step posted to it, until
// close.
func (p *pool) help(h *helper, worker int) {
	defer close(h.done)
	for p.waitFor(worker, &h.state, stepPosted, h.wake) {
		if h.state.CompareAndSwap(stepPosted, stepRunning) {
			p.work(worker)
			h.state.Store(stepDone)
			signal(h.done)
		}
	}
}

// waitFor returns true once state holds want, for worker (0: the caller): it spins while a
// frame that worker shares is under way (between begin and end) and for spinTime more, then
// sleeps on wake, which is signalled after each change (a stale signal costs only another
// look). It returns false when wake is closed.
func (p *pool) waitFor(worker int, state *atomic.Int32, want int32, wake <-chan struct{}) bool {
	deadline := time.Now().Add(spinTime)
	for state.Load() != want {
		if worker <= int(p.active.Load()) || time.Now().Before(deadline) {
			runtime.Gosched()
		} else if _, ok := <-wake; !ok {
			return false
		} else {
			deadline = time.Now().Add(spinTime)
		}
	}
	return true
}

// signal posts a wake-up on c unless one is already pending.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// close stops the helper goroutines and waits until they have exited. The pool stays usable:
// a later step starts new ones.
func (p *pool) close() {
	for _, h := range p.helpers {
		close(h.wake)
		for range h.done {
		}
	}
	p.helpers = nil
}
