package cli

import (
	"fmt"
	"os"

	"trackink/options"
	"trackink/outfile"
)

// runFiles is what one run reads and writes, for the rule every output keeps
// (outfile.Run), its inputs checked as the command line checks them (options.CheckInput). All of it
// is checked when the command line is read, before any work: a breach is a usage error,
// exit 2, naming the flag.
type runFiles struct {
	outfile.Run
	stdin string // the flag that reads standard input, which can be read once
}

// trackFile is the file a track-file argument names: none for "-", standard input, which
// no output can be.
func trackFile(path string) string {
	if path == "-" {
		return ""
	}
	return path
}

// classesNote says where MOTChallenge text written with classes keeps their names: the file
// names beside it, read back with it.
func classesNote(names string) string {
	return fmt.Sprintf("classes are numbers in field 8 (x), named in %s, which is read with the tracks from beside them: keep the two together", names)
}

// input checks that the file flag names can be read (a directory only with dirOK) and
// records it, so that no output of the run is that file. An empty path is no file; a URL is
// left to FFmpeg.
func (r *runFiles) input(flag, path string, dirOK bool) error {
	if path == "" {
		return nil
	}
	if err := options.CheckInput(flag, path, dirOK); err != nil {
		return err
	}
	if isStdin(path) {
		if err := r.readsStdin(flag + " " + path); err != nil {
			return err
		}
	}
	r.Input(flag, path)
	return nil
}

// readsStdin records that what names (a flag and its file) reads standard input, and
// refuses a second reader: a pipe read by two is half read by each.
func (r *runFiles) readsStdin(what string) error {
	if r.stdin != "" {
		return options.UsageError{Err: fmt.Errorf("%s and %s both read standard input, which can be read once: give one of them as a file", r.stdin, what)}
	}
	r.stdin = what
	return nil
}

// isStdin reports whether path is this process's standard input where that is a pipe, a
// socket or a terminal (/dev/stdin, /dev/fd/0, the fifo itself): read there, it is read
// once. (A file redirected to standard input is opened anew by its name.)
func isStdin(path string) bool {
	in, err := os.Stdin.Stat()
	if err != nil || in.Mode().IsRegular() {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && os.SameFile(st, in)
}
