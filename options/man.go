package options

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

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

// manHeader writes the title line and NAME section of page, of trackink version.
func manHeader(w io.Writer, page, version, summary string) {
	fmt.Fprintf(w, ".TH %s 1 \"\" \"trackink %s\" \"trackink manual\"\n", strings.ToUpper(roff(page)), roff(version))
	fmt.Fprintf(w, ".SH NAME\n%s \\- %s\n", roff(page), roff(summary))
}

// WriteManIndex writes trackink(1) of version: the commands, and what exitStatus says.
func WriteManIndex(w io.Writer, version, exitStatus string, all []Command) {
	manHeader(w, "trackink", version, "draw anti-aliased tracking overlays onto images and videos")
	fmt.Fprintf(w, ".SH SYNOPSIS\n.B trackink\n\\fICOMMAND\\fR [\\fIflags\\fR]\n.SH COMMANDS\n")
	for _, c := range all {
		fmt.Fprintf(w, ".TP\n.BR trackink\\-%s (1)\n%s\n", roff(c.Name), roff(c.Summary))
	}
	fmt.Fprintf(w, ".SH EXIT STATUS\n%s\n", roff(exitStatus))
}

// WriteManPage writes trackink-COMMAND(1) of version: synopsis, flags under --help's
// headings, examples.
func WriteManPage(w io.Writer, version string, c Command) {
	manHeader(w, "trackink-"+c.Name, version, c.Summary)
	fmt.Fprintf(w, ".SH SYNOPSIS\n.B trackink %s\n%s\n", roff(c.Name), roff(c.Help.Synopsis))
	groups := make([][]*pflag.Flag, len(groupTitles))
	for _, f := range c.Flags {
		g := groupOf(c.Name, f.Name)
		groups[g] = append(groups[g], f)
	}
	if len(c.Flags) > 0 {
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
			if ch := choicesOf(c.Name, f.Name); ch != nil {
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
	if ex := strings.TrimPrefix(strings.TrimPrefix(c.Help.Examples, "Examples:"), "Example:"); strings.TrimSpace(ex) != "" {
		fmt.Fprintln(w, ".SH EXAMPLES\n.nf")
		for _, l := range strings.Split(strings.Trim(ex, "\n"), "\n") {
			fmt.Fprintln(w, roff(strings.TrimPrefix(l, "  ")))
		}
		fmt.Fprintln(w, ".fi")
	}
	fmt.Fprintln(w, ".SH SEE ALSO\n.BR trackink (1)")
}
