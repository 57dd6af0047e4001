package options

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"trackink/internal/field"
	"trackink/internal/suggest"
	"trackink/overlay"
	"trackink/scene"
)

// The look of a render is built in three layers, each over the one before: a built-in look
// (--look: overlay's presets; not --preset, which is the encoder's, as in ffmpeg), a style
// file (--style FILE.toml, whose keys are the style flags' names), and the style flags given
// on the command line.

// applyLook sets the style from the look, then the style file, then the flags the command
// line gave (which pflag has already parsed into the same variables: they are set again).
func (s *Style) applyLook(fs *pflag.FlagSet) error {
	given := map[string]string{}
	fs.Visit(func(f *pflag.Flag) { given[f.Name] = f.Value.String() })
	look, ok := overlay.Preset(s.look)
	if !ok {
		return UsageError{fmt.Errorf("--look %q: want one of %s%s", s.look, s.lookList(), ValueHint("look", s.look))}
	}
	if s.look != s.defaultLook {
		if err := s.setStyle(fs, look, given); err != nil {
			return err
		}
	}
	if s.File != "" {
		if err := CheckInput("--style", s.File, false); err != nil {
			return err
		}
		s.fromFile = map[string]int{}
		entries, err := overlay.ReadStyleFile(s.File)
		var sfe *overlay.StyleFileError
		if errors.As(err, &sfe) {
			return UsageError{fmt.Errorf("--style %w", err)}
		}
		if err != nil {
			return err
		}
		keys := styleKeys(fs)
		dir := styleDir(s.File)
		for _, e := range entries {
			if !slices.Contains(keys, e.Key) {
				if near := suggest.Closest(e.Key, keys); near != "" {
					return UsageError{fmt.Errorf("--style %s:%d: unknown key %q (did you mean %s?)", s.File, e.Line, e.Key, near)}
				}
				return UsageError{fmt.Errorf("--style %s:%d: unknown key %q (the keys are the style flags: %s)", s.File, e.Line, e.Key, strings.Join(keys, ", "))}
			}
			if _, onCommandLine := given[e.Key]; onCommandLine {
				continue
			}
			if _, rivalGiven := given[rivalKeys[e.Key]]; rivalGiven {
				continue // the command line's rival overrides it, as it would the key itself
			}
			values := []string{fromStyleDir(dir, e.Key, e.Value)}
			if e.List != nil {
				if _, adds := fs.Lookup(e.Key).Value.(addingValue); !adds {
					return UsageError{fmt.Errorf("%s:%d: %s takes one value, not a list", s.File, e.Line, e.Key)}
				}
				values = e.List
			}
			for _, v := range values {
				if err := fs.Set(e.Key, v); err != nil {
					var ie *pflag.InvalidValueError
					if errors.As(err, &ie) {
						return UsageError{fmt.Errorf("%s:%d: %s = %q: %s", s.File, e.Line, e.Key, v, valueProblem(ie))}
					}
					return UsageError{fmt.Errorf("%s:%d: %s: %v", s.File, e.Line, e.Key, err)}
				}
			}
			s.fromFile[e.Key] = e.Line
		}
	}
	return nil
}

// fileKeys are the style keys whose values name files (the font: unless it is the built-in
// Go Mono).
var fileKeys = []string{"font", "label-words", "label-lines"}

// styleDir returns the folder of style file path, links followed (a style linked from a
// dotfiles repository, /dev/stdin redirected from a file), or "" for a style file that is
// no file on disk (a pipe: --style <(make-style)).
func styleDir(path string) string {
	file, err := filepath.EvalSymlinks(path)
	if err != nil || !isFile(file) {
		return ""
	}
	return filepath.Dir(file)
}

// fromStyleDir returns the value of key as a style file in folder dir (styleDir) gave it, a
// relative path to a file taken from dir: a style is a look kept for many renders, run from
// anywhere, with the files it names beside it. Without a folder the paths are the working
// directory's.
func fromStyleDir(dir, key, v string) string {
	if dir == "" || !slices.Contains(fileKeys, key) || v == "" || filepath.IsAbs(v) || key == "font" && v == overlay.GoMono {
		return v
	}
	return filepath.Join(dir, v)
}

