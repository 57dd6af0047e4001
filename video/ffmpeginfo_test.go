package video

import (
	"os"
	"strings"
	"testing"
)

// A test binary links FFmpeg as trackink does: the system's shared libraries in a development
// build, or a static FFmpeg when built as the portable build's are (TRACKINK_STATIC_FFMPEG=1,
// which make dist-test sets for the test binaries it runs).
func TestFFmpegBuild(t *testing.T) {
	b := FFmpeg()
	if !strings.HasPrefix(b.Version, "5.1") && !strings.HasPrefix(b.Version, "n5.1") {
		t.Errorf("version %q, want FFmpeg 5.1 (go-astiav v0.16.0 builds against nothing else)", b.Version)
	}
	if !b.HeadersMatch {
		t.Errorf("libraries %s are not the versions compiled against", b.Libraries)
	}
	if !strings.Contains(b.Configuration, "--") {
		t.Errorf("configuration %q holds no configure arguments", b.Configuration)
	}
	static := os.Getenv("TRACKINK_STATIC_FFMPEG") != ""
	switch {
	case static && b.Shared != "":
		t.Errorf("FFmpeg loaded from %s, want it linked in", b.Shared)
	case !static && !strings.Contains(b.Shared, "libavcodec.so"):
		t.Errorf("shared libavcodec %q: the development build links the system's", b.Shared)
	}
	want := "linked into this binary"
	if !static {
		want = "shared libraries of this machine (" + b.Shared + ")"
	}
	if s := b.String(); !strings.Contains(s, b.Version+", "+want) {
		t.Errorf("doctor line %q does not say %q", s, want)
	}
}
