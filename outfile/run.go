package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrRefused marks an output a Run refuses: it is one of the run's inputs, inside an input
// directory, or another of its outputs, it exists and overwriting was not asked for, or it
// cannot be written (no name, a directory, a link to nothing, a directory that does not
// exist). The message names the output as the caller named it (a flag).
var ErrRefused = errors.New("output refused")

type refused struct{ error }

func (e refused) Is(target error) bool { return target == ErrRefused }
func (e refused) Unwrap() error        { return e.error }

// Run is what one run reads and writes, checked before any work against the rule for every
// output: never a file the run reads (by identity: a hard link, a symbolic link, ./a/../a are
// the same file) nor a file inside a directory the run reads, never another output of the
// same run, an existing file replaced only with Overwrite. A run names every file it reads
// with Input, then every file it writes with Output, and writes each to the path Output
// returned:
//
//	files := outfile.Run{Overwrite: yes}
//	files.Input("--tracks", tracksPath)
//	target, err := files.Output("--save-tracks", savePath)
type Run struct {
	Overwrite bool
	inputs    []file
	outputs   []file
}

// file is one file of a run, as its caller names it.
type file struct {
	name, path string
	st         fs.FileInfo // the file, symbolic links followed; nil while it does not exist
	real       string      // absolute, links resolved: how an output not written yet is compared
	seq        *sequence   // a numbered picture sequence's pattern (no file has its name)
}

// newFile is the file name names at path, which is target (an output's, links followed).
func newFile(name, path, target string) file {
	st, _ := os.Stat(target)
	f := file{name: name, path: path, st: st, real: realPath(target)}
	if st == nil {
		f.seq = parseSequence(f.real)
	}
	return f
}

// LocalPath is the local file that name, as FFmpeg opens it, stands for: name itself, or a
// file: URL's path (FFmpeg opens file:x and file:///x as x and /x); ok is false for any other
// URL (scheme://…), which names no local file.
func LocalPath(name string) (path string, ok bool) {
	if local, isFile := strings.CutPrefix(name, "file:"); isFile {
		return local, true
	}
	return name, !strings.Contains(name, "://")
}

// Input records the file path that name reads, so that no output of the run is that file.
// An empty path is no file; a URL is no local file, but for FFmpeg's file: protocol's.
func (r *Run) Input(name, path string) {
	if path, ok := LocalPath(path); ok && path != "" {
		r.inputs = append(r.inputs, newFile(name, path, path))
	}
}

// Output checks that the file path, which name writes, may be written in this run and
// returns the file to write: path, or the file a symbolic link at path points to (written
// through, the link stays a link). Errors are ErrRefused.
func (r *Run) Output(name, path string) (string, error) { return r.output(name, path, r.Overwrite) }

// Retried is Output for a file that a run replaces without Overwrite because a task run
// again rewrites what its earlier attempt wrote (a segment's --stats-json): the run's other
// checks stand, and the caller checks that an existing file is such an attempt's
// (video.CheckStatsReplace).
func (r *Run) Retried(name, path string) (string, error) { return r.output(name, path, true) }

// output is Output, an existing file replaced when overwrite.
func (r *Run) output(name, path string, overwrite bool) (string, error) {
	switch path {
	case "":
		return "", refused{fmt.Errorf("no output: give %s FILE", name)}
	case "-":
		// Not a file named "-" in the working directory (./- is), nor standard output: an
		// output is written whole beside its name and moved into place, which a pipe cannot
		// take. It was refused for another reason ("no container format is known by this
		// name's extension").
		return "", refused{fmt.Errorf("%s -: standard output is not an output here (outputs are written whole, then renamed into place): give a file's name", name)}
	}
	target, err := CheckOutput("", path, true)
	if err != nil {
		return "", refused{fmt.Errorf("%s: %w", name, err)}
	}
	return r.add(name, path, target, overwrite)
}

// Segment is Output for a segment of a render, which a run replaces without Overwrite (a
// cluster task run again replaces what an earlier attempt wrote; the caller checks that an
// existing file is such a segment, video.CheckSegmentReplace) and whose directory the
// render makes.
func (r *Run) Segment(name, path string) (string, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return "", refused{fmt.Errorf("%s: output %s is a directory", name, path)}
	}
	return r.add(name, path, path, true)
}

// add checks target, the file name's path names, against the files recorded so far and
// records it.
func (r *Run) add(name, path, target string, overwrite bool) (string, error) {
	out := newFile(name, path, target)
	for _, in := range r.inputs {
		if out.same(in) {
			return "", refused{fmt.Errorf("%s %s is the input %s (%s): write to another file", name, path, in.path, in.name)}
		}
	}
	for _, in := range r.inputs {
		// A directory input (a YOLO results directory) is read for the files in it: a file
		// written there, new or replacing one, changes what the run and the next one read.
		if in.st != nil && in.st.IsDir() && within(out.real, in.real) {
			return "", refused{fmt.Errorf("%s %s is inside the input directory %s (%s): write it outside that directory", name, path, in.path, in.name)}
		}
	}
	for _, o := range r.outputs {
		if out.same(o) {
			return "", refused{fmt.Errorf("%s %s is also %s: write them to different files", name, path, o.name)}
		}
	}
	if out.st != nil && !overwrite {
		return "", refused{fmt.Errorf("%s %s exists (use -y to overwrite it)", name, path)}
	}
	if out.seq != nil && !overwrite {
		if have := out.seq.pictures(); len(have) > 0 {
			return "", refused{fmt.Errorf("%s %s: its picture %s exists (use -y to overwrite the sequence)", name, path, have[0])}
		}
	}
	r.outputs = append(r.outputs, out)
	return target, nil
}

