package scene

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/text/transform"
)

// MaxClasses bounds the class numbers a class-names file may name.
const MaxClasses = 1 << 16

// ReadClassNames reads the names of class numbers (Options.ClassNames) from a file: either
// one name a line, line n naming class n-1 (as darknet's .names files), or a YOLO data YAML
// file, of which only the names key is read, in one of the forms Ultralytics writes:
//
//	names:            names:             names: [person, bicycle]
//	  0: person         - person         names: {0: person, 1: bicycle}
//	  1: bicycle        - bicycle
//
// A file is YAML if its name ends in .yaml or .yml, or if a line starts with "names:". Names
// may be plain or quoted ('…' or "…"); # starts a comment outside quotes. Anything YAML can
// say beyond that (anchors, multi-line flow lists, block scalars) is an error, not a guess.
func ReadClassNames(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseClassNames(path, data)
}

// namesKey matches the line that opens a YAML names key, and what follows it on the line.
var namesKey = regexp.MustCompile(`^names[ \t]*:(.*)$`)

func parseClassNames(path string, data []byte) ([]string, error) {
	lines := textLines(data)
	ext := strings.ToLower(filepath.Ext(path))
	for n, line := range lines {
		if m := namesKey.FindStringSubmatch(line); m != nil {
			return yamlNames(path, lines, n, m[1])
		}
	}
	if ext == ".yaml" || ext == ".yml" {
		return nil, fmt.Errorf("%s: no names key (a line \"names:\" at the start)", path)
	}
	names, err := nameLines(path, lines, 0)
	if err == nil && len(names) == 0 {
		err = fmt.Errorf("%s: no class names (one name a line, the first is class 0)", path)
	}
	return names, err
}

