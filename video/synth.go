package video

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Synthesize writes a test clip to path: w×h, frames frames at fps, FFmpeg's testsrc2 pattern
// (moving shapes and a frame counter) in H.264 yuv420p, with a 440 Hz sine in AAC as long as
// the video. The container follows path's extension. It runs the ffmpeg program (see
// ffmpegProgram: trackink's setup installs one, the portable build carries one); the clip is
// for `trackink demo` and tests, not for the renderer itself.
func Synthesize(path string, w, h, frames, fps int) error {
	return SynthesizeContext(context.Background(), path, w, h, frames, fps)
}

// SynthesizeContext is Synthesize, stopped (the ffmpeg program killed, the error ctx's) when
// ctx ends first. The caller removes what path holds then.
func SynthesizeContext(ctx context.Context, path string, w, h, frames, fps int) error {
	if w <= 0 || h <= 0 || frames <= 0 || fps <= 0 {
		return fmt.Errorf("video: synthesize %dx%d, %d frames at %d fps: all must be positive", w, h, frames, fps)
	}
	dur := strconv.FormatFloat(float64(frames)/float64(fps), 'f', 6, 64)
	// The video ends after its frames in the filter (trim), not by -frames:v, which stops
	// the whole output there and cut the audio still buffered: 1.365 s of a 2 s clip.
	return runFFmpeg(ctx,
		"-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=%dx%d:rate=%d,trim=end_frame=%d", w, h, fps, frames),
		"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration="+dur,
		"-map", "0:v", "-map", "1:a",
		"-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
		"-c:a", "aac", "-b:a", "128k", "-y", fileURL(path))
}

// runFFmpeg runs the ffmpeg CLI quietly and returns its error output on failure.
func runFFmpeg(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, ffmpegProgram(), append([]string{"-hide_banner", "-nostdin", "-loglevel", "error"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("video: ffmpeg %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
