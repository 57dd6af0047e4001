package scene

import (
	"fmt"
	"strings"
)

// row is one line of a delimited format (MOTChallenge, KITTI, supervision CSV, YOLO) split
// into fields. Its methods parse and check a field, and name it in errors the same way in
// every format: "field 5 (bb_width)", from the format's column names.
type row struct {
	file  string
	line  int
	names []string // column names; a field past them is named by its number alone
	f     []string
}

// fail returns the error for field col.
func (r *row) fail(col int, msg string) error {
	field := fmt.Sprintf("field %d", col+1)
	if col < len(r.names) {
		field += " (" + r.names[col] + ")"
	}
	return &ParseError{File: r.file, Line: r.line, Field: field, Msg: msg}
}

// check turns a check helper's message about field col into an error, or nil if there is none.
func (r *row) check(col int, msg string) error {
	if msg == "" {
		return nil
	}
	return r.fail(col, msg)
}

// integer parses field col as an integer and checks it with check, if not nil.
func (r *row) integer(col int, check func(int, string) string) (int, error) {
	v, msg := parseInt(r.f[col])
	if msg == "" && check != nil {
		msg = check(v, r.f[col])
	}
	return v, r.check(col, msg)
}

// number parses field col as a number of the given precision (32 or 64 bits) and checks it
// with check, if not nil.
func (r *row) number(col, bitSize int, check func(float64, string) string) (float64, error) {
	v, msg := parseNumber(r.f[col], bitSize)
	if msg == "" && check != nil {
		msg = check(v, r.f[col])
	}
	return v, r.check(col, msg)
}

// frame parses field col as the frame number of a file whose first frame is base, and
// returns trackink's 1-based index.
func (r *row) frame(col, base int) (int, error) {
	v, msg := parseInt(r.f[col])
	if msg == "" {
		msg = checkFrame(v, r.f[col], base)
	}
	return v - base + 1, r.check(col, msg)
}

// splitSpaces appends the fields of s separated by runs of spaces and tabs to dst[:0].
func splitSpaces(s string, dst []string) []string {
	dst = dst[:0]
	for {
		s = trimSpaces(s)
		if s == "" {
			return dst
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		dst = append(dst, s[:end])
		s = s[end:]
	}
}

// splitCommas appends the comma-separated fields of s, without the spaces around them, to
// dst[:0].
func splitCommas(s string, dst []string) []string {
	dst = dst[:0]
	for {
		comma := strings.IndexByte(s, ',')
		if comma < 0 {
			return append(dst, trimSpaces(s))
		}
		dst = append(dst, trimSpaces(s[:comma]))
		s = s[comma+1:]
	}
}
