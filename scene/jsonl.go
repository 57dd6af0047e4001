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
	file   string
	frames []Frame
	seen   map[int]int       // frame index → line, to reject a frame given twice
	ids    map[int]int       // scratch for jdec.unique, kept to reuse its memory
	labels map[string]string // labels read so far, for jdec.label
}

func newJSONLReader(file string) *jsonlReader {
	return &jsonlReader{file: file, seen: make(map[int]int), ids: make(map[int]int), labels: make(map[string]string)}
}

func (j *jsonlReader) parseLine(n int, line string) error {
	d := &jdec{s: line, file: j.file, line: n, ids: j.ids, labels: j.labels}
	d.ws()
	if d.i == len(d.s) {
		return nil // blank
	}
	var fr Frame
	seen, err := d.object(loc{}, frameKeys, func(k int, at loc) error {
		var err error
		switch k {
		case 0:
			fr.Index, err = d.integer(at, checkFrame)
		case 1:
			fr.Points, err = d.points(at)
		case 2:
			fr.Boxes, err = d.boxes(at)
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
	if prev, ok := j.seen[fr.Index]; ok {
		return d.fail(loc{key: "frame"}, fmt.Sprintf("frame %d already appears on line %d", fr.Index, prev))
	}
	j.seen[fr.Index] = n
	// Clearing a map costs time in proportion to the most it ever held, so after a crowded
	// frame a fresh one keeps the following small frames cheap.
	if len(fr.Points)+len(fr.Boxes) > 256 {
		j.ids = make(map[int]int)
	}
	// A frame with nothing in it is left out, as Tracks allows, so that LastIndex is the last
	// frame with something to draw.
	if len(fr.Points) > 0 || len(fr.Boxes) > 0 {
		j.frames = append(j.frames, fr)
	}
	return nil
}

func (j *jsonlReader) finish() *Tracks {
	slices.SortFunc(j.frames, func(a, b Frame) int { return a.Index - b.Index })
	return &Tracks{Frames: j.frames}
}

// jdec parses the JSON object on one line.
type jdec struct {
	s      string // the line
	i      int    // next byte to read
	file   string
	line   int
	ids    map[int]int // track id → position, for the list being read
	labels map[string]string
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

func (d *jdec) points(l loc) ([]Point, error) {
	var ps []Point
	clear(d.ids)
	err := d.array(l, func(i int) error {
		el := loc{list: l.key, index: i}
		var p Point
		seen, err := d.object(el, pointKeys, func(k int, at loc) error {
			var err error
			switch k {
			case 0:
				p.ID, err = d.integer(at, checkID)
			case 1:
				p.X, err = d.float(at, checkCoord)
			case 2:
				p.Y, err = d.float(at, checkCoord)
			case 3:
				p.Color, p.HasColor, err = d.color(at)
			}
			return err
		})
		if err == nil {
			err = d.required(el, pointKeys, seen, 0b111)
		}
		if err == nil {
			err = d.unique(el, p.ID)
		}
		if err != nil {
			return err
		}
		ps = append(ps, p)
		return nil
	})
	return ps, err
}

func (d *jdec) boxes(l loc) ([]Box, error) {
	var bs []Box
	clear(d.ids)
	err := d.array(l, func(i int) error {
		el := loc{list: l.key, index: i}
		var b Box
		seen, err := d.object(el, boxKeys, func(k int, at loc) error {
			var err error
			switch k {
			case 0:
				b.ID, err = d.integer(at, checkID)
			case 1:
				b.X, err = d.float(at, checkCoord)
			case 2:
				b.Y, err = d.float(at, checkCoord)
			case 3:
				b.W, err = d.float(at, checkSize)
			case 4:
				b.H, err = d.float(at, checkSize)
			case 5:
				b.Class, err = d.label(at)
			case 6:
				if !d.null() {
					b.Score, err = d.float(at, checkUnit)
					b.HasScore = true
				}
			case 7:
				b.Color, b.HasColor, err = d.color(at)
			}
			return err
		})
		if err == nil {
			err = d.required(el, boxKeys, seen, 0b11111)
		}
		if err == nil {
			err = d.unique(el, b.ID)
		}
		if err != nil {
			return err
		}
		bs = append(bs, b)
		return nil
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

// color parses a colour string at l; null means none.
func (d *jdec) color(l loc) (Color, bool, error) {
	if d.null() {
		return Color{}, false, nil
	}
	s, err := d.str(l)
	if err != nil {
		return Color{}, false, err
	}
	c, ok := parseColor(s)
	if !ok {
		return Color{}, false, d.fail(l, show(s)+` is not a color: want "#rrggbb" or "#rrggbbaa"`)
	}
	return c, true, nil
}

// label parses a box label at l; null means none.
func (d *jdec) label(l loc) (string, error) {
	if d.null() {
		return "", nil
	}
	s, err := d.str(l)
	if err != nil {
		return "", err
	}
	if len(s) > MaxLabelBytes {
		return "", d.fail(l, fmt.Sprintf("label is %d bytes long; the limit is %d", len(s), MaxLabelBytes))
	}
	// A label is drawn as one line of text, where a newline or a tab has no faithful picture.
	if i := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return "", d.fail(l, fmt.Sprintf("%s contains the control character U+%04X", show(s), r))
	}
	// A file holds few distinct labels, so each is copied once and shared; the copy keeps a
	// label from pinning its whole line in memory. The cap bounds the cache when every
	// label is different.
	if c, ok := d.labels[s]; ok {
		return c, nil
	}
	c := strings.Clone(s)
	if len(d.labels) < 1024 {
		d.labels[c] = c
	}
	return c, nil
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
