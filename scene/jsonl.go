package scene

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON Lines reader uses a small parser that knows the schema rather than
// encoding/json, which matches keys case-insensitively, lets a repeated key silently win,
// replaces invalid UTF-8, and reports a bad value without saying which box it was in. This
// parser names the exact path of every error ("boxes[2].w"), and it accepts a subset of what
// encoding/json accepts, reading it the same way (FuzzJSONL checks both), so any JSON
// writer's output means here what it means everywhere else.

// The keys of each object, in the order their bits take in a seen-mask.
var (
	frameKeys = []string{"frame", "points", "boxes"}
	pointKeys = []string{"id", "x", "y", "color"}
	boxKeys   = []string{"id", "x", "y", "w", "h", "label", "score", "color"}
)

// jsonlReader reads trackink's JSON Lines format, one frame a line.
type jsonlReader struct {
	b    *builder
	base int
	seen map[int]int // frame number → line, to reject a frame given twice
	ids  map[int]int // scratch for jdec.unique, kept to reuse its memory
	// checkFrame checks a frame number against the file's frame base.
	checkFrame func(int, string) string
	// The line's items, kept until its frame number is known: the key may come last.
	points []pointRecord
	boxes  []boxRecord
	refuse bool   // RefuseUntracked
	anchor Anchor // Options.Anchor: where MOTChallenge text written from the tracks makes the points again
}

func newJSONLReader(file string, opts Options) *jsonlReader {
	base := opts.base(FormatJSONL)
	return &jsonlReader{b: opts.builder(file, "", base), base: base, seen: make(map[int]int), ids: make(map[int]int),
		checkFrame: func(v int, s string) string { return checkFrame(v, s, base) }, refuse: opts.Untracked == RefuseUntracked,
		anchor: opts.Anchor}
}

func (j *jsonlReader) parseLine(n int, line string) error {
	d := &jdec{s: line, file: j.b.file, line: n, ids: j.ids, b: j.b, refuse: j.refuse}
	d.ws()
	if d.i == len(d.s) {
		return nil // blank
	}
	j.points, j.boxes = j.points[:0], j.boxes[:0]
	var frame int
	seen, err := d.object(loc{}, frameKeys, func(k int, at loc) error {
		var err error
		switch k {
		case 0:
			frame, err = d.integer(at, j.checkFrame)
		case 1:
			j.points, err = d.points(at, j.points)
		case 2:
			j.boxes, err = d.boxes(at, j.boxes)
		}
		return err
	})
	if err == nil {
		err = d.required(loc{}, frameKeys, seen, 0b1)
	}
	if err != nil {
		return err
	}
	if d.ws(); d.i < len(d.s) {
		return d.syntax(loc{}, "text after the object")
	}
	if prev, ok := j.seen[frame]; ok {
		return d.fail(loc{key: "frame"}, fmt.Sprintf("frame %d already appears on line %d", frame, prev))
	}
	j.seen[frame] = n
	// Clearing a map costs time in proportion to the most it ever held, so after a crowded
	// frame a fresh one keeps the following small frames cheap.
	if len(j.points)+len(j.boxes) > 256 {
		j.ids = make(map[int]int)
	}
	index := frame - j.base + 1
	for _, p := range j.points {
		j.b.addPoint(index, n, p)
	}
	for _, b := range j.boxes {
		j.b.addBox(index, n, b)
	}
	return nil
}

func (j *jsonlReader) finish() (*Tracks, error) {
	// Ids were checked line by line. No box yields a point here; the anchor is where
	// MOTChallenge text written from the tracks, read back with the same options, makes a
	// box's point, so that Write knows which points that text holds (writeMOT).
	return j.b.finish(FormatJSONL, j.anchor)
}

// jdec parses the JSON object on one line.
type jdec struct {
	s      string // the line
	i      int    // next byte to read
	file   string
	line   int
	ids    map[int]int // track id → position, for the list being read
	b      *builder    // for class names
	refuse bool        // a box without an id is an error (RefuseUntracked)
}

// loc is where a value sits in a line's object, kept in parts so that the path is only
// formatted when there is an error to report.
type loc struct {
	list  string // "points" or "boxes" for an element or its member; empty at the top level
	index int    // the element's position in list
	key   string // the member's key; empty for the element itself
}

