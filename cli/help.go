package cli

import (
	"fmt"
	"io"
)

// printHelp prints trackink's own help: what it does and its commands, the user's first,
// then the developer's, in commandList's order.
func printHelp(w io.Writer) {
	fmt.Fprintln(w, "trackink draws anti-aliased tracking overlays onto images and videos.")
	fmt.Fprintln(w, "\nUsage: trackink COMMAND [flags]\n\nCommands:")
	for _, c := range commandList {
		if !c.developer {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(w, "\nDeveloper commands:")
	for _, c := range commandList {
		if c.developer {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(w, "\nRun 'trackink COMMAND -h' for a command's common flags and examples, --help for all.")
}

// asksHelp reports whether a command's arguments ask for its help (-h or --help before
// any "--").
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}
