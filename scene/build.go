package scene

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// chunkBits sets the size of a full chunk: 2^15 boxes are 1.2 MB.
const chunkBits = 15

// chunks is an append-only array kept in chunks of 2^chunkBits elements, so that growing it
// never copies what it holds (a slice grown by append briefly holds both its old and its new
// array: for the boxes of a long video, hundreds of megabytes twice). Every chunk but the
// last is full; the first grows by append until it is, so that small files stay small.
type chunks[T any] struct {
	c [][]T
	n int
}

func (s *chunks[T]) add(v T) {
	if last := len(s.c) - 1; last >= 0 && len(s.c[last]) < 1<<chunkBits {
		s.c[last] = append(s.c[last], v)
	} else {
		capacity := 1 << chunkBits
		if last < 0 {
			capacity = 16
		}
		s.c = append(s.c, append(make([]T, 0, capacity), v))
	}
	s.n++
}

func (s *chunks[T]) at(i int) *T { return &s.c[i>>chunkBits][i&(1<<chunkBits-1)] }

// trim gives back the unused capacity of the last chunk when it is large.
func (s *chunks[T]) trim() {
	if last := len(s.c) - 1; last >= 0 && cap(s.c[last])-len(s.c[last]) > 1024 {
		s.c[last] = slices.Clone(s.c[last])
	}
}

// item is what a builder stores of a box or a point while reading.
type item interface{ boxRecord | pointRecord }

// column collects one kind of item, in the order the file gives them, with the frame index
// of each and, when ids are checked, its line.
type column[T item] struct {
	items chunks[T]
	frame chunks[int32]
	line  chunks[int32]
}

// builder collects what a reader finds, in any frame order, and turns it into Tracks. It holds
// each item once: at the end it sorts them by frame in place rather than copying them into
// frames (rows of one frame may be spread over the file, and a file may be long).
type builder struct {
	file string
	// idField names the field that holds a track id, for the error about an id used twice in
	// one frame; empty when the reader checks that itself.
	idField string
	base    int // the file's frame base, to name frames in messages as the file does
	boxes   column[boxRecord]
	points  column[pointRecord]
	classes []string
	classOf map[string]uint32
	warns   []string
}

func newBuilder(file, idField string, base int) *builder {
	return &builder{file: file, idField: idField, base: base, classes: []string{""}, classOf: map[string]uint32{"": 0}}
}

func (b *builder) addBox(frame, line int, r boxRecord) {
	addItem(&b.boxes, b.idField != "", frame, line, r)
}

func (b *builder) addPoint(frame, line int, r pointRecord) {
	addItem(&b.points, b.idField != "", frame, line, r)
}

func addItem[T item](c *column[T], lines bool, frame, line int, r T) {
	c.items.add(r)
	c.frame.add(int32(frame))
	if lines {
		c.line.add(int32(min(line, math.MaxInt32)))
	}
}

// class returns the index of class name s, adding it on first use. A file holds few distinct
// names, so each is stored once, copied so as not to pin the line it was read from.
func (b *builder) class(s string) uint32 {
	if i, ok := b.classOf[s]; ok {
		return i
	}
	s = strings.Clone(s)
	b.classes = append(b.classes, s)
	i := uint32(len(b.classes) - 1)
	b.classOf[s] = i
	return i
}

func (b *builder) warn(format string, a ...any) { b.warns = append(b.warns, fmt.Sprintf(format, a...)) }

// clearScores removes every box's score: for readers that learn only at the end of the file
// that its score column holds no scores.
func (b *builder) clearScores() {
	for _, c := range b.boxes.items.c {
		for i := range c {
			c[i].flags &^= hasScore
			c[i].score = 0
		}
	}
}

