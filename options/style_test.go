package options

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"trackink/overlay"
)

// TestLookStyleFileAndFlags: a look, then a style file, then the command line's flags, each
// over the one before; and the file's mistakes named by file and line.
func TestLookStyleFileAndFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.toml")
	os.WriteFile(file, []byte("line-width = 4\nlink-color = \"#ff8800\"\nfill-opacity = 0.5\n"), 0o644)
	words := filepath.Join(dir, "words.txt")
	os.WriteFile(words, []byte("# words\nfox\n\nowl\n"), 0o644)
	options := func(args ...string) (overlay.Style, error) {
		var s Style
		fs := NewFlagSet("render", "", "", io.Discard)
		s.Register(fs, "knn", "default")
		if err := Parse(fs, args); err != nil {
			t.Fatal(err)
		}
		o, err := s.Options(fs, false)
		return o.Style, err
	}
	st, err := options("--look", "plexus", "--style", file, "--fill-opacity", "0.25", "--label", "{word}", "--label-words", words)
	if err != nil {
		t.Fatal(err)
	}
	plexus, _ := overlay.Preset("plexus")
	switch {
	case st.Palette != plexus.Palette || st.Trail != plexus.Trail:
		t.Errorf("the look's keys were lost: %+v", st)
	case !st.Labels: // plexus has none, but --label asks for them
		t.Errorf("--label under --look plexus drew no labels")
	case st.LineWidth != 4 || st.LinkColor.String() != "#ff8800":
		t.Errorf("the style file's keys were lost: %+v", st)
	case st.FillOpacity != 0.25:
		t.Errorf("the command line did not win over the file: fill opacity %g", st.FillOpacity)
	case len(st.LabelWords) != 2 || st.LabelWords[1] != "owl":
		t.Errorf("label words %q", st.LabelWords)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--look", "bold"}, `--look "bold": want one of blob, cctv, clean, default, hud, neon, plexus`},
		{[]string{"--palette", "rainbow"}, `--palette "rainbow": want one of`},
		{[]string{"--label", "{nope}"}, `--label "{nope}": unknown field {nope}`},
		{[]string{"--label", "{word}"}, "--label-words"},
		{[]string{"--box-opacity", "2"}, "--box-opacity 2: is outside 0..1"},
	} {
		if _, err := options(tc.args...); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.msg)
		}
	}
	os.WriteFile(file, []byte("line-width = 4\nbox-colour = \"#ff0000\"\n"), 0o644)
	if _, err := options("--style", file); err == nil || !strings.Contains(err.Error(), "s.toml:2: unknown key \"box-colour\" (did you mean box-color?)") {
		t.Errorf("unknown key: %v", err)
	}
	os.WriteFile(file, []byte("box-color = \"rde\"\n"), 0o644)
	if _, err := options("--style", file); err == nil || !strings.Contains(err.Error(), `s.toml:1: box-color = "rde": is not a color`) ||
		!strings.HasSuffix(err.Error(), "(did you mean red?)") {
		t.Errorf("bad value: %v", err)
	}
}

