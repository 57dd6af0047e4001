package overlay

import (
	"reflect"
	"strings"
	"testing"
)

// TestParseStyleFile: what a style file may hold, and each mistake named by file and line.
func TestParseStyleFile(t *testing.T) {
	good := "\ufeff# a comment\n\nline-width = 4   # thick\nlink-color = \"#ff8800\"\nlabel = '{class} #{id}'\nno-labels = false\nbend = -0.25\nk = 1_0\nlabel-words = \"a\\tb\\u00e9\"\n" +
		"class-label = [\"person={hex}, {line}\", 'car=#{id}',]  # two classes\nempty = []\n"
	got, err := ParseStyleFile("s.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	want := []StyleEntry{{Key: "line-width", Value: "4", Line: 3}, {Key: "link-color", Value: "#ff8800", Line: 4},
		{Key: "label", Value: "{class} #{id}", Line: 5}, {Key: "no-labels", Value: "false", Line: 6},
		{Key: "bend", Value: "-0.25", Line: 7}, {Key: "k", Value: "10", Line: 8}, {Key: "label-words", Value: "a\tb\u00e9", Line: 9},
		{Key: "class-label", List: []string{"person={hex}, {line}", "car=#{id}"}, Line: 10}, {Key: "empty", List: []string{}, Line: 11}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for _, tc := range []struct{ text, msg string }{
		{"[style]\n", "s.toml:1: tables are not used"},
		{"a\n", "s.toml:1: want key = value"},
		{"x = 1\nx = 2\n", "s.toml:2: x is set twice (also line 1)"},
		{"x = red\n", "s.toml:1: x: red is not a number"},
		{"x = [1, 2]\n", "s.toml:1: x: a list in a style file holds quoted strings only"},
		{"x = {a = 1}\n", "s.toml:1: x: inline tables are not used"},
		{"x = ['a' 'b']\n", "s.toml:1: x: want , or ] after a string of the list"},
		{"x = ['a',\n", "s.toml:1: x: the list has no closing ]"},
		{"x = ['a'] b\n", `s.toml:1: x: "b" after the value`},
		{"x = [\"\\u12\"]\n", `s.toml:1: x: \u wants four hex digits`},
		{"x = \"open\n", "s.toml:1: x: the string has no closing quote"},
		{"x = 'a' b\n", `s.toml:1: x: "b" after the value`},
		{"x = \"\\q\"\n", `s.toml:1: x: unknown escape \q`},
		{"x =\n", "s.toml:1: x: no value"},
		{"bad key = 1\n", "s.toml:1: want key = value"},
		// A line past the reader's buffer, a comment even: said with its line, not Go's words.
		{"x = 1\n# " + strings.Repeat("a", 2<<20) + "\n", "s.toml:2: the line is longer than 1 MiB"},
	} {
		_, err := ParseStyleFile("s.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.msg)
		}
	}
}

// FuzzStyleFile: any bytes give entries in line order with bare keys, or an error naming
// the file and line.
func FuzzStyleFile(f *testing.F) {
	f.Add([]byte("line-width = 4 # c\nlabel = '{id}'\nx = \"a\\u00e9\"\n"))
	f.Add([]byte("[t]\nk = 1_0\n"))
	f.Add([]byte("class-label = ['a=b', \"c=\\u00e9\",]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := ParseStyleFile("f.toml", b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.toml:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		line := 0
		for _, e := range entries {
			if !isBareKey(e.Key) || e.Line <= line {
				t.Fatalf("entry %+v after line %d", e, line)
			}
			line = e.Line
		}
	})
}
