// Package mediatest hashes what a video file holds, frame by frame and packet by packet, with
// the ffmpeg CLI (ffmpeg's framemd5 muxer), so that tests can compare two files the way a
// user would: the decoded pictures and their timestamps, the copied packets. It is test
// tooling, imported by tests only.
package mediatest

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// Frames decodes the first video stream of path and returns one line per frame, in
// presentation order: "stream, dts, pts, duration, size, md5" of the decoded picture, its
// timestamps as the file has them (-copyts: not moved to start at 0) in the stream's time
// base.
func Frames(tb testing.TB, path string) []string {
	tb.Helper()
	return framemd5(tb, "-copyts", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough", "-enc_time_base", "-1")
}

// Packets returns one line per packet of the streams spec selects (ffmpeg's -map, "0:a"),
// copied, not decoded: "stream, dts, pts, duration, size, md5" and side data.
func Packets(tb testing.TB, path, spec string) []string {
	tb.Helper()
	return framemd5(tb, "-i", path, "-map", spec, "-c", "copy")
}

// PTS returns the pts of each of Frames' lines.
func PTS(lines []string) []string { return field(lines, 2) }

// Pictures returns the MD5 of each of Frames' lines: the decoded pictures alone.
func Pictures(lines []string) []string { return field(lines, 5) }

// field returns the i-th comma-separated field (from 0) of each line.
func field(lines []string, i int) []string {
	out := make([]string, len(lines))
	for j, l := range lines {
		if f := strings.Split(l, ","); len(f) > i {
			out[j] = strings.TrimSpace(f[i])
		}
	}
	return out
}

// framemd5 runs ffmpeg with args and the framemd5 muxer and returns its lines without the
// header comments.
func framemd5(tb testing.TB, args ...string) []string {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("ffmpeg", append(append([]string{"-v", "error", "-nostdin"}, args...), "-f", "framemd5", "-")...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("ffmpeg %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	var lines []string
	for _, l := range strings.Split(stdout.String(), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}
