package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestRenderHelp: -h is short and shows the common flags and first examples; --help shows
// every flag, under the headings in order, and the examples of looks, trails, a style file
// and the built-in tracker.
func TestRenderHelp(t *testing.T) {
	code, short, _ := trackink("render", "-h")
	if code != 0 {
		t.Fatalf("-h: exit %d", code)
	}
	if n := strings.Count(short, "\n"); n > 36 {
		t.Errorf("-h is %d lines, want about 30:\n%s", n, short)
	}
	for _, want := range []string{"--tracks", "--look", "-o, --output", "--frame 60 -o preview.png", "--help' shows all"} {
		if !strings.Contains(short, want) {
			t.Errorf("-h lacks %q", want)
		}
	}
	if strings.Contains(short, "--hysteresis") {
		t.Error("-h lists --hysteresis, not a common flag")
	}
	code, full, _ := trackink("render", "--help")
	if code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	at := 0
	for _, h := range []string{"Input and output:", "Tracks:", "Look:", "Labels:", "Links:", "Colours:", "Range:", "Encoding:", "Advanced:"} {
		i := strings.Index(full, "\n"+h+"\n")
		if i < at {
			t.Errorf("--help: heading %q missing or out of order", h)
		}
		at = i
	}
	fs := flagSetOf("render")
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && !strings.Contains(full, "--"+f.Name+" ") {
			t.Errorf("--help lacks --%s", f.Name)
		}
	})
	for _, want := range []string{"--look hud --trail 30", "--style mine.toml", "--detect motion -o out.mp4"} {
		if !strings.Contains(full, want) {
			t.Errorf("--help lacks the example %q", want)
		}
	}
}

// TestTopLevelHelp: the user's commands come first, render first; bench and golden are
// listed apart, after them.
func TestTopLevelHelp(t *testing.T) {
	_, stdout, _ := trackink("help")
	dev := strings.Index(stdout, "Developer commands:")
	if dev < 0 {
		t.Fatalf("no developer commands:\n%s", stdout)
	}
	last := 0
	for _, c := range []string{"render", "track", "tracks", "eval", "demo", "join", "doctor", "completion", "version"} {
		i := strings.Index(stdout, "\n  "+c+" ")
		if i < last || i > dev {
			t.Errorf("%s is not among the user's commands, in order:\n%s", c, stdout)
		}
		last = i
	}
	for _, c := range []string{"bench", "golden"} {
		if i := strings.Index(stdout, "\n  "+c+" "); i < dev {
			t.Errorf("%s is not among the developer commands:\n%s", c, stdout)
		}
	}
}

// TestDidYouMean: a command, flag or named value a letter or two from one trackink has is
// suggested; one far from every name is not.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for no suggestion
	}{
		{[]string{"rendr"}, "(did you mean render?)"},
		{[]string{"trakcs"}, "(did you mean tracks?)"},
		{[]string{"paint"}, ""},
		{[]string{"render", "--colour-by", "class"}, "(did you mean --color-by?)"},
		{[]string{"render", "--box-colour", "#ff0000"}, "(did you mean --box-color?)"},
		{[]string{"render", "--zzz"}, ""},
		{[]string{"render", "--scene", "seed", "-o", "x.png", "--look", "plexis"}, "(did you mean plexus?)"},
		{[]string{"render", "--scene", "seed", "-o", "x.png", "--look", "neon-nights"}, ""},
		{[]string{"render", "--scene", "seed", "-o", "x.png", "--box-style", "corner"}, "(did you mean corners?)"},
		{[]string{"render", "--scene", "seed", "-o", "x.png", "--backend", "cdua"}, "(did you mean cuda?)"},
		{[]string{"render", "--scene", "seed", "-o", "x.png", "--color-by", "clas"}, "(did you mean class?)"},
		{[]string{"render", "--scene", "seed", "-o", "x.png", "--palette", "tablaeu20"}, "(did you mean tableau20?)"},
		{[]string{"completion", "fihs"}, "(did you mean fish?)"},
	} {
		code, _, stderr := trackink(tc.args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d", tc.args, code, exitUsage)
		}
		first, _, _ := strings.Cut(stderr, "\n")
		if tc.want == "" && strings.Contains(first, "did you mean") || tc.want != "" && !strings.Contains(first, tc.want) {
			t.Errorf("%v: %q, want %q", tc.args, first, tc.want)
		}
	}
}

// flagSetOf returns the flags of the named command.
func flagSetOf(name string) *pflag.FlagSet {
	fs, _ := commands[name].define(io.Discard)
	return fs
}
