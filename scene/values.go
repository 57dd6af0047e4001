package scene

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

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

// checkFrame checks frame number v, written s, of a file whose first frame is base (0 or 1).
func checkFrame(v int, s string, base int) string {
	switch {
	case v < base && base == 1:
		return s + " is less than 1 (frames are numbered from 1 here; if the file counts from 0, " +
			"read it with --frame-base 0)"
	case v < base:
		return s + " is negative (frames are numbered from 0 here)"
	case v-base+1 > MaxFrame:
		return fmt.Sprintf("%s is beyond the frame limit of %d", s, MaxFrame+base-1)
	}
	return ""
}

// checkID checks a track id of MOTChallenge text, JSON Lines or CVAT XML.
var checkID = idCheck("MOTChallenge detection files, with id -1, have no tracks to draw")

// idCheck returns a check of track ids whose message about a negative id ends with hint,
// which says where a negative id comes from in the format.
func idCheck(hint string) func(int, string) string {
	return func(v int, s string) string {
		switch {
		case v < 0:
			return s + " is negative (track ids are 0 or more; " + hint + ")"
		case v > MaxID:
			return fmt.Sprintf("%s is beyond the track id limit of %d", s, MaxID)
		}
		return ""
	}
}

func checkCoord(v float64, s string) string {
	if math.Abs(v) > MaxCoord {
		return s + " is beyond ±1e7 px"
	}
	return ""
}

// farEdgeProblem refuses a box whose right or bottom edge lies beyond ±MaxCoord, though its
// corner and size are within: its tracked point could lie there too, and every point read,
// or made from a box, is within ±1e7 px (a file written from such a box was refused when
// read back). An edge is judged rounded to float32 once, as AnchorPoint rounds the points,
// so a box whose corner rounds up to 1e7 and whose edge rounds back to it is kept. It
// returns which size reaches too far (0 the width, 1 the height) and why.
func farEdgeProblem(x, y, w, h float32) (size int, msg string) {
	for i, e := range []struct {
		name string
		at   float64
	}{{"right", float64(x) + float64(w)}, {"bottom", float64(y) + float64(h)}} {
		if math.Abs(float64(float32(e.at))) > MaxCoord {
			return i, fmt.Sprintf("the box's %s edge, %v, is beyond ±1e7 px", e.name, e.at)
		}
	}
	return 0, ""
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
	if !(v >= 0 && v <= 1) {
		return s + " is outside [0,1]"
	}
	return ""
}

// parseColor parses "#rrggbb" or "#rrggbbaa"; hex digits may be in either case.
// ParseColor reads "#rrggbb" or "#rrggbbaa" (hex digits of either case; the alpha is
// straight and defaults to ff).
func ParseColor(s string) (Color, bool) {
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

// checkLabel checks a class name or label: it is drawn as one line of text, where a newline
// or a tab has no faithful picture.
func checkLabel(s string) string {
	switch {
	case len(s) > MaxLabelBytes:
		return fmt.Sprintf("label is %d bytes long; the limit is %d", len(s), MaxLabelBytes)
	case !utf8.ValidString(s):
		return show(s) + " is not valid UTF-8"
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return fmt.Sprintf("%s contains the control character U+%04X", show(s), r)
	}
	return ""
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
