package options

import (
	"errors"
	"fmt"
	"io"
	"trackink/internal/suggest"

	"github.com/spf13/pflag"
)

// UsageError is a mistake on the command line: exit status 2.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// NewFlagSet returns a flag set whose --help prints the usage line, the examples and the
// flags under their headings (-h the common ones), and whose errors are returned, not
// printed.
func NewFlagSet(name, usage, examples string, out io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(out)
	fs.SortFlags = false
	addHelp(fs, HelpText{name, usage, examples, out})
	return fs
}

// Parse parses the flags, mapping errors to usage errors and refusing stray arguments.
func Parse(fs *pflag.FlagSet, args []string) error { return ParseWith(fs, args, 0, "") }

// ParseWith parses the flags and wants exactly n positional arguments, described by what
// when they are missing.
func ParseWith(fs *pflag.FlagSet, args []string, n int, what string) error {
	// A flag given twice is an override (a wrapper's default, then the user's); --tracks,
	// where a second file is not meant to replace the first, is a list in every command
	// that takes it (render draws them together, eval scores one per sequence), and
	// render's --gt, which eval takes for each sequence, is refused a second time.
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return UsageError{badValue(unknownFlag(fs, err))}
	}
	switch {
	case fs.NArg() > n:
		return UsageError{fmt.Errorf("unexpected argument %q", fs.Arg(n))}
	case fs.NArg() < n:
		return UsageError{fmt.Errorf("give %s", what)}
	}
	return nil
}

// unknownFlag adds to pflag's "unknown flag: --colour-by" the flag of fs meant, if one is
// close.
func unknownFlag(fs *pflag.FlagSet, err error) error {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) || ne.GetSpecifiedShortnames() != "" {
		return err
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if n := suggest.Closest(ne.GetSpecifiedName(), names); n != "" {
		return fmt.Errorf("%w (did you mean --%s?)", err, n)
	}
	return err
}