// TestStyleFilePathsFromItsFolder: the files a style file names (label-words, label-lines,
// font) are found beside it, from whatever folder the render runs in; an absolute path and
// the built-in Go Mono are taken as they are, and a path given on the command line is the
// working directory's. They were the working directory's: --style looks/night.toml with
// label-words = "words.txt" failed unless run from looks/.
func TestStyleFilePathsFromItsFolder(t *testing.T) {
	dir := t.TempDir()
	looks := filepath.Join(dir, "looks")
	os.MkdirAll(filepath.Join(looks, "text"), 0o755)
	os.WriteFile(filepath.Join(looks, "text", "words.txt"), []byte("fox\nowl\n"), 0o644)
	os.WriteFile(filepath.Join(looks, "lines.txt"), []byte("int main() {\n"), 0o644)
	abs := filepath.Join(dir, "elsewhere.txt")
	os.WriteFile(abs, []byte("elk\n"), 0o644)
	style := filepath.Join(looks, "s.toml")
	work := t.TempDir() // neither looks/ nor its parent
	t.Chdir(work)
	for _, tc := range []struct {
		name, file string
		args       []string
		words      []string
		lines      []string
		font       string
		err        string
	}{
		{name: "beside the style file", file: "label = \"{word} {line}\"\nlabel-words = \"text/words.txt\"\nlabel-lines = \"lines.txt\"\nfont = \"Go Mono\"\n",
			words: []string{"fox", "owl"}, lines: []string{"int main() {"}, font: overlay.GoMono},
		{name: "absolute", file: "label = \"{word}\"\nlabel-words = \"" + filepath.ToSlash(abs) + "\"\n", words: []string{"elk"}},
		{name: "the command line's from the working directory", file: "label = \"{word}\"\n",
			args: []string{"--label-words", "text/words.txt"}, err: "--label-words text/words.txt"},
		{name: "a missing file named with the style file's folder", file: "label = \"{word}\"\nlabel-words = \"nope.txt\"\n",
			err: filepath.Join(looks, "nope.txt")},
	} {
		os.WriteFile(style, []byte(tc.file), 0o644)
		var s Style
		fs := NewFlagSet("render", "", "", io.Discard)
		s.Register(fs, "knn", "default")
		if err := Parse(fs, append([]string{"--style", style}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		o, err := s.Options(fs, false)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want an error naming %s", tc.name, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !slices.Equal(o.Style.LabelWords, tc.words) || !slices.Equal(o.Style.LabelLines, tc.lines) || tc.font != "" && o.Style.Font != tc.font:
			t.Errorf("%s: words %q, lines %q, font %q; want %q, %q, %q", tc.name, o.Style.LabelWords, o.Style.LabelLines, o.Style.Font, tc.words, tc.lines, tc.font)
		}
	}
	// A link to a style file (a dotfiles repository's) is followed to the file's folder.
	os.WriteFile(style, []byte("label = \"{word}\"\nlabel-words = \"text/words.txt\"\n"), 0o644)
	link := filepath.Join(dir, "linked.toml")
	if err := os.Symlink(style, link); err != nil {
		t.Fatal(err)
	}
	{
		var s Style
		fs := NewFlagSet("render", "", "", io.Discard)
		s.Register(fs, "knn", "default")
		if err := Parse(fs, []string{"--style", link}); err != nil {
			t.Fatal(err)
		}
		if o, err := s.Options(fs, false); err != nil || !slices.Equal(o.Style.LabelWords, []string{"fox", "owl"}) {
			t.Errorf("a linked style file: %v, words %q; want those beside the file linked to", err, o.Style.LabelWords)
		}
	}
	// A style file from a pipe has no folder: its paths are the working directory's.
	os.WriteFile(filepath.Join(work, "here.txt"), []byte("bee\n"), 0o644)
	fifo := filepath.Join(dir, "style.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.WriteString("label = \"{word}\"\nlabel-words = \"here.txt\"\n")
			f.Close()
		}
	}()
	var s Style
	fs := NewFlagSet("render", "", "", io.Discard)
	s.Register(fs, "knn", "default")
	if err := Parse(fs, []string{"--style", fifo}); err != nil {
		t.Fatal(err)
	}
	if o, err := s.Options(fs, false); err != nil || !slices.Equal(o.Style.LabelWords, []string{"bee"}) {
		t.Errorf("a style file from a pipe: %v, words %q; want the working directory's here.txt", err, o.Style.LabelWords)
	}
}

