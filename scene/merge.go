package scene

import (
	"fmt"
	"math"
)

// MaxSources is how many tracks files Merge draws together: a box keeps its file's index in
// a byte.
const MaxSources = 255

// Merge returns the tracks of several files drawn together, frame by frame: parts[k], read
// from the file named names[k], becomes source k. Track ids of different files never meet:
// id i of source k becomes MergedID(i, k, len(parts)), so that track 3 of one file and track
// 3 of another are two tracks (two trails, two colours, two labels' places); FileID gives
// back the file's own id, and every box and point says its file in Source. Untracked boxes
// stay NoID. A frame holds the first file's items, then the second's, and so on.
//
// One part is returned as it is, its name kept (Sources). The parts must have been read
// with the same anchor. Frames in order stay in the memory of a short file (the parts'
// items are copied, spilling to disk past a few megabytes as a reader's do); the parts are
// not needed after. An id too large to be made distinct (past MaxID / len(parts)) is an
// error naming its file.
func Merge(parts []*Tracks, names []string) (*Tracks, error) {
	n := len(parts)
	switch {
	case n == 0 || n != len(names):
		return nil, fmt.Errorf("scene: Merge: %d tracks for %d names", n, len(names))
	case n > MaxSources:
		return nil, fmt.Errorf("scene: Merge: %d tracks files; at most %d are drawn together", n, MaxSources)
	case n == 1:
		parts[0].sources = []string{names[0]}
		return parts[0], nil
	}
	b := newBuilder("", "", 1)
	spans := make([]Span, n)
	for k, p := range parts {
		spans[k] = p.Span()
	}
	classOf := make([][]uint32, n) // each part's class numbers in the merged tracks
	for k, p := range parts {
		if p.anchor != parts[0].anchor {
			return nil, fmt.Errorf("scene: Merge: %s was read with another anchor than %s", names[k], names[0])
		}
		classOf[k] = make([]uint32, len(p.classes))
		for i, c := range p.classes {
			classOf[k][i] = b.class(c)
		}
	}
	// The highest id of source k that stays within MaxID once merged.
	most := func(k int) int32 { return int32(MaxFileID(k, n)) }
	at := make([]int, n) // each part's next frame
	for {
		index := int32(math.MaxInt32)
		for k, p := range parts {
			if at[k] < len(p.frames) {
				index = min(index, p.frames[at[k]].index)
			}
		}
		if index == math.MaxInt32 {
			break
		}
		for k, p := range parts {
			if at[k] == len(p.frames) || p.frames[at[k]].index != index {
				continue
			}
			box0, box1, point0, point1 := p.span(at[k])
			at[k]++
			for i := point0; i < point1; i++ {
				r := p.points.at(i)
				if r.id > most(k) {
					return nil, tooLarge(names[k], r.id, n, most(k))
				}
				r.id, r.source = int32(MergedID(int(r.id), k, n)), uint8(k)
				b.addPoint(int(index), 0, r)
			}
			for i := box0; i < box1; i++ {
				r := p.boxes.at(i)
				if r.id > most(k) {
					return nil, tooLarge(names[k], r.id, n, most(k))
				}
				r.id, r.source, r.class = int32(MergedID(int(r.id), k, n)), uint8(k), classOf[k][r.class]
				b.addBox(int(index), 0, r)
			}
		}
	}
	format := parts[0].format
	for k, p := range parts {
		if err := p.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", names[k], err)
		}
		if p.format != format {
			format = FormatAuto
		}
		for _, w := range p.warnings {
			b.warn("%s: %s", names[k], w)
		}
	}
	t, err := b.finish(format, parts[0].anchor)
	if err != nil {
		return nil, err
	}
	t.sources, t.spans = names, spans
	return t, nil
}

// Span is the frames one tracks file holds: Frames of them, from First to Last (all 0 for
// an empty file).
type Span struct{ First, Last, Frames int }

// Span returns the frames the tracks hold (all 0 when empty).
func (t *Tracks) Span() Span {
	return Span{First: t.FirstIndex(), Last: t.LastIndex(), Frames: t.Len()}
}

// Spans returns each file's frames, in the order Merge was given them, where it drew several
// together (what is drawn of each is told apart: one that draws nothing is named); nil
// otherwise.
func (t *Tracks) Spans() []Span { return t.spans }

func tooLarge(name string, id int32, n int, most int32) error {
	return fmt.Errorf("%s: track id %d: with %d tracks files drawn together a file's ids go up to %d (each file's are made distinct from the others')", name, id, n, most)
}

// MaxFileID is the highest track id of file k of n drawn together that Merge can make
// distinct (MergedID stays within MaxID); MaxID for one file.
func MaxFileID(k, n int) int {
	if n <= 1 {
		return MaxID
	}
	return (MaxID - k) / n
}

// MergedID is the id that Merge gives track id of source k of n: id·n + k, so that ids of
// different files never meet and the palette still cycles with the file's ids. NoID stays
// NoID.
func MergedID(id, k, n int) int {
	if id == NoID || n <= 1 {
		return id
	}
	return id*n + k
}

// FileID is the id in its own file of a track Merge numbered id among n files (MergedID's
// inverse); NoID stays NoID.
func FileID(id, n int) int {
	if id == NoID || n <= 1 {
		return id
	}
	return id / n
}

// Sources returns the names of the files the tracks were read from, in the order Merge was
// given them (Box.Source indexes them); nil for tracks not given to Merge.
func (t *Tracks) Sources() []string { return t.sources }
