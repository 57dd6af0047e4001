package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"trackink/video"
)

// The rule for every path trackink writes (docs/promises.md): an output is never a file
// the run reads (by identity: a hard link, a symbolic link, ./a/../a are the same file),
// never another output of the same run, replaces an existing file only with -y, and is
// written as a partial file moved into place (writeAtomic, or video's partial file for
// videos). All of it is checked when the command line is read, before any work: a breach is
// a usage error, exit 2, naming the flag.
//
// A command makes one runFiles, names every file it reads with input, then every file it
// writes with output, and writes each to the path output returned:
//
//	files := runFiles{overwrite: *yes}
//	if err := files.input("--tracks", tracksPath, true); err != nil { return err }
//	target, err := files.output("--save-tracks", savePath)

// runFiles is what one run reads and writes, for the rule above.
type runFiles struct {
	overwrite bool // -y
	inputs    []runFile
	outputs   []runFile
}

// runFile is one file a flag names.
type runFile struct {
	flag, path string
	st         fs.FileInfo // the file, symbolic links followed; nil while it does not exist
	real       string      // absolute, links resolved: how an output not written yet is compared
}

// trackFile is the file a track-file argument names: none for "-", standard input, which
// no output can be.
func trackFile(path string) string {
	if path == "-" {
		return ""
	}
	return path
}

// input checks that the file flag names can be read (a directory only with dirOK) and
// records it, so that no output of the run is that file. An empty path is no file; a URL is
// left to FFmpeg.
func (r *runFiles) input(flag, path string, dirOK bool) error {
	if path == "" {
		return nil
	}
	if err := checkInput(flag, path, dirOK); err != nil {
		return err
	}
	if strings.Contains(path, "://") {
		return nil
	}
	st, _ := os.Stat(path)
	r.inputs = append(r.inputs, runFile{flag: flag, path: path, st: st, real: realPath(path)})
	return nil
}

// output checks that flag's file path may be written in this run and returns the file to
// write: path, or the file a symbolic link at path points to (written through, the link
// stays a link).
func (r *runFiles) output(flag, path string) (string, error) {
	if path == "" {
		return "", usageError{fmt.Errorf("no output: give %s FILE", flag)}
	}
	target, err := video.CheckOutput("", path, true)
	if err != nil {
		return "", usageError{fmt.Errorf("%s: %w", flag, err)}
	}
	return r.add(flag, path, target, r.overwrite)
}

// segment is output for a segment file, which a run replaces without -y (a cluster task run
// again replaces what an earlier attempt wrote) and whose directory the render makes.
func (r *runFiles) segment(flag, path string) (string, error) {
	return r.add(flag, path, path, true)
}

// add checks target, the file flag's path names, against the files recorded so far and
// records it.
func (r *runFiles) add(flag, path, target string, overwrite bool) (string, error) {
	st, _ := os.Stat(target)
	out := runFile{flag: flag, path: path, st: st, real: realPath(target)}
	for _, in := range r.inputs {
		if out.same(in) {
			return "", usageError{fmt.Errorf("%s %s is the input %s (%s): write to another file", flag, path, in.path, in.flag)}
		}
	}
	for _, o := range r.outputs {
		if out.same(o) {
			return "", usageError{fmt.Errorf("%s %s is also %s: write them to different files", flag, path, o.flag)}
		}
	}
	if st != nil && !overwrite {
		return "", usageError{fmt.Errorf("%s %s exists (use -y to overwrite it)", flag, path)}
	}
	r.outputs = append(r.outputs, out)
	return target, nil
}

// same reports whether f and g are one file: by device and inode where both exist, by their
// resolved paths otherwise.
func (f runFile) same(g runFile) bool {
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
