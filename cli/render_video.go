package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"trackink/kernels/device"
	"trackink/overlay"
	"trackink/video"
)

// videoFlags are render's video options.
type videoFlags struct {
	encoder, preset, hwaccel string
	crf, threads             int
	bitrate                  int64
	start, end               string
	frameOffset              int
	quiet                    bool
	statsJSON                string
}

func (v *videoFlags) register(fs interface {
	StringVar(*string, string, string, string)
	IntVar(*int, string, int, string)
	Int64Var(*int64, string, int64, string)
	BoolVar(*bool, string, bool, string)
}) {
	fs.StringVar(&v.encoder, "encoder", "auto", "video encoder: auto, libx264, libx265, h264_nvenc, hevc_nvenc (auto: NVENC when it opens, else libx264)")
	fs.IntVar(&v.crf, "crf", 0, "constant quality (x264/x265 crf, NVENC cq); 0 keeps the encoder's default")
	fs.StringVar(&v.preset, "preset", "", "encoder preset, x264 names (ultrafast … veryslow); mapped to NVENC p1 … p7")
	fs.Int64Var(&v.bitrate, "bitrate", 0, "average bitrate in bits/s instead of constant quality (0 = off)")
	fs.StringVar(&v.hwaccel, "hwaccel", "", "decoding: none, auto (CUDA when present, else software), cuda (default: none; auto with the cuda backend)")
	fs.StringVar(&v.start, "start", "", "first frame: a 1-based frame number (120) or a time (1.5s, 00:00:01.5)")
	fs.StringVar(&v.end, "end", "", "last frame (a frame number, inclusive) or a time (exclusive)")
	fs.IntVar(&v.frameOffset, "frame-offset", 0, "video frame N+1 shows tracks frame 1 (tracks frame n on video frame n+N)")
	fs.IntVar(&v.threads, "threads", 0, "encoder threads (0 = automatic)")
	fs.BoolVar(&v.quiet, "quiet", false, "no progress line and no informational messages (warnings still print)")
	fs.StringVar(&v.statsJSON, "stats-json", "", "write frames, wall time, fps and per-stage times to this JSON file")
}

// options turns the flags into video options.
func (v *videoFlags) options(in, out string, overwrite bool) (video.Options, error) {
	o := video.Options{Input: in, Output: out, Overwrite: overwrite, HWAccel: v.hwaccel, Encoder: v.encoder,
		CRF: v.crf, Preset: v.preset, Bitrate: v.bitrate, Threads: v.threads, FrameOffset: v.frameOffset}
	var err error
	if o.Start, err = video.ParsePosition(v.start); err != nil {
		return o, usageError{fmt.Errorf("--start: %w", err)}
	}
	if o.End, err = video.ParsePosition(v.end); err != nil {
		return o, usageError{fmt.Errorf("--end: %w", err)}
	}
	if v.crf < 0 || v.crf > 63 {
		return o, usageError{fmt.Errorf("--crf %d is outside 0..63", v.crf)}
	}
	if v.bitrate < 0 || v.threads < 0 {
		return o, usageError{errors.New("--bitrate and --threads must not be negative")}
	}
	return o, nil
}

// renderVideo is the video half of the render command: it draws tracks onto every frame of
// a video through video.Transcode, with a progress line, warnings about tracks the video
// does not show, and --stats-json.
func renderVideo(f *renderFlags, opts overlay.Options, stderr io.Writer) error {
	vo, err := f.video.options(f.input, f.output, f.overwrite)
	if err != nil {
		return err
	}
	src := &trackSource{}
	tracksName := "the seed scene"
	if f.sceneName == "" {
		info, err := video.Probe(f.input)
		if err != nil {
			return err
		}
		if src.tracks, err = f.tracks.load(info.Width, info.Height); err != nil {
			return err
		}
		tracksName = f.tracks.path
	}
	say := func(format string, a ...any) {
		if !f.video.quiet {
			fmt.Fprintf(stderr, format+"\n", a...)
		}
	}
	backend := backendName(f.style.backend)
	if f.style.backend == "auto" {
		say("backend auto: %s", backend)
	}
	framesOnGPU(backend, &vo)
	warn := func(format string, a ...any) { fmt.Fprintf(stderr, "trackink render: warning: "+format+"\n", a...) }
	vo.Log = func(line string) { say("%s", line) }
	progress := newProgressLine(stderr, !f.video.quiet && isTerminal(stderr))
	vo.Progress = progress.update

	td := &trackDrawer{opts: opts, src: src}
	defer td.close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stats, err := video.Transcode(ctx, vo, td.draw)
	progress.done()
	// Whether the video ended (or broke off at damage) rather than the render failing:
	// only then is "the tracks go on past the video" news.
	reachedEnd := err == nil || errors.Is(err, video.ErrInputDamaged)
	if reachedEnd && src.tracks != nil && stats.Frames > 0 && src.tracks.LastIndex() > td.lastN {
		warn("%s has frames up to %d, but the video ends at tracks frame %d: the frames after it are not drawn",
			tracksName, src.tracks.LastIndex(), td.lastN)
	}
	if off := &td.off; off.items > 0 {
		warn("%d tracked items in %d frames lie wholly outside the %dx%d picture (first: frame %d, track %d)",
			off.items, off.frames, stats.Width, stats.Height, off.firstFrame, off.firstID)
	}
	if f.video.quiet {
		for _, w := range stats.Warnings {
			warn("%s", w)
		}
	}
	if f.video.statsJSON != "" && stats.Frames > 0 {
		if werr := writeStats(f.video.statsJSON, stats, td.stages); werr != nil {
			warn("stats: %v", werr)
		}
	}
	switch {
	case err == nil:
		say("wrote %s: %d frames in %.1f s (%.1f fps), encoder %s", f.output, stats.Frames, stats.Wall.Seconds(), stats.FPS, stats.Encoder)
		return nil
	case errors.Is(err, video.ErrInputDamaged):
		return exitError{exitDamaged, fmt.Errorf("%w; wrote the %d frames that decoded to %s", err, stats.Frames, f.output)}
	case errors.Is(err, context.Canceled):
		return exitError{exitInterrupted, errors.New("interrupted; no output written")}
	}
	return err
}

// framesOnGPU sets o up for the backend backendName resolved: the cuda backend draws on
// frames in GPU memory, so with it the frames are decoded on the GPU too unless --hwaccel
// says otherwise.
func framesOnGPU(backend string, o *video.Options) {
	if backend == "cuda" && device.CUDABuilt {
		o.DeviceFrames = true
		if o.HWAccel == "" {
			o.HWAccel = "auto"
		}
	}
}

// isPicture reports whether a path names a still picture rather than a video.
func isPicture(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".jpg", ".jpeg":
		return true
	}
	return false
}
