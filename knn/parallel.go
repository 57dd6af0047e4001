package knn

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A step of Update that can be split: its work is cut into numbered chunks that write
// disjoint parts of the output, so the answer does not depend on which goroutine runs which
// chunk, nor on how many goroutines there are.
type chunkRunner interface {
	// runChunk runs one chunk of step; worker (0 or 1) selects per-goroutine scratch space.
	runChunk(step, chunk, worker int)
}

// pool runs the chunks of a step on the caller's goroutine and one helper goroutine. Chunks
// are claimed one at a time from a shared counter, so when the helper starts late (the two
// cores are shared with other work) the caller simply does more of them; and when the caller
// has claimed every chunk before the helper joined, it goes on without waiting for it.
//
// Between steps each side spins for a short while (spinTime) before it sleeps: the steps of
// one frame follow each other within microseconds, and waking a sleeping thread takes longer
// than a step's chunk.
type pool struct {
	// minItems is the smallest frame (in points) whose steps are shared with the helper, and
	// chunkSize the points in one chunk: parallelMin and defaultChunkSize, smaller in tests.
	minItems, chunkSize int

	// The step being run; written by the caller before it publishes the step (posted).
	runner chunkRunner
	step   int
	chunks int32

	next  atomic.Int32  // the next chunk to claim
	state atomic.Int32  // idle, posted (the helper may join), running (it has), done (it is out)
	wake  chan struct{} // a step was posted; closed by close
	done  chan struct{} // the helper is out of a step
}

const (
	stepIdle int32 = iota
	stepPosted
	stepRunning
	stepDone
)

// parallelMin is the smallest frame whose steps are shared with the helper goroutine: below
// it the hand-overs cost more than they save.
const parallelMin = 1500

// defaultChunkSize is the number of points in one chunk of a step.
const defaultChunkSize = 256

// spinTime is how long a side of the pool spins for the other before it sleeps.
const spinTime = 20 * time.Microsecond

// do runs chunks 0..chunks-1 of step for a frame of items points, sharing them with the
// helper when the frame is large enough and there is more than one CPU.
func (p *pool) do(r chunkRunner, step, chunks, items int) {
	p.runner, p.step, p.chunks = r, step, int32(chunks)
	p.next.Store(0)
	if items < p.minItems || chunks < 2 || runtime.GOMAXPROCS(0) < 2 {
		p.work(0)
		return
	}
	if p.wake == nil {
		p.wake, p.done = make(chan struct{}, 1), make(chan struct{}, 1)
		go p.helper(p.wake, p.done)
	}
	p.state.Store(stepPosted)
	select {
	case p.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
	p.work(0)
	if p.state.CompareAndSwap(stepPosted, stepIdle) {
		return // the helper did not join
	}
	waitFor(&p.state, stepDone, p.done) // its last chunk
	p.state.Store(stepIdle)
}

// chunksOf is the number of chunks of a step over n points.
func (p *pool) chunksOf(n int) int { return (n + p.chunkSize - 1) / p.chunkSize }

// span returns the points of chunk c of a step over n points.
func (p *pool) span(c, n int) (lo, hi int) { return c * p.chunkSize, min((c+1)*p.chunkSize, n) }

// waitFor returns once state holds want: it spins for spinTime, then sleeps on wake, which
// is signalled after each change (a stale signal costs only another look).
func waitFor(state *atomic.Int32, want int32, wake <-chan struct{}) bool {
	deadline := time.Now().Add(spinTime)
	for state.Load() != want {
		if time.Now().Before(deadline) {
			runtime.Gosched()
		} else if _, ok := <-wake; !ok {
			return false
		}
	}
	return true
}

// work claims and runs chunks until none are left.
func (p *pool) work(worker int) {
	for {
		c := p.next.Add(1) - 1
		if c >= p.chunks {
			return
		}
		p.runner.runChunk(p.step, int(c), worker)
	}
}

func (p *pool) helper(wake <-chan struct{}, done chan<- struct{}) {
	for waitFor(&p.state, stepPosted, wake) {
		if p.state.CompareAndSwap(stepPosted, stepRunning) {
			p.work(1)
			p.state.Store(stepDone)
			select {
			case done <- struct{}{}:
			default:
			}
		}
	}
}

// close stops the helper goroutine.
func (p *pool) close() {
	if p.wake != nil {
		close(p.wake)
		p.wake = nil
	}
}
