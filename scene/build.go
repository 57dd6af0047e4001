package scene

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// item is what a builder stores of a box or a point while reading.
type item interface{ boxRecord | pointRecord }

// column collects one kind of item, in the order the file gives them, with the frame index
// of each and, when ids are checked, its line. While the frames come in order its arrays
// spill to disk past a few megabytes (chunks), so that a long file is read in the memory of
// a short one; at the first frame out of order they are read back, to be sorted in memory.
type column[T item] struct {
	items    chunks[T]
	frame    chunks[int32]
	line     chunks[int32]
	last     int32 // the frame of the last item
	unsorted bool  // an item came after one of a later frame
}

func newColumn[T item]() column[T] {
	return column[T]{items: chunks[T]{spill: true}, frame: chunks[int32]{spill: true}, line: chunks[int32]{spill: true}}
}

// builder collects what a reader finds, in any frame order, and turns it into Tracks. It holds
// each item once: at the end it sorts them by frame in place rather than copying them into
// frames (rows of one frame may be spread over the file, and a file may be long); items in
// frame order already stay where they are, spilled to disk when there are many.
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
	// most is the highest track id the file may hold, one of files drawn together
	// (Options.Files), and tooLarge the error about the first line past it, which finish
	// returns.
	most     int32
	files    int
	tooLarge *ParseError
}

func newBuilder(file, idField string, base int) *builder {
	return &builder{file: file, idField: idField, base: base, boxes: newColumn[boxRecord](), points: newColumn[pointRecord](),
		classes: []string{""}, classOf: map[string]uint32{"": 0}, most: MaxID}
}

// builder returns a reader's builder of file, as newBuilder, that refuses the track ids
// past the file's share of MaxID where it is one of several drawn together (Files).
func (o *Options) builder(file, idField string, base int) *builder {
	b := newBuilder(file, idField, base)
	if o.Files > 1 {
		b.most, b.files = int32(MaxFileID(o.File, o.Files)), o.Files
	}
	return b
}

// checkMost notes line's track id when it is past most, the first such line only.
func (b *builder) checkMost(line int, id int32) {
	if id > b.most && b.tooLarge == nil {
		b.tooLarge = &ParseError{File: b.file, Line: line, Field: cmp.Or(b.idField, "track id"),
			Msg: fmt.Sprintf("%d is beyond %d, the highest track id with %d tracks files drawn together (each file's ids are made distinct from the others')", id, b.most, b.files)}
	}
}

func (b *builder) addBox(frame, line int, r boxRecord) {
	b.checkMost(line, r.id)
	addItem(&b.boxes, b.idField != "", frame, line, r)
}

func (b *builder) addPoint(frame, line int, r pointRecord) {
	b.checkMost(line, r.id)
	addItem(&b.points, b.idField != "", frame, line, r)
}

func addItem[T item](c *column[T], lines bool, frame, line int, r T) {
	if int32(frame) < c.last && !c.unsorted {
		c.unsorted = true
		c.items.inMemory()
		c.frame.inMemory()
		c.line.inMemory()
	}
	c.last = int32(frame)
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
	b.boxes.items.update(func(r *boxRecord) {
		r.flags &^= hasScore
		r.score = 0
	})
}

// finish sorts what was read into frames and returns the Tracks, or the error about the
// first line (in file order) whose track id appears earlier in the same frame.
func (b *builder) finish(format Format, anchor Anchor) (*Tracks, error) {
	if b.tooLarge != nil {
		return nil, b.tooLarge
	}
	boxOrder := sortByFrame(&b.boxes)
	pointOrder := sortByFrame(&b.points)
	if b.idField != "" {
		dup := duplicate(b, &b.boxes, boxOrder, func(r boxRecord) int32 { return r.id })
		if p := duplicate(b, &b.points, pointOrder, func(r pointRecord) int32 { return r.id }); dup == nil || p != nil && p.Line < dup.Line {
			dup = p
		}
		if dup != nil {
			return nil, dup
		}
	}
	b.boxes.line, b.points.line = chunks[int32]{}, chunks[int32]{}
	if boxOrder.keys != nil {
		permute(&b.boxes.items, boxOrder.keys)
	}
	if pointOrder.keys != nil {
		permute(&b.points.items, pointOrder.keys)
	}
	t := &Tracks{format: format, anchor: anchor, boxes: b.boxes.items, points: b.points.items,
		classes: slices.Clip(b.classes), warnings: b.warns}
	t.boxes.trim()
	t.points.trim()
	// The frames are the union of the boxes' and the points' frames, merged in order.
	var nb, np int
	for nb < boxOrder.n || np < pointOrder.n {
		index := int32(math.MaxInt32)
		if nb < boxOrder.n {
			index = boxOrder.frame(nb)
		}
		if np < pointOrder.n {
			index = min(index, pointOrder.frame(np))
		}
		t.frames = append(t.frames, frameSpan{index: index, box: uint32(nb), point: uint32(np)})
		for nb < boxOrder.n && boxOrder.frame(nb) == index {
			nb++
		}
		for np < pointOrder.n && pointOrder.frame(np) == index {
			np++
		}
	}
	t.frames = slices.Clip(t.frames)
	if err := cmp.Or(t.boxes.err(), t.points.err(), b.boxes.frame.err(), b.points.frame.err()); err != nil {
		return nil, err
	}
	return t, nil
}

// itemOrder is the order of a column's items by frame: the sorted order keys, or for items
// in frame order already (keys nil) their own frame indexes.
type itemOrder struct {
	keys   []uint64
	frames *chunks[int32]
	n      int
}

// frame is the frame of the i-th item in order.
func (o itemOrder) frame(i int) int32 {
	if o.keys == nil {
		return o.frames.at(i)
	}
	return frameOf(o.keys[i])
}

