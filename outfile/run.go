package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrRefused marks an output a Run refuses: it is one of the run's inputs or another of its
// outputs, it exists and overwriting was not asked for, or it cannot be written (no name, a
// directory, a link to nothing, a directory that does not exist). The message names the
// output as the caller named it (a flag).
var ErrRefused = errors.New("output refused")

type refused struct{ error }

func (e refused) Is(target error) bool { return target == ErrRefused }
func (e refused) Unwrap() error        { return e.error }

// Run is what one run reads and writes, checked before any work against the rule for every
// output: never a file the run reads (by identity: a hard link, a symbolic link, ./a/../a are
// the same file), never another output of the same run, an existing file replaced only with
// Overwrite. A run names every file it reads with Input, then every file it writes with
// Output, and writes each to the path Output returned:
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
}

// Input records the file path that name reads, so that no output of the run is that file.
// An empty path is no file; a URL is no local file.
func (r *Run) Input(name, path string) {
	if path == "" || strings.Contains(path, "://") {
		return
	}
	st, _ := os.Stat(path)
	r.inputs = append(r.inputs, file{name: name, path: path, st: st, real: realPath(path)})
}

// Output checks that the file path, which name writes, may be written in this run and
// returns the file to write: path, or the file a symbolic link at path points to (written
// through, the link stays a link). Errors are ErrRefused.
func (r *Run) Output(name, path string) (string, error) {
	if path == "" {
		return "", refused{fmt.Errorf("no output: give %s FILE", name)}
	}
	target, err := CheckOutput("", path, true)
	if err != nil {
		return "", refused{fmt.Errorf("%s: %w", name, err)}
	}
	return r.add(name, path, target, r.Overwrite)
}

// Segment is Output for a segment of a render, which a run replaces without Overwrite (a
// cluster task run again replaces what an earlier attempt wrote) and whose directory the
// render makes.
func (r *Run) Segment(name, path string) (string, error) {
	return r.add(name, path, path, true)
}

// add checks target, the file name's path names, against the files recorded so far and
// records it.
func (r *Run) add(name, path, target string, overwrite bool) (string, error) {
	st, _ := os.Stat(target)
	out := file{name: name, path: path, st: st, real: realPath(target)}
	for _, in := range r.inputs {
		if out.same(in) {
			return "", refused{fmt.Errorf("%s %s is the input %s (%s): write to another file", name, path, in.path, in.name)}
		}
	}
	for _, o := range r.outputs {
		if out.same(o) {
			return "", refused{fmt.Errorf("%s %s is also %s: write them to different files", name, path, o.name)}
		}
	}
	if st != nil && !overwrite {
		return "", refused{fmt.Errorf("%s %s exists (use -y to overwrite it)", name, path)}
	}
	r.outputs = append(r.outputs, out)
	return target, nil
}

// same reports whether f and g are one file: by device and inode where both exist, by their
// resolved paths otherwise.
func (f file) same(g file) bool {
	if f.st != nil && g.st != nil {
		return os.SameFile(f.st, g.st)
	}
	return f.real == g.real
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
