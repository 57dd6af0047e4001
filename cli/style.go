package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"trackink/internal/field"
	"trackink/internal/suggest"
	"trackink/overlay"
)

// The look of a render is built in three layers, each over the one before: a built-in look
// (--look: overlay's presets; not --preset, which is the encoder's, as in ffmpeg), a style
// file (--style FILE.toml, whose keys are the style flags' names), and the style flags given
// on the command line.

// applyLook sets the style from the look, then the style file, then the flags the command
// line gave (which pflag has already parsed into the same variables: they are set again).
func (s *styleFlags) applyLook(fs *pflag.FlagSet) error {
	given := map[string]string{}
	fs.Visit(func(f *pflag.Flag) { given[f.Name] = f.Value.String() })
	look, ok := overlay.Preset(s.look)
	if !ok {
		return usageError{fmt.Errorf("--look %q: want one of %s%s", s.look, lookList(), valueHint("look", s.look))}
	}
	if s.look != s.defaultLook {
		s.setStyle(fs, look, given)
	}
	if s.file != "" {
		if err := checkInput("--style", s.file, false); err != nil {
			return err
		}
		s.fromFile = map[string]int{}
		entries, err := readStyleFile(s.file)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if !slices.Contains(s.keys, e.key) {
				if near := suggest.Closest(e.key, s.keys); near != "" {
					return usageError{fmt.Errorf("%s:%d: unknown key %q (did you mean %s?)", s.file, e.line, e.key, near)}
				}
				return usageError{fmt.Errorf("%s:%d: unknown key %q (the keys are the style flags: %s)", s.file, e.line, e.key, strings.Join(s.keys, ", "))}
			}
			if _, onCommandLine := given[e.key]; onCommandLine {
				continue
			}
			if err := fs.Set(e.key, e.value); err != nil {
				var ie *pflag.InvalidValueError
				if errors.As(err, &ie) {
					return usageError{fmt.Errorf("%s:%d: %s = %q: %s", s.file, e.line, e.key, e.value, valueProblem(ie))}
				}
				return usageError{fmt.Errorf("%s:%d: %s: %v", s.file, e.line, e.key, err)}
			}
			s.fromFile[e.key] = e.line
		}
	}
	return nil
}

// setStyle makes st the style, keeping what the command line gave: the variables the flags
// write are set from st, then the given flags are set again.
func (s *styleFlags) setStyle(fs *pflag.FlagSet, st overlay.Style, given map[string]string) {
	s.style = st
	s.noLabels = !st.Labels
	for name, v := range given {
		fs.Set(name, v) // it parsed once already
	}
}

// lookList is the looks' names for help texts.
func lookList() string {
	names, _ := overlay.PresetNames()
	return strings.Join(names, ", ")
}

// printLooks lists the built-in looks with what each is for.
func printLooks(w io.Writer) {
	names, about := overlay.PresetNames()
	for i, n := range names {
		fmt.Fprintf(w, "%-8s %s\n", n, about[i])
	}
}

// styleEntry is one key = value line of a style file.
type styleEntry struct {
	key, value string
	line       int
}

// readStyleFile reads a style file: TOML, restricted to what a style needs, strictly. Each
// line is blank, a # comment, or key = value with value a number, true or false, or a
// string ("…" with TOML's escapes, or '…' taken literally), optionally followed by a
// comment. Tables, arrays and everything else TOML has are errors naming the line, as is a
// key given twice.
func readStyleFile(path string) ([]styleEntry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseStyle(path, b)
}

func parseStyle(name string, b []byte) ([]styleEntry, error) {
	var entries []styleEntry
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		fail := func(format string, a ...any) error {
			return usageError{fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, a...))}
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
		entries = append(entries, styleEntry{key, v, n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return entries, nil
}

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

// readWords reads a file of words for {word}: one a line, blank lines and # comments skipped.
func readWords(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var words []string
	for n, line := range strings.Split(string(b), "\n") {
		w := strings.TrimSpace(line)
		if w == "" || w[0] == '#' {
			continue
		}
		if !utf8.ValidString(w) {
			return nil, fmt.Errorf("%s:%d: not UTF-8", path, n+1)
		}
		words = append(words, w)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("%s: no words", path)
	}
	return words, nil
}

// colorValue is a flag holding an overlay.OptionalColor.
type colorValue struct{ c *overlay.OptionalColor }

func (v colorValue) String() string {
	if v.c == nil {
		return "auto"
	}
	return v.c.String()
}

func (v colorValue) Set(s string) error {
	c, err := overlay.ParseOptionalColor(s)
	if err == nil {
		*v.c = c
	}
	return err
}

func (colorValue) Type() string { return "color" }

// colorByValue is a flag holding an overlay.ColorBy.
type colorByValue struct{ c *overlay.ColorBy }

func (v colorByValue) String() string {
	if v.c == nil {
		return "track"
	}
	return v.c.String()
}

func (v colorByValue) Set(s string) error {
	c, err := overlay.ParseColorBy(s)
	if err != nil {
		return errors.New("want track or class")
	}
	*v.c = c
	return nil
}

func (colorByValue) Type() string { return "string" }

// choiceValue is a string flag that takes one of a list of names.
type choiceValue struct {
	s     *string
	names []string
}

func (v choiceValue) String() string {
	if v.s == nil || *v.s == "" {
		return v.names[0]
	}
	return *v.s
}

func (v choiceValue) Set(s string) error {
	if !slices.Contains(v.names, s) {
		return fmt.Errorf("%q: want %s", s, strings.Join(v.names, ", "))
	}
	*v.s = s
	return nil
}

func (choiceValue) Type() string { return "string" }

// fileError names, for an option the style file set, the file and line that set it
// ("s.toml:3: box-opacity = 2: is outside 0..1"); otherwise the flag, as flagError does.
func (s *styleFlags) fileError(fs *pflag.FlagSet, err error) error {
	var fe *field.Error
	if errors.As(err, &fe) {
		for _, name := range fieldFlags[fe.Field] {
			if line, ok := s.fromFile[name]; ok && fs.Lookup(name) != nil {
				return usageError{fmt.Errorf("%s:%d: %s = %v: %s", s.file, line, name, fs.Lookup(name).Value, fe.Msg)}
			}
		}
	}
	return flagError(fs, err)
}
