package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
)

const manExamples = `Examples:
  # Write trackink.1 and trackink-COMMAND.1 into man/man1, then read one:
  trackink man man/man1
  man -l man/man1/trackink-render.1`

// manCommand writes the man pages, trackink(1) and one trackink-COMMAND(1) a command, made from
// the command and flag tables, so that they say what --help says.
func manCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := newFlagSet("man", "DIR", manExamples, stderr)
	return fs, func(args []string, stdout io.Writer) error {
		if err := parseWith(fs, args, 1, "the directory to write the man pages into"); err != nil {
			return err
		}
		dir := fs.Arg(0)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		all := allFlags()
		pages := map[string]func(io.Writer){"trackink.1": func(w io.Writer) { manIndex(w, all) }}
		for _, c := range all {
			pages["trackink-"+c.name+".1"] = func(w io.Writer) { manPage(w, c) }
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

// roff escapes text for a roff line: backslashes and hyphens (which roff would otherwise
// set as hyphens, not minus signs that can be copied into a shell), and a leading dot or
// quote, which would start a request.
func roff(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// manHeader writes the title line and NAME section of page.
func manHeader(w io.Writer, page, summary string) {
	fmt.Fprintf(w, ".TH %s 1 \"\" \"trackink %s\" \"trackink manual\"\n", strings.ToUpper(roff(page)), roff(version()))
	fmt.Fprintf(w, ".SH NAME\n%s \\- %s\n", roff(page), roff(summary))
}

// manIndex writes trackink(1): the commands.
func manIndex(w io.Writer, all []cmdFlags) {
	manHeader(w, "trackink", "draw anti-aliased tracking overlays onto images and videos")
	fmt.Fprintf(w, ".SH SYNOPSIS\n.B trackink\n\\fICOMMAND\\fR [\\fIflags\\fR]\n.SH COMMANDS\n")
	for _, c := range all {
		fmt.Fprintf(w, ".TP\n.BR trackink\\-%s (1)\n%s\n", roff(c.name), roff(c.summary))
	}
	fmt.Fprintf(w, ".SH EXIT STATUS\n%s\n", roff(exitStatusText()))
}

// manPage writes trackink-COMMAND(1): synopsis, flags under --help's headings, examples.
func manPage(w io.Writer, c cmdFlags) {
	manHeader(w, "trackink-"+c.name, c.summary)
	fmt.Fprintf(w, ".SH SYNOPSIS\n.B trackink %s\n%s\n", roff(c.name), roff(c.help.synopsis))
	groups := make([][]*pflag.Flag, len(groupTitles))
	for _, f := range c.flags {
		g := groupOf(c.name, f.Name)
		groups[g] = append(groups[g], f)
	}
	if len(c.flags) > 0 {
		fmt.Fprintln(w, ".SH OPTIONS")
	}
	for g, flags := range groups {
		if len(flags) == 0 {
			continue
		}
		fmt.Fprintf(w, ".SS %s\n", roff(groupTitles[g]))
		for _, f := range flags {
			fmt.Fprint(w, ".TP\n")
			if f.Shorthand != "" {
				fmt.Fprintf(w, "\\fB\\-%s\\fR, ", f.Shorthand)
			}
			fmt.Fprintf(w, "\\fB\\-\\-%s\\fR", roff(f.Name))
			varname, usage := pflag.UnquoteUsage(f)
			if takesValue(f) && varname != "" {
				fmt.Fprintf(w, " \\fI%s\\fR", roff(varname))
			}
			fmt.Fprintf(w, "\n%s\n", roff(usage))
			var more []string
			if ch := choicesOf(c.name, f.Name); ch != nil {
				more = append(more, "one of: "+strings.Join(ch, ", "))
			}
			if takesValue(f) && f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" && f.DefValue != "[]" {
				more = append(more, "default: "+f.DefValue)
			}
			if more != nil {
				fmt.Fprintf(w, "(%s)\n", roff(strings.Join(more, "; ")))
			}
		}
	}
	if ex := strings.TrimPrefix(strings.TrimPrefix(c.help.examples, "Examples:"), "Example:"); strings.TrimSpace(ex) != "" {
		fmt.Fprintln(w, ".SH EXAMPLES\n.nf")
		for _, l := range strings.Split(strings.Trim(ex, "\n"), "\n") {
			fmt.Fprintln(w, roff(strings.TrimPrefix(l, "  ")))
		}
		fmt.Fprintln(w, ".fi")
	}
	fmt.Fprintln(w, ".SH SEE ALSO\n.BR trackink (1)")
}
