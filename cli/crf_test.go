package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCRF: an unset --crf keeps libx264's default (23), --crf 18 codes at 18, and --crf 0
// codes losslessly as x264 users expect (x264's own record of its settings, in the stream,
// says which); --crf 0 with NVENC or --bitrate is refused.
func TestCRF(t *testing.T) {
	dir, in, tracks := clipWithTracks(t, 160, 120, 4, "1,1,10,10,40,40,1,-1,-1,-1\n")
	settings := regexp.MustCompile(`rc=\S+ mbtree=\d (crf|qp)=\S+`)
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{nil, "rc=crf mbtree=0 crf=23.0"},
		{[]string{"--crf", "18"}, "rc=crf mbtree=0 crf=18.0"},
		{[]string{"--crf", "0"}, "rc=cqp mbtree=0 qp=0"},
	} {
		out := filepath.Join(dir, "out.mp4")
		args := append([]string{"render", "-i", in, "--tracks", tracks, "-o", out, "-y", "--encoder", "libx264", "--preset", "ultrafast", "--quiet"}, tc.flags...)
		if code, _, stderr := trackink(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.flags, code, stderr)
		}
		b, _ := os.ReadFile(out)
		got := settings.FindString(string(b))
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: x264 says %q, want %q", tc.flags, got, tc.want)
		}
	}
	for _, tc := range []struct {
		flags []string
		says  string
	}{
		{[]string{"--crf", "0", "--encoder", "h264_nvenc"}, "--crf 0 is lossless, which trackink codes with libx264 or libx265, not h264_nvenc"},
		{[]string{"--crf", "0", "--bitrate", "1000000"}, "--crf 0 (lossless) and --bitrate: give one"},
	} {
		args := append([]string{"render", "-i", in, "--tracks", tracks, "-o", filepath.Join(dir, "x.mp4")}, tc.flags...)
		if code, _, stderr := trackink(args...); code != exitUsage || !strings.Contains(stderr, tc.says) {
			t.Errorf("%v: exit %d, %q; want %d saying %q", tc.flags, code, stderr, exitUsage, tc.says)
		}
	}
}
