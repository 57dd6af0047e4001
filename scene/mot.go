package scene

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// MOTChallenge field names, as the MOT16 paper and TrackEval call them, for error messages.
var (
	motResultFields = []string{"frame", "id", "bb_left", "bb_top", "bb_width", "bb_height", "conf", "x", "y", "z"}
	motTruthFields  = []string{"frame", "id", "bb_left", "bb_top", "bb_width", "bb_height", "consider_flag", "class", "visibility"}
)

// motClasses names the MOT17/MOT20 ground-truth classes; index 0 is unused.
var motClasses = []string{"", "pedestrian", "person_on_vehicle", "car", "bicycle", "motorbike",
	"non_motorized_vehicle", "static_person", "distractor", "occluder", "occluder_on_ground",
	"occluder_full", "reflection", "crowd"}

// motReader reads MOTChallenge text. Rows of one frame may be spread over the file, so
// frames are collected in a map and sorted at the end.
type motReader struct {
	file   string
	opts   Options
	fields []string // motResultFields or motTruthFields, fixed by the first row
	first  int      // line of the first row, for the column-count error

	frames  []*motFrame
	byIndex map[int]*motFrame
	last    *motFrame // the previous row's frame: rows are usually grouped by frame

	rows int // boxes kept, in all frames

	// realScores is set once some conf is neither 1 nor -1; until then the column may be
	// the placeholder that many trackers fill with 1, which is no score at all.
	realScores bool
}

// motFrame collects one frame's rows.
type motFrame struct {
	index int
	boxes []Box
	lines []int32 // lines[i] is the line boxes[i] came from, for duplicate-id errors
	// ids maps a track id to its position in boxes. It exists only for crowded frames: up
	// to motScanLimit boxes a linear scan is faster than hashing and costs no memory.
	ids map[int]int
}

const motScanLimit = 32

func newMOTReader(file string, opts Options) *motReader {
	return &motReader{file: file, opts: opts, byIndex: make(map[int]*motFrame)}
}

func (m *motReader) parseLine(n int, line string) error {
	line = trimSpaces(line)
	if line == "" || line[0] == '#' {
		return nil
	}
	count := strings.Count(line, ",") + 1
	if m.fields == nil {
		switch count {
		case len(motResultFields):
			m.fields = motResultFields
		case len(motTruthFields):
			m.fields = motTruthFields
		default:
			return &ParseError{File: m.file, Line: n, Msg: fmt.Sprintf("has %d comma-separated fields; want 10 "+
				"(frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z) or 9 (MOT17 ground truth: "+
				"frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility)", count)}
		}
		m.first = n
	} else if count != len(m.fields) {
		return &ParseError{File: m.file, Line: n, Msg: fmt.Sprintf("has %d comma-separated fields, but line %d has %d",
			count, m.first, len(m.fields))}
	}

	var f [10]string
	for i := range count - 1 {
		comma := strings.IndexByte(line, ',')
		f[i] = trimSpaces(line[:comma])
		line = line[comma+1:]
	}
	f[count-1] = trimSpaces(line)
	bad := func(col int, msg string) error {
		return &ParseError{File: m.file, Line: n, Field: fmt.Sprintf("field %d (%s)", col+1, m.fields[col]), Msg: msg}
	}

	frame, msg := parseInt(f[0])
	if msg == "" {
		msg = checkFrame(frame, f[0])
	}
	if msg != "" {
		return bad(0, msg)
	}
	id, msg := parseInt(f[1])
	if msg == "" {
		msg = checkID(id, f[1])
	}
	if msg != "" {
		return bad(1, msg)
	}
	var v [4]float64 // left, top, width, height
	for i := range v {
		s := f[2+i]
		v[i], msg = parseNumber(s, 32)
		if msg == "" && i < 2 {
			msg = checkCoord(v[i], s)
		} else if msg == "" {
			msg = checkSize(v[i], s)
		}
		if msg != "" {
			return bad(2+i, msg)
		}
	}
	b := Box{ID: id, X: float32(v[0]), Y: float32(v[1]), W: float32(v[2]), H: float32(v[3])}

	keep := true
	if len(m.fields) == len(motResultFields) {
		conf, msg := parseNumber(f[6], 32)
		if msg == "" && conf != -1 {
			if msg = checkUnit(conf, f[6]); msg != "" {
				msg += " (and is not -1, which means no score)"
			}
		}
		if msg != "" {
			return bad(6, msg)
		}
		if conf != -1 {
			b.Score, b.HasScore = float32(conf), true
		}
		m.realScores = m.realScores || (conf != 1 && conf != -1)
		// x, y, z are world coordinates that only MOT15's 3D task fills in; they are checked
		// to be numbers, so that a shifted column shows, and otherwise ignored.
		for i := 7; i < 10; i++ {
			if _, msg := parseNumber(f[i], 64); msg != "" {
				return bad(i, msg)
			}
		}
	} else {
		consider, msg := parseInt(f[6])
		if msg == "" && consider != 0 && consider != 1 {
			msg = f[6] + " is not 0 or 1"
		}
		if msg != "" {
			return bad(6, msg)
		}
		class, msg := parseInt(f[7])
		if msg == "" && (class < 1 || class >= len(motClasses)) {
			msg = fmt.Sprintf("%s is not a MOTChallenge class (1 to %d)", f[7], len(motClasses)-1)
		}
		if msg != "" {
			return bad(7, msg)
		}
		vis, msg := parseNumber(f[8], 64)
		if msg == "" {
			msg = checkUnit(vis, f[8])
		}
		if msg != "" {
			return bad(8, msg)
		}
		b.Class = motClasses[class]
		keep = consider == 1 || !m.opts.DropIgnored
	}
	if !keep {
		return nil
	}

	fr := m.frame(frame)
	if at := fr.find(id); at >= 0 {
		return bad(1, fmt.Sprintf("track %d appears twice in frame %d (also line %d)", id, frame, fr.lines[at]))
	}
	fr.add(b, n)
	m.rows++
	return nil
}

