package video

import (
	"os"
	"path/filepath"
)

// ffmpegProgram is the ffmpeg program that Synthesize and BenchE2E run: $TRACKINK_FFMPEG when
// set; else an ffmpeg beside this executable, which the portable tarball carries (built with
// the same static FFmpeg as trackink, for machines that have none); else ffmpeg on PATH.
func ffmpegProgram() string {
	if p := os.Getenv("TRACKINK_FFMPEG"); p != "" {
		return p
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "ffmpeg")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return "ffmpeg"
}
