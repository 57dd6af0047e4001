// Package scene is trackink's input model: what is tracked in each frame of a video (points
// with track ids, boxes with ids, classes and scores, optional per-item colours) and the
// readers that build it from the files trackers and annotation tools write: MOTChallenge
// text, trackink's own JSON Lines, supervision's CSVSink output, KITTI tracking labels, CVAT
// for video 1.1 XML and Ultralytics YOLO track results.
//
// Frames are numbered from 1 inside trackink, whatever the file's own convention: a reader
// turns the file's frame numbers into trackink's by the format's frame base (Options.FrameBase).
// A reader rejects what it cannot draw faithfully (NaN or infinite coordinates, negative
// sizes, a track id used twice in one frame) with an error that names the file, the line and
// the field, so that a bad tracker output never turns into a silently wrong picture.
//
// Load reads a file or, for YOLO results, a directory, choosing the reader by extension and
// content, as the command line's --tracks does; Read does the same for any io.Reader with
// FormatAuto, or uses the format it is given (FormatMOT, FormatJSONL, FormatSupervision,
// FormatKITTI, FormatCVAT, FormatYOLO). The
// formats, field by field, are specified in docs/formats.md; the command-line flags there map
// to Options fields: --anchor to Options.Anchor, --frame-base to Options.FrameBase,
// --untracked to Options.Untracked (an untracked box has the id NoID), --drop-ignored to
// Options.DropIgnored, --frame-column to Options.FrameColumn, --class-names to
// Options.ClassNames (read with ReadClassNames). YOLO's coordinates are fractions of the
// picture, so reading them needs Options.Width and Options.Height. One YOLO file may be read
// on its own with Read and its name, which gives the frame.
//
//	tracks, err := scene.Load("tracks.txt", scene.Options{})
//	var f scene.Frame
//	for i := tracks.FirstIndex(); i <= tracks.LastIndex(); i++ { // frames from 1
//		if tracks.Frame(i, &f) == nil { // fills f, reusing its slices
//			continue // nothing tracked in frame i
//		}
//	}
//
// A file that breaks a rule is rejected as a whole with a *ParseError (File, Line, Field,
// Msg). Tracks.Summary and Summary.WriteText say what a file holds (the tracks command);
// Write writes tracks as JSON Lines or MOTChallenge text (tracks --to).
//
// Tracks holds a whole file compactly (about 36 bytes a box, see Tracks) and hands out one
// frame at a time through Tracks.Frame, which fills a Frame the caller reuses.
package scene

import (
	"cmp"
	"fmt"
	"iter"
	"sort"
)

// Color is a straight-alpha sRGB colour, 8 bits a channel.
type Color struct{ R, G, B, A uint8 }

