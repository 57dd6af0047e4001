package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"trackink/job"
	"trackink/kernels/device"
	"trackink/overlay"
	"trackink/video"
)

// videoFlags are render's video options.
type videoFlags struct {
	encoder, preset, hwaccel string
	profile                  string
	crf, threads             int
	bitrate                  int64
	start, end               string
	frameOffset              int
	videoStream              int
	orientation, oddSize     string
	quiet, verbose           bool
	statsJSON                string
	statsTarget              string // the file --stats-json writes (checkFiles)
	lossless                 bool
	layer                    bool // --layer-only
	// segment is --segment as given; segIndex and segCount what it says, once parsed
	// (segmentTarget): segCount 0 for a whole render.
	segment            string
	segIndex, segCount int
}

func (v *videoFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&v.encoder, "encoder", "auto", "video encoder: auto, libx264, libx265, h264_nvenc, hevc_nvenc, and for editors prores_ks (ProRes) and dnxhd (DNxHR) (auto: NVENC when it opens, else libx264)")
	fs.StringVar(&v.profile, "profile", "", "with --encoder prores_ks: proxy, lt, standard, hq, 4444, 4444xq; with dnxhd: dnxhr_lb, dnxhr_sq, dnxhr_hq, dnxhr_hqx, dnxhr_444 (default hq, dnxhr_hq)")
	fs.IntVar(&v.crf, "crf", 0, "constant quality 0..51, lower is better (x264/x265 crf, NVENC cq); 0 is lossless, as in x264 (--lossless)")
	fs.Lookup("crf").DefValue = "the encoder's own: 23 for libx264, 28 for libx265"
	fs.StringVar(&v.preset, "preset", "", "encoder preset, x264 names (ultrafast … veryslow; placebo for x264/x265); NVENC maps them to p1 … p7 and takes p1 … p7 too")
	fs.Int64Var(&v.bitrate, "bitrate", 0, "average bitrate in bits/s instead of constant quality (0 = off)")
	fs.StringVar(&v.hwaccel, "hwaccel", "", "decoding: none, auto (CUDA when present, else software), cuda (default: none; auto with the cuda backend)")
	fs.StringVar(&v.start, "start", "", "first frame: a 1-based frame number (120) or a time (1.5s, 00:00:01.5)")
	fs.StringVar(&v.end, "end", "", "last frame (a frame number, inclusive) or a time (exclusive)")
	fs.IntVar(&v.frameOffset, "frame-offset", 0, "video frame N+1 shows tracks frame 1 (tracks frame n on video frame n+N)")
	fs.IntVar(&v.videoStream, "video-stream", 0, "with several video streams, draw on the N-th (from 1; the others are copied)")
	fs.Lookup("video-stream").DefValue = "the one FFmpeg ranks best"
	fs.StringVar(&v.orientation, "orientation", "display", "a rotated video's track coordinates: display (as players show it and trackers read it) or stored (the frame as coded)")
	fs.StringVar(&v.oddSize, "odd-size", "pad", "an odd width or height, which 4:2:0 H.264/HEVC cannot code: pad (repeat the last column/row), crop (drop it), 444 (keep the size in 4:4:4, which browsers and phones do not play)")
	fs.BoolVar(&v.lossless, "lossless", false, "code every frame exactly as drawn (x264 qp 0, x265 lossless): large files, for checking and editing")
	fs.BoolVar(&v.layer, "layer-only", false, "write the overlay alone with straight alpha, frame for frame with the video, for an editor: -o .mov (ProRes 4444), .webm (VP9), name_%05d.png (PNG sequence); --encoder qtrle or prores_aw (faster ProRes) into .mov")
	fs.IntVar(&v.threads, "threads", 0, "encoder threads (0 = automatic)")
	fs.StringVar(&v.segment, "segment", "", "render segment i of N (i from 0) of the render into the directory -o names, for trackink join; auto/N takes i from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX")
	fs.BoolVar(&v.quiet, "quiet", false, "no progress line and no informational messages (warnings still print)")
	fs.BoolVar(&v.verbose, "verbose", false, "print FFmpeg's own log lines as they come (without it they explain errors only)")
	fs.StringVar(&v.statsJSON, "stats-json", "", "write frames, wall time, fps and per-stage times to this JSON file")
}

