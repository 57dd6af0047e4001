package video

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"trackink/internal/cputime"
)

// Bench compares one render with ffmpeg CLI transcodes with the same encoder settings: of
// the same input (the transcode the render is built on: Plain), of the render's own output
// (Own), and the render's twin (Twin): ffmpeg decoding the same input and coding the
// render's own frames, read from a lossless copy, so that it decodes what the render
// decodes and writes the render's packets. The ratio to Twin is what the render adds to
// decoding and encoding: the overlay's drawing and the pipeline. A render of the same input
// with nothing to draw (Bare) measures the pipeline's own cost against Plain: it encodes the
// same pictures, so it should cost what ffmpeg costs and write the same packets.
type Bench struct {
	Ours         Stats
	OursCPU      time.Duration // user+system time of the render (all threads)
	Plain        time.Duration // ffmpeg CLI wall time: same encoder settings, streams copied, no overlay
	PlainCPU     time.Duration // user+system time of the ffmpeg process
	PlainPeakRSS int64         // bytes, of the ffmpeg process
	Ratio        float64       // Ours.Wall / Plain
	CPURatio     float64       // OursCPU / PlainCPU: steadier than Ratio on a shared machine
	Own          time.Duration // ffmpeg CLI wall time transcoding the render's output
	OwnCPU       time.Duration
	OwnPeakRSS   int64
	OwnRatio     float64 // Ours.Wall / Own
	OwnCPURatio  float64 // OursCPU / OwnCPU
	Bare         Stats   // the render with nothing drawn (a nil DrawFunc); its PeakRSS is its own
	BareCPU      time.Duration
	BareRatio    float64 // Bare.Wall / Plain
	BareCPURatio float64 // BareCPU / PlainCPU
	// BareSame says whether the render with nothing drawn wrote the packets ffmpeg wrote,
	// every stream's, byte for byte (samePackets).
	BareSame bool
	// Again is the ffmpeg CLI transcoding Plain's output once more: the Own peer's recipe
	// with nothing drawn. Coding frames that were coded once already costs x264 less than
	// coding the originals (what the first coding smoothed away is not coded again), and
	// their decoder is H.264's, whatever the input's: AgainCPURatio, AgainCPU / PlainCPU, is
	// how far that moves the Own peer's cost from what the render's encoder and decoder do.
	Again         time.Duration
	AgainCPU      time.Duration
	AgainPeakRSS  int64
	AgainCPURatio float64
	// Twin is the ffmpeg CLI decoding the render's input (into a null output) and coding the
	// render's frames afresh from a lossless copy (raw frames in Matroska), with
	// the render's encoder settings. Unlike Own it codes the pictures the render coded, not
	// a coded copy of them, which x264 codes more cheaply; TwinSame says whether its video
	// packets are the render's, byte for byte. The run that makes the copy is not timed.
	Twin         time.Duration
	TwinCPU      time.Duration
	TwinPeakRSS  int64
	TwinRatio    float64 // Ours.Wall / Twin
	TwinCPURatio float64 // OursCPU / TwinCPU
	TwinSame     bool
}