// position is where the i-th item in order lies in the column.
func (o itemOrder) position(i int) int {
	if o.keys == nil {
		return i
	}
	return positionOf(o.keys[i])
}

// An order key is an item's frame index in its upper 32 bits and its position in the file in
// the lower: sorting the keys sorts the items by frame, keeping the file's order within one.
func frameOf(key uint64) int32  { return int32(key >> 32) }
func positionOf(key uint64) int { return int(uint32(key)) }

// sortByFrame returns the order of c's items by frame: for items out of order the sorted
// order keys, and c's frame indexes dropped.
func sortByFrame[T item](c *column[T]) itemOrder {
	if !c.unsorted {
		return itemOrder{frames: &c.frame, n: c.items.n}
	}
	keys := make([]uint64, c.items.n)
	for i := range keys {
		keys[i] = uint64(c.frame.at(i))<<32 | uint64(i)
	}
	c.frame = chunks[int32]{}
	slices.Sort(keys)
	return itemOrder{keys: keys, n: len(keys)}
}

// duplicate returns the error for the first line, in file order, that repeats a track id
// within its frame, or nil. order is c's order by frame; untracked items do not count.
func duplicate[T item](b *builder, c *column[T], order itemOrder, id func(T) int32) *ParseError {
	var first *ParseError
	var run []uint64 // id<<32 | line, for the items of one frame
	for start := 0; start < order.n; {
		end := start
		frame := order.frame(start)
		for end < order.n && order.frame(end) == frame {
			end++
		}
		run = run[:0]
		for i := start; i < end; i++ {
			p := order.position(i)
			if v := id(c.items.at(p)); v != NoID {
				run = append(run, uint64(v)<<32|uint64(uint32(c.line.at(p))))
			}
		}
		slices.Sort(run)
		for i := 1; i < len(run); i++ {
			if line := int(uint32(run[i])); run[i]>>32 == run[i-1]>>32 && (first == nil || line < first.Line) {
				first = &ParseError{File: b.file, Line: line, Field: b.idField,
					Msg: fmt.Sprintf("track %d appears twice in frame %d (also line %d)", run[i]>>32, int(frame)+b.base-1, uint32(run[i-1]))}
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
		saved := *s.ptr(start)
		i := start
		for {
			from := positionOf(order[i])
			order[i] |= done
			if from == start {
				*s.ptr(i) = saved
				break
			}
			*s.ptr(i) = *s.ptr(from)
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
	c := NewCollector()
	for i := range frames {
		if err := c.Add(&frames[i]); err != nil {
			return nil, err
		}
	}
	return c.Tracks()
}

// Collector builds Tracks frame by frame, as a tracker finds them, keeping the promises
// NewTracks states. Frames added in order of index are held as a reader holds a file in frame
// order: past a few megabytes on disk, so that the tracks of a long video take the memory of
// a short one's.
type Collector struct {
	b    *builder
	seen []uint64 // a bit for each frame index added: a bit set holds a long video in kilobytes
	ids  map[int]bool
}

// NewCollector returns an empty Collector.
func NewCollector() *Collector {
	return &Collector{b: newBuilder("", "", 1), ids: map[int]bool{}}
}

// Add adds a copy of f, or returns why f breaks a promise (and adds nothing of it).
func (c *Collector) Add(f *Frame) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("scene: frame %d: %s", f.Index, fmt.Sprintf(format, a...))
	}
	if msg := checkFrame(f.Index, fmt.Sprint(f.Index), 1); msg != "" {
		return bad("%s", msg)
	}
	word, bit := f.Index/64, uint64(1)<<(f.Index%64)
	if word < len(c.seen) && c.seen[word]&bit != 0 {
		return bad("given twice")
	}
	clear(c.ids)
	for i, p := range f.Points {
		if msg := checkItem(p.ID, false, c.ids, []float32{p.X, p.Y}, nil); msg != "" {
			return bad("point %d: %s", i, msg)
		}
	}
	clear(c.ids)
	for i, x := range f.Boxes {
		msg := checkItem(x.ID, true, c.ids, []float32{x.X, x.Y}, []float32{x.W, x.H})
		if msg == "" {
			_, msg = farEdgeProblem(x.X, x.Y, x.W, x.H)
		}
		if msg == "" && x.HasScore {
			msg = checkUnit(float64(x.Score), fmt.Sprint("score ", x.Score))
		}
		if msg == "" {
			msg = checkLabel(x.Class)
		}
		if msg != "" {
			return bad("box %d: %s", i, msg)
		}
	}
	if word >= len(c.seen) {
		c.seen = slices.Grow(c.seen, word+1-len(c.seen))[:word+1]
	}
	c.seen[word] |= bit
	for _, p := range f.Points {
		r := pointRecord{id: int32(p.ID), x: p.X, y: p.Y}
		if p.HasColor {
			r.color, r.flags = packColor(p.Color), hasColor
		}
		c.b.addPoint(f.Index, 0, r)
	}
	for _, x := range f.Boxes {
		r := boxRecord{id: int32(x.ID), x: x.X, y: x.Y, w: x.W, h: x.H, class: c.b.class(x.Class)}
		if x.HasScore {
			r.score, r.flags = x.Score, hasScore
		}
		if x.HasColor {
			r.color, r.flags = packColor(x.Color), r.flags|hasColor
		}
		if x.Ignored {
			r.flags |= ignored
		}
		c.b.addBox(f.Index, 0, r)
	}
	return nil
}

// Tracks returns the Tracks of the frames added. The Collector is done with then.
func (c *Collector) Tracks() (*Tracks, error) {
	return c.b.finish(FormatAuto, BottomCenter)
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
