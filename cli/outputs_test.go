package cli

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"trackink/detect"
	"trackink/internal/fonts"
	"trackink/video"
)

// A writer is one flag of one command that names a file the run writes, with a run that
// writes through it.
type writer struct {
	cmd, flag string
	// args is a whole command line writing out through flag (given, by the test, as the
	// fixture's files); with other, another output of the same run at the same time.
	args func(fx fixture, out, other string) []string
	// inputs are the flags naming files the run reads, each with its fixture file.
	inputs map[string]string
	other  string // another writing flag of the run, "" if none
}

// fixture is the files the runs read.
type fixture struct {
	dir                                                    string
	video, picture, tracks, style, font, words, lines, cls string
	model                                                  string // a copy of the detector's model; "" where it or ONNX Runtime is not here
}

// notWriters are the flags whose names say "output" but that name no file the run writes,
// and why.
var notWriters = map[string]string{
	"bench --json": "a switch: the report goes to standard output",
	"eval --json":  "a switch: the scores go to standard output",
	"tracks --to":  "a format name; -o is the file",
	"golden --out": "a directory of the run's own failure pictures (NAME.actual.png, NAME.diff.png), remade by each run",
	"golden --dir": "the stored pictures the run reads; --update rewrites them through partial files",
}

// writingFlag picks, from a command's --help, the flags whose names say they name something
// written: every such flag must be a writer the test below checks, or a notWriter.
var writingFlag = regexp.MustCompile(`^(output|out|dir|json|to|.*-json|save.*|report.*|.*-out)$`)

// writers lists every writing flag of every command, with a run that writes through it.
func writers(fx fixture) []writer {
	renderIn := map[string]string{"-i": fx.video, "--tracks": fx.tracks, "--style": fx.style,
		"--font": fx.font, "--label-words": fx.words, "--label-lines": fx.lines, "--class-names": fx.cls}
	render := func(fx fixture, o, stats string) []string {
		return []string{"render", "-i", fx.video, "--tracks", fx.tracks, "--style", fx.style, "--font", fx.font,
			"--label-words", fx.words, "--label-lines", fx.lines, "--label", "{word} {line}", "--class-names", fx.cls, "--preset", "ultrafast", "--quiet", "-o", o, "--stats-json", stats}
	}
	all := []writer{
		{cmd: "render", flag: "-o", inputs: renderIn, other: "--stats-json", args: render},
		{cmd: "render", flag: "--stats-json", inputs: renderIn, other: "-o",
			args: func(fx fixture, s, o string) []string { return render(fx, o, s) }},
		{cmd: "render", flag: "-o", inputs: map[string]string{"-i": fx.picture, "--tracks": fx.tracks},
			args: func(fx fixture, o, _ string) []string {
				return []string{"render", "-i", fx.picture, "--tracks", fx.tracks, "-o", o}
			}},
		{cmd: "join", flag: "-o", inputs: map[string]string{"-i": fx.video, "--segments": fx.picture},
			args: func(fx fixture, o, _ string) []string {
				return []string{"join", "-i", fx.video, "--segments", fx.picture, "-o", o}
			}},
		{cmd: "tracks", flag: "-o", inputs: map[string]string{"tracks file": fx.tracks, "-i": fx.video, "--class-names": fx.cls},
			args: func(fx fixture, o, _ string) []string {
				return []string{"tracks", fx.tracks, "-i", fx.video, "--class-names", fx.cls, "--to", "jsonl", "-o", o}
			}},
		{cmd: "track", flag: "-o", inputs: map[string]string{"-i": fx.video},
			args: func(fx fixture, o, _ string) []string {
				return []string{"track", "-i", fx.video, "--quiet", "-o", o}
			}},
		{cmd: "render", flag: "--save-tracks", inputs: map[string]string{"-i": fx.video}, other: "-o",
			args: func(fx fixture, s, o string) []string {
				return []string{"render", "-i", fx.video, "--detect", "bright", "--preset", "ultrafast", "--quiet", "-o", o, "--save-tracks", s}
			}},
		{cmd: "demo", flag: "-o",
			args: func(fx fixture, o, _ string) []string {
				return []string{"demo", "--frames", "1", "--width", "16", "--height", "16", "-o", o}
			}},
	}
	if fx.model == "" {
		return all
	}
	// The detector's model is an input too (track -o model.onnx -y once wrote over it).
	return append(all,
		writer{cmd: "track", flag: "-o", inputs: map[string]string{"-i": fx.video, "--model": fx.model},
			args: func(fx fixture, o, _ string) []string {
				return []string{"track", "-i", fx.video, "--detect", "people", "--model", fx.model, "--quiet", "-o", o}
			}},
		writer{cmd: "render", flag: "--save-tracks", inputs: map[string]string{"--model": fx.model}, other: "-o",
			args: func(fx fixture, s, o string) []string {
				return []string{"render", "-i", fx.video, "--detect", "people", "--model", fx.model, "--preset", "ultrafast", "--quiet", "-o", o, "--save-tracks", s}
			}})
}

