package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"trackink/options"

	"github.com/spf13/pflag"
)

const manExamples = `Examples:
  # Write trackink.1 and trackink-COMMAND.1 into man/man1 (made if missing; -y replaces
  # the pages there), then read one:
  trackink man man/man1
  man -l man/man1/trackink-render.1`

// manCommand writes the man pages, trackink(1) and one trackink-COMMAND(1) a command, made from
// the command and flag tables, so that they say what --help says.
func manCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := options.NewFlagSet("man", "DIR", manExamples, stderr)
	overwrite := fs.BoolP("yes", "y", false, "replace the pages DIR holds already")
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.ParseWith(fs, args, 1, "the directory to write the man pages into"); err != nil {
			return err
		}
		dir := fs.Arg(0)
		all := commandDocs()
		pages := map[string]func(io.Writer){"trackink.1": func(w io.Writer) { options.WriteManIndex(w, version(), exitStatusText(), all) }}
		for _, c := range all {
			pages["trackink-"+c.Name+".1"] = func(w io.Writer) { options.WriteManPage(w, version(), c) }
		}
		// As every command's outputs: a file in DIR's place, or a page there already
		// without -y, is a mistake on the command line, found before anything is written.
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			return options.UsageError{Err: fmt.Errorf("%s is not a directory: give the directory to write the man pages into", dir)}
		}
		if !*overwrite {
			for _, name := range slices.Sorted(maps.Keys(pages)) {
				if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
					return options.UsageError{Err: fmt.Errorf("%s exists (use -y to replace the pages)", filepath.Join(dir, name))}
				}
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for name, write := range pages {
			var b bytes.Buffer
			write(&b)
			if err := writeAtomic(context.Background(), filepath.Join(dir, name), true, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err }); err != nil {
				return err
			}
		}
		return nil
	}
}
