package scene

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// supervisionHeader is the start of every header that supervision's CSVSink writes (its
// BASE_HEADER); the detections' data keys (class_name, …) and the custom_data keys follow,
// sorted by name.
var supervisionHeader = []string{"x_min", "y_min", "x_max", "y_max", "class_id", "confidence", "tracker_id"}

var checkTrackerID = idCheck("an untracked detection has an empty tracker_id")

// supervisionReader reads the CSV that supervision's CSVSink writes.
type supervisionReader struct {
	b      *builder
	opts   Options
	base   int
	row    row
	header int // the header's line; 0 until it is read

	frameCol, classNameCol int // -1 when absent
	classes                map[string]uint32
	untracked              int // untracked detections skipped
}

func newSupervisionReader(file string, opts Options) *supervisionReader {
	base := opts.base(FormatSupervision)
	s := &supervisionReader{b: opts.builder(file, "field 7 (tracker_id)", base), opts: opts, base: base,
		classes: make(map[string]uint32)}
	s.row.file = file
	return s
}

func (s *supervisionReader) parseLine(n int, line string) error {
	r := &s.row
	r.line = n
	if trimSpaces(line) == "" {
		return nil
	}
	var msg string
	if r.f, msg = splitCSV(line, r.f); msg != "" {
		return &ParseError{File: r.file, Line: n, Msg: msg}
	}
	if s.header == 0 {
		return s.readHeader(n)
	}
	if len(r.f) != len(r.names) {
		return &ParseError{File: r.file, Line: n, Msg: fmt.Sprintf("has %d comma-separated fields, but the header (line %d) has %d",
			len(r.f), s.header, len(r.names))}
	}

	frame, err := r.frame(s.frameCol, s.base)
	if err != nil {
		return err
	}
	b, err := r.box(0, true)
	if err != nil {
		return err
	}
	if b.class, err = s.class(); err != nil {
		return err
	}
	if r.f[5] != "" { // confidence: empty when the model gives none
		score, err := r.number(5, 32, checkUnit)
		if err != nil {
			return err
		}
		b.score, b.flags = float32(score), b.flags|hasScore
	}
	b.id = NoID
	if r.f[6] != "" {
		id, err := r.integer(6, checkTrackerID)
		if err != nil {
			return err
		}
		b.id, b.flags = int32(id), b.flags|yieldPoint
	} else if s.opts.Untracked == RefuseUntracked {
		return r.fail(6, untrackedMsg)
	} else if s.opts.Untracked == SkipUntracked {
		s.untracked++
		return nil
	}
	s.b.addBox(frame, n, b)
	return nil
}

// readHeader takes the column names from the header, line n.
func (s *supervisionReader) readHeader(n int) error {
	r := &s.row
	s.header = n
	if len(r.f) < len(supervisionHeader) || !slices.Equal(r.f[:len(supervisionHeader)], supervisionHeader) {
		return &ParseError{File: r.file, Line: n, Msg: fmt.Sprintf("the header does not start with %s, as supervision's CSVSink writes it",
			strings.Join(supervisionHeader, ","))}
	}
	r.names = slices.Clone(r.f)
	seen := make(map[string]int, len(r.names)) // a column's first field
	for i, name := range r.names {
		if j, ok := seen[name]; ok {
			return r.fail(i, fmt.Sprintf("column %q appears twice (also field %d)", name, j+1))
		}
		seen[name] = i
	}
	frameColumn := s.opts.FrameColumn
	if frameColumn == "" {
		frameColumn = "frame_index"
	}
	s.frameCol, s.classNameCol = slices.Index(r.names, frameColumn), slices.Index(r.names, "class_name")
	if s.frameCol < 0 {
		return &ParseError{File: r.file, Line: n, Msg: fmt.Sprintf("no %q column: CSVSink writes no frame number of its own; "+
			"add one with sink.append(detections, custom_data={%q: frame_index}), or name the column that holds it with --frame-column",
			frameColumn, frameColumn)}
	}
	return nil
}

// class returns the class index of the current row: its class_name, or the name of its
// class_id, or the class_id itself.
func (s *supervisionReader) class() (uint32, error) {
	r := &s.row
	if s.classNameCol >= 0 && r.f[s.classNameCol] != "" {
		name := r.f[s.classNameCol]
		if err := r.check(s.classNameCol, checkLabel(name)); err != nil {
			return 0, err
		}
		return s.b.class(name), nil
	}
	if r.f[4] == "" { // the model gave no class
		return 0, nil
	}
	if c, ok := s.classes[r.f[4]]; ok {
		return c, nil
	}
	id, err := r.integer(4, checkClass)
	if err != nil {
		return 0, err
	}
	c := s.b.class(classText(&s.opts, id))
	s.classes[strings.Clone(r.f[4])] = c
	return c, nil
}

// checkClass checks a class number.
func checkClass(v int, s string) string {
	if v < 0 || v > MaxID {
		return s + " is not a class number (0 to 2147483647)"
	}
	return ""
}

// classText returns the name of class number c, or the number as text.
func classText(o *Options, c int) string {
	if name, ok := o.className(c); ok {
		return name
	}
	return strconv.Itoa(c)
}

func (s *supervisionReader) finish() (*Tracks, error) {
	if s.untracked > 0 {
		s.b.warn("%d untracked detections (empty tracker_id) skipped; --untracked draw shows them", s.untracked)
	}
	return s.b.finish(FormatSupervision, s.opts.Anchor)
}

// splitCSV appends the fields of one CSV record (RFC 4180, as Python's csv module writes it:
// fields with commas or quotes in double quotes, quotes doubled) to dst[:0], each without
// surrounding spaces. It reports a quoted field that does not end on the line: a field with a
// line break in it is not supported.
func splitCSV(s string, dst []string) ([]string, string) {
	dst = dst[:0]
	for {
		s = trimSpaces(s)
		if !strings.HasPrefix(s, `"`) {
			comma := strings.IndexByte(s, ',')
			if comma < 0 {
				return append(dst, s), ""
			}
			dst = append(dst, trimSpaces(s[:comma]))
			s = s[comma+1:]
			continue
		}
		var field strings.Builder
		rest := s[1:]
		for {
			q := strings.IndexByte(rest, '"')
			if q < 0 {
				return dst, "a quoted field does not end on its line (fields with line breaks are not supported)"
			}
			field.WriteString(rest[:q])
			if strings.HasPrefix(rest[q+1:], `"`) { // a doubled quote stands for one
				field.WriteByte('"')
				rest = rest[q+2:]
				continue
			}
			rest = trimSpaces(rest[q+1:])
			break
		}
		dst = append(dst, field.String())
		switch {
		case rest == "":
			return dst, ""
		case rest[0] != ',':
			return dst, fmt.Sprintf("text after a quoted field: %s", show(rest))
		}
		s = rest[1:]
	}
}
