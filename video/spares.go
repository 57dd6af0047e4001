package video

import "github.com/asticode/go-astiav"

// spares keeps emptied packets or frames for reuse, so that a render allocates neither a C
// struct nor astiav's Go wrapper for each frame and packet: the hot paths take one with get
// and give it back with put, from any goroutine. A nil *spares allocates and frees, for the
// stages that run without one (a join's copier).
type spares[T interface {
	Free()
	Unref()
}] struct {
	free chan T
}

func newSpares[T interface {
	Free()
	Unref()
}](n int) *spares[T] {
	return &spares[T]{free: make(chan T, n)}
}

// get returns an empty packet or frame: a kept one if there is one, else a new one from
// alloc.
func (s *spares[T]) get(alloc func() T) T {
	if s != nil {
		select {
		case v := <-s.free:
			return v
		default:
		}
	}
	return alloc()
}

// put empties v and keeps it, or frees it when enough are kept.
func (s *spares[T]) put(v T) {
	if s == nil {
		v.Free()
		return
	}
	v.Unref()
	select {
	case s.free <- v:
	default:
		v.Free()
	}
}

// close frees what is kept, once the render's stages have stopped.
func (s *spares[T]) close() {
	for {
		select {
		case v := <-s.free:
			v.Free()
		default:
			return
		}
	}
}

// packetSpares and frameSpares are the spares of a render's packets and frames: as many as
// its queues hold, and a few more for the packets and frames in the stages' hands.
func packetSpares() *spares[*astiav.Packet] { return newSpares[*astiav.Packet](packetQueue + 8) }
func frameSpares() *spares[*astiav.Frame]   { return newSpares[*astiav.Frame](2*frameQueue + 4) }
