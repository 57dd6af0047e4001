package options

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"trackink/outfile"
	"trackink/video"
)

// CheckInput refuses, as a mistake on the command line, a file to read (what: "input",
// "tracks") that does not exist, cannot be read, or is a directory where a file is wanted,
// before any work. URLs are left to FFmpeg; named pipes are not opened (that would consume
// their writer's open); an image sequence's pattern (frames_%04d.png) needs its first file.
func CheckInput(what, path string, dirOK bool) error {
	local, ok := outfile.LocalPath(path)
	if !ok {
		return nil
	}
	if video.IsSequence(path) {
		if _, err := video.SequenceStart(path); err != nil {
			return UsageError{fmt.Errorf("%s %w", what, err)}
		}
		return nil
	}
	st, err := os.Stat(local)
	switch {
	case err == nil && st.IsDir() && !dirOK:
		return UsageError{fmt.Errorf("%s %s is a directory", what, path)}
	case err == nil && st.Mode().IsRegular():
		var f *os.File
		if f, err = os.Open(local); err == nil {
			f.Close()
		}
	}
	if path == "-" && errors.Is(err, fs.ErrNotExist) {
		// "-" names a file here, as every input does; standard input has a name of its
		// own, which the pipe reading takes. It said only "no such file or directory".
		return UsageError{fmt.Errorf("%s -: no file named \"-\"; to read standard input give /dev/stdin", what)}
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return UsageError{fmt.Errorf("%s %s: %w", what, path, err)}
	}
	return nil
}
