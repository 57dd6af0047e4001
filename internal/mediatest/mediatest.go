// Package mediatest makes test clips and hashes what a video file holds, frame by frame and
// packet by packet, with the ffmpeg CLI (ffmpeg's framemd5 muxer), so that tests can compare
// two files the way a user would: the decoded pictures and their timestamps, the copied
// packets. It is test tooling, imported by tests only.
package mediatest

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ClipFrames is the length of Clip's clips; their keyframes are frames 1, 13, 25, 37 and 49.
const ClipFrames = 60

// Clip writes a 320×240 test clip of kind into a new directory and returns its path: "mp4"
// is H.264 with B-frames and a keyframe every 12 frames, at a variable frame rate in a
// 90 kHz time base (frames 1 to 20 at 30 fps, pts 3000·(v−1); frames 21 to 40 at 20 fps on
// average, every third of their 30 fps frames left out; frames 41 to 60 at 30 fps from pts
// 150000), with AAC audio; "mkv" and "ts" are the same remuxed (MPEG-TS has no index: its
// seeks land late); "hevc" is x265 with open GOPs, its keyframes CRA pictures with leading
// pictures that need the GOP before. (Like the clips of docs/segments/experiment.sh, with
// what the portable build's ffmpeg has: the select filter, not setpts.)
func Clip(tb testing.TB, kind string) string {
	tb.Helper()
	dir := tb.TempDir()
	mp4 := filepath.Join(dir, "src.mp4")
	video := []string{"-c:v", "libx264", "-preset", "veryfast", "-g", "12", "-keyint_min", "12"}
	if kind == "hevc" {
		video = []string{"-c:v", "libx265", "-x265-params", "log-level=error:keyint=12:min-keyint=12:open-gop=1"}
	}
	args := []string{"-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
		"-filter:v", `select='lt(n\,20)+gte(n\,50)+mod(n\,3)'`,
		"-frames:v", fmt.Sprint(ClipFrames), "-pix_fmt", "yuv420p", "-fps_mode", "passthrough", "-enc_time_base", "1/90000",
		"-video_track_timescale", "90000", "-c:a", "aac", "-b:a", "64k", "-t", "2.5"}
	ffmpeg(tb, append(append(args, video...), mp4)...)
	if kind == "mp4" || kind == "hevc" {
		return mp4
	}
	remuxed := filepath.Join(dir, "src."+kind)
	ffmpeg(tb, "-i", mp4, "-c", "copy", remuxed)
	return remuxed
}

// ffmpeg runs the ffmpeg CLI with args, failing the test on an error.
func ffmpeg(tb testing.TB, args ...string) {
	tb.Helper()
	out, err := exec.Command("ffmpeg", append([]string{"-hide_banner", "-nostdin", "-v", "error", "-y"}, args...)...).CombinedOutput()
	if err != nil {
		tb.Fatalf("ffmpeg %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// Frames decodes the first video stream of path and returns one line per frame, in
// presentation order: "stream, dts, pts, duration, size, md5" of the decoded picture, its
// timestamps as the file has them (-copyts: not moved to start at 0) in the stream's time
// base.
func Frames(tb testing.TB, path string) []string {
	tb.Helper()
	return framemd5(tb, "-copyts", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough", "-enc_time_base", "-1")
}

// Picture decodes frame n (from 1) of the w × h video at path and returns it as raw YUV420P
// (its luma, then its Cb and its Cr), failing the test on an error.
func Picture(tb testing.TB, path string, n, w, h int) []byte {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("ffmpeg", "-v", "error", "-nostdin", "-i", path, "-vf", fmt.Sprintf("select=eq(n\\,%d)", n-1),
		"-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("ffmpeg: frame %d of %s: %v: %s", n, path, err, stderr.String())
	}
	if want := w*h + 2*((w+1)/2)*((h+1)/2); stdout.Len() != want {
		tb.Fatalf("frame %d of %s: %d bytes, want %d (%d×%d YUV420P)", n, path, stdout.Len(), want, w, h)
	}
	return stdout.Bytes()
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

// Difference says where two lists of lines (Frames', Packets') first differ, for a test's
// message.
func Difference(want, got []string) string {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, want[i], got[i])
		}
	}
	return fmt.Sprintf("want %d lines, got %d", len(want), len(got))
}

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
