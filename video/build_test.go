package video

import (
	"runtime/debug"
	"strings"
	"testing"
)

// A build is named by its commit where go build recorded one in a clean tree; by its
// executable's hash where it recorded none (go test, -buildvcs=false) or the tree was
// modified; by its module version from go install; with its Go version and platform.
func TestIdentityOf(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	settings := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "GOARCH", Value: "amd64"}, {Key: "GOAMD64", Value: "v1"},
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	exe := func() string { return "feedfacefeedface" }
	for _, tc := range []struct {
		name          string
		info          debug.BuildInfo
		goarch        string
		want          string
		readsTheBytes bool
	}{
		{"clean checkout", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.0.0-20261130000250-0123456789ab"}, Settings: settings("false")},
			"amd64", "commit 0123456789ab (go1.26.0 linux/amd64 goamd64=v1)", false},
		{"tagged checkout", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.0"}, Settings: settings("false")},
			"amd64", "v1.2.0, commit 0123456789ab (go1.26.0 linux/amd64 goamd64=v1)", false},
		{"modified checkout", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.0.0-20261130000250-0123456789ab+dirty"}, Settings: settings("true")},
			"amd64", "commit 0123456789ab, modified, executable sha256 feedfacefeedface (go1.26.0 linux/amd64 goamd64=v1)", true},
		{"go install", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.0"}},
			"arm64", "v1.2.0 (go1.26.0 linux/arm64)", false},
		{"make in a worktree", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "-ldflags", Value: "-X trackink/cli.buildVersion=v1.2.0-3-gd96db58"}}},
			"amd64", "v1.2.0-3-gd96db58, no commit recorded, executable sha256 feedfacefeedface (go1.26.0 linux/amd64)", true},
		{"go test", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}},
			"amd64", "devel, no commit recorded, executable sha256 feedfacefeedface (go1.26.0 linux/amd64)", true},
	} {
		read := false
		got := identityOf(&tc.info, "linux", tc.goarch, func() string { read = true; return exe() })
		if got != tc.want || read != tc.readsTheBytes {
			t.Errorf("%s: %q (executable read: %t), want %q (%t)", tc.name, got, read, tc.want, tc.readsTheBytes)
		}
	}
}

// The FFmpeg libraries a build loads from the machine are part of its identity; those
// linked into the executable are named by the executable already.
func TestSharedFFmpeg(t *testing.T) {
	libs := "libavcodec 59.37.100, libavformat 59.27.100, libavutil 57.28.100"
	for _, tc := range []struct {
		name string
		b    FFmpegBuild
		want string
	}{
		{"linked in", FFmpegBuild{Version: "7.1", Libraries: libs}, ""},
		{"shared", FFmpegBuild{Version: "5.1.6-0+deb12u1", Libraries: libs, Shared: "/lib/x86_64-linux-gnu/libavcodec.so.59"},
			" on shared FFmpeg 5.1.6-0+deb12u1 (" + libs + ")"},
	} {
		if got := sharedFFmpeg(tc.b); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if b := FFmpeg(); b.Shared != "" && !strings.Contains(buildIdentity(), b.Version) {
		t.Errorf("build identity %q does not name the shared FFmpeg %s", buildIdentity(), b.Version)
	}
}
