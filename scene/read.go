package scene

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Format selects the reader that Read uses.
type Format int

const (
	// FormatAuto picks the reader from the name's extension and, failing that, from the
	// first non-blank line, as described at Load.
	FormatAuto Format = iota
	// FormatMOT is MOTChallenge text: tracker results (10 fields a line) or MOT17-style
	// ground truth (9 fields a line).
	FormatMOT
	// FormatJSONL is trackink's JSON Lines format: one JSON object per frame.
	FormatJSONL
)

// Anchor says where on a MOTChallenge box the box's tracked point sits.
type Anchor int

const (
	// BottomCenter puts the point in the middle of the box's bottom edge, where a pedestrian
	// meets the ground: a trail through it follows the feet instead of jumping whenever the
	// detector's estimate of the height changes.
	BottomCenter Anchor = iota
	// Center puts the point at the centre of the box, which suits objects seen from above.
	Center
)

// Options tune the readers. The zero value is the default.
type Options struct {
	// Anchor places the point that each MOTChallenge box yields. JSON Lines points are
	// explicit and ignore it.
	Anchor Anchor
	// DropIgnored drops MOTChallenge ground-truth rows whose consider_flag is 0 (crowds,
	// occluders, reflections and the like, which evaluation ignores). By default they are
	// kept, labelled with their class, so that the picture shows everything the file holds.
	DropIgnored bool
}

// Limits beyond which a value is taken for corrupt input rather than drawn.
const (
	// MaxCoord bounds the magnitude of every coordinate and size, in pixels: ten thousand
	// times a 1080p frame, so anything larger is a unit or parsing mistake upstream.
	MaxCoord = 1e7
	// MaxFrame is the highest frame index accepted: almost four days of video at 30 fps.
	// Larger indexes are usually timestamps written where frame numbers belong.
	MaxFrame = 10_000_000
	// MaxID is the highest track id accepted, the int32 limit that MOTChallenge tools share.
	MaxID = math.MaxInt32
	// MaxLabelBytes bounds the length of a JSON Lines box label: a label is drawn on one
	// line next to its box.
	MaxLabelBytes = 256
	// MaxLineBytes bounds the length of one input line. A JSON Lines frame with ten thousand
	// boxes takes about 1 MiB; the limit only stops a file without newlines from being read
	// whole into memory.
	MaxLineBytes = 64 << 20
)

// ParseError reports input that a reader rejects. Its message has the form
//
//	tracks.txt:1042: field 5 (bb_width): -3 is negative
type ParseError struct {
	File string // the name given to Read, or the path given to Load
	Line int    // 1-based line number
	// Field locates the offending value within the line: "field 5 (bb_width)" in
	// MOTChallenge text, a path such as "boxes[2].w" in JSON Lines. It is empty when the
	// error concerns the line as a whole.
	Field string
	Msg   string // what is wrong with the value
}

// Error formats the error as "file:line: field: message", leaving out an empty field.
func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	} else {
		b.WriteString("line ")
	}
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Load reads the tracking file at path. The extension picks the reader: .jsonl and .ndjson
// are JSON Lines, .txt and .csv are MOTChallenge text (case does not matter). Any other
// name is read as MOTChallenge if its first non-blank line starts with a digit or '#', as
// JSON Lines if it starts with '{', and is rejected otherwise. An empty file holds no frames.
func Load(path string, opts Options) (*Tracks, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, FormatAuto, opts)
}

