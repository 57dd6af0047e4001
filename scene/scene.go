// Package scene is trackink's input model: what is tracked in each frame of a video (points
// with track ids, boxes with ids, labels and scores, optional per-item colours) and the
// readers that build it from MOTChallenge text and from trackink's own JSON Lines format.
//
// Frames are numbered from 1, as in MOTChallenge. A reader rejects what it cannot draw
// faithfully (NaN or infinite coordinates, negative sizes, a track id used twice in one frame)
// with an error that names the file, the line and the field, so that a bad tracker output
// never turns into a silently wrong picture.
//
// Load reads a file, choosing the reader by extension (.txt and .csv are MOTChallenge, .jsonl
// and .ndjson are JSON Lines); Read does the same for any io.Reader. The formats are
// specified in the README's "Input formats" section.
package scene

// Color is a straight-alpha sRGB colour, 8 bits a channel.
type Color struct{ R, G, B, A uint8 }

// Point is one tracked point in a frame.
type Point struct {
	ID   int     // track id; unique within a frame
	X, Y float32 // pixels, origin at the frame's top-left corner
	// Color overrides the track's palette colour when HasColor is set.
	Color    Color
	HasColor bool
}

// Box is one tracked bounding box in a frame.
type Box struct {
	ID         int     // track id; unique among the boxes of a frame
	X, Y, W, H float32 // top-left corner and size in pixels; W, H >= 0
	Class      string  // optional class label ("person"); empty if none
	Score      float32 // detection confidence, meaningful when HasScore is set
	HasScore   bool
	Color      Color // overrides the palette colour when HasColor is set
	HasColor   bool
}

// Frame holds what is tracked in one video frame.
type Frame struct {
	Index  int // 1-based frame number
	Points []Point
	Boxes  []Box
}

// Tracks is a whole tracking file: frames in ascending order of Index, each index at most once.
// Frames with nothing tracked may be absent.
type Tracks struct {
	Frames []Frame
}

// At returns the frame with the given 1-based index, or nil if nothing is tracked there.
func (t *Tracks) At(index int) *Frame {
	lo, hi := 0, len(t.Frames)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if t.Frames[mid].Index < index {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(t.Frames) && t.Frames[lo].Index == index {
		return &t.Frames[lo]
	}
	return nil
}

// LastIndex returns the highest frame index that has anything tracked, or 0 if none.
func (t *Tracks) LastIndex() int {
	if len(t.Frames) == 0 {
		return 0
	}
	return t.Frames[len(t.Frames)-1].Index
}
