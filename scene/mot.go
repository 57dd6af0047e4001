package scene

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// MOTChallenge field names, as the MOT16 paper and TrackEval call them, for error messages.
var (
	motResultFields = []string{"frame", "id", "bb_left", "bb_top", "bb_width", "bb_height", "conf", "x", "y", "z"}
	motTruthFields  = []string{"frame", "id", "bb_left", "bb_top", "bb_width", "bb_height", "consider_flag", "class", "visibility"}
	// motTruth10Fields is MOT15's ground truth: the results' layout with the consider flag
	// where the results have conf.
	motTruth10Fields = []string{"frame", "id", "bb_left", "bb_top", "bb_width", "bb_height", "consider_flag", "x", "y", "z"}
	// motScoredTruthFields is the 9-field layout read with class names (BoxMOT's results:
	// COCO's class + 1, then the confidence).
	motScoredTruthFields = []string{"frame", "id", "bb_left", "bb_top", "bb_width", "bb_height", "consider_flag", "class", "conf"}
	// motBoxFields are the six fields every MOTChallenge line begins with, which some tools
	// write alone.
	motBoxFields = motResultFields[:6]
)

// motClasses names the MOT17/MOT20 ground-truth classes; index 0 is unused.
var motClasses = []string{"", "pedestrian", "person_on_vehicle", "car", "bicycle", "motorbike",
	"non_motorized_vehicle", "static_person", "distractor", "occluder", "occluder_on_ground",
	"occluder_full", "reflection", "crowd"}

// motReader reads MOTChallenge text.
type motReader struct {
	b     *builder
	opts  Options
	base  int
	row   row
	first int // line of the first row, for the column-count error
	// spaces is set when the first row has no comma: the file's fields are separated by
	// spaces or tabs, as some trackers write MOTChallenge text (numpy's savetxt with
	// '%g ' * 10), which py-motmetrics and TrackEval read too.
	spaces bool

	// realScores is set once some conf is neither 1 nor -1; until then the column may be
	// the placeholder that many trackers fill with 1, which is no score at all.
	realScores bool
	// classes reads the 9-field layout's 8th field, from its first row on.
	classes motClassField
	// layout says how the file was read, where it can be read several ways (Summary).
	layout string
	// untracked counts the boxes of id -1 in the 9-field layout left out (SkipUntracked).
	untracked int
}

// motClassField is how the 9-field layout's 8th field is read: class number n (from 1) is
// names[n-1]. Its numbers are MOTChallenge's classes, unless the file says otherwise: a
// labels.txt beside it (CVAT's MOT 1.1), or class names given (BoxMOT's COCO class + 1).
type motClassField struct {
	names   []string
	classes []uint32 // names' indexes in the builder
	of      string   // what the numbers number, for errors; "" for MOTChallenge's classes
	scores  bool     // the 9th field is the box's score, not a visibility
}

func newMOTReader(file string, opts Options) *motReader {
	m := &motReader{b: opts.builder(file, "field 2 (id)", opts.base(FormatMOT)), opts: opts, base: opts.base(FormatMOT)}
	m.row.file = file
	return m
}

// readClassField decides how the 9-field layout's 8th field is read, at its first row:
// by the class names given (BoxMOT: COCO's class + 1; the 9th field, its confidence, is the
// score but where the file is read as ground truth), by the labels.txt beside the file (CVAT's
// MOT 1.1, whose 9th field is MOTChallenge's visibility), or as MOTChallenge's classes.
func (m *motReader) readClassField() error {
	c := &m.classes
	labels := ""
	if m.opts.path != "" && !m.opts.NoLabelsFile {
		labels = filepath.Join(filepath.Dir(m.opts.path), LabelsFile)
		if info, err := os.Stat(labels); err != nil || !info.Mode().IsRegular() {
			labels = ""
		}
	}
	switch {
	case m.opts.ClassNames != nil:
		c.names, c.of = m.opts.ClassNames, "the class names"
		c.scores = !m.opts.DropIgnored && !m.opts.MarkIgnored
		m.layout = "9 fields: class numbers the class names from 1, as BoxMOT writes COCO's class + 1"
		if c.scores {
			m.row.names = motScoredTruthFields
			m.layout += "; the 9th field is the score"
		}
	case labels != "":
		names, err := readLabelsFile(labels)
		if err != nil {
			return fmt.Errorf("the labels beside %s (CVAT's MOT 1.1): %w", m.row.file, err)
		}
		c.names, c.of = names, "the labels in "+labels
		m.layout = "9 fields, CVAT's MOT 1.1: class numbers the lines of " + labels
	default:
		c.names = motClasses[1:]
		m.layout = "9 fields, MOT17 ground truth: class is MOTChallenge's"
	}
	for _, name := range c.names {
		c.classes = append(c.classes, m.b.class(name))
	}
	return nil
}

