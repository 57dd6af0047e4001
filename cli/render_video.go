package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"trackink/kernels/device"
	"trackink/overlay"
	"trackink/scene"
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

// renderVideo is the video half of the render command: it draws tracks onto every frame of
// a video through video.Transcode into target (the output, or the file it links to), with a
// progress line, warnings about tracks the video does not show, and --stats-json.
func renderVideo(ctx context.Context, f *renderFlags, fs *pflag.FlagSet, opts overlay.Options, target string, stderr io.Writer) error {
	vo, err := f.video.options(fs, f.input, target, f.overwrite)
	if err != nil {
		return err
	}
	if err := checkDevices(fs, vo); err != nil {
		return err
	}
	// The drawer is made here for --stats-json's overlay stages and set up below.
	td := &trackDrawer{}
	defer td.close()
	partners := f.detect.partners()
	if f.video.statsTarget != "" {
		partners = append(partners, partnerFile{flag: "--stats-json", path: f.video.statsJSON, target: f.video.statsTarget,
			write: func(w io.Writer, s video.Stats) error { return writeStats(w, s, td.stages) }})
	}
	if err := createPartners(partners, stderr); err != nil {
		return err
	}
	defer discardPartners(partners)
	vo.Partners = partnersHook(partners)
	// Opened once: the render reads on from where the probe stopped (video.Source).
	opened, err := video.Open(f.input, vo.VideoStream)
	if err != nil {
		return flagError(fs, err)
	}
	defer opened.Close()
	info := opened.Info()
	if err := info.CheckStart(vo.Start); err != nil {
		return usageError{err}
	}
	if err := info.CheckOddSize(vo.OddSize); err != nil {
		return flagError(fs, err)
	}
	if err := video.CheckMemory(info.Width, info.Height); err != nil {
		return err
	}
	if f.video.segCount == 0 {
		vo.Source = opened
	} else {
		opened.Close() // a segment opens the input at its keyframe
		// A pass over the input's packets: where the render's frames lie and which of
		// them this segment draws. Too many segments is a mistake found before any work.
		plan, err := video.PlanSegment(vo, f.video.segIndex, f.video.segCount)
		switch {
		case errors.Is(err, video.ErrSegmentCount), errors.Is(err, video.ErrNothingToRender):
			return usageError{err}
		case err != nil:
			return err
		}
		vo.Segment = plan
	}
	say := func(format string, a ...any) {
		if !f.video.quiet {
			fmt.Fprintf(stderr, format+"\n", a...)
		}
	}
	if info.VideoStreams > 1 {
		say("%s has %d video streams: drawing on video stream %d (#0:%d, %dx%d %s), copying the others (--video-stream N picks another)",
			f.input, info.VideoStreams, info.VideoStream, info.StreamIndex, info.Width, info.Height, info.Codec)
	}
	// The tracks' coordinates are in the frame the overlay draws on: as displayed, unless
	// --orientation stored.
	w, h := info.DisplayWidth, info.DisplayHeight
	if vo.Orientation == video.Stored {
		w, h = info.Width, info.Height
	}
	src := &trackSource{}
	tracksName := "the seed scene"
	if f.sceneName == "" && f.detect.preset == "" {
		if src.tracks, err = untilInterrupted(ctx, func() (*scene.Tracks, error) { return f.tracks.load(w, h) }); err != nil {
			return err
		}
		f.style.forTracks(fs, &opts, src.tracks, f.tracks.warn)
		tracksName = f.tracks.path
	}
	if err := layerNeedsNoPicture(vo, opts.Style); err != nil {
		return err
	}
	backend := backendName(f.style.backend)
	if f.style.backend == "auto" {
		say("backend auto: %s", backend)
	}
	framesOnGPU(backend, &vo)
	warn := func(format string, a ...any) { fmt.Fprintf(stderr, "trackink render: warning: "+format+"\n", a...) }
	vo.Log = func(line string) { say("%s", line) }
	if f.video.verbose {
		vo.FFmpegLog = func(line string) { fmt.Fprintln(stderr, line) }
	}
	progress := newProgressLine(stderr, !f.video.quiet && isTerminal(stderr))
	vo.Progress = progress.update
	td.opts, td.src = opts, src

	draw, err := f.detect.start(ctx, &vo, f.input, info.Frames, src, td, say)
	if err != nil {
		return err
	}
	if plan := vo.Segment; plan != nil {
		// The segment draws what the whole render draws: the drawer replays the tracks
		// from the render's first frame, and the plan says what is drawn, so that the
		// join refuses segments drawn otherwise.
		td.replayFrom = max(1, plan.First-vo.FrameOffset)
		plan.Drawing = drawingOf(f.style, opts, src, td.replayFrom, plan.Last-vo.FrameOffset)
		say("segment %d of %d: frames %d to %d of the render's %d to %d", plan.Index, plan.Count, plan.SegFirst, plan.SegLast, plan.First, plan.Last)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("segments directory: %w", err)
		}
	}
	removeStalePartials(target, stderr)
	stats, err := video.Transcode(ctx, vo, draw)
	progress.done()
	// Whether the video ended (or broke off at damage) rather than the render failing:
	// only then is "the tracks go on past the video" news.
	reachedEnd := err == nil || errors.Is(err, video.ErrInputDamaged)
	// A segment or an --end stops before the video ends: the frames after are not the news.
	if reachedEnd && src.tracks != nil && stats.Frames > 0 && src.tracks.LastIndex() > td.lastN && vo.Segment == nil && vo.End.IsZero() {
		warn("%s has frames up to %d, but the video ends at tracks frame %d: the frames after it are not drawn",
			tracksName, src.tracks.LastIndex(), td.lastN)
	}
	if live := f.detect.live; reachedEnd && live != nil && live.tracked == 0 && stats.Frames > 0 {
		warn("nothing was tracked in %d frames; %s", stats.Frames, nothingHint(live.o.Mode))
	}
	if td.d != nil {
		if m := missingGlyphs(td.d.Font()); m != "" {
			warn("%s", m)
		}
	}
	if m := linkCapWarning(td.d, opts.Links); m != "" {
		warn("%s", m)
	}
	if off := &td.off; off.items > 0 {
		warn("%d tracked items in %d frames lie wholly outside the %dx%d picture (first: frame %d, track %d)",
			off.items, off.frames, w, h, off.firstFrame, off.firstID)
	}
	if f.video.quiet {
		for _, w := range stats.Warnings {
			warn("%s", w)
		}
	}
	if f.detect.saveTarget != "" && reachedEnd {
		f.detect.sayLost(stderr)
	}
	switch {
	case err == nil && vo.Segment != nil:
		say("wrote %s: frames %d to %d (%d) in %.1f s (%.1f fps; %d tracks frames replayed first), encoder %s",
			target, vo.Segment.SegFirst, vo.Segment.SegLast, stats.Frames, stats.Wall.Seconds(), stats.FPS, td.replayed, stats.Encoder)
		return nil
	case err == nil:
		say("wrote %s: %d frames in %.1f s (%.1f fps), encoder %s", f.output, stats.Frames, stats.Wall.Seconds(), stats.FPS, stats.Encoder)
		return nil
	case errors.Is(err, video.ErrInputDamaged):
		return exitError{exitDamaged, fmt.Errorf("%w; wrote the %d frames that decoded to %s", err, stats.Frames, f.output)}
	case errors.Is(err, context.Canceled):
		return interrupted(ctx)
	case errors.Is(err, video.ErrNothingToRender):
		return usageError{err}
	}
	return outputError(f.output, f.input, err)
}