// options turns the flags into video options and validates them; mistakes are usage errors
// naming the flag of fs.
func (v *videoFlags) options(fs *pflag.FlagSet, in, out string, overwrite bool) (video.Options, error) {
	o := video.Options{Input: in, Output: out, Overwrite: overwrite, HWAccel: v.hwaccel, Encoder: v.encoder,
		CRF: v.crf, Preset: v.preset, Profile: v.profile, Bitrate: v.bitrate, Threads: v.threads, FrameOffset: v.frameOffset,
		VideoStream: v.videoStream, Lossless: v.lossless, Layer: v.layer}
	if err := v.crfZero(fs, &o); err != nil {
		return o, err
	}
	var err error
	if o.Start, err = video.ParsePosition(v.start); err != nil {
		return o, usageError{fmt.Errorf("--start: %w", err)}
	}
	if o.End, err = video.ParsePosition(v.end); err != nil {
		return o, usageError{fmt.Errorf("--end: %w", err)}
	}
	if o.Orientation, err = video.ParseOrientation(v.orientation); err != nil {
		return o, usageError{fmt.Errorf("--orientation %w", err)}
	}
	if o.OddSize, err = video.ParseOddSize(v.oddSize); err != nil {
		return o, usageError{fmt.Errorf("--odd-size %w", err)}
	}
	return o, flagError(fs, o.Validate())
}

// checkDevices refuses, before any work, a GPU the options name that this machine does not
// have: --hwaccel cuda without a CUDA device, an NVENC encoder the GPU or driver lacks.
func checkDevices(fs *pflag.FlagSet, o video.Options) error {
	if o.HWAccel == "cuda" {
		if r := device.Probe(); len(r.Devices) == 0 {
			return usageError{fmt.Errorf("--hwaccel cuda: no CUDA device here (%s)", r.Problem)}
		}
	}
	if o.Encoder == "h264_nvenc" || o.Encoder == "hevc_nvenc" {
		return flagError(fs, video.CheckEncoder(o.Encoder))
	}
	return nil
}

// renderVideo is the video half of the render command: it renders the tracks onto every
// frame of a video (job.Render) into target (the output, or the file it links to), with a
// progress line, the files that land with it (--save-tracks, --stats-json) and the
// messages of the run.
func renderVideo(ctx context.Context, f *renderFlags, fs *pflag.FlagSet, opts overlay.Options, target string, stderr io.Writer) error {
	vo, err := f.video.options(fs, f.input, target, f.overwrite)
	if err != nil {
		return err
	}
	if err := checkDevices(fs, vo); err != nil {
		return err
	}
	var partners partners
	f.detect.addPartners(&partners)
	if f.video.statsTarget != "" {
		partners.add("--stats-json", f.video.statsJSON, f.video.statsTarget,
			func(w io.Writer, r job.Report) error { return writeStats(w, r.Stats, r.Stages) })
	}
	if err := partners.create(stderr); err != nil {
		return err
	}
	defer partners.discard()
	jo := f.job(ctx, opts, stderr)
	jo.Partners = partners.hook()
	jo.Segment = job.Segment{Index: f.video.segIndex, Count: f.video.segCount}
	vo.Log = jo.Say
	if f.video.verbose {
		vo.FFmpegLog = func(line string) { fmt.Fprintln(stderr, line) }
	}
	progress := newProgressLine(stderr, !f.video.quiet && isTerminal(stderr))
	vo.Progress = progress.update
	jo.Video = vo
	jo.Sweep = func(target string) { removeStalePartials(target, stderr) }
	rep, err := job.Render(ctx, jo)
	progress.done()
	if f.video.quiet {
		for _, w := range rep.Warnings {
			jo.Warn(w)
		}
	}
	// Whether the video ended (or broke off at damage) rather than the render failing.
	reachedEnd := err == nil || errors.Is(err, video.ErrInputDamaged)
	if f.detect.saveTarget != "" && reachedEnd {
		f.detect.sayLost(stderr)
	}
	switch {
	case err == nil && rep.Plan != nil:
		jo.Say(fmt.Sprintf("wrote %s: frames %d to %d (%d) in %.1f s (%.1f fps; %d tracks frames replayed first), encoder %s",
			target, rep.Plan.SegFirst, rep.Plan.SegLast, rep.Frames, rep.Wall.Seconds(), rep.FPS, rep.Replayed, rep.Encoder))
		return nil
	case err == nil:
		jo.Say(fmt.Sprintf("wrote %s: %d frames in %.1f s (%.1f fps), encoder %s", f.output, rep.Frames, rep.Wall.Seconds(), rep.FPS, rep.Encoder))
		return nil
	case errors.Is(err, video.ErrInputDamaged):
		return exitError{exitDamaged, fmt.Errorf("%w; wrote the %d frames that decoded to %s", err, rep.Frames, f.output)}
	case errors.Is(err, context.Canceled):
		return interrupted(ctx)
	}
	return outputError(f.output, f.input, flagError(fs, err))
}

// isPicture reports whether a path names a still picture rather than a video (a numbered
// sequence of pictures, frames_%04d.png, is a video).
func isPicture(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".jpg", ".jpeg":
		return !video.IsSequence(path)
	}
	return false
}