// String returns c as ParseColor reads it: "#rrggbb", or "#rrggbbaa" when not opaque.
func (c Color) String() string {
	if c.A == 0xff {
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return fmt.Sprintf("#%02x%02x%02x%02x", c.R, c.G, c.B, c.A)
}

// Point is one tracked point in a frame.
type Point struct {
	ID   int     // track id; unique within a frame
	X, Y float32 // pixels, origin at the frame's top-left corner
	// Color overrides the track's palette colour when HasColor is set.
	Color    Color
	HasColor bool
	// Source is the index of the tracks file the point came from where several are drawn
	// together (Merge); 0 otherwise.
	Source int
}

// NoID is the ID of an untracked box: a detection that no tracker followed (supervision's
// empty tracker_id, a YOLO line without an id), kept when Options.Untracked asks for it. Such
// a box yields no tracked point, so it has no links and no trail, and its label has no id.
const NoID = -1

// Box is one bounding box in a frame.
type Box struct {
	ID         int     // track id, unique among the boxes of a frame; NoID if untracked
	X, Y, W, H float32 // top-left corner and size in pixels; W, H >= 0
	Class      string  // class name ("person"), or the class number as text; empty if none
	Score      float32 // detection confidence, meaningful when HasScore is set
	HasScore   bool
	Color      Color // overrides the palette colour when HasColor is set
	HasColor   bool
	// Ignored marks ground truth that its dataset says not to score, kept for the
	// evaluation's ignore rules (Options.MarkIgnored): a MOTChallenge row whose consider
	// flag is 0, a KITTI object truncated or heavily occluded, a KITTI DontCare region.
	Ignored bool
	// Source is the index of the tracks file the box came from where several are drawn
	// together (Merge); 0 otherwise. An untracked box has no id to tell it by, so it is
	// told by this.
	Source int
}

// Frame holds what is tracked in one video frame.
type Frame struct {
	Index  int // 1-based frame number
	Points []Point
	Boxes  []Box
}

// Tracks is a whole tracking file: the frames that have something tracked, in ascending order
// of index. It is built by the readers (or NewTracks) and read-only after that; any number of
// goroutines may call its methods at once.
//
// It holds boxes and points in flat, chunked arrays with per-frame offsets rather than as
// Frames: a box takes 36 bytes (class names interned, colours packed, flags in a byte), and a
// point that a box yields (MOTChallenge and the other box formats) is not stored at all but
// made from its box when the frame is asked for. Read from a file in frame order, or
// collected in order (Collector), all but the first few megabytes of them are kept in a
// temporary file and read back as they are asked for, so that an hour of 100 boxes a frame
// at 30 fps, 10.8 million boxes, takes the memory of a minute's; out of order, they are
// sorted in memory, an hour's taking about 390 MB.
type Tracks struct {
	format   Format
	anchor   Anchor
	frames   []frameSpan
	boxes    chunks[boxRecord]
	points   chunks[pointRecord]
	classes  []string // interned class names; classes[0] is "", no class
	warnings []string
	layout   string   // Summary.Layout
	sources  []string // the files' names, where Merge drew several together
	spans    []Span   // each file's frames, where Merge drew several together
}

// frameSpan locates one frame's items: its boxes run from box to the next span's box (or the
// end), its points likewise.
type frameSpan struct {
	index      int32
	box, point uint32
}

// boxRecord is a Box as Tracks stores it.
type boxRecord struct {
	id         int32 // NoID when untracked
	x, y, w, h float32
	score      float32
	color      uint32 // packed RGBA, see packColor
	class      uint32 // index into Tracks.classes
	flags      uint8
	source     uint8 // Box.Source (in the padding: a box still takes 36 bytes)
}

// pointRecord is a Point as Tracks stores it.
type pointRecord struct {
	id     int32
	x, y   float32
	color  uint32
	flags  uint8
	source uint8 // Point.Source
}

// Flags of a boxRecord or pointRecord.
const (
	hasScore   = 1 << iota
	hasColor   // the colour overrides the palette's
	yieldPoint // the box yields a tracked point at the Tracks' anchor
	ignored    // Box.Ignored
)

func packColor(c Color) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}

func unpackColor(v uint32) Color {
	return Color{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}
}

// Format returns the format the tracks were read from (FormatAuto for NewTracks).
func (t *Tracks) Format() Format { return t.format }

// Warnings returns what the reader noticed but did not reject: rows it skipped on purpose
// (KITTI DontCare, untracked detections), columns it took for placeholders, and the like.
func (t *Tracks) Warnings() []string { return t.warnings }

// Err returns the first error in reading the tracks back from disk, or nil. The boxes and
// points of a long file in frame order are kept in a temporary file, not in memory (a
// 200 MB file is read in the memory of a 1 MB one), and read back as the frames are asked
// for; a frame that could not be read back comes with zero values in place of its items, so
// a caller that draws or scores them checks Err after reading.
func (t *Tracks) Err() error { return cmp.Or(t.boxes.err(), t.points.err()) }

// Len returns the number of frames that have something tracked.
func (t *Tracks) Len() int { return len(t.frames) }

// FirstIndex returns the lowest frame index that has anything tracked, or 0 if none.
func (t *Tracks) FirstIndex() int {
	if len(t.frames) == 0 {
		return 0
	}
	return int(t.frames[0].index)
}

