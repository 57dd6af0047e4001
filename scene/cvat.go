package scene

import (
	"bytes"
	"cmp"
	"container/heap"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// cvatReader reads CVAT for video 1.1 XML: <annotations> holding <meta> and one <track> per
// object, each a list of shapes on frames. It streams the file with encoding/xml's Token and
// keeps the tracks' shapes (the file's own size); at the end it adds the frames they fill,
// interpolated, in frame order (emit), so that the builder keeps them on disk past a few MB
// however many frames a short file's tracks span.
type cvatReader struct {
	d    *xml.Decoder
	r    *byteReader // the decoder's input
	file string
	b    *builder
	line int // where the token last read starts

	// stop is the task's last frame, as the file numbers it, from <meta>; -1 if not given.
	// A track whose last shape is not outside lasts until then, as in CVAT.
	stop   int
	tracks map[int]int // track id → line of its <track>
	// unended counts tracks that end without outside="1" when stop is unknown.
	unended int
	skipped map[string]int // tracks not drawn, by the reason
	shapes  []cvatShape    // the current track's
	kept    []cvatTrack    // the tracks to draw, in the file's order
}

// cvatTrack is a track to draw: its id, class, kind ("box" or "points") and shapes, in frame
// order.
type cvatTrack struct {
	id     int
	class  uint32
	points bool
	shapes []cvatShape
}

// cvatShape is one <box> or <points> of a track: a box (x0, y0)–(x1, y1), or a point (x0, y0).
type cvatShape struct {
	frame, line    int // frame as trackink numbers it
	outside        bool
	x0, y0, x1, y1 float64
}

// readCVAT reads CVAT for video XML from r.
func readCVAT(r io.ByteReader, name string, opts Options) (*Tracks, error) {
	c := newCVATReader(r, name, opts)
	if err := c.read(); err != nil {
		return nil, err
	}
	c.emit()
	if c.unended > 0 {
		c.b.warn("%d tracks end without outside=\"1\" and <meta> gives neither stop_frame nor size: each is drawn up to its last shape", c.unended)
	}
	for _, why := range slices.Sorted(maps.Keys(c.skipped)) {
		c.b.warn("%d tracks not drawn: %s", c.skipped[why], why)
	}
	return c.b.finish(FormatCVAT, opts.Anchor)
}

func newCVATReader(r io.ByteReader, name string, opts Options) *cvatReader {
	br := &byteReader{r: r}
	return &cvatReader{d: xml.NewDecoder(br), r: br, file: name, stop: -1,
		b: opts.builder(name, "", opts.base(FormatCVAT)), tracks: make(map[int]int), skipped: make(map[string]int)}
}

// next returns the next token, noting the line it starts on.
func (c *cvatReader) next() (xml.Token, error) {
	c.line, _ = c.d.InputPos()
	tok, err := c.d.Token()
	return tok, c.wrap(err)
}

// skip skips the rest of the element whose start was read last.
func (c *cvatReader) skip() error { return c.wrap(c.d.Skip()) }

// wrap turns the decoder's errors about the document into ParseErrors, passing on read
// errors and io.EOF.
func (c *cvatReader) wrap(err error) error {
	var se *xml.SyntaxError
	switch {
	case err == nil || err == io.EOF:
		return err
	case c.r.err != nil:
		return fmt.Errorf("%s: %w", c.file, c.r.err)
	case errors.As(err, &se):
		return &ParseError{File: c.file, Line: se.Line, Msg: "malformed XML: " + se.Msg}
	}
	line, _ := c.d.InputPos()
	return &ParseError{File: c.file, Line: line, Msg: "malformed XML: " + strings.TrimPrefix(err.Error(), "xml: ")}
}

// byteReader is the decoder's input, which keeps the error of a failed read, so that a read
// error is not taken for malformed XML.
type byteReader struct {
	r   io.ByteReader
	err error
}

func (b *byteReader) ReadByte() (byte, error) {
	c, err := b.r.ReadByte()
	if err != nil && err != io.EOF {
		b.err = err
	}
	return c, err
}

// Read makes byteReader an io.Reader, as xml.NewDecoder's signature asks; the decoder itself
// reads through ReadByte.
func (b *byteReader) Read(p []byte) (int, error) {
	for i := range p {
		c, err := b.ReadByte()
		if err != nil {
			return i, err
		}
		p[i] = c
	}
	return len(p), nil
}

func (c *cvatReader) fail(field, msg string) error {
	return &ParseError{File: c.file, Line: c.line, Field: field, Msg: msg}
}

// read reads the document: the root element, then its children.
func (c *cvatReader) read() error {
	for {
		tok, err := c.next()
		if err == io.EOF {
			return nil // an empty file, or one of comments alone
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != "annotations" {
				return c.fail("", fmt.Sprintf("the root element is <%s>, not <annotations>: not CVAT XML", t.Name.Local))
			}
			if err := c.annotations(); err != nil {
				return err
			}
			return c.end()
		case xml.CharData:
			if c.text(t) {
				return c.fail("", "text outside the root element")
			}
		}
	}
}

// end checks that nothing but comments and space follow the root element.
func (c *cvatReader) end() error {
	for {
		tok, err := c.next()
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return c.fail("", fmt.Sprintf("<%s> after the root element", t.Name.Local))
		case xml.CharData:
			if c.text(t) {
				return c.fail("", "text after the root element")
			}
		}
	}
}

