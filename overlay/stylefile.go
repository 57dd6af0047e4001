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
	Key, Value string // the value as a flag takes it: a string's text, a number, true or false
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
// value a number, true or false, or a string ("…" with TOML's escapes, or '…' taken
// literally), optionally followed by a comment. Tables, arrays and everything else TOML has
// are a *StyleFileError naming the line, as is a key given twice. Which keys a style takes
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
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
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
		v, err := tomlValue(strings.TrimSpace(value))
		if err != nil {
			return nil, fail("%s: %v", key, err)
		}
		if first, dup := seen[key]; dup {
			return nil, fail("%s is set twice (also line %d)", key, first)
		}
		seen[key] = n
		entries = append(entries, StyleEntry{key, v, n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return entries, nil
}

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

// tomlValue returns the text of a TOML string, number or boolean, as a flag takes it, and
// checks that nothing but a comment follows.
func tomlValue(s string) (string, error) {
	var v, rest string
	switch {
	case s == "":
		return "", errors.New("no value")
	case s[0] == '"':
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
					return "", errors.New(`\u wants four hex digits`)
				}
				r, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return "", fmt.Errorf(`\u%s is not a character`, s[i+1:i+5])
				}
				out.WriteRune(rune(r))
				i += 4
			default:
				return "", fmt.Errorf(`unknown escape \%c`, s[i])
			}
		}
		if i >= len(s) {
			return "", errors.New("the string has no closing quote")
		}
		v, rest = out.String(), s[i+1:]
	case s[0] == '\'':
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", errors.New("the string has no closing quote")
		}
		v, rest = s[1:1+end], s[2+end:]
	default:
		v, rest, _ = strings.Cut(s, "#")
		v = strings.TrimSpace(v)
		rest = strings.TrimPrefix(s[len(v):], " ")
		if v != "true" && v != "false" {
			if _, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64); err != nil || strings.ContainsAny(v, " \t") {
				if strings.HasPrefix(v, "[") || strings.HasPrefix(v, "{") {
					return "", errors.New("arrays and inline tables are not used in style files")
				}
				return "", fmt.Errorf("%s is not a number, true, false or a quoted string", v)
			}
			v = strings.ReplaceAll(v, "_", "")
		}
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return "", fmt.Errorf("%q after the value", rest)
	}
	return v, nil
}