// Every flag of every command that names a file the run writes obeys one rule, checked
// before any work with exit 2 naming the flag (once --stats-json wrote over the input
// video, the rendered output, anything, without -y; -o replaced the tracks file with -y):
// never an input of the run, by any spelling (the path, ./a/../a, a hard link, a symbolic
// link), never another output of the same run, an existing file only with -y. Nothing is
// written and no input changes.
func TestEveryWriterObeysTheRule(t *testing.T) {
	fx := newFixture(t)
	all := writers(fx)
	checkAllWritersListed(t, all)
	for _, w := range all {
		other := filepath.Join(fx.dir, "other.json") // where the run's other output goes
		if w.other == "-o" {
			other = filepath.Join(fx.dir, "other.mp4")
		}
		name := w.cmd + " " + w.flag
		if w.cmd == "render" && w.inputs["-i"] == fx.picture {
			name += " (picture)"
		}
		t.Run(name, func(t *testing.T) {
			for inFlag, in := range w.inputs {
				for spelling, out := range spellings(t, in) {
					wantRefused(t, fx, w, out, other, inFlag+" "+spelling,
						w.flag+" "+out+" is the input "+in+" ("+inFlag+")")
				}
			}
			exists := filepath.Join(fx.dir, "exists.json")
			os.WriteFile(exists, []byte("keep me"), 0o644)
			wantRefused(t, fx, w, exists, other, "an existing file", w.flag+" "+exists+" exists (use -y")
			if w.other != "" {
				// The one checked second is refused, naming the other. (Before, the video
				// was written, then replaced by the statistics.)
				twice := fx.dir + "/./sub/../both.mp4"
				wantRefused(t, fx, w, twice, filepath.Join(fx.dir, "both.mp4"), "the other output "+w.other, "is also", w.flag, w.other)
			}
		})
	}
}

// A directory the run reads (a YOLO results directory: --tracks, --gt, the tracks command's
// file) takes no output, exit 2 naming the output's flag and the directory's, nothing
// written: with -y, --stats-json and tracks -o replaced a label file with their own text,
// and without it a new file there (another video's name, or no YOLO lines) left the
// directory unreadable by the next run.
func TestOutputNotInInputDirectory(t *testing.T) {
	dir := t.TempDir()
	in, labels, tracks := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "labels"), filepath.Join(dir, "t.txt")
	if err := video.Synthesize(in, 64, 48, 2, 25); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(labels, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, body := range map[string]string{filepath.Join(labels, "in_1.txt"): "0 0.5 0.5 0.2 0.2 0.9 1\n",
		filepath.Join(labels, "in_2.txt"): "0 0.5 0.5 0.2 0.2 0.9 1\n", tracks: "1,1,10,10,20,20,1,-1,-1,-1\n"} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in2, new7 := filepath.Join(labels, "in_2.txt"), filepath.Join(labels, "in_7.txt")
	out := filepath.Join(dir, "out.mp4")
	for _, tc := range []struct {
		args []string
		says []string
	}{
		{[]string{"render", "-i", in, "--tracks", labels, "-o", out, "--stats-json", in2, "-y"}, []string{"--stats-json " + in2, "(--tracks)"}},
		{[]string{"render", "-i", in, "--tracks", labels, "-o", out, "--stats-json", new7}, []string{"--stats-json " + new7, "(--tracks)"}},
		{[]string{"render", "-i", in, "--tracks", tracks, "--gt", labels, "-o", filepath.Join(labels, "o.mp4"), "-y"}, []string{"-o ", "(--gt)"}},
		{[]string{"tracks", labels, "-i", in, "--to", "mot", "-o", in2, "-y"}, []string{"-o " + in2, "(tracks file)"}},
		{[]string{"tracks", labels, "-i", in, "--to", "mot", "-o", new7}, []string{"-o " + new7, "(tracks file)"}},
	} {
		before := hashDir(t, labels)
		code, _, stderr := trackink(tc.args...)
		for _, s := range tc.says {
			if code != exitUsage || !strings.Contains(stderr, s) || !strings.Contains(stderr, "inside the input directory "+labels) {
				t.Errorf("%v: exit %d, %s\nwant exit 2 saying %q", tc.args, code, stderr, s)
			}
		}
		if after := hashDir(t, labels); after != before {
			t.Errorf("%v: the input directory changed:\n%s\nwas\n%s", tc.args, after, before)
		}
	}
	// Beside the directory, the same run writes.
	if code, _, stderr := trackink("tracks", labels, "-i", in, "--to", "mot", "-o", filepath.Join(dir, "x.txt")); code != 0 {
		t.Errorf("tracks labels -o x.txt beside it: exit %d, %s", code, stderr)
	}
}

