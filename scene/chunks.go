package scene

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"sync"
	"unsafe"
)

// chunkBits sets the size of a full chunk: 2^15 boxes are 1.2 MB.
const chunkBits = 15

// residentChunks is how many full chunks an array keeps in memory before it spills the
// ones after to its spill file: with the last chunk, which it is filling, and the two it
// reads back into, an array of any length holds at most four chunks in memory (5 MB of
// boxes), so that the tracks of a long video or a 200 MB file read in the same memory as a
// short one (docs/promises.md).
const residentChunks = 1

// chunks is an append-only array kept in chunks of 2^chunkBits elements, so that growing it
// never copies what it holds (a slice grown by append briefly holds both its old and its new
// array: for the boxes of a long video, hundreds of megabytes twice). Every chunk but the
// last is full; the first grows by append until it is, so that small files stay small.
//
// Past residentChunks full chunks, a spilling array writes each chunk it fills to a
// temporary file (removed at once, so nothing is left however the process ends) and reads
// chunks back as at asks for them, two at a time. T must hold no pointers: its bytes are
// what is written. An error reading the spill file back is kept, and reported by err; at
// then gives zero values.
type chunks[T any] struct {
	c     [][]T // chunks in memory; a spilled chunk's entry is nil
	n     int
	spill bool         // spill chunks past residentChunks (set before the first add)
	sp    *spillage[T] // the spill file, once a chunk is spilled
}

// spillage is a spilling array's file and the chunks read back from it.
type spillage[T any] struct {
	file  *os.File
	mu    sync.Mutex // guards the rest: readers of one Tracks may be several goroutines
	err   error
	clock uint64 // counts reads, for replacing the older cached chunk
	cache [2]cached[T]
}

// cached is a spilled chunk read back.
type cached[T any] struct {
	chunk int // -1: none
	data  []T
	used  uint64 // the clock when it was last used
}

func (s *chunks[T]) add(v T) {
	if last := len(s.c) - 1; last >= 0 && len(s.c[last]) < 1<<chunkBits {
		s.c[last] = append(s.c[last], v)
	} else {
		capacity := 1 << chunkBits
		if last < 0 {
			capacity = 16
		}
		var buf []T
		if last >= 0 {
			buf = s.spillChunk(last)
		}
		if buf == nil {
			buf = make([]T, 0, capacity)
		}
		s.c = append(s.c, append(buf, v))
	}
	s.n++
}

// spillChunk writes full chunk i to the spill file when the array spills and holds enough
// in memory, and returns its memory, emptied, for the next chunk; nil when it stays. Where
// no temporary file can be made or written (a full or read-only $TMPDIR) the array stops
// spilling and holds what follows in memory, as before spilling was: slower to fit, never
// lost.
func (s *chunks[T]) spillChunk(i int) []T {
	if !s.spill || i < residentChunks {
		return nil
	}
	if s.sp == nil {
		f, err := os.CreateTemp("", "trackink-tracks-*")
		if err != nil {
			s.spill = false
			return nil
		}
		os.Remove(f.Name()) // open until the Tracks are gone; never left behind
		s.sp = &spillage[T]{file: f, cache: [2]cached[T]{{chunk: -1}, {chunk: -1}}}
	}
	if _, err := s.sp.file.WriteAt(chunkBytes(s.c[i]), s.offset(i)); err != nil {
		s.spill = false
		return nil
	}
	buf := s.c[i][:0]
	s.c[i] = nil
	return buf
}

// err is the first I/O error on the spill file, or nil.
func (s *chunks[T]) err() error {
	if s.sp == nil {
		return nil
	}
	s.sp.mu.Lock()
	defer s.sp.mu.Unlock()
	return s.sp.err
}

// offset is where chunk i lies in the spill file.
func (s *chunks[T]) offset(i int) int64 {
	return int64(i) << chunkBits * int64(unsafe.Sizeof(*new(T)))
}

// chunkBytes is the memory of a chunk's elements.
func chunkBytes[T any](c []T) []byte {
	if len(c) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&c[0])), len(c)*int(unsafe.Sizeof(c[0])))
}

// at returns element i. Any number of goroutines may call it at once.
func (s *chunks[T]) at(i int) T {
	c, k := i>>chunkBits, i&(1<<chunkBits-1)
	if d := s.c[c]; d != nil {
		return d[k]
	}
	s.sp.mu.Lock()
	defer s.sp.mu.Unlock()
	return s.readBack(c)[k]
}

// ptr returns a pointer to element i of an array held in memory (inMemory).
func (s *chunks[T]) ptr(i int) *T { return &s.c[i>>chunkBits][i&(1<<chunkBits-1)] }

// readBack returns spilled chunk c, read into the older of the two cached chunks unless
// one holds it. The caller holds s.sp.mu.
func (s *chunks[T]) readBack(c int) []T {
	sp := s.sp
	sp.clock++
	slot := &sp.cache[0]
	for j := range sp.cache {
		if sp.cache[j].chunk == c {
			sp.cache[j].used = sp.clock
			return sp.cache[j].data
		}
		if sp.cache[j].used < slot.used {
			slot = &sp.cache[j]
		}
	}
	if slot.data == nil {
		slot.data = make([]T, 1<<chunkBits)
	}
	slot.chunk, slot.used = c, sp.clock
	if _, err := sp.file.ReadAt(chunkBytes(slot.data), s.offset(c)); err != nil {
		clear(slot.data)
		if sp.err == nil {
			sp.err = fmt.Errorf("scene: reading the tracks' temporary file back: %w", err)
		}
	}
	return slot.data
}

// update calls change on every element, in order, and keeps what it changed.
func (s *chunks[T]) update(change func(*T)) {
	for c, d := range s.c {
		if d != nil {
			for k := range d {
				change(&d[k])
			}
			continue
		}
		s.sp.mu.Lock()
		d = s.readBack(c)
		for k := range d {
			change(&d[k])
		}
		if _, err := s.sp.file.WriteAt(chunkBytes(d), s.offset(c)); err != nil {
			s.sp.err = cmp.Or(s.sp.err, fmt.Errorf("scene: writing the tracks' temporary file: %w", err))
		}
		s.sp.mu.Unlock()
	}
}

// inMemory reads every spilled chunk back into memory and stops spilling: for work that
// moves elements between chunks (sorting a file that is not in frame order).
func (s *chunks[T]) inMemory() {
	s.spill = false
	if s.sp == nil {
		return
	}
	s.sp.mu.Lock()
	defer s.sp.mu.Unlock()
	for c, d := range s.c {
		if d == nil {
			s.c[c] = slices.Clone(s.readBack(c))
		}
	}
	s.sp.file.Close()
	if s.sp.err == nil {
		s.sp = nil
	}
}

// trim gives back the unused capacity of the last chunk when it is large.
func (s *chunks[T]) trim() {
	if last := len(s.c) - 1; last >= 0 && cap(s.c[last])-len(s.c[last]) > 1024 {
		s.c[last] = slices.Clone(s.c[last])
	}
}
