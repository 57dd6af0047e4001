package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// completionScript writes trackink's completion script for shell into a temporary file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	code, stdout, stderr := trackink("completion", shell)
	if code != 0 {
		t.Fatalf("completion %s: exit %d: %s", shell, code, stderr)
	}
	path := filepath.Join(t.TempDir(), "trackink."+shell)
	if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompletionBash: bash, given the script, completes commands, flags and the names a flag
// takes, as a user's Tab would.
func TestCompletionBash(t *testing.T) {
	script := completionScript(t, "bash")
	for _, tc := range []struct {
		words []string // the line up to the cursor, the word being completed last
		want  []string
		not   string
	}{
		{[]string{"ren"}, []string{"render"}, "tracks"},
		{[]string{"render", "--colo"}, []string{"--color-by"}, "--look"},
		{[]string{"render", "--look", ""}, []string{"default", "hud", "plexus"}, "--tracks"},
		{[]string{"render", "--backend", "c"}, []string{"cpu", "cuda"}, "emu"},
		{[]string{"tracks", "--to", ""}, []string{"jsonl", "mot"}, ""},
		{[]string{"completion", ""}, []string{"bash", "fish", "zsh"}, ""},
		{[]string{"bench", "--kn"}, []string{"--knn", "--knn-backend"}, ""},
		// --detect's presets (once none: bash fell back to file names).
		{[]string{"track", "--detect", ""}, []string{"people", "motion", "points"}, "all"},
		{[]string{"render", "--detect", "pe"}, []string{"people"}, ""},
		{[]string{"bench", "--detect", ""}, []string{"all", "people", "motion"}, ""},
		{[]string{"bench", "--format", ""}, []string{"yuv420p", "nv12"}, ""},
	} {
		words := append([]string{"trackink"}, tc.words...)
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+w+"'")
		}
		sh := "source " + script + "; COMP_WORDS=(" + strings.Join(quoted, " ") + "); COMP_CWORD=" +
			strconv.Itoa(len(words)-1) + `; _trackink; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.Command("bash", "-c", sh).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v: %s", tc.words, err, out)
		}
		got := strings.Fields(string(out))
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%v: completions %v lack %s", tc.words, got, w)
			}
		}
		if tc.not != "" && slices.Contains(got, tc.not) {
			t.Errorf("%v: completions %v hold %s", tc.words, got, tc.not)
		}
	}
}

// TestCompletionZshFish: the zsh and fish scripts parse, name every flag of every command,
// and fish completes --look's names.
func TestCompletionZshFish(t *testing.T) {
	// How each script names a flag: zsh's _arguments spec --name[…] or {-n,--name}'[…],
	// fish's -l name.
	zsh := func(s, name string) bool {
		return strings.Contains(s, "--"+name+"[") || strings.Contains(s, "--"+name+"}")
	}
	fish := func(s, name string) bool { return strings.Contains(s, " -l "+name+" ") }
	for _, c := range []struct {
		shell, check string
		names        func(script, flag string) bool
	}{{"zsh", "-n", zsh}, {"fish", "--no-execute", fish}} {
		script := completionScript(t, c.shell)
		if _, err := exec.LookPath(c.shell); err != nil {
			t.Logf("%s is not installed: its script's syntax is not checked", c.shell)
		} else if out, err := exec.Command(c.shell, c.check, script).CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v: %s", c.shell, c.check, err, out)
		}
		b, _ := os.ReadFile(script)
		// --detect offers its presets, --tracks file names, and --glow (a number or auto)
		// nothing (once file names, as for 116 value flags).
		for _, want := range map[string][]string{
			"zsh":  {":detect:(bright dark motion", ":tracks:_files'", ":glow: '"},
			"fish": {"-l detect -x -a 'bright dark motion", "-l tracks -r -F", "-l glow -x -d"},
		}[c.shell] {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: the script has no %q", c.shell, want)
			}
		}
		for _, cmd := range commandDocs() {
			for _, f := range cmd.Flags {
				if !c.names(string(b), f.Name) {
					t.Errorf("%s: no --%s of %s", c.shell, f.Name, cmd.Name)
				}
			}
		}
		if c.shell != "fish" {
			continue
		}
		if _, err := exec.LookPath("fish"); err == nil {
			out, err := exec.Command("fish", "-c", "source "+script+"; complete -C 'trackink render --look '").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "hud\t") {
				t.Errorf("fish: trackink render --look <Tab>: %v: %s", err, out)
			}
		}
	}
}

// TestManPages: trackink man writes a page a command, each listing every flag of its
// command under --help's headings, and groff sets them without a warning.
func TestManPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man1")
	if code, _, stderr := trackink("man", dir); code != 0 {
		t.Fatalf("man: exit %d: %s", code, stderr)
	}
	index, err := os.ReadFile(filepath.Join(dir, "trackink.1"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range commands {
		page := filepath.Join(dir, "trackink-"+name+".1")
		b, err := os.ReadFile(page)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !strings.Contains(string(index), `trackink\-`+strings.ReplaceAll(name, "-", `\-`)) {
			t.Errorf("trackink.1 does not name %s", name)
		}
		flagSetOf(name).VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !strings.Contains(string(b), `\fB\-\-`+strings.ReplaceAll(f.Name, "-", `\-`)+`\fR`) {
				t.Errorf("%s: no --%s", page, f.Name)
			}
		})
	}
	render, _ := os.ReadFile(filepath.Join(dir, "trackink-render.1"))
	for _, want := range []string{".SS Colours", ".SH EXAMPLES", `\-\-look hud`, "one of: blob, cctv, clean, default"} {
		if !strings.Contains(string(render), want) {
			t.Errorf("trackink-render.1 lacks %q", want)
		}
	}
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("no groff to set the pages with")
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	out, err := exec.Command("groff", append([]string{"-k", "-man", "-Tutf8", "-ww", "-z"}, pages...)...).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("groff: %v: %s", err, out)
	}
}

// trackink man keeps the rule of every output: a page there already is replaced only with
// -y (once silently), and a file where DIR should be is a mistake on the command line (once
// exit 1, "mkdir: not a directory").
func TestManPagesReplacedOnlyWithYes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man1")
	if code, _, stderr := trackink("man", dir); code != 0 {
		t.Fatalf("man: exit %d: %s", code, stderr)
	}
	page := filepath.Join(dir, "trackink-render.1")
	must(t, os.WriteFile(page, []byte("edited\n"), 0o644))
	file := filepath.Join(t.TempDir(), "afile")
	must(t, os.WriteFile(file, nil, 0o644))
	for _, c := range []struct {
		args []string
		code int
		says string
		page string // trackink-render.1's first line after the run
	}{
		{[]string{"man", dir}, exitUsage, "exists (use -y to replace the pages)", "edited"},
		{[]string{"man", "-y", dir}, 0, "", `.TH TRACKINK\-RENDER 1`},
		{[]string{"man", file}, exitUsage, file + " is not a directory", `.TH TRACKINK\-RENDER 1`},
	} {
		code, _, stderr := trackink(c.args...)
		b, _ := os.ReadFile(page)
		if code != c.code || !strings.Contains(stderr, c.says) || !strings.HasPrefix(string(b), c.page) {
			t.Errorf("%v: exit %d, %q, the page starts %.30q; want exit %d saying %q, the page %q", c.args, code, stderr, b, c.code, c.says, c.page)
		}
	}
}