// LastIndex returns the highest frame index that has anything tracked, or 0 if none.
func (t *Tracks) LastIndex() int {
	if len(t.frames) == 0 {
		return 0
	}
	return int(t.frames[len(t.frames)-1].index)
}

// Frame fills dst with the frame of the given 1-based index and returns dst, or returns nil
// (leaving dst empty, with that index) if nothing is tracked there. dst's slices are reused,
// so a caller that passes the same Frame for every frame allocates nothing once they have
// grown to the largest frame; what Frame returned before is overwritten.
//
// Points come in the order the file gives them, followed by the points that boxes yield, in
// the order of their boxes.
func (t *Tracks) Frame(index int, dst *Frame) *Frame {
	dst.Index = index
	dst.Points = dst.Points[:0]
	dst.Boxes = dst.Boxes[:0]
	i := sort.Search(len(t.frames), func(i int) bool { return int(t.frames[i].index) >= index })
	if i == len(t.frames) || int(t.frames[i].index) != index {
		return nil
	}
	t.fill(i, dst)
	return dst
}

// All returns the frames in ascending order of index. The Frame it yields is reused for the
// next one.
func (t *Tracks) All() iter.Seq[*Frame] {
	return func(yield func(*Frame) bool) {
		var f Frame
		for i := range t.frames {
			f.Index = int(t.frames[i].index)
			f.Points = f.Points[:0]
			f.Boxes = f.Boxes[:0]
			t.fill(i, &f)
			if !yield(&f) {
				return
			}
		}
	}
}

// span returns the ranges of boxes and points of the i-th frame.
func (t *Tracks) span(i int) (box0, box1, point0, point1 int) {
	s := t.frames[i]
	box1, point1 = t.boxes.n, t.points.n
	if i+1 < len(t.frames) {
		box1, point1 = int(t.frames[i+1].box), int(t.frames[i+1].point)
	}
	return int(s.box), box1, int(s.point), point1
}

// fill appends the i-th frame's items to f.
func (t *Tracks) fill(i int, f *Frame) {
	box0, box1, point0, point1 := t.span(i)
	for k := point0; k < point1; k++ {
		r := t.points.at(k)
		f.Points = append(f.Points, Point{ID: int(r.id), X: r.x, Y: r.y,
			Color: unpackColor(r.color), HasColor: r.flags&hasColor != 0, Source: int(r.source)})
	}
	for k := box0; k < box1; k++ {
		r := t.boxes.at(k)
		b := Box{ID: int(r.id), X: r.x, Y: r.y, W: r.w, H: r.h, Class: t.classes[r.class],
			Color: unpackColor(r.color), HasColor: r.flags&hasColor != 0, Ignored: r.flags&ignored != 0, Source: int(r.source)}
		if r.flags&hasScore != 0 {
			b.Score, b.HasScore = r.score, true
		}
		f.Boxes = append(f.Boxes, b)
	}
	for k := box0; k < box1; k++ {
		if r := t.boxes.at(k); r.flags&yieldPoint != 0 {
			f.Points = append(f.Points, t.anchorPoint(&r))
		}
	}
}

// anchorPoint returns the tracked point that box r yields, with its id and colour.
func (t *Tracks) anchorPoint(r *boxRecord) Point {
	p := AnchorPoint(r.x, r.y, r.w, r.h, t.anchor)
	p.ID, p.Color, p.HasColor, p.Source = int(r.id), unpackColor(r.color), r.flags&hasColor != 0, int(r.source)
	return p
}

// AnchorPoint is the tracked point at anchor a of the box at x, y of size w × h, as every
// reader makes it: a writer that puts boxes and their points in one file makes them so, and
// reading the file gives the same points back.
func AnchorPoint(x, y, w, h float32, a Anchor) Point {
	// Summed in float64, so that each coordinate is rounded to float32 only once.
	p := Point{X: float32(float64(x) + float64(w)/2), Y: float32(float64(y) + float64(h))}
	if a == Center {
		p.Y = float32(float64(y) + float64(h)/2)
	}
	return p
}
