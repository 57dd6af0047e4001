package overlay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A style file sets a look's options as key = value lines, the keys being trackink's style
// flags' names: TOML, restricted to what a style needs, strictly.

// StyleEntry is one key = value line of a style file.
type StyleEntry struct {
	Key, Value string   // the value as a flag takes it: a string's text, a number, true or false
	List       []string // a list's strings, each a value of a flag given again; nil for one value
	Line       int
}

// StyleFileError is a line of a style file that is not what a style file holds.
type StyleFileError struct {
	Name string // the file
	Line int
	Msg  string
}

func (e *StyleFileError) Error() string { return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg) }

// ReadStyleFile reads a style file. Each line is blank, a # comment, or key = value with
// value a number, true or false, a string ("…" with TOML's escapes, or '…' taken
// literally), or a list of strings on the line (["…", '…'], for a flag given more than
// once), optionally followed by a comment. Tables, other arrays and everything else TOML
// has are a *StyleFileError naming the line, as is a key given twice. Which keys a style takes
// is the caller's to check.
func ReadStyleFile(path string) ([]StyleEntry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseStyleFile(path, b)
}

// ParseStyleFile is ReadStyleFile of b, the file name.
func ParseStyleFile(name string, b []byte) ([]StyleEntry, error) {
	var entries []StyleEntry
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, maxStyleLine)
	n := 1
	for ; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		fail := func(format string, a ...any) error {
			return &StyleFileError{Name: name, Line: n, Msg: fmt.Sprintf(format, a...)}
		}
		if !utf8.ValidString(line) {
			return nil, fail("not UTF-8")
		}
		rest := strings.TrimSpace(line)
		if rest == "" || rest[0] == '#' {
			continue
		}
		if rest[0] == '[' {
			return nil, fail("tables are not used in style files: write key = value lines")
		}
		key, value, ok := strings.Cut(rest, "=")
		key = strings.TrimSpace(key)
		if !ok || !isBareKey(key) {
			return nil, fail("want key = value, with the key a style flag's name")
		}
		v, list, err := tomlValue(strings.TrimSpace(value))
		if err != nil {
			return nil, fail("%s: %v", key, err)
		}
		if first, dup := seen[key]; dup {
			return nil, fail("%s is set twice (also line %d)", key, first)
		}
		seen[key] = n
		entries = append(entries, StyleEntry{Key: key, Value: v, List: list, Line: n})
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, &StyleFileError{Name: name, Line: n, Msg: fmt.Sprintf("the line is longer than %d MiB", maxStyleLine>>20)}
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return entries, nil
}

// maxStyleLine is the longest line a style file may hold.
const maxStyleLine = 1 << 20

// isBareKey reports whether k is a TOML bare key.
func isBareKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// tomlValue returns the text of a TOML string, number or boolean, as a flag takes it, or a
// list's strings (["…", '…']: list non-nil), and checks that nothing but a comment follows.
func tomlValue(s string) (v string, list []string, err error) {
	var rest string
	switch {
	case s == "":
		return "", nil, errors.New("no value")
	case s[0] == '"' || s[0] == '\'':
		if v, rest, err = tomlString(s); err != nil {
			return "", nil, err
		}
	case s[0] == '[':
		if list, rest, err = tomlList(s); err != nil {
			return "", nil, err
		}
	default:
		v, _, _ = strings.Cut(s, "#")
		v = strings.TrimSpace(v)
		rest = strings.TrimPrefix(s[len(v):], " ")
		if v != "true" && v != "false" {
			if _, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64); err != nil || strings.ContainsAny(v, " \t") {
				if strings.HasPrefix(v, "{") {
					return "", nil, errors.New("inline tables are not used in style files")
				}
				return "", nil, fmt.Errorf("%s is not a number, true, false, a quoted string or a list of them", v)
			}
			v = strings.ReplaceAll(v, "_", "")
		}
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return "", nil, fmt.Errorf("%q after the value", rest)
	}
	return v, list, nil
}

// tomlList reads a list of strings on one line, ["a", 'b'] (a comma after the last allowed),
// and returns them and what follows the closing bracket.
func tomlList(s string) (list []string, rest string, err error) {
	list = []string{}
	rest = strings.TrimSpace(s[1:])
	for {
		switch {
		case rest == "":
			return nil, "", errors.New("the list has no closing ]")
		case rest[0] == ']':
			return list, rest[1:], nil
		case rest[0] != '"' && rest[0] != '\'':
			return nil, "", errors.New("a list in a style file holds quoted strings only")
		}
		var v string
		if v, rest, err = tomlString(rest); err != nil {
			return nil, "", err
		}
		list = append(list, v)
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, ",") {
			rest = strings.TrimSpace(rest[1:])
		} else if !strings.HasPrefix(rest, "]") {
			return nil, "", errors.New("want , or ] after a string of the list")
		}
	}
}

// tomlString reads the quoted string s begins with: "…" with TOML's escapes, or '…' taken
// literally; it returns the string's text and what follows its closing quote.
func tomlString(s string) (v, rest string, err error) {
	if s[0] == '\'' {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", errors.New("the string has no closing quote")
		}
		return s[1 : 1+end], s[2+end:], nil
	}
	i := 1
	var out strings.Builder
	for ; i < len(s) && s[i] != '"'; i++ {
		if s[i] != '\\' {
			out.WriteByte(s[i])
			continue
		}
		i++
		if i == len(s) {
			break
		}
		switch s[i] {
		case '"', '\\':
			out.WriteByte(s[i])
		case 'n':
			out.WriteByte('\n')
		case 't':
			out.WriteByte('\t')
		case 'u':
			if i+4 >= len(s) {
				return "", "", errors.New(`\u wants four hex digits`)
			}
			r, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil {
				return "", "", errors.New(`\u wants four hex digits`)
			}
			if !utf8.ValidRune(rune(r)) {
				return "", "", fmt.Errorf(`\u%s is not a character`, s[i+1:i+5])
			}
			out.WriteRune(rune(r))
			i += 4
		default:
			return "", "", fmt.Errorf(`unknown escape \%c`, s[i])
		}
	}
	if i >= len(s) {
		return "", "", errors.New("the string has no closing quote")
	}
	return out.String(), s[i+1:], nil
}