// String formats l as a path: "frame", "boxes[2]", "boxes[2].w".
func (l loc) String() string {
	switch {
	case l.list == "":
		return l.key
	case l.key == "":
		return l.list + "[" + strconv.Itoa(l.index) + "]"
	}
	return l.list + "[" + strconv.Itoa(l.index) + "]." + l.key
}

func (d *jdec) fail(l loc, msg string) error {
	return &ParseError{File: d.file, Line: d.line, Field: l.String(), Msg: msg}
}

// check turns a check helper's message into an error at l, or nil if there is none.
func (d *jdec) check(l loc, msg string) error {
	if msg == "" {
		return nil
	}
	return d.fail(l, msg)
}

func (d *jdec) syntax(l loc, what string) error {
	return d.fail(l, fmt.Sprintf("malformed JSON at column %d: %s", d.i+1, what))
}

// wrongType reports that the value next is not the wanted kind, naming the kind it is.
func (d *jdec) wrongType(l loc, want string) error {
	rest := d.s[d.i:]
	var got string
	switch c := d.peek(); {
	case c == '"':
		got = "a string"
	case c == '{':
		got = "an object"
	case c == '[':
		got = "an array"
	case strings.HasPrefix(rest, "true"), strings.HasPrefix(rest, "false"):
		got = "a boolean"
	case strings.HasPrefix(rest, "null"):
		got = "null"
	case c == '-' || c >= '0' && c <= '9':
		got = "a number"
	default:
		return d.syntax(l, "want a value")
	}
	return d.fail(l, "want "+want+", got "+got)
}

func (d *jdec) ws() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\r', '\n':
			d.i++
		default:
			return
		}
	}
}