// frame returns the collector for frame index, creating it on first use.
func (m *motReader) frame(index int) *motFrame {
	if m.last != nil && m.last.index == index {
		return m.last
	}
	fr := m.byIndex[index]
	if fr == nil {
		// Neighbouring frames hold about as many boxes, so the previous row's frame is a
		// good guess at this one's size, and saves growing the slices box by box.
		size := 4
		if m.last != nil {
			size = max(size, len(m.last.boxes))
		}
		fr = &motFrame{index: index, boxes: make([]Box, 0, size), lines: make([]int32, 0, size)}
		m.byIndex[index] = fr
		m.frames = append(m.frames, fr)
	}
	m.last = fr
	return fr
}

// find returns the position of track id among the frame's boxes, or -1.
func (f *motFrame) find(id int) int {
	if f.ids != nil {
		if at, ok := f.ids[id]; ok {
			return at
		}
		return -1
	}
	for i := range f.boxes {
		if f.boxes[i].ID == id {
			return i
		}
	}
	return -1
}

func (f *motFrame) add(b Box, line int) {
	f.boxes = append(f.boxes, b)
	f.lines = append(f.lines, int32(min(line, math.MaxInt32)))
	switch {
	case f.ids != nil:
		f.ids[b.ID] = len(f.boxes) - 1
	case len(f.boxes) > motScanLimit:
		f.ids = make(map[int]int, 2*len(f.boxes))
		for i := range f.boxes {
			f.ids[f.boxes[i].ID] = i
		}
	}
}

func (m *motReader) finish() *Tracks {
	t := &Tracks{}
	if len(m.frames) > 0 {
		t.Frames = make([]Frame, len(m.frames))
	}
	// The points are made here, now that the number of boxes is known, all in one
	// allocation rather than in a slice per frame grown row by row.
	points := make([]Point, m.rows)
	for i, fr := range m.frames {
		ps := points[:len(fr.boxes):len(fr.boxes)]
		points = points[len(fr.boxes):]
		for j := range fr.boxes {
			b := &fr.boxes[j]
			if !m.realScores {
				b.Score, b.HasScore = 0, false
			}
			// Summed in float64, so that each coordinate is rounded to float32 only once.
			ps[j] = Point{ID: b.ID, X: float32(float64(b.X) + float64(b.W)/2), Y: float32(float64(b.Y) + float64(b.H))}
			if m.opts.Anchor == Center {
				ps[j].Y = float32(float64(b.Y) + float64(b.H)/2)
			}
		}
		t.Frames[i] = Frame{Index: fr.index, Points: ps, Boxes: fr.boxes}
	}
	slices.SortFunc(t.Frames, func(a, b Frame) int { return a.Index - b.Index })
	return t
}
