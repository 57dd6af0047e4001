package job

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"trackink/composite"
	"trackink/scene"
	"trackink/video"
)

// Preview draws frame n of the video o.Video reads (1-based, as video.Position counts) as
// the whole render would draw it, and returns the picture: a look at one frame before
// rendering them all. The frame goes through the render's own pipeline (video.Transcode
// from that frame to that frame, into a scratch video that is thrown away), so it is
// decoded, turned and drawn exactly as in the render; the tracks before it are replayed
// first, as a segment replays them, so that trails and links are those the render draws
// there. The live tracker follows the video from its first frame up to n, and its tracks
// are drawn as a file of them would be. o.Video's Output, encoding and range are not used.
func Preview(ctx context.Context, o Options, n int) (*composite.RGBA, Report, error) {
	var rep Report
	scratch, err := os.MkdirTemp("", "trackink-preview-")
	if err != nil {
		return nil, rep, err
	}
	defer os.RemoveAll(scratch)
	o.Overlay.NewBackend = o.Place.New
	vo := o.Video
	vo.Output, vo.Overwrite = filepath.Join(scratch, "frame.mkv"), true
	at := video.Position{Frame: n}
	vo.Start, vo.End = at, at
	vo.Encoder, vo.Preset, vo.CRF, vo.Bitrate, vo.Lossless = "libx264", "ultrafast", 0, 0, false
	vo.Log, vo.Segment, vo.Partners = func(string) {}, nil, nil
	// A frame before tracks frame 1 is shown as the render leaves it, undrawn; the offset is
	// moved so that Transcode hands it over at all.
	offset := vo.FrameOffset
	undrawn := n-offset < 1
	if undrawn {
		vo.FrameOffset = n - 1
	}
	in, err := open(ctx, &vo, func(info video.Info) error {
		if info.CheckStart(at) != nil {
			return badOption(fmt.Errorf("--frame %d: the video has %s", n, info.Length()))
		}
		return nil
	})
	if err != nil {
		return nil, rep, err
	}
	defer in.close()
	fitToVideo(&o, in.info)
	var src Source
	if live := o.Tracks.Live; live != nil {
		tracks, err := live.TrackUpTo(ctx, video.Options{Input: vo.Input, VideoStream: vo.VideoStream, Orientation: vo.Orientation}, n, in.info.Frames)
		if err != nil {
			return nil, rep, err
		}
		fitTo(&o, tracks)
		src = &Stored{Tracks: tracks}
	} else if src, err = in.tracks(ctx, &o); err != nil {
		return nil, rep, err
	}
	td := NewDrawer(o.Overlay, src)
	td.replayFrom = 1
	defer td.Close()
	var still *composite.RGBA
	rep.Stats, err = video.Transcode(ctx, vo, func(k int, dst composite.Surface) error {
		if undrawn {
			var err error
			still, err = composite.ToRGBA(dst)
			return err
		}
		if err := td.Draw(k, dst); err != nil {
			return err
		}
		var err error
		still, err = composite.ToRGBA(dst)
		return err
	})
	rep.Stages, rep.Replayed = td.stages, td.replayed
	switch {
	case errors.Is(err, video.ErrNothingToRender) || err == nil && still == nil:
		return nil, rep, badOption(fmt.Errorf("--frame %d: the video ends before it (%s)", n, in.info.Length()))
	case err != nil && !errors.Is(err, video.ErrInputDamaged):
		return nil, rep, err
	}
	td.warnings(o, in.w, in.h)
	if undrawn {
		warn(o, "video frame %d comes before tracks frame 1, which --frame-offset %d puts on video frame %d: it is not drawn on", n, offset, offset+1)
		return still, rep, nil
	}
	if k := tracksFrame(n, vo.FrameOffset); stored(src) != nil && stored(src).Frame(k, new(scene.Frame)) == nil {
		warn(o, "nothing is tracked in video frame %d (tracks frame %d; tracks cover frames %s)", n, k, frameSpan(stored(src)))
	}
	return still, rep, nil
}

// frameSpan says which frames t covers, for messages: "1 to 795", or why none.
func frameSpan(t *scene.Tracks) string {
	if t.Len() == 0 {
		return "none: the file is empty"
	}
	return fmt.Sprintf("%d to %d", t.FirstIndex(), t.LastIndex())
}
