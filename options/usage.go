package options

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// HelpText is what a command's help says besides its flags.
type HelpText struct {
	name     string
	Synopsis string // what follows "trackink COMMAND" in the usage line
	Examples string // "Examples:" and blocks of commented command lines
	out      io.Writer
}

// shortFlags is how many flags a command may have for -h to show them all.
const shortFlags = 12

// shortExamples is how many examples -h shows.
const shortExamples = 4

// usage prints the command's help: with full, every flag under its heading and every
// example; without, the examples first and the flags the option table marks short (all of them
// when the command has few), about 30 lines.
func (h HelpText) usage(fs *pflag.FlagSet, full bool) {
	w := h.out
	fmt.Fprintf(w, "Usage: trackink %s %s\n", h.name, h.Synopsis)
	n := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			n++
		}
	})
	full = full || n <= shortFlags
	if h.Examples != "" {
		ex := h.Examples
		if !full {
			ex = firstExamples(ex, shortExamples)
		}
		fmt.Fprintf(w, "\n%s\n", ex)
	}
	groups := make([]*pflag.FlagSet, len(groupTitles))
	seen := make([]bool, len(groupTitles)) // the headings of the visible flags
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		g := groupOf(h.name, f.Name)
		seen[g] = true
		if full {
			if groups[g] == nil {
				groups[g] = pflag.NewFlagSet(groupTitles[g], pflag.ContinueOnError)
				groups[g].SortFlags = false
			}
			groups[g].AddFlag(f)
			return
		}
		if o, ok := optionOf(h.name, f.Name); !ok || !o.short {
			return
		}
		if groups[0] == nil {
			groups[0] = pflag.NewFlagSet("common", pflag.ContinueOnError)
			groups[0].SortFlags = false
		}
		groups[0].AddFlag(f)
	})
	if !full {
		fmt.Fprintf(w, "\nCommon flags:\n%s", groups[0].FlagUsages())
		var titles []string
		for g, t := range groupTitles {
			if seen[g] {
				titles = append(titles, strings.ToLower(t))
			}
		}
		fmt.Fprintf(w, "\n'trackink %s --help' shows all %d flags: %s.\n", h.name, n, strings.Join(titles, ", "))
		return
	}
	headings := 0
	for _, set := range groups {
		if set != nil {
			headings++
		}
	}
	for g, set := range groups {
		title := groupTitles[g]
		if headings == 1 {
			title = "Flags" // one heading over a few flags says nothing
		}
		if set != nil {
			fmt.Fprintf(w, "\n%s:\n%s", title, set.FlagUsages())
		}
	}
}

// firstExamples returns the "Examples:" line and the first n examples, each a block of
// lines ended by a blank line.
func firstExamples(examples string, n int) string {
	blocks := strings.Split(examples, "\n\n")
	if len(blocks) <= n {
		return examples
	}
	return strings.Join(blocks[:n], "\n\n")
}

// helpFlag is --help, which prints the whole help; -h, which pflag answers with the flag
// set's Usage, prints the short one.
type helpFlag struct {
	h  HelpText
	fs *pflag.FlagSet
}

// addHelp makes -h print the short help and --help the whole.
func addHelp(fs *pflag.FlagSet, h HelpText) {
	fs.Usage = func() { h.usage(fs, false) }
	fs.Var(helpFlag{h, fs}, "help", "show every flag")
	fs.Lookup("help").NoOptDefVal = "true"
	fs.Lookup("help").Hidden = true
}
func (f helpFlag) String() string { return "false" }
func (f helpFlag) Type() string   { return "bool" }

// Set prints the whole help and ends the parse with pflag.ErrHelp.
func (f helpFlag) Set(string) error {
	f.h.usage(f.fs, true)
	return pflag.ErrHelp
}

// HelpOf returns the help text of a flag set made by NewFlagSet.
func HelpOf(fs *pflag.FlagSet) HelpText { return fs.Lookup("help").Value.(helpFlag).h }
