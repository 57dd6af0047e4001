package overlay

import (
	"strings"
	"testing"
)

// TestParseStyleFile: what a style file may hold, and each mistake named by file and line.
func TestParseStyleFile(t *testing.T) {
	good := "\ufeff# a comment\n\nline-width = 4   # thick\nlink-color = \"#ff8800\"\nlabel = '{class} #{id}'\nno-labels = false\nbend = -0.25\nk = 1_0\nlabel-words = \"a\\tb\\u00e9\"\n"
	got, err := ParseStyleFile("s.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	want := []StyleEntry{{"line-width", "4", 3}, {"link-color", "#ff8800", 4}, {"label", "{class} #{id}", 5},
		{"no-labels", "false", 6}, {"bend", "-0.25", 7}, {"k", "10", 8}, {"label-words", "a\tbé", 9}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, tc := range []struct{ text, msg string }{
		{"[style]\n", "s.toml:1: tables are not used"},
		{"a\n", "s.toml:1: want key = value"},
		{"x = 1\nx = 2\n", "s.toml:2: x is set twice (also line 1)"},
		{"x = red\n", "s.toml:1: x: red is not a number"},
		{"x = [1, 2]\n", "s.toml:1: x: arrays and inline tables"},
		{"x = \"open\n", "s.toml:1: x: the string has no closing quote"},
		{"x = 'a' b\n", `s.toml:1: x: "b" after the value`},
		{"x = \"\\q\"\n", `s.toml:1: x: unknown escape \q`},
		{"x =\n", "s.toml:1: x: no value"},
		{"bad key = 1\n", "s.toml:1: want key = value"},
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
