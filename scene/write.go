package scene

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Write writes t to w in format f, FormatJSONL or FormatMOT, with the frames numbered from 1
// (trackink's indexes, which both formats' readers take back by default). It returns what the
// format could not hold, one line each, for the caller to show: JSON Lines holds everything,
// MOTChallenge results hold tracked boxes with scores and no more.
//
// Reading what Write wrote, with the options t was read with, gives t back: the same frames,
// boxes and points. Numbers are written in the fewest digits that read back exactly.
func Write(w io.Writer, t *Tracks, f Format) (lost []string, err error) {
	return WriteWith(w, t, f, WriteOptions{})
}

// WriteOptions are what Write can be told beyond the format.
type WriteOptions struct {
	// ClassNames, for MOTChallenge results, numbers the boxes' classes: the field x (8th,
	// a world coordinate MOTChallenge's 2D tasks leave at -1) holds the index of a box's
	// class in ClassNames, -1 for a box without one, as multi-class MOT tools write it.
	// Read back with the same names (Options.ClassNames), the classes are the same. The
	// names go in a file of their own, one a line (WriteClassNames).
	ClassNames []string
}

// WriteWith is Write with options.
func WriteWith(w io.Writer, t *Tracks, f Format, o WriteOptions) (lost []string, err error) {
	bw := bufio.NewWriter(w)
	switch f {
	case FormatJSONL:
		writeJSONL(bw, t)
	case FormatMOT:
		lost = writeMOT(bw, t, o.ClassNames)
	default:
		return nil, fmt.Errorf("scene: cannot write %s; only %s and %s", f, FormatJSONL, FormatMOT)
	}
	return lost, bw.Flush()
}

func writeJSONL(w *bufio.Writer, t *Tracks) {
	var line []byte
	for f := range t.All() {
		line = append(line[:0], `{"frame":`...)
		line = strconv.AppendInt(line, int64(f.Index), 10)
		if len(f.Points) > 0 {
			line = append(line, `,"points":[`...)
			for i, p := range f.Points {
				if i > 0 {
					line = append(line, ',')
				}
				line = append(line, `{"id":`...)
				line = strconv.AppendInt(line, int64(p.ID), 10)
				line = appendMember(line, "x", p.X)
				line = appendMember(line, "y", p.Y)
				line = appendColor(line, p.Color, p.HasColor)
				line = append(line, '}')
			}
			line = append(line, ']')
		}
		if len(f.Boxes) > 0 {
			line = append(line, `,"boxes":[`...)
			for i, b := range f.Boxes {
				if i > 0 {
					line = append(line, ',')
				}
				line = append(line, '{')
				if b.ID != NoID {
					line = append(line, `"id":`...)
					line = strconv.AppendInt(line, int64(b.ID), 10)
					line = append(line, ',')
				}
				line = append(line, `"x":`...)
				line = appendFloat(line, b.X)
				line = appendMember(line, "y", b.Y)
				line = appendMember(line, "w", b.W)
				line = appendMember(line, "h", b.H)
				if b.Class != "" {
					line = append(line, `,"label":`...)
					line = appendString(line, b.Class)
				}
				if b.HasScore {
					line = appendMember(line, "score", b.Score)
				}
				line = appendColor(line, b.Color, b.HasColor)
				line = append(line, '}')
			}
			line = append(line, ']')
		}
		line = append(line, "}\n"...)
		w.Write(line)
	}
}