// TestStrokeStyles: box and link styles from a style file and the command line, and the
// mistakes named by the flag or by the style file's line, as usage errors (exit 2).
func TestStrokeStyles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.toml")
	options := func(args ...string) (overlay.Style, error) { return styleOptions(args...) }
	os.WriteFile(file, []byte("box-style = \"corners\"\nbracket-length = 0.1\nlink-style = \"dotted\"\n"), 0o644)
	if st, err := options("--style", file, "--link-style", "dashed"); err != nil || st.BoxStyle != "corners" || st.BracketLength != 0.1 || st.LinkStyle != "dashed" {
		t.Errorf("styles from a file and the command line: %v, %+v", err, st)
	}
	for _, tc := range []struct {
		args []string
		file string
		msg  string
	}{
		{[]string{"--box-style", "wavy"}, "", `--box-style "wavy": want solid, corners, dashed, dotted`},
		{[]string{"--link-style", "corners"}, "", `--link-style "corners": want solid, dashed, dotted`},
		{[]string{"--bracket-length", "0.7"}, "", "--bracket-length 0.7: is outside 0..0.5"},
		{[]string{"--style", file}, "k = 3\nbox-style = \"dashes\"\n", `s.toml:2: box-style = "dashes": want solid, corners, dashed, dotted (did you mean dashed?)`},
		{[]string{"--style", file}, "link-style = 1\n", `s.toml:1: link-style = "1": want solid, dashed, dotted`},
		{[]string{"--style", file}, "\npoint-radius = \"big\"\n", `s.toml:2: point-radius = "big": is not a number`},
		{[]string{"--style", file}, "k = 2.5\n", `s.toml:1: k = "2.5": is not a whole number`},
		{[]string{"--style", file}, "box-opacity = 2\n", `s.toml:1: box-opacity = 2: is outside 0..1`},
		{[]string{"--style", file}, "box-colour = \"#ff0000\"\n", `s.toml:1: unknown key "box-colour" (did you mean box-color?)`},
		{[]string{"--style", file}, "label = ['{id}', '{class}']\n", `s.toml:1: label takes one value, not a list`},
		{[]string{"--style", file}, "class-label = ['person={id}', 'car']\n", `s.toml:1: class-label = "car": want CLASS=TEMPLATE`},
	} {
		os.WriteFile(file, []byte(tc.file), 0o644)
		_, err := options(tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.msg)
		}
		if err != nil && (strings.Contains(err.Error(), "strconv") || strings.Contains(err.Error(), "invalid argument")) {
			t.Errorf("%v: %v holds Go's error text", tc.args, err)
		}
		if _, usage := err.(UsageError); err != nil && !usage {
			t.Errorf("%v: %T is not a usage error (exit 2)", tc.args, err)
		}
	}
}