// text reports whether d, the token just read, holds more than white space, and if so moves
// c.line to the line where its last character other than a space is. (The decoder has turned
// the token's line ends into "\n", so its own count of the lines after that character, up to
// where the token ends, is the way back to the file's lines.)
func (c *cvatReader) text(d xml.CharData) bool {
	last := bytes.LastIndexFunc(d, func(r rune) bool { return !unicode.IsSpace(r) })
	if last < 0 {
		return false
	}
	end, _ := c.d.InputPos()
	c.line = max(c.line, end-bytes.Count(d[last:], []byte("\n")))
	return true
}

// children calls child with each child element of the element whose start tag was read
// last, up to its end tag, passing over text.
func (c *cvatReader) children(child func(xml.StartElement) error) error {
	for {
		tok, err := c.next()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if err := child(t); err != nil {
				return err
			}
		}
	}
}

// annotations reads the children of <annotations>.
func (c *cvatReader) annotations() error {
	return c.children(func(t xml.StartElement) error {
		switch t.Name.Local {
		case "meta":
			return c.meta()
		case "track":
			return c.track(t)
		case "image":
			return c.fail("", "<image>: this is CVAT for images; export the task as CVAT for video 1.1")
		}
		return c.skip() // version, tags and what later versions add
	})
}

// meta reads <meta>, keeping the last frame of its task or job: its stop_frame or, in files
// from CVAT versions that write none, the frame before its size.
func (c *cvatReader) meta() error {
	var path []string
	var text strings.Builder
	size := -1
	for {
		tok, err := c.next()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			path = append(path, t.Name.Local)
			text.Reset()
		case xml.CharData:
			if text.Len() < 64 {
				text.Write(t)
			}
		case xml.EndElement:
			if len(path) == 0 {
				if c.stop < 0 && size > 0 {
					c.stop = c.b.base + size - 1
				}
				return nil
			}
			if len(path) == 2 && (path[0] == "task" || path[0] == "job") && (path[1] == "stop_frame" || path[1] == "size") {
				s := strings.TrimSpace(text.String())
				v, msg := parseInt(s)
				if msg == "" && path[1] == "size" && (v < 0 || v > MaxFrame) {
					msg = fmt.Sprintf("%s is not a count of frames (0 to %d)", s, MaxFrame)
				} else if msg == "" && path[1] != "size" {
					msg = checkFrame(v, s, c.b.base)
				}
				if msg != "" {
					return c.fail(path[1], msg)
				}
				if path[1] == "size" {
					size = v
				} else {
					c.stop = v
				}
			}
			path = path[:len(path)-1]
		}
	}
}