// finish sorts what was read into frames and returns the Tracks, or the error about the
// first line (in file order) whose track id appears earlier in the same frame.
func (b *builder) finish(format Format, anchor Anchor) (*Tracks, error) {
	boxOrder := sortByFrame(&b.boxes)
	pointOrder := sortByFrame(&b.points)
	if b.idField != "" {
		dup := duplicate(b, &b.boxes, boxOrder, func(r *boxRecord) int32 { return r.id })
		if p := duplicate(b, &b.points, pointOrder, func(r *pointRecord) int32 { return r.id }); dup == nil || p != nil && p.Line < dup.Line {
			dup = p
		}
		if dup != nil {
			return nil, dup
		}
	}
	b.boxes.line, b.points.line = chunks[int32]{}, chunks[int32]{}
	permute(&b.boxes.items, boxOrder)
	permute(&b.points.items, pointOrder)
	t := &Tracks{format: format, anchor: anchor, boxes: b.boxes.items, points: b.points.items,
		classes: slices.Clip(b.classes), warnings: b.warns}
	t.boxes.trim()
	t.points.trim()
	// The frames are the union of the boxes' and the points' frames, merged in order.
	var nb, np int
	for nb < len(boxOrder) || np < len(pointOrder) {
		index := int32(math.MaxInt32)
		if nb < len(boxOrder) {
			index = frameOf(boxOrder[nb])
		}
		if np < len(pointOrder) {
			index = min(index, frameOf(pointOrder[np]))
		}
		t.frames = append(t.frames, frameSpan{index: index, box: uint32(nb), point: uint32(np)})
		for nb < len(boxOrder) && frameOf(boxOrder[nb]) == index {
			nb++
		}
		for np < len(pointOrder) && frameOf(pointOrder[np]) == index {
			np++
		}
	}
	t.frames = slices.Clip(t.frames)
	return t, nil
}

// An order key is an item's frame index in its upper 32 bits and its position in the file in
// the lower: sorting the keys sorts the items by frame, keeping the file's order within one.
func frameOf(key uint64) int32  { return int32(key >> 32) }
func positionOf(key uint64) int { return int(uint32(key)) }

// sortByFrame returns the order keys of c's items, sorted, and drops c's frame indexes.
func sortByFrame[T item](c *column[T]) []uint64 {
	keys := make([]uint64, c.items.n)
	sorted := true
	for i := range keys {
		keys[i] = uint64(*c.frame.at(i))<<32 | uint64(i)
		sorted = sorted && (i == 0 || keys[i-1] < keys[i])
	}
	c.frame = chunks[int32]{}
	if !sorted {
		slices.Sort(keys)
	}
	return keys
}

// duplicate returns the error for the first line, in file order, that repeats a track id
// within its frame, or nil. order is c's order keys, sorted by frame; untracked items do
// not count.
func duplicate[T item](b *builder, c *column[T], order []uint64, id func(*T) int32) *ParseError {
	var first *ParseError
	var run []uint64 // id<<32 | line, for the items of one frame
	for start := 0; start < len(order); {
		end := start
		for end < len(order) && frameOf(order[end]) == frameOf(order[start]) {
			end++
		}
		run = run[:0]
		for _, k := range order[start:end] {
			if v := id(c.items.at(positionOf(k))); v != NoID {
				run = append(run, uint64(v)<<32|uint64(uint32(*c.line.at(positionOf(k)))))
			}
		}
		slices.Sort(run)
		for i := 1; i < len(run); i++ {
			if line := int(uint32(run[i])); run[i]>>32 == run[i-1]>>32 && (first == nil || line < first.Line) {
				frame := int(frameOf(order[start])) + b.base - 1
				first = &ParseError{File: b.file, Line: line, Field: b.idField,
					Msg: fmt.Sprintf("track %d appears twice in frame %d (also line %d)", run[i]>>32, frame, uint32(run[i-1]))}
			}
		}
		start = end
	}
	return first
}