// layerNeedsNoPicture refuses, for --layer-only, what changes the picture rather than
// drawing over it: box effects and the add and screen blends (an editor blends the layer
// itself).
func layerNeedsNoPicture(vo video.Options, st overlay.Style) error {
	switch {
	case !vo.Layer:
		return nil
	case slices.ContainsFunc(st.BoxEffects, func(e overlay.Effect) bool { return e != overlay.EffectNone }):
		return usageError{fmt.Errorf("--layer-only: --box-effect %s (given, or the look's) changes the picture under the boxes, which a layer does not hold: render it burnt in, or give --box-effect none", effectsValue{&st.BoxEffects})}
	case st.Blend != "" && st.Blend != "over":
		return usageError{fmt.Errorf("--layer-only: --blend %s mixes the overlay with the picture, which a layer does not hold: render the layer with --blend over and set its blend mode to %s in the editor", st.Blend, editorBlend[st.Blend])}
	}
	return nil
}

// editorBlend names the editors' blend mode that does what each of trackink's does, for a
// layer drawn with over and straight alpha.
var editorBlend = map[string]string{"add": "Add (Linear Dodge)", "screen": "Screen"}

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

// isPicture reports whether a path names a still picture rather than a video (a numbered
// sequence of pictures, frames_%04d.png, is a video).
func isPicture(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".jpg", ".jpeg":
		return !video.IsSequence(path)
	}
	return false
}