// peek returns the next byte, or 0 at the end of the line, which no valid JSON value
// starts with.
func (d *jdec) peek() byte {
	if d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

// null consumes a null if one is next.
func (d *jdec) null() bool {
	if strings.HasPrefix(d.s[d.i:], "null") {
		d.i += 4
		return true
	}
	return false
}

// object parses an object at l whose keys must be among keys, calling member with the
// key's position in keys and the value's location once the value is next. It returns the
// keys seen as a bit mask.
func (d *jdec) object(l loc, keys []string, member func(k int, at loc) error) (uint, error) {
	if d.peek() != '{' {
		return 0, d.wrongType(l, "an object")
	}
	d.i++
	d.ws()
	if d.peek() == '}' {
		d.i++
		return 0, nil
	}
	var seen uint
	for {
		d.ws()
		if d.peek() != '"' {
			return seen, d.syntax(l, "want a key in double quotes")
		}
		key, err := d.str(l)
		if err != nil {
			return seen, err
		}
		k := slices.Index(keys, key)
		if k < 0 {
			return seen, d.fail(l, "unknown key "+show(key))
		}
		at := l
		at.key = keys[k]
		if seen&(1<<k) != 0 {
			return seen, d.fail(at, "key appears twice")
		}
		seen |= 1 << k
		d.ws()
		if d.peek() != ':' {
			return seen, d.syntax(at, "want ':' after the key")
		}
		d.i++
		d.ws()
		if err := member(k, at); err != nil {
			return seen, err
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return seen, nil
		default:
			return seen, d.syntax(l, "want ',' or '}'")
		}
	}
}

// required reports the first key of keys that is in the mask want but not in seen.
func (d *jdec) required(l loc, keys []string, seen, want uint) error {
	for k, key := range keys {
		if want&^seen&(1<<k) != 0 {
			return d.fail(l, "missing "+strconv.Quote(key))
		}
	}
	return nil
}

// array parses an array at l, or a null, which stands for an empty one, calling elem with
// each element's position once the element is next.
func (d *jdec) array(l loc, elem func(i int) error) error {
	if d.null() {
		return nil
	}
	if d.peek() != '[' {
		return d.wrongType(l, "an array")
	}
	d.i++
	d.ws()
	if d.peek() == ']' {
		d.i++
		return nil
	}
	for i := 0; ; i++ {
		d.ws()
		if err := elem(i); err != nil {
			return err
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return nil
		default:
			return d.syntax(l, "want ',' or ']'")
		}
	}
}

// points parses the array of points at l, appending them to ps.
func (d *jdec) points(l loc, ps []pointRecord) ([]pointRecord, error) {
	clear(d.ids)
	err := d.array(l, func(i int) error {
		el := loc{list: l.key, index: i}
		var p pointRecord
		var id int
		seen, err := d.object(el, pointKeys, func(k int, at loc) error {
			var err error
			switch k {
			case 0:
				id, err = d.integer(at, checkID)
			case 1:
				p.x, err = d.float(at, checkCoord)
			case 2:
				p.y, err = d.float(at, checkCoord)
			case 3:
				err = d.color(at, &p.color, &p.flags)
			}
			return err
		})
		if err == nil {
			err = d.required(el, pointKeys, seen, 0b111)
		}
		if err == nil {
			err = d.unique(el, id)
		}
		p.id = int32(id)
		ps = append(ps, p)
		return err
	})
	return ps, err
}

// boxes parses the array of boxes at l, appending them to bs.
func (d *jdec) boxes(l loc, bs []boxRecord) ([]boxRecord, error) {
	clear(d.ids)
	err := d.array(l, func(i int) error {
		el := loc{list: l.key, index: i}
		b := boxRecord{id: NoID}
		seen, err := d.object(el, boxKeys, func(k int, at loc) error {
			var err error
			switch k {
			case 0:
				if !d.null() {
					var id int
					id, err = d.integer(at, checkID)
					b.id = int32(id)
				}
			case 1:
				b.x, err = d.float(at, checkCoord)
			case 2:
				b.y, err = d.float(at, checkCoord)
			case 3:
				b.w, err = d.float(at, checkSize)
			case 4:
				b.h, err = d.float(at, checkSize)
			case 5:
				b.class, err = d.label(at)
			case 6:
				if !d.null() {
					b.score, err = d.float(at, checkUnit)
					b.flags |= hasScore
				}
			case 7:
				err = d.color(at, &b.color, &b.flags)
			}
			return err
		})
		if err == nil {
			err = d.required(el, boxKeys, seen, 0b11110)
		}
		if _, msg := farEdgeProblem(b.x, b.y, b.w, b.h); err == nil && msg != "" {
			err = d.fail(el, msg)
		}
		if err == nil && b.id != NoID {
			err = d.unique(el, int(b.id))
		}
		if err == nil && b.id == NoID && d.refuse {
			err = d.fail(el, untrackedMsg)
		}
		bs = append(bs, b)
		return err
	})
	return bs, err
}

// unique records the id of element el, reporting one that its list already holds.
func (d *jdec) unique(el loc, id int) error {
	if prev, ok := d.ids[id]; ok {
		at := el
		at.key = "id"
		return d.fail(at, fmt.Sprintf("track %d appears twice (also %s[%d])", id, el.list, prev))
	}
	d.ids[id] = el.index
	return nil
}

// number returns the text of the JSON number at l.
func (d *jdec) number(l loc) (string, error) {
	start := d.i
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		return "", d.wrongType(l, "a number")
	}
	if c == '-' {
		d.i++
	}
	switch c := d.peek(); {
	case c == '0':
		d.i++ // JSON forbids leading zeros: a digit after this one ends the value
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return "", d.syntax(l, "want a digit after '-'")
	}
	if d.peek() == '.' {
		d.i++
		if !d.digits() {
			return "", d.syntax(l, "want a digit after '.'")
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if !d.digits() {
			return "", d.syntax(l, "want a digit in the exponent")
		}
	}
	// Catch "01", "1.2.3" and "1x" here, where the message can say what is wrong, rather
	// than after the value has been checked as if it were 0 or 1.
	if c := d.peek(); c == '.' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
		return "", d.syntax(l, "malformed number")
	}
	return d.s[start:d.i], nil
}