// BenchE2E transcodes opts.Input with the ffmpeg CLI using the same encoder, preset, CRF,
// bitrate and threads (other streams copied), renders it with nothing drawn and compares the
// two outputs' packets, renders it with draw, then transcodes the render's output and the
// first transcode's output the same way, and reports all five. With twin, a second drawer
// that draws what draw draws (started afresh: a drawer keeps state from frame to frame), it
// also renders a lossless copy and times the Twin peer on it. The peers' peak RSS is read
// from their own /proc entries while they run: Linux charges a child's rusage peak with its
// parent's memory at exec, so measured after the render, ffmpeg's figure would include
// ours. The render with nothing drawn runs before the one with the overlay, so that its
// peak RSS is its own.
// opts.Output is the render's output; the others go to temporary files next to it, removed
// afterwards. Only libx264 and libx265 have a CLI equivalent; "auto" is taken as libx264.
func BenchE2E(ctx context.Context, opts Options, draw, twin DrawFunc) (Bench, error) {
	var b Bench
	enc := opts.Encoder
	if enc == "" || enc == "auto" {
		enc = "libx264"
	}
	if enc != "libx264" && enc != "libx265" {
		return b, fmt.Errorf("video: bench: encoder %s has no CLI reference here; use libx264 or libx265", enc)
	}
	opts.Encoder = enc
	ref, bare := benchFile(opts, "ref"), benchFile(opts, "bare")
	defer os.Remove(ref)
	defer os.Remove(bare)
	var err error
	if b.Plain, b.PlainCPU, b.PlainPeakRSS, err = transcodePeer(ctx, opts, plainPeer(opts.Input), ref); err != nil {
		return b, err
	}
	bareOpts := opts
	bareOpts.Output = bare
	c0 := cputime.Self()
	if b.Bare, err = Transcode(ctx, bareOpts, nil); err != nil {
		return b, fmt.Errorf("video: bench render with nothing drawn: %w", err)
	}
	b.BareCPU = cputime.Self() - c0
	if b.BareSame, err = samePackets(ctx, ref, bare, "0"); err != nil {
		return b, err
	}
	c0 = cputime.Self()
	ours, err := Transcode(ctx, opts, draw)
	if err != nil {
		return b, fmt.Errorf("video: bench render: %w", err)
	}
	b.Ours, b.OursCPU = ours, cputime.Self()-c0
	own := benchFile(opts, "own")
	defer os.Remove(own)
	if b.Own, b.OwnCPU, b.OwnPeakRSS, err = transcodePeer(ctx, opts, plainPeer(opts.Output), own); err != nil {
		return b, err
	}
	again := benchFile(opts, "again")
	defer os.Remove(again)
	if b.Again, b.AgainCPU, b.AgainPeakRSS, err = transcodePeer(ctx, opts, plainPeer(ref), again); err != nil {
		return b, err
	}
	if twin != nil {
		if err := b.benchTwin(ctx, opts, twin); err != nil {
			return b, err
		}
	}
	b.Ratio = b.Ours.Wall.Seconds() / b.Plain.Seconds()
	b.CPURatio = b.OursCPU.Seconds() / b.PlainCPU.Seconds()
	b.OwnRatio = b.Ours.Wall.Seconds() / b.Own.Seconds()
	b.OwnCPURatio = b.OursCPU.Seconds() / b.OwnCPU.Seconds()
	b.BareRatio = b.Bare.Wall.Seconds() / b.Plain.Seconds()
	b.BareCPURatio = b.BareCPU.Seconds() / b.PlainCPU.Seconds()
	b.AgainCPURatio = b.AgainCPU.Seconds() / b.PlainCPU.Seconds()
	return b, nil
}

// benchTwin renders opts.Input with draw losslessly, converts the render's video into raw
// frames, times the Twin peer on them and compares its video packets with opts.Output's.
func (b *Bench) benchTwin(ctx context.Context, opts Options, draw DrawFunc) error {
	lossless, frames, twinOut := benchFile(opts, "lossless"), benchFile(opts, "frames"), benchFile(opts, "twin")
	lossless, frames = strings.TrimSuffix(lossless, filepath.Ext(lossless))+".mkv", strings.TrimSuffix(frames, filepath.Ext(frames))+".mkv"
	for _, f := range []string{lossless, frames, twinOut} {
		defer os.Remove(f)
	}
	llOpts := opts
	llOpts.Output, llOpts.Encoder, llOpts.Preset, llOpts.CRF, llOpts.Bitrate, llOpts.Lossless = lossless, "", "ultrafast", 0, 0, true
	if _, err := Transcode(ctx, llOpts, draw); err != nil {
		return fmt.Errorf("video: bench: the lossless copy of the render: %w", err)
	}
	// Raw frames in Matroska, which the portable build's ffmpeg reads and writes too;
	// -fps_mode passthrough: every frame once (Matroska's millisecond timestamps could make
	// the default duplicate one).
	if out, err := exec.CommandContext(ctx, ffmpegProgram(), "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
		"-i", lossless, "-map", "0:v:0", "-fps_mode", "passthrough", "-c:v", "rawvideo", "-f", "matroska", frames).CombinedOutput(); err != nil {
		return fmt.Errorf("video: bench: the render's frames, uncompressed: %w: %s", err, out)
	}
	// The video is coded from the render's frames, the other streams copied from the input;
	// a second output decodes the input's video, as the render decodes it, into nothing (a
	// filter graph ending in a null sink is not run when no output reads that input).
	in := []string{"-i", opts.Input, "-i", frames, "-map", "1:v:0", "-map", "0", "-map", "-0:v:0"}
	var err error
	if b.Twin, b.TwinCPU, b.TwinPeakRSS, err = transcodePeer(ctx, opts, in, twinOut,
		"-map", "0:v:0", "-c:v", "wrapped_avframe", "-f", "null", "-"); err != nil {
		return err
	}
	if b.TwinSame, err = samePackets(ctx, opts.Output, twinOut, "0:v:0"); err != nil {
		return err
	}
	b.TwinRatio = b.Ours.Wall.Seconds() / b.Twin.Seconds()
	b.TwinCPURatio = b.OursCPU.Seconds() / b.TwinCPU.Seconds()
	return nil
}

// benchFile is a temporary file beside opts.Output named for what it holds.
func benchFile(opts Options, what string) string {
	return filepath.Join(filepath.Dir(opts.Output), ".bench-"+what+"-"+strconv.Itoa(os.Getpid())+filepath.Ext(opts.Output))
}

