package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"trackink/composite"
	"trackink/kernels"
	"trackink/render"
	"trackink/scene"
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

// exitDamaged is the status of a render whose input was damaged: the output holds the frames
// that decoded. exitInterrupted follows the shell's 128 + SIGINT.
const (
	exitDamaged     = 3
	exitInterrupted = 130
)

// trackSource gives the tracking frame for a video frame: from a file, or the seed scene
// generated at the video's size.
type trackSource struct {
	tracks *scene.Tracks
	seed   *scene.SeedScene
	buf    scene.Frame
}

func (s *trackSource) frame(n, w, h int) *scene.Frame {
	if s.tracks != nil {
		return s.tracks.At(n)
	}
	if s.seed == nil {
		s.seed = scene.NewSeed(w, h)
	}
	s.seed.Frame(n, &s.buf)
	return &s.buf
}

// offFrame counts tracked items that lie wholly outside the video frame, to warn once.
type offFrame struct {
	items, frames       int
	firstFrame, firstID int
	lastCounted         int
}

func (o *offFrame) check(sf *scene.Frame, w, h int) {
	fw, fh := float32(w), float32(h)
	for _, b := range sf.Boxes {
		if b.X+b.W < 0 || b.Y+b.H < 0 || b.X > fw || b.Y > fh {
			o.note(sf.Index, b.ID)
		}
	}
	for _, p := range sf.Points {
		if p.X < 0 || p.Y < 0 || p.X > fw || p.Y > fh {
			o.note(sf.Index, p.ID)
		}
	}
}

func (o *offFrame) note(frame, id int) {
	if o.items == 0 {
		o.firstFrame, o.firstID = frame, id
	}
	o.items++
	if o.lastCounted != frame {
		o.frames++
		o.lastCounted = frame
	}
}

// renderVideo renders tracks onto every frame of a video.
func renderVideo(f *renderFlags, stderr io.Writer) error {
	vo, err := f.video.options(f.input, f.output, f.overwrite)
	if err != nil {
		return err
	}
	// Style and link flags are checked now, not at the first frame: a usage error should
	// not cost a started render.
	if _, err := f.style.overlay(1080, false); err != nil {
		return err
	}
	src := &trackSource{}
	tracksName := "the seed scene"
	if f.sceneName == "" {
		ro, err := f.style.readerOptions()
		if err != nil {
			return err
		}
		if src.tracks, err = scene.Load(f.tracks, ro); err != nil {
			return err
		}
		tracksName = f.tracks
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

	vov := &videoOverlay{style: &f.style, src: src, timed: f.video.statsJSON != ""}
	defer vov.close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stats, err := video.Transcode(ctx, vo, vov.draw)
	progress.done()
	// Whether the video ended (or broke off at damage) rather than the render failing:
	// only then is "the tracks go on past the video" news.
	reachedEnd := err == nil || errors.Is(err, video.ErrInputDamaged)
	if reachedEnd && src.tracks != nil && stats.Frames > 0 && src.tracks.LastIndex() > vov.lastN {
		warn("%s has frames up to %d, but the video ends at tracks frame %d: the frames after it are not drawn",
			tracksName, src.tracks.LastIndex(), vov.lastN)
	}
	if off := &vov.off; off.items > 0 {
		warn("%d tracked items in %d frames lie wholly outside the %dx%d picture (first: frame %d, track %d)",
			off.items, off.frames, stats.Width, stats.Height, off.firstFrame, off.firstID)
	}
	if f.video.quiet {
		for _, w := range stats.Warnings {
			warn("%s", w)
		}
	}
	if f.video.statsJSON != "" && stats.Frames > 0 {
		if werr := writeStats(f.video.statsJSON, stats, vov.stages, vov.linkTime); werr != nil {
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
	if backend == "cuda" && kernels.CUDABuilt {
		o.DeviceFrames = true
		if o.HWAccel == "" {
			o.HWAccel = "auto"
		}
	}
}

// videoOverlay draws tracks onto decoded frames: the render.Overlay is made at the first
// frame, when the video's size is known.
type videoOverlay struct {
	style    *styleFlags
	src      *trackSource
	timed    bool
	ov       *render.Overlay
	stages   render.Timings // summed over frames, when timed
	linkTime time.Duration
	lastN    int // the last tracks frame the video reached
	off      offFrame
}

func (v *videoOverlay) draw(n int, fr composite.Frame) error {
	w, h := fr.Size()
	if v.ov == nil {
		opts, err := v.style.overlay(h, v.timed)
		if err != nil {
			return err
		}
		if v.ov, err = render.NewOverlay(opts); err != nil {
			return err
		}
	}
	v.lastN = max(v.lastN, n)
	sf := v.src.frame(n, w, h)
	if sf != nil {
		v.off.check(sf, w, h)
	}
	if err := v.ov.Draw(fr, sf); err != nil {
		return fmt.Errorf("frame %d: %w", n, err)
	}
	tm := v.ov.Backend().Timings()
	for s := range v.stages {
		v.stages[s] += tm[s]
	}
	v.linkTime += v.ov.LinkTime()
	return nil
}

func (v *videoOverlay) close() {
	if v.ov != nil {
		v.ov.Close()
		v.ov = nil
	}
}

// writeStats writes the video statistics plus the overlay's per-stage totals.
func writeStats(path string, s video.Stats, stages render.Timings, links time.Duration) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	overlay := map[string]float64{"links": links.Seconds()}
	for st := render.StageBin; st < render.NumStages; st++ {
		overlay[st.String()] = stages[st].Seconds()
	}
	m["overlay_stages_s"] = overlay
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(path, true, func(w io.Writer) error {
		_, err := w.Write(append(out, '\n'))
		return err
	})
}

// isPicture reports whether a path names a still picture rather than a video.
func isPicture(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".jpg", ".jpeg":
		return true
	}
	return false
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressLine rewrites one status line on a terminal.
type progressLine struct {
	w       io.Writer
	enabled bool
	shown   bool
}

func newProgressLine(w io.Writer, enabled bool) *progressLine {
	return &progressLine{w: w, enabled: enabled}
}

func (p *progressLine) update(pr video.Progress) {
	if !p.enabled {
		return
	}
	line := fmt.Sprintf("frame %d", pr.Frames)
	if pr.Total > 0 {
		line += fmt.Sprintf("/%d (%d%%)", pr.Total, 100*pr.Frames/pr.Total)
	}
	line += fmt.Sprintf("  %.1f fps  %s", pr.FPS, pr.Elapsed.Round(time.Second))
	if pr.ETA > 0 {
		line += fmt.Sprintf("  ETA %s", pr.ETA.Round(time.Second))
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

func (p *progressLine) done() {
	if p.shown {
		fmt.Fprintln(p.w)
	}
}