// class checks the 8th field's class number v, written s, and returns the box's class in the
// builder (0: none).
func (c *motClassField) class(v int, s string) (uint32, string) {
	if c.of == "" {
		if v < 1 || v > len(c.names) {
			return 0, fmt.Sprintf("%s is not a MOTChallenge class (1 to %d); a file whose 8th field numbers other classes "+
				"(CVAT's MOT 1.1, BoxMOT) needs --class-names FILE or a %s beside it", s, len(c.names), LabelsFile)
		}
		return c.classes[v-1], ""
	}
	i, msg := numberedClass(c.names, 1, c.of, v, s)
	if msg != "" || i < 0 {
		return 0, msg
	}
	return c.classes[i], ""
}

// numberedClass checks class number v, written s, of names numbered from first (0 or 1),
// of saying what they are for the message; -1 is no class. It returns the class's index in
// names, or -1 for none.
func numberedClass(names []string, first int, of string, v int, s string) (int, string) {
	i := v - first
	switch {
	case v == -1:
		return -1, ""
	case len(names) == 0:
		return 0, fmt.Sprintf("%s is not a class number of %s, which are none (-1 is no class)", s, of)
	case i < 0 || i >= len(names):
		msg := fmt.Sprintf("%s is not a class number of %s (%d to %d, or -1 for none)", s, of, first, len(names)-1+first)
		if v == 0 {
			msg += ": this layout numbers them from 1"
		}
		return 0, msg
	case names[i] == "":
		return 0, fmt.Sprintf("%s is a class number %s leave unnamed", s, of)
	}
	return i, ""
}

// spacedMOT reports whether fields, split at spaces, begin as a MOTChallenge line does: a
// frame and an id, whole numbers (where a YOLO segment's second number is a fraction).
func spacedMOT(fields []string) bool {
	return len(fields) > 1 && isWhole(fields[0]) && isWhole(fields[1])
}

func (m *motReader) parseLine(n int, line string) error {
	line = trimSpaces(line)
	if line == "" || line[0] == '#' {
		return nil
	}
	r := &m.row
	r.line = n
	if r.names == nil {
		m.spaces = strings.IndexByte(line, ',') < 0 && spacedMOT(splitSpaces(line, r.f))
	}
	sep := "comma"
	if m.spaces {
		r.f, sep = splitSpaces(line, r.f), "space"
	} else {
		r.f = splitCommas(line, r.f)
		// A comma after the last field, as some SORT forks write: 11 or 7 fields, the
		// last empty. (After 9 it could be an empty z: that stays an error.)
		if k := len(r.f); (k == len(motResultFields)+1 || k == len(motBoxFields)+1) && r.f[k-1] == "" {
			r.f = r.f[:k-1]
		}
	}
	count := len(r.f)
	if r.names == nil {
		switch count {
		case len(motResultFields):
			r.names = motResultFields
			if m.opts.DropIgnored || m.opts.MarkIgnored {
				r.names = motTruth10Fields
			}
		case len(motTruthFields):
			r.names = motTruthFields
			if err := m.readClassField(); err != nil {
				return err
			}
		case len(motBoxFields):
			r.names = motBoxFields
		default:
			return &ParseError{File: r.file, Line: n, Msg: fmt.Sprintf("has %d %s-separated fields; want 10 "+
				"(frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z), 9 (MOT17 ground truth: "+
				"frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility) or 6 "+
				"(frame,id,bb_left,bb_top,bb_width,bb_height)%s", count, sep, csvHint(r.file))}
		}
		m.first = n
	} else if count != len(r.names) {
		return &ParseError{File: r.file, Line: n, Msg: fmt.Sprintf("has %d %s-separated fields, but line %d has %d",
			count, sep, m.first, len(r.names))}
	}

	frame, err := r.frame(0, m.base)
	if err != nil {
		return err
	}
	check := checkID
	if len(r.names) == len(motTruthFields) {
		check = checkTruthLayoutID
	}
	id, err := r.integer(1, check)
	if err != nil {
		return err
	}
	if id == NoID && m.opts.Untracked == RefuseUntracked {
		return r.fail(1, untrackedMsg)
	}
	b, err := r.box(2, false)
	if err != nil {
		return err
	}
	b.id = int32(id)
	if id != NoID {
		b.flags |= yieldPoint
	}

	switch len(r.names) {
	case len(motResultFields):
		if m.opts.DropIgnored || m.opts.MarkIgnored {
			// Ground truth in the 10-field layout (MOT15): the 7th field is the consider
			// flag, not a confidence, and a row marked 0 is not scored (TrackEval's
			// zero_marked); x, y and z are checked as the results' are. Results used as
			// ground truth (trackink's own MOT text, another tracker's) hold a confidence or
			// -1 there, and are scored but where it is 0 (TrackEval, which reads the field
			// as an integer, also drops a fractional confidence: docs/formats.md).
			consider, err := r.number(6, 64, checkConsiderOrScore)
			if err != nil {
				return err
			}
			for i := 7; i < 10; i++ {
				if _, err := r.number(i, 64, nil); err != nil {
					return err
				}
			}
			switch {
			case m.opts.MarkIgnored:
				if math.Trunc(consider) == 0 {
					b.flags |= ignored
				}
			case consider == 0:
				return nil
			}
			m.b.addBox(frame, n, b)
			return nil
		}
		conf, msg := parseNumber(r.f[6], 32)
		if msg == "" && conf != -1 {
			if msg = checkUnit(conf, r.f[6]); msg != "" {
				msg += " (and is not -1, which means no score)"
			}
		}
		if msg != "" {
			return r.fail(6, msg)
		}
		if conf != -1 {
			b.score, b.flags = float32(conf), b.flags|hasScore
		}
		m.realScores = m.realScores || (conf != 1 && conf != -1)
		// x, y, z are world coordinates that only MOT15's 3D task fills in; they are checked
		// to be numbers, so that a shifted column shows, and otherwise ignored. With class
		// names, x holds a class number (-1: none), as trackink writes several classes and
		// as multi-class MOT tools (VisDrone's object_category) do.
		first := 7
		if m.opts.ClassNames != nil {
			class, err := r.integer(7, func(v int, s string) string {
				_, msg := numberedClass(m.opts.ClassNames, 0, "the class names", v, s)
				return msg
			})
			if err != nil {
				return err
			}
			if class >= 0 {
				b.class = m.b.class(classText(&m.opts, class))
			}
			first = 8
		}
		for i := first; i < 10; i++ {
			if _, err := r.number(i, 64, nil); err != nil {
				return err
			}
		}
	case len(motTruthFields):
		consider, err := r.integer(6, checkConsider)
		if err != nil {
			return err
		}
		if _, err := r.integer(7, func(v int, s string) (msg string) {
			b.class, msg = m.classes.class(v, s)
			return msg
		}); err != nil {
			return err
		}
		// A visibility (checked, not drawn) or, read with class names, a confidence.
		v, err := r.number(8, 64, checkUnit)
		if err != nil {
			return err
		}
		if m.classes.scores {
			b.score, b.flags = float32(v), b.flags|hasScore
			m.realScores = m.realScores || v != 1
		}
		switch {
		case consider != 0:
		case m.opts.MarkIgnored:
			b.flags |= ignored
		case m.opts.DropIgnored:
			return nil
		}
		if b.id == NoID && m.opts.Untracked == SkipUntracked {
			m.untracked++
			return nil
		}
	}
	m.b.addBox(frame, n, b)
	return nil
}

