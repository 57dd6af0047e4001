package cli

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"trackink/composite"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// checkFrame refuses --frame where it cannot mean one picture: with a video output, and
// with --segment.
func (f *renderFlags) checkFrame(fs *pflag.FlagSet, isVideo bool) error {
	switch {
	case f.frame < 1:
		return usageError{fmt.Errorf("--frame %d: frames are numbered from 1", f.frame)}
	case isVideo && !isPicture(f.output) && fs.Changed("frame"):
		return usageError{fmt.Errorf("--frame draws one frame into a picture: give -o NAME.png or NAME.jpg (for a part of the video, --start and --end)")}
	case isVideo && isPicture(f.output) && f.video.segment != "":
		return usageError{errors.New("--segment: segments are of a video output, not a picture")}
	}
	return nil
}

// renderPreview draws frame --frame of a video (1-based, as --start and MOTChallenge count)
// into a picture: a look at one frame before rendering them all. The frame goes through the
// render's own pipeline (video.Transcode from that frame to that frame, into a scratch
// video that is thrown away), so it is decoded, turned and drawn exactly as in the render;
// the tracks before it are replayed first, as a segment replays them, so trails and links
// are those the whole render draws there.
func renderPreview(ctx context.Context, f *renderFlags, fs *pflag.FlagSet, opts overlay.Options, target string, stderr io.Writer) error {
	enc, err := encoderFor(f.output)
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "trackink-preview-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	vo, err := f.video.options(fs, f.input, filepath.Join(scratch, "frame.mkv"), true)
	if err != nil {
		return err
	}
	at := video.Position{Frame: f.frame}
	vo.Start, vo.End = at, at
	vo.Encoder, vo.Preset, vo.CRF, vo.Bitrate, vo.Lossless = "libx264", "ultrafast", 0, 0, false
	vo.Log = func(string) {}
	opened, err := video.Open(f.input, vo.VideoStream)
	if err != nil {
		return flagError(fs, err)
	}
	defer opened.Close()
	info := opened.Info()
	vo.Source = opened
	if info.CheckStart(at) != nil {
		return usageError{fmt.Errorf("--frame %d: the video has %s", f.frame, info.Length())}
	}
	if err := video.CheckMemory(info.Width, info.Height); err != nil {
		return err
	}
	w, h := info.DisplayWidth, info.DisplayHeight
	if vo.Orientation == video.Stored {
		w, h = info.Width, info.Height
	}
	src := &trackSource{}
	if live := f.detect.live; live != nil {
		// The tracker follows the video from its first frame up to this one, as the
		// render would; its tracks are then drawn as --save-tracks would give them.
		if src.tracks, err = trackUpTo(ctx, video.Options{Input: f.input, VideoStream: vo.VideoStream, Orientation: vo.Orientation}, f.frame, info.Frames, live); err != nil {
			return err
		}
		f.style.forTracks(fs, &opts, src.tracks, f.tracks.warn)
	} else if f.sceneName == "" {
		if src.tracks, err = untilInterrupted(ctx, func() (*scene.Tracks, error) { return f.tracks.load(w, h) }); err != nil {
			return err
		}
		f.style.forTracks(fs, &opts, src.tracks, f.tracks.warn)
	}
	td := &trackDrawer{opts: opts, src: src, replayFrom: 1}
	defer td.close()
	var still *composite.RGBA
	_, err = video.Transcode(ctx, vo, func(n int, dst composite.Surface) error {
		if err := td.draw(n, dst); err != nil {
			return err
		}
		var err error
		still, err = composite.ToRGBA(dst)
		return err
	})
	switch {
	case errors.Is(err, context.Canceled):
		return interrupted(ctx)
	case errors.Is(err, video.ErrNothingToRender) || err == nil && still == nil:
		return usageError{fmt.Errorf("--frame %d: the video ends before it (%s)", f.frame, info.Length())}
	case err != nil && !errors.Is(err, video.ErrInputDamaged):
		return err
	}
	if n := f.frame - vo.FrameOffset; src.tracks != nil && src.tracks.Frame(n, new(scene.Frame)) == nil {
		fmt.Fprintf(stderr, "trackink render: warning: nothing is tracked in video frame %d (tracks frame %d; tracks cover frames %s)\n", f.frame, n, frameSpan(src.tracks))
	}
	img := &image.RGBA{Pix: still.Pix, Stride: still.Stride, Rect: image.Rect(0, 0, still.W, still.H)}
	removeStalePartials(target, stderr)
	return writeAtomic(ctx, target, f.overwrite, func(out io.Writer) error { return enc(out, img) })
}

// trackUpTo runs live's tracker on the frames of vo's input (frames long) up to frame last,
// as the whole render would (primed from the whole video), and returns what it tracked.
func trackUpTo(ctx context.Context, vo video.Options, last, frames int, live *liveTracks) (*scene.Tracks, error) {
	live.keep = true
	if err := live.prime(ctx, vo, frames); err != nil {
		return nil, err
	}
	vo.End = video.Position{Frame: last}
	_, err := video.Frames(ctx, vo, func(n int, dst composite.Surface) error {
		_, err := live.step(n, dst)
		return err
	})
	switch {
	case errors.Is(err, context.Canceled):
		return nil, interrupted(ctx)
	case err != nil && !errors.Is(err, video.ErrInputDamaged):
		return nil, err
	}
	return live.tracks()
}
