package cli

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"slices"

	"github.com/spf13/pflag"

	"trackink/job"
	"trackink/options"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// videoOnlyFlags are render's flags of a video's frames and its encoding, which a picture
// drawn on a canvas or on -i PICTURE has none of; the encoding's (encodingFlags) a video's
// preview has none of either.
var videoOnlyFlags = append([]string{"start", "end", "frame-offset", "video-stream", "orientation", "hwaccel"}, encodingFlags...)

// encodingFlags shape only the encoded video: a preview (-o PICTURE) is the frame as drawn,
// before the encoder and its fitting of an odd size (the picture is the same with pad, crop
// and 444), so each is refused there rather than dropped. The rest of videoOnlyFlags choose
// the frame and how it is decoded, and a preview keeps them.
var encodingFlags = []string{"odd-size", "encoder", "profile", "crf", "preset", "bitrate", "lossless", "threads"}

// checkFrame refuses --frame where it cannot mean one picture: with a video output, and
// with --segment; and, drawn on a canvas or a picture, one past the tracks' frames, which
// it would replay one by one, and the flags of a video, which it would drop unsaid, as a
// video's preview would drop the encoding's.
func (f *renderFlags) checkFrame(fs *pflag.FlagSet, isVideo bool) error {
	for _, name := range videoOnlyFlags {
		switch {
		case !fs.Changed(name):
		case !isVideo && name == "frame-offset":
			// It was dropped: tracks frame --frame was drawn, not --frame − offset.
			return options.UsageError{Err: fmt.Errorf("--frame-offset lines tracks frames up with a video's; drawn on a picture, --frame is the tracks frame: for video frame %d with --frame-offset %d, give --frame %d",
				f.frame, f.video.FrameOffset, f.frame-f.video.FrameOffset)}
		case !isVideo:
			return options.UsageError{Err: fmt.Errorf("--%s is for a video: drawn on a picture (-i PICTURE, or --width and --height) there is nothing for it to do", name)}
		case isPicture(f.output) && slices.Contains(encodingFlags, name):
			return options.UsageError{Err: fmt.Errorf("--%s shapes the encoded video: a preview (-o %s) is the frame as drawn, never encoded: leave it out of the preview, and give it to the render to a video", name, f.output)}
		}
	}
	switch {
	case f.frame < 1:
		return options.UsageError{Err: fmt.Errorf("--frame %d: frames are numbered from 1", f.frame)}
	case !isVideo && f.frame > scene.MaxFrame:
		return options.UsageError{Err: fmt.Errorf("--frame %d: is beyond the frame limit of %d: tracks frames count from 1 to %d", f.frame, scene.MaxFrame, scene.MaxFrame)}
	case isVideo && !isPicture(f.output) && fs.Changed("frame"):
		return options.UsageError{Err: fmt.Errorf("--frame draws one frame into a picture: give -o NAME.png or NAME.jpg (for a part of the video, --start and --end)")}
	case isVideo && isPicture(f.output) && f.video.Segment != "":
		return options.UsageError{Err: errors.New("--segment: segments are of a video output, not a picture")}
	}
	return nil
}

// renderPreview draws frame --frame of a video (1-based, as --start and MOTChallenge count)
// into a picture, as the whole render draws it there (job.Preview).
func renderPreview(ctx context.Context, f *renderFlags, fs *pflag.FlagSet, opts overlay.Options, target string, stderr io.Writer) error {
	enc, err := job.PictureEncoder(f.output)
	if err != nil {
		return err
	}
	jo := f.job(ctx, opts, stderr)
	if jo.Video, err = f.videoOptions(fs, target); err != nil {
		return err
	}
	jo.Video.Output = target // its scratch video is made beside it, for the sweep if killed
	n := f.frame
	if !fs.Changed("frame") {
		n = 0 // the render's first frame: --start's
	}
	still, _, err := job.Preview(ctx, jo, n)
	// A damaged input gives the picture too, as the render draws it.
	damaged := errors.Is(err, video.ErrInputDamaged) && still != nil
	switch {
	case errors.Is(err, context.Canceled):
		return interrupted(ctx)
	case err != nil && !damaged:
		return options.FlagError(fs, err)
	}
	var img image.Image = &image.RGBA{Pix: still.Pix, Stride: still.Stride, Rect: image.Rect(0, 0, still.W, still.H)}
	if jo.Video.Layer {
		// Straight alpha, converted as the layer render's PNG frames are: the same bytes.
		layer := image.NewNRGBA(image.Rect(0, 0, still.W, still.H))
		still.StraightRGBA(layer.Pix, layer.Stride)
		img = layer
	}
	removeStalePartials(target, stderr)
	if err := writeAtomic(ctx, target, f.overwrite, func(out io.Writer) error { return enc(out, img) }); err != nil {
		return err
	}
	if damaged {
		// As the render: the output written, status 3.
		return exitError{exitDamaged, fmt.Errorf("%w (see the warnings); wrote the frame as the render draws it to %s", video.ErrInputDamaged, f.output)}
	}
	return nil
}