// wantRefused runs w writing out (and other, for the run's other output) and wants exit 2
// with a message saying each of says, with no file written and none changed.
func wantRefused(t *testing.T, fx fixture, w writer, out, other, what string, says ...string) {
	t.Helper()
	before := hashDir(t, fx.dir)
	args := w.args(fx, out, other)
	if what != "an existing file" {
		args = append(args, "-y") // -y allows replacing a file, never an input or another output
	}
	code, _, stderr := trackink(args...)
	for _, s := range says {
		if code != exitUsage || !strings.Contains(stderr, s) {
			t.Errorf("%s %s as %s: exit %d, %s\nwant exit 2 saying %q", w.flag, out, what, code, stderr, s)
		}
	}
	if after := hashDir(t, fx.dir); after != before {
		t.Errorf("%s %s as %s: the directory changed:\n%s\nwas\n%s", w.flag, out, what, after, before)
	}
}

// spellings are other names of the file in: the path itself, another spelling of it, a hard
// link and a symbolic link to it.
func spellings(t *testing.T, in string) map[string]string {
	dir, base := filepath.Split(in)
	hard, soft := filepath.Join(dir, "hard-"+base), filepath.Join(dir, "soft-"+base)
	if _, err := os.Lstat(hard); err != nil {
		if err := os.Link(in, hard); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(base, soft); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{
		"itself":          in,
		"spelled ./a/../": dir + "./sub/../" + base,
		"by a hard link":  hard,
		"by a symlink":    soft,
	}
}

// checkAllWritersListed walks every command's flags (its --help) and wants each flag whose
// name says "output" to be a writer of the test, or a notWriter with the reason.
func checkAllWritersListed(t *testing.T, all []writer) {
	t.Helper()
	listed := map[string]bool{}
	for _, w := range all {
		listed[w.cmd+" "+w.flag] = true
	}
	flagLine := regexp.MustCompile(`^\s+(?:-(\w), )?--([\w-]+)`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, cmd := range names {
		_, stdout, stderr := trackink(cmd, "--help")
		sc := bufio.NewScanner(strings.NewReader(stdout + stderr))
		for sc.Scan() {
			m := flagLine.FindStringSubmatch(sc.Text())
			if m == nil || !writingFlag.MatchString(m[2]) {
				continue
			}
			long, short := cmd+" --"+m[2], cmd+" -"+m[1]
			if _, ok := notWriters[long]; ok || listed[long] || (m[1] != "" && listed[short]) {
				continue
			}
			t.Errorf("%s names something written, and the rule's test does not check it: add it to writers (or notWriters, with the reason)", long)
		}
	}
}

// newFixture makes the files the runs read, in a directory of their own.
func newFixture(t *testing.T) fixture {
	t.Helper()
	dir := t.TempDir()
	fx := fixture{dir: dir, video: filepath.Join(dir, "in.mp4"), picture: filepath.Join(dir, "in.png"),
		tracks: filepath.Join(dir, "tracks.txt"), style: filepath.Join(dir, "style.toml"),
		font: filepath.Join(dir, "font.ttf"), words: filepath.Join(dir, "words.txt"),
		lines: filepath.Join(dir, "lines.txt"), cls: filepath.Join(dir, "classes.txt")}
	if err := video.Synthesize(fx.video, 64, 48, 2, 25); err != nil {
		t.Fatal(err)
	}
	writePicture(t, fx.picture, 32, 32)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil { // for ./sub/../ spellings
		t.Fatal(err)
	}
	font, err := os.ReadFile(fonts.DejaVuSans.Need(t))
	if err != nil {
		t.Fatal(err)
	}
	for path, body := range map[string][]byte{fx.tracks: []byte("1,1,10,10,20,20,1,-1,-1,-1\n"),
		fx.style: []byte("line-width = 3\n"), fx.font: font, fx.words: []byte("kestrel\n"), fx.lines: []byte("func main() {\n"), fx.cls: []byte("person\n")} {
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if model, err := os.ReadFile(sharedModel); err == nil {
		if _, err := detect.LocateRuntime(""); err == nil {
			fx.model = filepath.Join(dir, "model.onnx")
			if err := os.WriteFile(fx.model, model, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return fx
}

// hashDir describes dir's files: names (hidden ones too) and contents' hashes.
func hashDir(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, _ := os.ReadFile(path)
		fmt.Fprintf(&b, "%s %x\n", strings.TrimPrefix(path, dir), sha256.Sum256(body))
		return nil
	})
	return b.String()
}

// A segment file (render --segment, into the -o directory) is replaced without -y, but is
// never an input either: here a hard link to the tracks file sits where segment 0 goes.
func TestSegmentIsNeverAnInput(t *testing.T) {
	fx := newFixture(t)
	segs := filepath.Join(fx.dir, "segs")
	if err := os.Mkdir(segs, 0o755); err != nil {
		t.Fatal(err)
	}
	seg := filepath.Join(segs, "in.seg-0000-of-0002.mp4")
	if err := os.Link(fx.tracks, seg); err != nil {
		t.Fatal(err)
	}
	before := hashDir(t, fx.dir)
	code, _, stderr := trackink("render", "-i", fx.video, "--tracks", fx.tracks, "--segment", "0/2", "-o", segs, "--quiet")
	if want := "-o " + seg + " is the input " + fx.tracks + " (--tracks)"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %s\nwant exit 2 saying %q", code, stderr, want)
	}
	if hashDir(t, fx.dir) != before {
		t.Error("a file changed")
	}
}