// checkTruthLayoutID checks a track id of the 9-field layout, where -1 (NoID) is a box in no
// track: CVAT's MOT export (datumaro's MotSeqGtExporter) writes it for the boxes drawn
// outside a track. Such a box is an untracked detection (Options.Untracked). Elsewhere -1
// marks a detection file (det.txt, 10 fields), which holds no tracks and is refused.
func checkTruthLayoutID(v int, s string) string {
	if v == NoID {
		return ""
	}
	return checkID(v, s)
}

// box parses the four fields from col on as a box in pixels: left, top, then width and height
// or, with corners set, right and bottom.
func (r *row) box(col int, corners bool) (boxRecord, error) {
	var v [4]float64
	for i := range v {
		check := checkCoord
		if i >= 2 && !corners {
			check = checkSize
		}
		var err error
		if v[i], err = r.number(col+i, 32, check); err != nil {
			return boxRecord{}, err
		}
	}
	if corners {
		for i := 2; i < 4; i++ {
			switch v[i] -= v[i-2]; {
			case v[i] < 0:
				return boxRecord{}, r.fail(col+i, fmt.Sprintf("%s is less than the %s, %s", r.f[col+i], r.names[col+i-2], r.f[col+i-2]))
			case v[i] > MaxCoord:
				return boxRecord{}, r.fail(col+i, fmt.Sprintf("the box is more than 1e7 px across (from %s to %s)", r.f[col+i-2], r.f[col+i]))
			}
		}
	}
	b := boxRecord{x: float32(v[0]), y: float32(v[1]), w: float32(v[2]), h: float32(v[3])}
	if size, msg := farEdgeProblem(b.x, b.y, b.w, b.h); msg != "" {
		return boxRecord{}, r.fail(col+2+size, msg)
	}
	return b, nil
}

func (m *motReader) finish() (*Tracks, error) {
	if m.untracked > 0 {
		m.b.warn("%d untracked boxes (id -1, as CVAT writes a box in no track) skipped; --untracked draw shows them", m.untracked)
	}
	if !m.realScores {
		m.b.clearScores()
	}
	t, err := m.b.finish(FormatMOT, m.opts.Anchor)
	if t != nil {
		t.layout = m.layout
	}
	return t, err
}

// checkConsiderOrScore checks the 7th of 10 fields read as ground truth: the consider flag,
// 0 (not scored) or 1, or a results file's confidence, within [0,1] or -1 (none).
func checkConsiderOrScore(v float64, s string) string {
	if v != -1 && !(v >= 0 && v <= 1) {
		return s + " is neither a consider flag, 0 or 1, nor a confidence, 0 to 1 or -1"
	}
	return ""
}

// checkConsider checks a ground truth's consider flag: 0 (not scored) or 1.
func checkConsider(v int, s string) string {
	if v != 0 && v != 1 {
		return s + " is not 0 or 1"
	}
	return ""
}