// digits consumes a run of digits, reporting whether there was at least one.
func (d *jdec) digits() bool {
	start := d.i
	for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// float parses a number at l and checks it with check.
func (d *jdec) float(l loc, check func(float64, string) string) (float32, error) {
	s, err := d.number(l)
	if err != nil {
		return 0, err
	}
	v, msg := parseNumber(s, 32)
	if msg == "" {
		msg = check(v, s)
	}
	return float32(v), d.check(l, msg)
}

// integer parses an integer at l and checks it with check.
func (d *jdec) integer(l loc, check func(int, string) string) (int, error) {
	s, err := d.number(l)
	if err != nil {
		return 0, err
	}
	v, msg := parseInt(s)
	if msg == "" {
		msg = check(v, s)
	}
	return v, d.check(l, msg)
}

// color parses a colour string at l into a packed colour, setting hasColor in flags; null
// means none.
func (d *jdec) color(l loc, color *uint32, flags *uint8) error {
	if d.null() {
		return nil
	}
	s, err := d.str(l)
	if err != nil {
		return err
	}
	c, ok := ParseColor(s)
	if !ok {
		return d.fail(l, show(s)+` is not a color: want "#rrggbb" or "#rrggbbaa"`)
	}
	*color, *flags = packColor(c), *flags|hasColor
	return nil
}

// label parses a box label at l and returns its class index; null means none.
func (d *jdec) label(l loc) (uint32, error) {
	if d.null() {
		return 0, nil
	}
	s, err := d.str(l)
	if err != nil {
		return 0, err
	}
	if err := d.check(l, checkLabel(s)); err != nil {
		return 0, err
	}
	return d.b.class(s), nil
}

// str parses a JSON string at l.
func (d *jdec) str(l loc) (string, error) {
	if d.peek() != '"' {
		return "", d.wrongType(l, "a string")
	}
	d.i++
	start := d.i
	for d.i < len(d.s) {
		switch c := d.s[d.i]; {
		case c == '"':
			s := d.s[start:d.i]
			d.i++
			if !utf8.ValidString(s) {
				return "", d.fail(l, "string is not valid UTF-8")
			}
			return s, nil
		case c == '\\':
			return d.escaped(l, start)
		case c < 0x20:
			return "", d.syntax(l, "control character in a string")
		default:
			d.i++
		}
	}
	return "", d.syntax(l, "unterminated string")
}

// escaped finishes a string that started at start and has an escape at d.i. Like
// encoding/json, it turns a \u escape of an unpaired surrogate into U+FFFD.
func (d *jdec) escaped(l loc, start int) (string, error) {
	b := []byte(d.s[start:d.i])
	for d.i < len(d.s) {
		c := d.s[d.i]
		d.i++
		switch {
		case c == '"':
			if !utf8.Valid(b) {
				return "", d.fail(l, "string is not valid UTF-8")
			}
			return string(b), nil
		case c < 0x20:
			d.i--
			return "", d.syntax(l, "control character in a string")
		case c != '\\':
			b = append(b, c)
			continue
		}
		backslash := d.i - 1 // where an error in the escape is reported
		e := d.peek()
		d.i++
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				d.i = backslash
				return "", d.syntax(l, `want four hex digits after \u`)
			}
			if utf16.IsSurrogate(r) {
				r = d.lowSurrogate(r)
			}
			b = utf8.AppendRune(b, r)
		default:
			d.i = backslash
			return "", d.syntax(l, "invalid escape")
		}
	}
	return "", d.syntax(l, "unterminated string")
}

// lowSurrogate completes the surrogate pair that starts with hi, consuming the \u escape of
// its second half, or returns U+FFFD, consuming nothing, if no second half follows.
func (d *jdec) lowSurrogate(hi rune) rune {
	if !strings.HasPrefix(d.s[d.i:], `\u`) {
		return utf8.RuneError
	}
	save := d.i
	d.i += 2
	if lo, ok := d.hex4(); ok {
		if r := utf16.DecodeRune(hi, lo); r != utf8.RuneError {
			return r
		}
	}
	d.i = save
	return utf8.RuneError
}

// hex4 consumes four hex digits.
func (d *jdec) hex4() (rune, bool) {
	if d.i+4 > len(d.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(d.s[d.i : d.i+4]) {
		h, ok := unhex(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(h)
	}
	d.i += 4
	return r, true
}