// same reports whether f and g are one file: by device and inode where both exist, by their
// resolved paths otherwise. Two sequences with one prefix and suffix are one whatever their
// widths: f_%d.png and f_%05d.png both name f_10000.png and on.
func (f file) same(g file) bool {
	switch {
	case f.seq != nil && g.seq != nil:
		return f.seq.prefix == g.seq.prefix && f.seq.suffix == g.seq.suffix
	case f.seq != nil:
		return f.seq.holds(g.real)
	case g.seq != nil:
		return g.seq.holds(f.real)
	case f.st != nil && g.st != nil:
		return os.SameFile(f.st, g.st)
	}
	return f.real == g.real
}

// within reports whether path lies inside the directory dir (both absolute, links resolved).
func within(path, dir string) bool {
	return strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// sequence is a numbered picture sequence's pattern (frames_%05d.png), as FFmpeg's image2
// reads and writes one: the text before and after the frame number, and the number's width.
type sequence struct {
	prefix, suffix string
	width          int // the fewest digits, zero-padded: 5 for %05d (and %5d), 1 for %d
}

// parseSequence is the sequence pattern path holds, with one %d or %0Nd (%% for a %), as
// av_get_frame_filename2 takes it; nil when it holds none or several.
func parseSequence(path string) *sequence {
	var text strings.Builder
	var seq *sequence
	for i := 0; i < len(path); i++ {
		if path[i] != '%' {
			text.WriteByte(path[i])
			continue
		}
		j := i + 1
		for j < len(path) && path[j] >= '0' && path[j] <= '9' {
			j++
		}
		switch {
		case j < len(path) && path[j] == '%':
			text.WriteByte('%') // FFmpeg reads %5% as % too
		case j < len(path) && path[j] == 'd' && seq == nil:
			width, err := strconv.Atoi(path[i+1 : j])
			if err != nil || width < 1 {
				width = 1 // %d, %0d
			}
			seq = &sequence{prefix: text.String(), width: width}
			text.Reset()
		default:
			return nil
		}
		i = j
	}
	if seq != nil {
		seq.suffix = text.String()
	}
	return seq
}

// holds reports whether path (absolute, links resolved) is one of the sequence's pictures:
// a name image2 writes for some frame number, exactly. a_%05d.png holds a_00001.png and
// a_123456.png, not a_1.png; a_%d.png holds a_1.png, not a_00120.png.
func (s *sequence) holds(path string) bool {
	n, ok := strings.CutPrefix(path, s.prefix)
	if !ok {
		return false
	}
	if n, ok = strings.CutSuffix(n, s.suffix); !ok || len(n) < s.width {
		return false
	}
	if _, err := strconv.ParseUint(n, 10, 31); err != nil {
		return false // not a frame number image2 makes (a C int, digits only)
	}
	return len(n) == s.width || n[0] != '0' // padded to the width, never beyond
}

// pictures are the sequence's pictures that exist, spelled as the pattern spells its
// directory (uncleaned: a/../x_%d.png is x_%d.png beside a's target, not ./x_%d.png), as
// image2 names them. None where the number is in a directory's name (out_%d/x.png).
func (s *sequence) pictures() []string {
	dir := s.prefix[:strings.LastIndexByte(s.prefix, '/')+1]
	if strings.Contains(s.suffix, "/") {
		return nil
	}
	list := dir
	if list == "" {
		list = "."
	}
	entries, _ := os.ReadDir(list)
	var have []string
	for _, e := range entries {
		if p := dir + e.Name(); s.holds(p) {
			have = append(have, p)
		}
	}
	return have
}

// SequencePictures lists the pictures of the numbered picture sequence pattern (name_%05d.png)
// that exist: the files named exactly as FFmpeg's image2 names a frame's picture, the number
// padded with zeros to the pattern's width and never beyond (name_%05d.png's are
// name_00001.png and name_123456.png, not name_1.png nor name_000001.png). They are the
// pictures an output to the pattern is refused over without -y and replaces (or removes)
// with it. Nil when pattern is no sequence.
func SequencePictures(pattern string) []string {
	seq := parseSequence(pattern)
	if seq == nil {
		return nil
	}
	return seq.pictures()
}

// realPath is path made absolute and clean with the symbolic links of its longest existing
// part resolved: two spellings of a file not written yet give the same string.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if resolved, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(resolved, rest)
		}
		if dir == filepath.Dir(dir) {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}