// nameLines reads class names, one a line, the first naming class first (0 in a darknet
// .names file, 1 in CVAT's labels.txt). Spaces around a name are not part of it; blank lines
// at the end are left out, and one in the middle is an error.
func nameLines(path string, lines []string, first int) ([]string, error) {
	for len(lines) > 0 && trimSpaces(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	names := make([]string, len(lines))
	for n, line := range lines {
		name := trimSpaces(line)
		msg := checkLabel(name)
		if name == "" {
			msg = fmt.Sprintf("blank: class %d needs a name (one name a line, the first is class %d)", n+first, first)
		}
		if msg != "" {
			return nil, &ParseError{File: path, Line: n + 1, Msg: msg}
		}
		names[n] = name
	}
	return names, nil
}

// LabelsFile is the file beside a 9-field MOTChallenge file in which CVAT's "MOT 1.1" export
// (datumaro's MOT sequence format) names its class numbers: gt/labels.txt beside gt/gt.txt,
// one label a line, the 8th field's class_id n naming line n.
const LabelsFile = "labels.txt"

// readLabelsFile reads the labels of a labels.txt (LabelsFile). A task without labels
// writes an empty one: then no box has a class (class_id -1).
func readLabelsFile(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return nameLines(path, textLines(data), 1)
}

// textLines splits a small text file into lines, without a UTF-8 byte order mark or CRs
// before the line feeds, decoded from UTF-16 as a tracks file is (utf8Text).
func textLines(data []byte) []string {
	if isUTF16(data) {
		data, _, _ = transform.Bytes(fromUTF16(), data)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	return strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
}

// yamlNames reads the names key opened on line n (0-based) of lines, rest being the text
// after its colon.
func yamlNames(path string, lines []string, n int, rest string) ([]string, error) {
	c := yamlNameReader{path: path, line: n + 1}
	rest, msg := uncomment(rest)
	switch rest = trimSpaces(rest); {
	case msg != "":
		return nil, c.fail(msg)
	case strings.HasPrefix(rest, "["):
		return c.flow(rest, "[", "]")
	case strings.HasPrefix(rest, "{"):
		return c.flow(rest, "{", "}")
	case rest != "":
		return nil, c.fail("names: want a list or a mapping of class names, got " + show(rest))
	}
	for i := n + 1; i < len(lines); i++ {
		c.line = i + 1
		text, msg := uncomment(lines[i])
		if msg != "" {
			return nil, c.fail(msg)
		}
		if trimSpaces(text) == "" {
			continue
		}
		if text[0] != ' ' && text[0] != '\t' {
			break // the next top-level key
		}
		var err error
		if item, ok := strings.CutPrefix(trimSpaces(text), "- "); ok || trimSpaces(text) == "-" {
			err = c.add(-1, item)
		} else if key, value, ok := strings.Cut(text, ":"); ok {
			err = c.keyed(trimSpaces(key), value)
		} else {
			err = c.fail("want \"- name\" or \"number: name\", got " + show(trimSpaces(text)))
		}
		if err != nil {
			return nil, err
		}
	}
	if len(c.names) == 0 {
		c.line = n + 1
		return nil, c.fail("names: no class names")
	}
	return c.names, nil
}

// yamlNameReader collects class names from a names key, as a list or as a mapping.
type yamlNameReader struct {
	path  string
	line  int
	names []string
	set   []bool // set[i]: class i has been named, in a mapping
	list  int    // -1: a mapping; 1: a list; 0: not yet known
}

func (c *yamlNameReader) fail(msg string) error {
	return &ParseError{File: c.path, Line: c.line, Msg: msg}
}

// keyed adds "key: value" of a mapping.
func (c *yamlNameReader) keyed(key, value string) error {
	k, msg := parseInt(key)
	switch {
	case msg != "":
		return c.fail("class number: " + msg)
	case k < 0 || k >= MaxClasses:
		return c.fail(fmt.Sprintf("class number %s is outside 0 to %d", key, MaxClasses-1))
	}
	return c.add(k, value)
}

// add names class k (or the next class of a list, when k is -1) with the YAML scalar value.
func (c *yamlNameReader) add(k int, value string) error {
	kind := 1
	if k >= 0 {
		kind = -1
	}
	if c.list != 0 && c.list != kind {
		return c.fail("names mixes list items and numbered names")
	}
	c.list = kind
	if k < 0 {
		k = len(c.names)
	}
	name, msg := yamlScalar(trimSpaces(value))
	if msg == "" {
		msg = checkLabel(name)
	}
	if msg == "" && name == "" {
		msg = "empty class name"
	}
	if msg != "" {
		return c.fail(msg)
	}
	for len(c.names) <= k {
		c.names = append(c.names, "")
		c.set = append(c.set, false)
	}
	if c.set[k] {
		return c.fail(fmt.Sprintf("class %d is named twice", k))
	}
	c.names[k], c.set[k] = name, true
	return nil
}

// flow reads a one-line flow list or mapping, s, from its opening bracket open to its
// closing one, close.
func (c *yamlNameReader) flow(s, open, close string) ([]string, error) {
	body, ok := strings.CutSuffix(strings.TrimPrefix(s, open), close)
	if !ok {
		return nil, c.fail(fmt.Sprintf("names: a flow %s must close on its line with %q (for longer lists, write one name a line)",
			map[string]string{"[": "list", "{": "mapping"}[open], close))
	}
	for _, item := range splitFlow(body) {
		var err error
		if open == "[" {
			err = c.add(-1, item)
		} else if key, value, ok := cutUnquoted(item, ':'); ok {
			err = c.keyed(trimSpaces(key), value)
		} else {
			err = c.fail("want \"number: name\" in a flow mapping, got " + show(item))
		}
		if err != nil {
			return nil, err
		}
	}
	return c.names, nil
}

// splitFlow splits the items of a flow collection at the commas outside quotes.
func splitFlow(s string) []string {
	var items []string
	for trimSpaces(s) != "" {
		item, rest, found := cutUnquoted(s, ',')
		items = append(items, item)
		if !found {
			break
		}
		s = rest
	}
	return items
}

// cutUnquoted cuts s around the first sep outside quotes.
func cutUnquoted(s string, sep byte) (before, after string, found bool) {
	i, _ := unquotedIndex(s, func(i int) bool { return s[i] == sep })
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// uncomment removes a comment (a "#" at the start or after a space, outside quotes) from a
// line, or reports a quote left open.
func uncomment(s string) (string, string) {
	i, open := unquotedIndex(s, func(i int) bool { return s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') })
	switch {
	case i >= 0:
		return s[:i], ""
	case open:
		return s, "unterminated quoted name"
	}
	return s, ""
}

// unquotedIndex returns the first index of s outside YAML quotes at which stop is true, or
// -1 and whether a quote is left open at the end. A quote opens a scalar only where one can
// start (after a space, a bracket, a comma, a colon or a dash), so that "person's" is plain.
func unquotedIndex(s string, stop func(i int) bool) (int, bool) {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote == '"' && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case (c == '"' || c == '\'') && (i == 0 || strings.IndexByte(" \t[{,:-", s[i-1]) >= 0):
			quote = c
		case stop(i):
			return i, false
		}
	}
	return -1, quote != 0
}

// yamlScalar returns the value of a plain or quoted YAML scalar on one line.
func yamlScalar(s string) (string, string) {
	switch {
	case len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'':
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'"), ""
	case len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"':
		v, err := strconv.Unquote(s)
		if err != nil {
			return "", show(s) + " is not a double-quoted string this reader knows"
		}
		return v, ""
	case strings.ContainsAny(s[:min(1, len(s))], `'"&*!|>%@`+"`"):
		return "", show(s) + " starts with a character whose YAML meaning this reader does not handle; quote the name"
	}
	return s, ""
}