// Read reads tracks from r in the given format; FormatAuto chooses as Load does, using name
// for the extension. name is also the file name in errors. The input is streamed line by
// line, so its size is limited by the memory the result needs, not by the input's.
func Read(r io.Reader, name string, format Format, opts Options) (*Tracks, error) {
	if opts.Anchor != BottomCenter && opts.Anchor != Center {
		return nil, fmt.Errorf("scene: reading %s: unknown anchor %d", name, opts.Anchor)
	}
	var p lineParser
	switch format {
	case FormatAuto:
		p = parserFor(formatOf(name), name, opts) // nil until the content decides
	case FormatMOT, FormatJSONL:
		p = parserFor(format, name, opts)
	default:
		return nil, fmt.Errorf("scene: reading %s: unknown format %d", name, format)
	}

	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if n == 1 {
			// Windows tools, Excel above all, start UTF-8 text with a byte order mark.
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		if p == nil {
			f, err := sniff(name, n, line)
			if err != nil {
				return nil, err
			}
			if f == FormatAuto {
				continue // blank line: still undecided
			}
			p = parserFor(f, name, opts)
		}
		if err := p.parseLine(n, string(line)); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{File: name, Line: n + 1,
				Msg: fmt.Sprintf("line is longer than %d MiB", MaxLineBytes>>20)}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if p == nil {
		return &Tracks{}, nil
	}
	return p.finish(), nil
}

// trimSpaces removes spaces, tabs and stray '\r's (whitespace in JSON too) from both ends
// of s: the readers skip them around values and take a line of nothing else for blank. It
// is strings.Trim without the cost of building a character set on every call, which showed
// in the MOT profile.
func trimSpaces(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// lineParser is one format's reader, fed one line at a time.
type lineParser interface {
	// parseLine parses line number n, without its line terminator.
	parseLine(n int, line string) error
	// finish returns what the lines described, once all have parsed.
	finish() *Tracks
}

// parserFor returns a reader for f, or nil for FormatAuto.
func parserFor(f Format, name string, opts Options) lineParser {
	switch f {
	case FormatMOT:
		return newMOTReader(name, opts)
	case FormatJSONL:
		return newJSONLReader(name)
	}
	return nil
}

// formatOf returns the format that name's extension implies, or FormatAuto.
func formatOf(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL
	case ".txt", ".csv":
		return FormatMOT
	}
	return FormatAuto
}

// sniff decides the format from line n, the first that is not blank; it returns FormatAuto
// for a blank line.
func sniff(name string, n int, line []byte) (Format, error) {
	line = bytes.TrimLeft(line, " \t\r")
	switch {
	case len(line) == 0:
		return FormatAuto, nil
	case line[0] >= '0' && line[0] <= '9', line[0] == '#':
		return FormatMOT, nil
	case line[0] == '{':
		return FormatJSONL, nil
	}
	return FormatAuto, &ParseError{File: name, Line: n, Msg: "cannot tell the format: the line starts " +
		"with neither a digit (MOTChallenge) nor '{' (JSON Lines); name the file .txt, .csv, .jsonl or .ndjson"}
}

// The parse and check helpers below return an empty message for a good value and otherwise
// a message that reads on from the field's name, quoting the value as written: the text is
// what the user can search for in the file.

// parseNumber parses a finite decimal number, rounded to the precision of bitSize (32 or 64):
// a value stored as float32 is rounded once, straight from the text, as encoding/json
// and strconv do, rather than twice, through float64.
func parseNumber(s string, bitSize int) (float64, string) {
	if v, ok := plainDecimal(s, bitSize); ok {
		return v, ""
	}
	v, err := strconv.ParseFloat(s, bitSize)
	if err != nil {
		switch {
		case s == "":
			return 0, "empty value"
		case errors.Is(err, strconv.ErrRange):
			return 0, s + " is out of range"
		}
		return 0, show(s) + " is not a number"
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, s + " is not a finite number"
	}
	// ParseFloat also takes hexadecimal ("0x1p4") and underscores; no tracker writes those
	// on purpose.
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-' {
			return 0, show(s) + " is not a decimal number"
		}
	}
	return v, ""
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// plainDecimal parses the short plain decimals that trackers write ("-1", "1234.57")
// without the generality of strconv.ParseFloat, which took most of the time of reading a
// MOT file. It reports false for anything else, leaving that to ParseFloat. Its result is
// exactly ParseFloat's: the digits form an integer that the float type holds exactly, the
// divisor is a power of ten that it holds exactly, and IEEE division rounds correctly
// (Clinger's fast path, which strconv takes too, after more work to get there).
func plainDecimal(s string, bitSize int) (float64, bool) {
	neg := s != "" && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if s == "" || len(s) > 15 { // at most 15 digits: below 2^53, exact in float64
		return 0, false
	}
	var m uint64
	point := -1 // position of the '.'
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
		case c == '.' && point < 0:
			point = i
		default:
			return 0, false
		}
	}
	frac := 0
	if point >= 0 {
		frac = len(s) - point - 1
		if len(s) == 1 { // "." alone
			return 0, false
		}
	}
	var v float64
	if bitSize == 32 {
		if m >= 1<<24 || frac > 10 { // beyond float32's exact integers and powers of ten
			return 0, false
		}
		v = float64(float32(m) / float32(pow10[frac]))
	} else {
		v = float64(m) / pow10[frac]
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseInt parses an integer. An integral value written as a decimal fraction ("7.0",
// "7.000000e+00") is accepted as well, because numpy.savetxt writes integers that way.
func parseInt(s string) (int, string) {
	if v, ok := smallInt(s); ok {
		return v, ""
	}
	v, msg := parseNumber(s, 64)
	switch {
	case msg != "":
		return 0, msg
	case v != math.Trunc(v):
		return 0, s + " is not an integer"
	case math.Abs(v) > 1e18: // beyond every limit, and beyond what int can hold exactly
		return 0, s + " is out of range"
	}
	return int(v), ""
}

// smallInt parses an optionally signed run of at most 15 decimal digits. Unlike
// strconv.Atoi it allocates nothing when s is not one, which matters because it is tried on
// every frame and id.
func smallInt(s string) (int, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || len(s) > 15 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

func checkFrame(v int, s string) string {
	switch {
	case v < 1:
		return s + " is less than 1 (frames are numbered from 1)"
	case v > MaxFrame:
		return fmt.Sprintf("%s is beyond the frame limit of %d", s, MaxFrame)
	}
	return ""
}

func checkID(v int, s string) string {
	switch {
	case v < 0:
		return s + " is negative (track ids are 0 or more; MOTChallenge detection files, " +
			"with id -1, have no tracks to draw)"
	case v > MaxID:
		return fmt.Sprintf("%s is beyond the track id limit of %d", s, MaxID)
	}
	return ""
}

func checkCoord(v float64, s string) string {
	if math.Abs(v) > MaxCoord {
		return s + " is beyond ±1e7 px"
	}
	return ""
}

func checkSize(v float64, s string) string {
	switch {
	case v < 0:
		return s + " is negative"
	case v > MaxCoord:
		return s + " is beyond 1e7 px"
	}
	return ""
}

// checkUnit checks a score or a visibility.
func checkUnit(v float64, s string) string {
	if v < 0 || v > 1 {
		return s + " is outside [0,1]"
	}
	return ""
}

// parseColor parses "#rrggbb" or "#rrggbbaa"; hex digits may be in either case.
func parseColor(s string) (Color, bool) {
	if (len(s) != 7 && len(s) != 9) || s[0] != '#' {
		return Color{}, false
	}
	var ch [4]uint8
	ch[3] = 0xff
	for i := 1; i < len(s); i += 2 {
		hi, ok1 := unhex(s[i])
		lo, ok2 := unhex(s[i+1])
		if !ok1 || !ok2 {
			return Color{}, false
		}
		ch[i/2] = hi<<4 | lo
	}
	return Color{ch[0], ch[1], ch[2], ch[3]}, true
}

func unhex(c byte) (uint8, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// show quotes a value for a message, shortening a long one so that a garbage line does not
// turn into a garbage error.
func show(s string) string {
	const max = 40
	if len(s) > max {
		return strconv.Quote(s[:max]) + "…"
	}
	return strconv.Quote(s)
}
