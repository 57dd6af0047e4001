package video

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Bench compares one render with the plain FFmpeg transcode it is built on.
type Bench struct {
	Ours         Stats
	OursCPU      time.Duration // user+system time of the render (all threads)
	Plain        time.Duration // ffmpeg CLI wall time: same encoder settings, streams copied, no overlay
	PlainCPU     time.Duration // user+system time of the ffmpeg process
	PlainPeakRSS int64         // bytes, of the ffmpeg process
	Ratio        float64       // Ours.Wall / Plain
	CPURatio     float64       // OursCPU / PlainCPU: steadier than Ratio on a shared machine
}

// BenchE2E transcodes opts.Input with the ffmpeg CLI using the same encoder, preset, CRF,
// bitrate and threads (other streams copied), then renders it with draw, and reports both.
// The reference runs first because Linux charges a child's peak RSS with its parent's at exec
// time: measured later, ffmpeg's figure would include our render's memory. opts.Output is the
// render's output; the reference goes to a temporary file next to it, removed afterwards.
// Only libx264 and libx265 have a CLI equivalent; "auto" is taken as libx264.
func BenchE2E(ctx context.Context, opts Options, draw DrawFunc) (Bench, error) {
	var b Bench
	enc := opts.Encoder
	if enc == "" || enc == "auto" {
		enc = "libx264"
	}
	if enc != "libx264" && enc != "libx265" {
		return b, fmt.Errorf("video: bench: encoder %s has no CLI reference here; use libx264 or libx265", enc)
	}
	opts.Encoder = enc
	ref := filepath.Join(filepath.Dir(opts.Output), ".bench-ref-"+strconv.Itoa(os.Getpid())+filepath.Ext(opts.Output))
	defer os.Remove(ref)
	args := []string{"-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-i", opts.Input,
		"-map", "0", "-c", "copy", "-c:v:0", enc}
	if opts.Preset != "" {
		args = append(args, "-preset", opts.Preset)
	}
	if opts.Bitrate > 0 {
		args = append(args, "-b:v", strconv.FormatInt(opts.Bitrate, 10))
	} else if opts.CRF > 0 {
		args = append(args, "-crf", strconv.Itoa(opts.CRF))
	}
	if opts.Threads > 0 {
		args = append(args, "-threads:v", strconv.Itoa(opts.Threads))
	}
	args = append(args, ref)
	cmd := exec.CommandContext(ctx, ffmpegProgram(), args...)
	out := &strings.Builder{}
	cmd.Stderr = out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return b, fmt.Errorf("video: bench reference ffmpeg %s: %w: %s", strings.Join(args, " "), err, out.String())
	}
	b.Plain = time.Since(t0)
	b.PlainCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		b.PlainPeakRSS = ru.Maxrss << 10 // Linux reports KiB
	}

	c0 := selfCPU()
	ours, err := Transcode(ctx, opts, draw)
	if err != nil {
		return b, fmt.Errorf("video: bench render: %w", err)
	}
	b.Ours, b.OursCPU = ours, selfCPU()-c0
	b.Ratio = b.Ours.Wall.Seconds() / b.Plain.Seconds()
	b.CPURatio = b.OursCPU.Seconds() / b.PlainCPU.Seconds()
	return b, nil
}

// selfCPU is this process's user+system time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// PeakRSS returns this process's peak resident set size in bytes (VmHWM), or 0 if unknown.
func PeakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