// permute puts s's items in the order that the sorted keys give, in place: the item at
// position positionOf(order[i]) moves to position i. It follows each cycle of the
// permutation, marking the positions it has filled in order itself.
func permute[T item](s *chunks[T], order []uint64) {
	const done = 1 << 63 // no position or frame index reaches this bit
	for start := range order {
		if order[start]&done != 0 || positionOf(order[start]) == start {
			continue
		}
		saved := *s.at(start)
		i := start
		for {
			from := positionOf(order[i])
			order[i] |= done
			if from == start {
				*s.at(i) = saved
				break
			}
			*s.at(i) = *s.at(from)
			i = from
		}
	}
	for i := range order {
		order[i] &^= done
	}
}

// NewTracks returns Tracks holding frames, which must keep the promises that the readers'
// results keep: indexes within 1 to MaxFrame, each at most once; track ids within 0 to MaxID
// (NoID for an untracked box), unique among a frame's points and among its boxes; finite
// coordinates within ±MaxCoord, sizes within 0 to MaxCoord, scores within [0, 1], class names
// as a reader accepts them. Frames may come in any order; frames with nothing in them are
// left out. Points are kept as given: no box yields one.
func NewTracks(frames []Frame) (*Tracks, error) {
	b := newBuilder("", "", 1)
	seen := make(map[int]bool)
	ids := make(map[int]bool)
	for _, f := range frames {
		bad := func(format string, a ...any) error {
			return fmt.Errorf("scene: frame %d: %s", f.Index, fmt.Sprintf(format, a...))
		}
		if msg := checkFrame(f.Index, fmt.Sprint(f.Index), 1); msg != "" {
			return nil, bad("%s", msg)
		}
		if seen[f.Index] {
			return nil, bad("given twice")
		}
		seen[f.Index] = true
		clear(ids)
		for i, p := range f.Points {
			if msg := checkItem(p.ID, false, ids, []float32{p.X, p.Y}, nil); msg != "" {
				return nil, bad("point %d: %s", i, msg)
			}
			r := pointRecord{id: int32(p.ID), x: p.X, y: p.Y}
			if p.HasColor {
				r.color, r.flags = packColor(p.Color), hasColor
			}
			b.addPoint(f.Index, 0, r)
		}
		clear(ids)
		for i, x := range f.Boxes {
			msg := checkItem(x.ID, true, ids, []float32{x.X, x.Y}, []float32{x.W, x.H})
			if msg == "" && x.HasScore {
				msg = checkUnit(float64(x.Score), fmt.Sprint("score ", x.Score))
			}
			if msg == "" {
				msg = checkLabel(x.Class)
			}
			if msg != "" {
				return nil, bad("box %d: %s", i, msg)
			}
			r := boxRecord{id: int32(x.ID), x: x.X, y: x.Y, w: x.W, h: x.H, class: b.class(x.Class)}
			if x.HasScore {
				r.score, r.flags = x.Score, hasScore
			}
			if x.HasColor {
				r.color, r.flags = packColor(x.Color), r.flags|hasColor
			}
			b.addBox(f.Index, 0, r)
		}
	}
	return b.finish(FormatAuto, BottomCenter)
}

// checkItem checks a point's or box's id (NoID is allowed for boxes alone) against the ids
// of its kind seen in the frame, its coordinates and its sizes.
func checkItem(id int, box bool, ids map[int]bool, coords, sizes []float32) string {
	switch {
	case box && id == NoID:
	case id < 0 || id > MaxID:
		return fmt.Sprintf("id %d is outside 0 to %d", id, MaxID)
	case ids[id]:
		return fmt.Sprintf("track %d appears twice", id)
	}
	ids[id] = true
	for _, v := range coords {
		if !(math.Abs(float64(v)) <= MaxCoord) { // NaN too
			return fmt.Sprintf("coordinate %v is not finite or beyond ±1e7 px", v)
		}
	}
	for _, v := range sizes {
		if !(v >= 0 && v <= MaxCoord) {
			return fmt.Sprintf("size %v is negative, not finite or beyond 1e7 px", v)
		}
	}
	return ""
}