// rivalKeys are the style keys that set the same thing two ways, so only one may be given:
// each key's rival on the command line overrides the key in the style file. A square's half
// side and a rectangle's size: one box.
var rivalKeys = map[string]string{"box-radius": "box-size", "box-size": "box-radius"}

// setStyle makes st the style, keeping what the command line gave: the variables the style
// flags write are set from st, then the given style flags are set again, from their values'
// String (which each style flag's Value must give back as it took it). The other flags
// (bench's --points, a list) are left as they were parsed.
func (s *Style) setStyle(fs *pflag.FlagSet, st overlay.Style, given map[string]string) error {
	s.Style = st
	s.noLabels = !st.Labels
	keys := styleKeys(fs)
	for name, v := range given {
		if !slices.Contains(keys, name) {
			continue
		}
		if err := fs.Set(name, v); err != nil { // it parsed once already
			return fmt.Errorf("--%s over --look %s: %w", name, s.look, err)
		}
	}
	return nil
}

// lookList names the built-in looks s offers: overlay's, with the command's own default
// where overlay keeps it out of its list (bench's seed).
func (s *Style) lookList() string {
	names, _ := overlay.PresetNames(s.defaultLook)
	return strings.Join(names, ", ")
}

// PrintLooks lists the built-in looks s offers with what each is for.
func (s *Style) PrintLooks(w io.Writer) {
	names, about := overlay.PresetNames(s.defaultLook)
	for i, n := range names {
		fmt.Fprintf(w, "%-8s %s\n", n, about[i])
	}
}

// readTextLines reads the text file path that flag names: for {word} its words, one a line,
// blank lines and # comments left out; for {line} its lines as they are (code keeps its
// indentation and its comments), blank ones left out, trailing spaces cut. Each is drawn
// in a label, so it holds at most scene.MaxLabelBytes, and the file at most maxTextLines:
// a file of one 100 MiB line took 24 GB before it was refused by nothing.
func readTextLines(flag, path string, words bool) ([]string, error) {
	if err := CheckInput(flag, path, false); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, UsageError{fmt.Errorf("%s %s: %w", flag, path, err)}
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<10)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), " \t\r")
		if words {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, "#") {
				continue
			}
		}
		if line == "" {
			continue
		}
		switch {
		case !utf8.ValidString(line):
			return nil, UsageError{fmt.Errorf("%s %s:%d: not UTF-8", flag, path, n)}
		case len(line) > scene.MaxLabelBytes:
			return nil, UsageError{fmt.Errorf("%s %s:%d: the line is %d bytes long; a label holds at most %d", flag, path, n, len(line), scene.MaxLabelBytes)}
		case len(lines) == maxTextLines:
			return nil, UsageError{fmt.Errorf("%s %s:%d: more than %d lines", flag, path, n, maxTextLines)}
		}
		lines = append(lines, line)
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return nil, UsageError{fmt.Errorf("%s %s:%d: the line is longer than 64 KiB; a label holds at most %d bytes", flag, path, n+1, scene.MaxLabelBytes)}
	case err != nil:
		return nil, UsageError{fmt.Errorf("%s %s: %w", flag, path, err)}
	}
	if len(lines) == 0 {
		what := "lines"
		if words {
			what = "words"
		}
		return nil, UsageError{fmt.Errorf("%s %s: no %s in it", flag, path, what)}
	}
	return lines, nil
}

// maxTextLines bounds the lines of a --label-words or --label-lines file.
const maxTextLines = 1_000_000

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
// ("s.toml:3: box-opacity = 2: is outside 0..1"); otherwise the flag, as FlagError does.
func (s *Style) fileError(fs *pflag.FlagSet, err error) error {
	var fe *field.Error
	if errors.As(err, &fe) {
		for _, f := range flagsOfField(fs, fe.Field) {
			if line, ok := s.fromFile[f.Name]; ok {
				return UsageError{fmt.Errorf("%s:%d: %s = %v: %s", s.File, line, f.Name, f.Value, fe.Msg)}
			}
		}
	}
	return FlagError(fs, err)
}
