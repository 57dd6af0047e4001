package video

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// buildIdentity says which build of trackink is running, in words a person can match with
// `trackink version`, sha256sum or `trackink doctor`: a segment's record carries it
// (segmentRecord.Build), and the join refuses segments of two builds, whose pictures may
// differ (a cluster where one node runs an older binary, or the same binary on the shared
// FFmpeg libraries of another release). A variable for the tests, which render segments as
// two builds.
var buildIdentity = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{}
	}
	return identityOf(info, runtime.GOOS, runtime.GOARCH, executableDigest) + sharedFFmpeg(FFmpeg())
})

// sharedFFmpeg is the part of the build's identity that names the FFmpeg libraries of the
// machine it runs on, when it loads them as shared libraries (a development build on the
// system's FFmpeg): those decode, convert and encode the frames, and another release may
// give other pixels. The portable build links its own, which its executable names already.
func sharedFFmpeg(b FFmpegBuild) string {
	if b.Shared == "" {
		return ""
	}
	return fmt.Sprintf(" on shared FFmpeg %s (%s)", b.Version, b.Libraries)
}

// identityOf is buildIdentity's text for the build info describes, on goos/goarch: the
// module version (v1.2.0 from go install trackink@v1.2.0; a checkout's is devel or a
// pseudo-version) and the commit go build records in a git checkout, then the Go version and
// the platform, with the GOAMD64 (…) level the compiler targeted, as both change the code
// that draws. Where no commit says what was built (go test, -buildvcs=false, a git
// worktree, a tree without its .git) or the tree had changes not committed (vcs.modified,
// +dirty), the executable's own SHA-256 (its first 16 hex digits, as sha256sum prints them)
// stands for the build: two binaries built from two modified trees differ though their
// commits are equal.
func identityOf(info *debug.BuildInfo, goos, goarch string, executable func() string) string {
	set := map[string]string{}
	for _, s := range info.Settings {
		set[s.Key] = s.Value
	}
	var id []string
	version, dirty := strings.CutSuffix(info.Main.Version, "+dirty")
	commit := set["vcs.revision"]
	// A pseudo-version (v0.0.0-20260101120000-0123456789ab) ends with the commit: said once.
	pseudo := commit != "" && strings.HasSuffix(version, "-"+commit[:min(len(commit), 12)])
	if version != "" && version != "(devel)" && !pseudo {
		id = append(id, version)
	}
	if commit != "" {
		id = append(id, "commit "+commit[:min(len(commit), 12)])
	}
	modified := dirty || set["vcs.modified"] == "true"
	if modified {
		id = append(id, "modified")
	}
	if commit == "" && len(id) == 0 {
		// The version make stamps in (cli.buildVersion, git describe's) names the build
		// for a person, not for the check: it is any text make was given.
		if m := stampedVersion.FindStringSubmatch(set["-ldflags"]); m != nil {
			id = append(id, m[1]+", no commit recorded")
		} else {
			id = append(id, "devel, no commit recorded")
		}
	}
	if modified || commit == "" && (version == "" || version == "(devel)") {
		id = append(id, "executable sha256 "+executable())
	}
	platform := goos + "/" + goarch
	for _, level := range []string{"GO386", "GOAMD64", "GOARM", "GOARM64", "GOMIPS", "GOMIPS64", "GOPPC64", "GORISCV64", "GOWASM"} {
		if v := set[level]; v != "" {
			platform += " " + strings.ToLower(level) + "=" + v
		}
	}
	goVersion := info.GoVersion
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	return fmt.Sprintf("%s (%s %s)", strings.Join(id, ", "), goVersion, platform)
}

// stampedVersion finds the version make stamps into `trackink version` in go build's
// -ldflags (recorded without -trimpath).
var stampedVersion = regexp.MustCompile(`-X[ =]trackink/cli\.buildVersion=([^\s'"]+)`)

// executableDigest is the first 16 hex digits of the running executable's SHA-256, or why it
// cannot be read.
func executableDigest() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	f, err := os.Open(path)
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