// WriteClassNames writes names one a line, the file ReadClassNames reads (darknet's
// .names): line n names class n-1.
func WriteClassNames(w io.Writer, names []string) error {
	bw := bufio.NewWriter(w)
	for _, n := range names {
		bw.WriteString(n)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// appendFloat appends v in the fewest digits that parse back to it as a float32.
func appendFloat(b []byte, v float32) []byte { return strconv.AppendFloat(b, float64(v), 'g', -1, 32) }

// appendString appends s as a JSON string. Labels are valid UTF-8 without control characters
// (checkLabel), so only quotes and backslashes need escapes.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// appendMember appends ,"key":v.
func appendMember(b []byte, key string, v float32) []byte {
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return appendFloat(b, v)
}

// appendColor appends ,"color":"#rrggbb" or "#rrggbbaa" when has is set.
func appendColor(b []byte, c Color, has bool) []byte {
	if !has {
		return b
	}
	b = append(b, `,"color":"`...)
	b = fmt.Appendf(b, "#%02x%02x%02x", c.R, c.G, c.B)
	if c.A != 0xff {
		b = fmt.Appendf(b, "%02x", c.A)
	}
	return append(b, '"')
}

// writeMOT writes t's tracked boxes as MOTChallenge results and returns what the text
// cannot hold, one line each. A box's tracked point is not lost: every box read from
// MOTChallenge text yields one, at the Tracks' anchor (AnchorPoint). So an explicit point
// (JSON Lines) is lost only when no written box makes it again: when no box of the frame
// has its id, or its box's anchor point is elsewhere; one at its box's anchor loses no more
// than its colour. A box whose point is lost, or that had none, yields one that was not
// there.
func writeMOT(w *bufio.Writer, t *Tracks, names []string) []string {
	var classes, colors, untracked, points, pointless, scores, ones int
	var line []byte
	// slots holds, for the frame being written, its tracked boxes that yield no point of
	// their own, by id (remadePoints).
	slots := make(map[int32]anchorSlot)
	// number[c] is the number of t's class c in names: -1 for none, -2 for one names lacks.
	number := make([]int, len(t.classes))
	for c, name := range t.classes {
		number[c] = -2
		if i := slices.Index(names, name); c == 0 || i >= 0 {
			number[c] = i
		}
	}
	for i := range t.frames {
		box0, box1, point0, point1 := t.span(i)
		var remade, pointColors int
		slots, remade, pointColors = t.remadePoints(box0, box1, point0, point1, slots)
		points += point1 - point0 - remade
		colors += pointColors
		for k := box0; k < box1; k++ {
			r := t.boxes.at(k)
			switch {
			case r.id == NoID:
				untracked++
				continue
			case r.flags&yieldPoint == 0 && !slots[r.id].remade:
				pointless++
			}
			if r.class != 0 && number[r.class] < 0 {
				classes++
			}
			if r.flags&hasColor != 0 {
				colors++
			}
			line = strconv.AppendInt(line[:0], int64(t.frames[i].index), 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(r.id), 10)
			for _, v := range []float32{r.x, r.y, r.w, r.h} {
				line = append(line, ',')
				line = appendFloat(line, v)
			}
			if r.flags&hasScore != 0 {
				scores++
				if r.score == 1 {
					ones++
				}
				line = append(line, ',')
				line = appendFloat(line, r.score)
			} else {
				line = append(line, ",-1"...)
			}
			if names != nil && number[r.class] >= 0 {
				line = append(line, ',')
				line = strconv.AppendInt(line, int64(number[r.class]), 10)
				line = append(line, ",-1,-1\n"...)
			} else {
				line = append(line, ",-1,-1,-1\n"...)
			}
			w.Write(line)
		}
	}
	var lost []string
	note := func(n int, format string, a ...any) {
		if n > 0 {
			lost = append(lost, fmt.Sprintf(format, append([]any{n}, a...)...))
		}
	}
	note(untracked, "%d untracked boxes not written: MOTChallenge rows need a track id")
	note(points, "%d tracked points not written: MOTChallenge holds boxes only")
	if names == nil {
		note(classes, "%d class names not written: MOTChallenge results have no class column")
	} else {
		note(classes, "%d class names not written: not among the class names")
	}
	note(colors, "%d colours not written")
	note(pointless, "%d boxes without a tracked point will yield one when read back (every MOTChallenge box does)")
	if scores > 0 && ones == scores {
		lost = append(lost, "every score is 1, which MOTChallenge readers take for the placeholder: read back, no box has a score")
	}
	return lost
}

// anchorSlot is a tracked box that yields no point of its own, for matching the frame's
// explicit points with it (remadePoints): its id's point is made again at the box's anchor
// when MOTChallenge text is read back.
type anchorSlot struct {
	at     Point // the box's anchor point
	remade bool  // the frame's explicit point of the id is at, so it is not lost
}

// remadePoints counts the explicit points of the frame whose boxes run from box0 to box1 and
// points from point0 to point1 that reading MOTChallenge text back makes again: each at the
// anchor point of the tracked box with its id, a box that yields no point of its own. colors
// counts the colours among them, which the text does not hold. It returns slots (cleared, or
// made anew after a crowded frame, since clearing a map costs what it once held) holding
// those boxes by id, remade set where the box's point was explicit.
func (t *Tracks) remadePoints(box0, box1, point0, point1 int, slots map[int32]anchorSlot) (_ map[int32]anchorSlot, n, colors int) {
	if len(slots) > 256 {
		slots = make(map[int32]anchorSlot)
	}
	clear(slots)
	if point0 == point1 {
		return slots, 0, 0
	}
	for k := box0; k < box1; k++ {
		if r := t.boxes.at(k); r.id != NoID && r.flags&yieldPoint == 0 {
			slots[r.id] = anchorSlot{at: AnchorPoint(r.x, r.y, r.w, r.h, t.anchor)}
		}
	}
	// The frame's points have ids of their own (checkItem), so each box has one at most.
	for k := point0; k < point1; k++ {
		p := t.points.at(k)
		if s, ok := slots[p.id]; ok && !s.remade && p.x == s.at.X && p.y == s.at.Y {
			s.remade = true
			slots[p.id] = s
			n++
			if p.flags&hasColor != 0 {
				colors++
			}
		}
	}
	return slots, n, colors
}