// track reads one <track> and adds what it shows, frame by frame.
func (c *cvatReader) track(start xml.StartElement) error {
	trackLine := c.line
	var id int
	var label string
	var haveID, haveLabel bool
	for _, a := range start.Attr {
		switch a.Name.Local {
		case "id":
			v, msg := parseInt(a.Value)
			if msg == "" {
				msg = checkID(v, a.Value)
			}
			if msg != "" {
				return c.fail("track.id", msg)
			}
			id, haveID = v, true
		case "label":
			if msg := checkLabel(a.Value); msg != "" {
				return c.fail("track.label", msg)
			}
			label, haveLabel = a.Value, true
		}
	}
	switch {
	case !haveID:
		return c.fail("track", `missing "id"`)
	case !haveLabel:
		return c.fail("track", `missing "label"`)
	}
	if prev, ok := c.tracks[id]; ok {
		return c.fail("track.id", fmt.Sprintf("track %d already appears on line %d", id, prev))
	}
	c.tracks[id] = trackLine

	c.shapes = c.shapes[:0]
	kind, skip := "", ""
	err := c.children(func(t xml.StartElement) error {
		name := t.Name.Local
		switch {
		case name != "box" && name != "points":
			skip = fmt.Sprintf("<%s> shapes (trackink draws boxes and points)", name)
			return c.skip()
		case kind != "" && kind != name:
			return c.fail(name, fmt.Sprintf("track %d mixes <%s> and <%s>", id, kind, name))
		}
		kind = name
		why, err := c.shape(t)
		if why != "" && skip == "" {
			skip = why
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case skip != "":
		c.skipped[skip]++
		return nil
	}
	return c.add(id, label, kind)
}

// shape reads a <box> or <points> element and its <attribute> children into c.shapes. It
// returns why the track cannot be drawn, if it cannot.
func (c *cvatReader) shape(start xml.StartElement) (string, error) {
	el := start.Name.Local
	s := cvatShape{line: c.line}
	var have uint
	var skip string
	required := []string{"frame", "outside", "xtl", "ytl", "xbr", "ybr"}
	if el == "points" {
		required = []string{"frame", "outside", "points"}
	}
	coords := []*float64{&s.x0, &s.y0, &s.x1, &s.y1}
	for _, a := range start.Attr {
		k := slices.Index(required, a.Name.Local)
		field := el + "." + a.Name.Local
		if k >= 0 {
			have |= 1 << k
		}
		switch a.Name.Local {
		case "frame":
			v, msg := parseInt(a.Value)
			if msg == "" {
				msg = checkFrame(v, a.Value, c.b.base)
			}
			if msg != "" {
				return "", c.fail(field, msg)
			}
			s.frame = v - c.b.base + 1
		case "outside", "occluded", "keyframe":
			if a.Value != "0" && a.Value != "1" {
				return "", c.fail(field, show(a.Value)+" is not 0 or 1")
			}
			if a.Name.Local == "outside" {
				s.outside = a.Value == "1"
			}
		case "xtl", "ytl", "xbr", "ybr":
			k := slices.Index([]string{"xtl", "ytl", "xbr", "ybr"}, a.Name.Local)
			v, msg := parseNumber(strings.TrimSpace(a.Value), 64)
			if msg == "" {
				msg = checkCoord(v, a.Value)
			}
			if msg != "" {
				return "", c.fail(field, msg)
			}
			*coords[k] = v
		case "points":
			pts := strings.Split(a.Value, ";")
			if len(pts) > 1 {
				skip = "points shapes of several points (trackink tracks one point a track)"
				continue
			}
			x, y, ok := strings.Cut(pts[0], ",")
			if !ok {
				return "", c.fail(field, show(a.Value)+` is not "x,y"`)
			}
			for i, v := range []string{x, y} {
				f, msg := parseNumber(strings.TrimSpace(v), 64)
				if msg == "" {
					msg = checkCoord(f, v)
				}
				if msg != "" {
					return "", c.fail(field, msg)
				}
				*coords[i] = f
			}
		case "rotation":
			v, msg := parseNumber(strings.TrimSpace(a.Value), 64)
			if msg != "" {
				return "", c.fail(field, msg)
			}
			if v != 0 && v != 360 {
				skip = "rotated boxes"
			}
		}
	}
	for k, name := range required {
		if have&(1<<k) == 0 {
			return "", c.fail(el, fmt.Sprintf("missing %q", name))
		}
	}
	if el == "box" {
		for _, axis := range []struct {
			lo, hi *float64
			names  string
		}{{&s.x0, &s.x1, "xbr"}, {&s.y0, &s.y1, "ybr"}} {
			if *axis.hi < *axis.lo {
				return "", c.fail(el+"."+axis.names, "the box's right or bottom edge lies before its left or top")
			}
			if *axis.hi-*axis.lo > MaxCoord {
				return "", c.fail(el+"."+axis.names, "the box is more than 1e7 px across")
			}
		}
	}
	c.shapes = append(c.shapes, s)
	return skip, c.attributes(el)
}

// attributes reads the <attribute name="…">value</attribute> children of a shape, up to the
// shape's end tag. Their values are not drawn.
func (c *cvatReader) attributes(el string) error {
	return c.children(func(t xml.StartElement) error {
		if t.Name.Local != "attribute" {
			return c.fail(el, fmt.Sprintf("unexpected <%s> in <%s>", t.Name.Local, el))
		}
		if !slices.ContainsFunc(t.Attr, func(a xml.Attr) bool { return a.Name.Local == "name" }) {
			return c.fail("attribute", `missing "name"`)
		}
		return c.skip()
	})
}

// add keeps the current track's shapes, in frame order, for emit.
func (c *cvatReader) add(id int, label, kind string) error {
	shapes := c.shapes
	slices.SortStableFunc(shapes, func(a, b cvatShape) int { return cmp.Compare(a.frame, b.frame) })
	for i := 1; i < len(shapes); i++ {
		if shapes[i].frame == shapes[i-1].frame {
			later := max(shapes[i].line, shapes[i-1].line)
			return &ParseError{File: c.file, Line: later, Field: kind + ".frame", Msg: fmt.Sprintf("track %d has two shapes in frame %d (also line %d)",
				id, shapes[i].frame+c.b.base-1, min(shapes[i].line, shapes[i-1].line))}
		}
	}
	if len(shapes) == 0 {
		return nil
	}
	c.kept = append(c.kept, cvatTrack{id: id, class: c.b.class(label), points: kind == "points", shapes: slices.Clone(shapes)})
	return nil
}

// emit adds the kept tracks' frames in frame order, the tracks of a frame in the file's
// order: each shape on its frame, the frames between two shapes interpolated linearly as
// CVAT does (unless the first is outside), and the frames after the last shape up to the
// task's stop frame unless it is outside.
func (c *cvatReader) emit() {
	h := &cvatCursors{}
	for i := range c.kept {
		cur := cvatCursor{track: i}
		if c.start(&cur) {
			h.list = append(h.list, cur)
		}
	}
	heap.Init(h)
	for h.Len() > 0 {
		cur := &h.list[0]
		t := &c.kept[cur.track]
		s, next := t.shapes[cur.shape], t.shapes[cur.shape]
		if cur.shape+1 < len(t.shapes) {
			next = t.shapes[cur.shape+1]
		}
		at := s
		if cur.frame != s.frame {
			u := float64(cur.frame-s.frame) / float64(next.frame-s.frame)
			if next.frame == s.frame {
				u = 0
			}
			at = cvatShape{x0: lerp(s.x0, next.x0, u), y0: lerp(s.y0, next.y0, u), x1: lerp(s.x1, next.x1, u), y1: lerp(s.y1, next.y1, u)}
		}
		if t.points {
			c.b.addPoint(cur.frame, s.line, pointRecord{id: int32(t.id), x: float32(at.x0), y: float32(at.y0)})
		} else {
			c.b.addBox(cur.frame, s.line, boxRecord{id: int32(t.id), x: float32(at.x0), y: float32(at.y0),
				w: float32(at.x1 - at.x0), h: float32(at.y1 - at.y0), class: t.class, flags: yieldPoint})
		}
		if cur.frame++; cur.frame > cur.end {
			cur.shape++
			if !c.start(cur) {
				heap.Pop(h)
				continue
			}
		}
		heap.Fix(h, 0)
	}
}

// cvatCursor is where emit is in a kept track: the frame it adds next, of the span from
// shape to end that the shape fills.
type cvatCursor struct{ track, shape, frame, end int }

// start moves cur to the span of its shape, or of the first after it that is not outside,
// and reports whether there is one.
func (c *cvatReader) start(cur *cvatCursor) bool {
	shapes := c.kept[cur.track].shapes
	for ; cur.shape < len(shapes); cur.shape++ {
		s := shapes[cur.shape]
		if s.outside {
			continue
		}
		cur.frame, cur.end = s.frame, s.frame
		switch {
		case cur.shape+1 < len(shapes):
			cur.end = shapes[cur.shape+1].frame - 1
		case c.stop >= 0:
			cur.end = max(c.stop-c.b.base+1, s.frame)
		default:
			c.unended++
		}
		return true
	}
	return false
}

// cvatCursors is emit's heap of cursors, the one whose frame comes first on top (of two on
// one frame, the track first in the file).
type cvatCursors struct{ list []cvatCursor }

func (h *cvatCursors) Len() int { return len(h.list) }
func (h *cvatCursors) Less(i, j int) bool {
	a, b := h.list[i], h.list[j]
	return a.frame < b.frame || a.frame == b.frame && a.track < b.track
}
func (h *cvatCursors) Swap(i, j int) { h.list[i], h.list[j] = h.list[j], h.list[i] }
func (h *cvatCursors) Push(x any)    { h.list = append(h.list, x.(cvatCursor)) }
func (h *cvatCursors) Pop() any {
	x := h.list[len(h.list)-1]
	h.list = h.list[:len(h.list)-1]
	return x
}

// lerp is CVAT's interpolation, p0 + (p1 - p0) × t, in float64.
func lerp(p0, p1, t float64) float64 { return p0 + float64((p1-p0)*t) } // unfused: the same on every CPU
