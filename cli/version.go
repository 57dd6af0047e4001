package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"trackink/options"

	"github.com/spf13/pflag"
)

// buildVersion is the version the build stamps in, set by the Makefile and the portable
// build with
//
//	go build -ldflags "-X trackink/cli.buildVersion=$(git describe --tags --always --dirty)"
//
// (a tag, commits since it and the commit, v1.2.0-3-gd96db58-dirty; or the commit alone).
// Empty in a plain go build or go install, which version then reads from the toolchain's
// build information.
var buildVersion string

func versionCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := options.NewFlagSet("version", "", "Examples:\n  trackink version\n  trackink --version", stderr)
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "trackink", version())
		return nil
	}
}

// version is the version and the commit this binary was built from, and its Go version.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{GoVersion: "go version unknown"}
	}
	return versionOf(buildVersion, info)
}

// versionOf is version's text: stamped, the stamp; otherwise the module version (v1.2.0
// from go install trackink@v1.2.0, devel from a checkout) and the VCS revision and modified
// flag that go build records in a git checkout; "commit unknown" where it recorded none (a
// git worktree, -buildvcs=false).
func versionOf(stamped string, info *debug.BuildInfo) string {
	if stamped != "" {
		return fmt.Sprintf("%s (%s)", stamped, info.GoVersion)
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	commit, dirty := "", ""
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			commit = s.Value[:min(len(s.Value), 12)]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "-dirty"
		}
	}
	if commit == "" {
		return fmt.Sprintf("%s, commit unknown: built without version information (make build stamps it) (%s)", v, info.GoVersion)
	}
	return fmt.Sprintf("%s, commit %s%s (%s)", v, commit, dirty, info.GoVersion)
}