// samePackets reports whether files a and b hold the same packets in the streams that
// ffmpeg's -map sel picks ("0": every stream): the same bytes at the same times (ffmpeg's
// framemd5 of a stream copy, each packet's timestamps and duration in seconds). The
// streams' time bases may differ: our encoder's is the input stream's, the ffmpeg CLI's
// 1/frame rate (x264 writes it into the SPS's timing fields), and a stream of variable
// rate is muxed in other units by each.
func samePackets(ctx context.Context, a, b, sel string) (bool, error) {
	sums := make([][]string, 2)
	for i, path := range []string{a, b} {
		cmd := exec.CommandContext(ctx, ffmpegProgram(), "-hide_banner", "-nostdin", "-loglevel", "error",
			"-i", path, "-map", sel, "-c", "copy", "-f", "framemd5", "-")
		out, err := cmd.Output()
		if err != nil {
			return false, fmt.Errorf("video: bench: reading the packets of %s: %w", path, err)
		}
		if sums[i], err = packetsInSeconds(string(out)); err != nil {
			return false, fmt.Errorf("video: bench: the packets of %s: %w", path, err)
		}
	}
	return len(sums[0]) > 0 && slices.Equal(sums[0], sums[1]), nil
}

// packetsInSeconds rewrites framemd5's packet lines (stream, dts, pts, duration, size,
// hash) with the times in seconds, exact fractions of each stream's time base (its "#tb
// N: num/den" header line).
func packetsInSeconds(framemd5 string) ([]string, error) {
	tb := map[string]*big.Rat{}
	var out []string
	for l := range strings.Lines(framemd5) {
		if rest, ok := strings.CutPrefix(l, "#tb "); ok {
			stream, base, _ := strings.Cut(strings.TrimSpace(rest), ": ")
			r, ok := new(big.Rat).SetString(base)
			if !ok {
				return nil, fmt.Errorf("time base %q", base)
			}
			tb[stream] = r
			continue
		}
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		f := strings.Split(strings.TrimSpace(l), ",")
		for k := range f {
			f[k] = strings.TrimSpace(f[k]) // framemd5 pads its columns
		}
		if len(f) < 6 || tb[f[0]] == nil {
			return nil, fmt.Errorf("packet line %q", strings.TrimSpace(l))
		}
		for k := 1; k <= 3; k++ {
			v, ok := new(big.Rat).SetString(f[k])
			if !ok {
				return nil, fmt.Errorf("packet line %q: field %d", strings.TrimSpace(l), k+1)
			}
			f[k] = v.Mul(v, tb[f[0]]).RatString()
		}
		out = append(out, strings.Join(f, ","))
	}
	return out, nil
}

// transcodePeer runs the ffmpeg CLI on its inputs and maps, in (for a plain transcode:
// plainPeer), coding the first video stream with opts' encoder settings and copying the other
// streams into out, then any further outputs, more; it returns the run's wall time, CPU time
// and peak RSS.
func transcodePeer(ctx context.Context, opts Options, in []string, out string, more ...string) (wall, cpu time.Duration, peakRSS int64, err error) {
	args := append([]string{"-hide_banner", "-nostdin", "-loglevel", "error", "-y"}, in...)
	// -fps_mode passthrough: each decoded frame once, as the render writes them; into .mp4
	// the default duplicates frames of a variable rate (tree.avi: 449 frames for 68).
	args = append(args, "-c", "copy", "-c:v:0", opts.Encoder, "-fps_mode:v:0", "passthrough")
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
	args = append(append(args, out), more...)
	cmd := exec.CommandContext(ctx, ffmpegProgram(), args...)
	msg := &strings.Builder{}
	cmd.Stderr = msg
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, 0, fmt.Errorf("video: bench ffmpeg %s: %w", strings.Join(args, " "), err)
	}
	// VmHWM, the peak of the process's own memory since exec, only rises: the last reading
	// before the process exits is its peak, give or take the last 10 ms.
	done := make(chan struct{})
	peak := make(chan int64)
	go func() {
		hwm := int64(0)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			if v := vmHWM("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"); v > hwm {
				hwm = v
			}
			select {
			case <-done:
				peak <- hwm
				return
			case <-tick.C:
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	peakRSS = <-peak
	if err != nil {
		return 0, 0, 0, fmt.Errorf("video: bench ffmpeg %s: %w: %s", strings.Join(args, " "), err, msg.String())
	}
	return time.Since(t0), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), peakRSS, nil
}

// plainPeer is transcodePeer's inputs and maps for transcoding the file in: every stream.
func plainPeer(in string) []string { return []string{"-i", in, "-map", "0"} }

// PeakRSS returns this process's peak resident set size in bytes (VmHWM), or 0 if unknown.
func PeakRSS() int64 { return vmHWM("/proc/self/status") }

// vmHWM reads the VmHWM line of a /proc status file, in bytes; 0 if it cannot.
func vmHWM(status string) int64 {
	kb, _ := procKB(status, "VmHWM:")
	return kb
}
