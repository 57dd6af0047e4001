package cli

import (
	"errors"
	"fmt"
	"sort"
	"trackink/internal/suggest"

	"github.com/spf13/pflag"
)

// commandNames returns the commands' names, sorted.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
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
