package cli

import (
	"fmt"
	"io"
	"runtime/debug"
)

func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "", "Example:\n  trackink version", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "trackink", version())
	return nil
}

// version is the module version, or the VCS revision for a development build.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "+dirty"
		}
	}
	return v + " " + info.GoVersion
}