// The flags a look is set under keep what the command line gave, whatever the look: a
// template for each of two classes, and the lines of a file, as under the default look.
func TestTextFlagsOverEveryLook(t *testing.T) {
	lines := filepath.Join(t.TempDir(), "lines.txt")
	if err := os.WriteFile(lines, []byte("one\n\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	looks, _ := overlay.PresetNames()
	for _, look := range looks {
		st, err := styleOptions("--look", look, "--class-label", "person=P {id}", "--class-label", "car=C",
			"--label", "{line}", "--label-lines", lines)
		if err != nil {
			t.Errorf("--look %s: %v", look, err)
			continue
		}
		if want := map[string]string{"person": "P {id}", "car": "C"}; !maps.Equal(st.ClassLabels, want) {
			t.Errorf("--look %s: class labels %q, want %q", look, st.ClassLabels, want)
		}
		if want := []string{"one", "two"}; !slices.Equal(st.LabelLines, want) {
			t.Errorf("--look %s: label lines %q, want %q", look, st.LabelLines, want)
		}
	}
}

// TestFlagsThatAdd: --class-label and --class-colors add a class each time they are given,
// on the command line or as a style file's list, over the look's; the command line's
// classes win over the file's (a style file once held one class label, and a second
// --class-colors dropped the first's classes).
func TestFlagsThatAdd(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(file, []byte("class-label = [\"person=P {id}\", 'car=C']\nclass-colors = ['person=#ff0000', 'dog=#0000ff']\n"), 0o644)
	for _, tc := range []struct {
		args   []string
		labels map[string]string
		colors map[string]string
	}{
		{[]string{"--style", file}, map[string]string{"person": "P {id}", "car": "C"}, map[string]string{"person": "#ff0000", "dog": "#0000ff"}},
		{[]string{"--class-colors", "person=#ff0000", "--class-colors", "car=#00ff00,dog=#0000ff"}, map[string]string{},
			map[string]string{"person": "#ff0000", "car": "#00ff00", "dog": "#0000ff"}},
		{[]string{"--look", "neon", "--style", file, "--class-label", "bus=B"}, map[string]string{"bus": "B"},
			map[string]string{"person": "#ff0000", "dog": "#0000ff"}},
	} {
		st, err := styleOptions(tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		colors := map[string]string{}
		for class, c := range st.ClassColors {
			colors[class] = c.String()
		}
		if !maps.Equal(st.ClassLabels, tc.labels) || !maps.Equal(colors, tc.colors) {
			t.Errorf("%v: class labels %q, colours %q; want %q, %q", tc.args, st.ClassLabels, colors, tc.labels, tc.colors)
		}
	}
	// The looks' own maps are never written into.
	for _, name := range []string{"neon", "default"} {
		look, _ := overlay.Preset(name)
		if _, ok := look.ClassLabels["bus"]; ok {
			t.Errorf("--look %s now holds the command line's class label", name)
		}
	}
}

// TestLookKeepsOtherFlags: a look sets again only the style flags the command line gave; a
// command's other flags stay as parsed (bench --points 100,200 --look default once failed:
// a list flag does not take back its own String).
func TestLookKeepsOtherFlags(t *testing.T) {
	var s Style
	fs := NewFlagSet("bench", "", "", io.Discard)
	s.Register(fs, "knn-backend", "default")
	points := fs.IntSlice("points", nil, "point counts")
	if err := Parse(fs, []string{"--points", "100,200", "--look", "neon", "--line-width", "3"}); err != nil {
		t.Fatal(err)
	}
	o, err := s.Options(fs, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(*points, []int{100, 200}) || o.Style.LineWidth != 3 {
		t.Errorf("--points %v, --line-width %g; want [100 200], 3", *points, o.Style.LineWidth)
	}
}

// TestLabelFlagsTurnLabelsOn: a label flag under a look without labels draws them (it once
// did nothing); --no-labels still wins, and the look's own choice stands without one.
func TestLabelFlagsTurnLabelsOn(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.toml")
	os.WriteFile(file, []byte("label-size = 20\n"), 0o644)
	for _, tc := range []struct {
		args   []string
		labels bool
	}{
		{[]string{"--look", "neon"}, false},
		{[]string{"--look", "neon", "--label", "{id}"}, true},
		{[]string{"--look", "neon", "--label-size", "20"}, true},
		{[]string{"--look", "neon", "--style", file}, true},
		{[]string{"--look", "neon", "--label", "{id}", "--no-labels"}, false},
		{[]string{"--look", "neon", "--labels-overlap"}, false},
		{[]string{"--label", "{id}", "--no-labels"}, false},
		{nil, true},
	} {
		var s Style
		fs := NewFlagSet("render", "", "", io.Discard)
		s.Register(fs, "knn", "default")
		if err := Parse(fs, tc.args); err != nil {
			t.Fatal(err)
		}
		o, err := s.Options(fs, false)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if o.Style.Labels != tc.labels {
			t.Errorf("%v: labels %v, want %v", tc.args, o.Style.Labels, tc.labels)
		}
	}
}

// The looks a command offers are overlay's, with its own default where overlay keeps that
// out of its list: bench's seed is named in --look's help, --list-looks and the refusal of
// a look that is none, and taken (bench once checked seed with a near-copy of this).
func TestLooksOffered(t *testing.T) {
	for _, tc := range []struct {
		defaultLook, look string
		ok                bool
		offered           bool // seed among the looks said
	}{
		{"seed", "seed", true, true},
		{"seed", "nope", false, true},
		{"default", "seed", true, false}, // Preset still finds it, unoffered
		{"default", "nope", false, false},
	} {
		var s Style
		fs := NewFlagSet("bench", "", "", io.Discard)
		s.Register(fs, "knn-backend", tc.defaultLook)
		if err := Parse(fs, []string{"--look", tc.look}); err != nil {
			t.Fatal(err)
		}
		_, err := s.Options(fs, true)
		var list strings.Builder
		s.PrintLooks(&list)
		said := []string{fs.Lookup("look").Usage, list.String()}
		if err != nil {
			said = append(said, err.Error())
		}
		if (err == nil) != tc.ok {
			t.Errorf("default %s, --look %s: %v", tc.defaultLook, tc.look, err)
		}
		for _, s := range said {
			if got := strings.Contains(s, "seed"); got != tc.offered {
				t.Errorf("default %s, --look %s: %q names seed: %t, want %t", tc.defaultLook, tc.look, s, got, tc.offered)
			}
		}
	}
}
