package cli

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// version and --version print the version the build stamped in, which names the commit.
func TestVersionIsStamped(t *testing.T) {
	binary(t) // skips with -short, and builds the packages once
	bin := filepath.Join(t.TempDir(), "trackink")
	if err := buildBinary(bin, "-ldflags", "-X trackink/cli.buildVersion=v1.2.3-4-gabcdef0-dirty"); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"version", "--version"} {
		out, err := exec.Command(bin, arg).Output()
		if err != nil || !strings.HasPrefix(string(out), "trackink v1.2.3-4-gabcdef0-dirty (go") {
			t.Errorf("trackink %s: %q, %v", arg, out, err)
		}
	}
}

// Without a stamp, the version comes from what go build recorded: the commit and whether
// the tree was modified, or says that it is unknown.
func TestVersionFromBuildInfo(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "d96db58a1b2c3d4e5f60718293a4b5c6d7e8f901"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := versionOf("", info), "devel, commit d96db58a1b2c-dirty (go1.26.0)"; got != want {
		t.Errorf("from build info: %q, want %q", got, want)
	}
	info.Settings = nil
	if got := versionOf("", info); !strings.Contains(got, "commit unknown") {
		t.Errorf("without VCS information: %q", got)
	}
	if got := versionOf("v2.0.0", info); got != "v2.0.0 (go1.26.0)" {
		t.Errorf("stamped: %q", got)
	}
}
