package cli

import (
	"trackink/options"
	"trackink/outfile"
)

// runFiles is what one run reads and writes, for the rule every output keeps
// (outfile.Run), its inputs checked as the command line checks them (options.CheckInput). All of it
// is checked when the command line is read, before any work: a breach is a usage error,
// exit 2, naming the flag.
type runFiles struct{ outfile.Run }

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
	if err := options.CheckInput(flag, path, dirOK); err != nil {
		return err
	}
	r.Input(flag, path)
	return nil
}
