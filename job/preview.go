package job

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"trackink/composite"
	"trackink/outfile"
	"trackink/scene"
	"trackink/video"
)

// Preview draws frame n of the video o.Video reads (1-based, as video.Position counts) as
// the render o describes would draw it, and returns the picture: a look at one frame before
// rendering them all. The frame goes through the render's own pipeline (video.Transcode
// from that frame to that frame, into a scratch video that is thrown away), so it is
// decoded, turned and drawn exactly as in the render; the tracks from the render's first
// frame (o.Video.Start) up to it are replayed first, as a segment replays them, so that
// trails and links are those the render draws there. A frame outside the render's range
// (Start to End) is an ErrOption; n 0 is its first frame. The live tracker follows the video
// from the render's first frame up to n, and its tracks are drawn as a file of them would
// be. o.Video's Output is the picture the frame is drawn for, beside which the scratch video
// is made (scratchDir); its encoding is not used. With o.Video.Layer the picture is the
// frame's layer alone, on transparency (premultiplied, as composite.RGBA is), as the layer
// render draws it. Damage in the input up to frame n is warned of as the render warns of
// it, and the picture returned with video.ErrInputDamaged: it is what the render draws
// there, but the frame may not be the one the number says.
func Preview(ctx context.Context, o Options, n int) (*composite.RGBA, Report, error) {
	var rep Report
	if o.Tracks.Live != nil && video.ReadsOnce(o.Video.Input) {
		// Said before the pipe is read: read again, it failed as "Invalid data found".
		return nil, rep, badOption(fmt.Errorf("--frame with --detect: the tracker reads -i %s up to the frame, and the frame is read again to draw it, which a pipe cannot be: write the video to a file first (ffmpeg -i … -c copy FILE), or give --tracks", o.Video.Input))
	}
	scratch, err := scratchDir(o.Video.Output)
	if err != nil {
		return nil, rep, err
	}
	defer scratch.Discard()
	o.Overlay.NewBackend = o.Place.New
	vo := o.Video
	first, n, err := renderedFrame(ctx, vo, n)
	if err != nil {
		return nil, rep, err
	}
	vo.Output, vo.Overwrite = filepath.Join(scratch.Dir, "frame.mkv"), true
	at := video.Position{Frame: n}
	vo.Start, vo.End = at, at
	vo.Encoder, vo.Preset, vo.CRF, vo.Bitrate, vo.Lossless, vo.Profile = "libx264", "ultrafast", 0, 0, false, ""
	if vo.Layer {
		// The frame's layer, drawn on transparency as the layer render draws it.
		if err := layerNeedsNoPicture(o); err != nil {
			return nil, rep, err
		}
		vo.Output, vo.Encoder, vo.Preset = filepath.Join(scratch.Dir, "frame_%05d.png"), "png", ""
	}
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
	if vo.Layer && vo.Orientation == video.Stored && in.info.Rotation != 0 {
		warn(o, "%s", video.LayerTurnLost("a picture", ""))
	}
	fitToVideo(&o, in.info)
	var src Source
	if live := o.Tracks.Live; live != nil {
		tracks, err := live.TrackUpTo(ctx, video.Options{Input: vo.Input, VideoStream: vo.VideoStream, Orientation: vo.Orientation, Start: o.Video.Start}, n, in.info.Frames)
		if err != nil {
			return nil, rep, err
		}
		fitTo(&o, tracks)
		src = &Stored{Tracks: tracks}
	} else if src, err = in.tracks(ctx, &o); err != nil {
		return nil, rep, err
	}
	td := NewDrawer(o.Overlay, src)
	td.replayFrom = tracksFrame(first, offset) // the render's history starts at its first frame
	td.ctx = ctx
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
	// The scratch video's log is muted (its encoding is no news), but damage in the input is:
	// the render says it, and the frame shown may be a later one.
	damaged := errors.Is(err, video.ErrInputDamaged)
	if damaged {
		for _, w := range rep.Warnings {
			if strings.HasPrefix(w, "input damaged: ") {
				warn(o, "%s", w)
			}
		}
	}
	switch {
	case (errors.Is(err, video.ErrNothingToRender) || err == nil && still == nil) && in.info.PromisedFrames >= n:
		// The header's count passed CheckStart above, but fewer frames decode (OpenCV's
		// tree.avi counts 444 AVI chunks, 376 of them empty).
		return nil, rep, badOption(fmt.Errorf("--frame %d: the video ends before it: its header says %s, but fewer frames decode", n, in.info.Length()))
	case errors.Is(err, video.ErrNothingToRender) || err == nil && still == nil:
		return nil, rep, badOption(fmt.Errorf("--frame %d: the video ends before it (%s)", n, in.info.Length()))
	case err != nil && !damaged:
		return nil, rep, err
	case still == nil:
		return nil, rep, fmt.Errorf("--frame %d: the video broke off before it: %w", n, err)
	}
	td.warnings(o, in.w, in.h)
	if undrawn {
		warn(o, "video frame %d comes before tracks frame 1, which --frame-offset %d puts on video frame %d: it is not drawn on", n, offset, offset+1)
		return still, rep, err
	}
	k, tracks := tracksFrame(n, vo.FrameOffset), stored(src)
	var f scene.Frame
	switch {
	case tracks != nil && len(tracks.Spans()) > 1:
		// Files drawn together: each that has nothing in the frame is named, as alone.
		for _, m := range sourcesUntracked(tracks, tracks.Frame(k, &f), fmt.Sprintf("video frame %d (tracks frame %d; ", n, k), k, offsetHint) {
			warn(o, "%s", m)
		}
	case tracks == nil || tracks.Frame(k, &f) != nil:
	case o.Tracks.Live != nil && tracks.Len() == 0:
		// No file: what the tracker did from the render's first frame to this one.
		warn(o, "nothing is tracked by video frame %d; %s", n, o.Tracks.Live.NothingHint(n-first+1))
	case o.Tracks.Live != nil:
		warn(o, "nothing is tracked in video frame %d (the tracker tracked frames %s before it)", n, frameSpan(tracks.Span()))
	default:
		hint := ""
		if k < tracks.FirstIndex() || k > tracks.LastIndex() {
			hint = offsetHint
		}
		warn(o, "nothing is tracked in video frame %d (tracks frame %d; tracks cover frames %s)%s", n, k, frameSpan(tracks.Span()), hint)
	}
	return still, rep, err
}

// sourcesUntracked says of each of the tracks files drawn together that has nothing in
// tracks frame k (f, nil where none has) what a file alone says: where names the frame
// ("frame 3 (", its close is the message's), and hint ends the message of a file whose
// frames k is outside.
func sourcesUntracked(tracks *scene.Tracks, f *scene.Frame, where string, k int, hint string) []string {
	has := make([]bool, len(tracks.Spans()))
	if f != nil {
		markSources(has, f)
	}
	var ms []string
	for s, sp := range tracks.Spans() {
		if has[s] {
			continue
		}
		end := ""
		if sp.Frames > 0 && (k < sp.First || k > sp.Last) {
			end = hint
		}
		ms = append(ms, fmt.Sprintf("nothing of %s is tracked in %sit covers frames %s)%s", tracks.Sources()[s], where, frameSpan(sp), end))
	}
	return ms
}

// scratchDir makes the directory of a preview's scratch video: a partial directory beside
// the picture, out (outfile.PartialDir), which a preview killed (SIGKILL, a second stop
// signal) leaves for the next run's sweep of that directory to remove; one in $TMPDIR stayed
// there for good. Without out, the partial directory is made in $TMPDIR.
func scratchDir(out string) (*outfile.PartialDir, error) {
	if out == "" {
		return outfile.CreatePartialDir(os.TempDir(), "trackink-preview")
	}
	return outfile.CreatePartialDir(filepath.Dir(out), filepath.Base(out))
}

// errFound ends renderedFrame's pass over the video once it has what it looks for.
var errFound = errors.New("found")

// renderedFrame resolves the frame n of a preview against the render's range, vo.Start to
// vo.End: it returns the render's first frame and n (the first for n 0), and refuses, as an
// ErrOption naming the flags, an n the render does not draw. A range given in times is
// found by decoding the video up to n (a pass of its own, so not of a pipe).
func renderedFrame(ctx context.Context, vo video.Options, n int) (first, at int, err error) {
	start, end := vo.Start, vo.End
	last := end.Frame // 0: the video's end
	first = max(1, start.Frame)
	if start.IsTime || end.IsTime {
		if !rereadable(vo.Input) {
			return 0, 0, badOption(fmt.Errorf("--frame with %s: a range in times is found by reading %s twice, which it cannot be: give --start and --end as frame numbers", rangeFlags(start, end), vo.Input))
		}
		first, last = 0, 0
		pass := video.Options{Input: vo.Input, VideoStream: vo.VideoStream, Start: start, End: end}
		_, err := video.Frames(ctx, pass, func(k int, _ composite.Surface) error {
			first, last = cmp.Or(first, k), k
			if k >= n {
				return errFound
			}
			return nil
		})
		switch {
		case errors.Is(err, video.ErrNothingToRender):
			return 0, 0, badOption(err)
		case err != nil && !errors.Is(err, errFound) && !errors.Is(err, video.ErrInputDamaged):
			return 0, 0, err
		}
		if end.IsZero() || last >= n {
			last = 0 // the video's end: past it, the preview says so
		}
	}
	if n == 0 {
		n = first
	}
	if n < first || last > 0 && n > last {
		drawn := fmt.Sprintf("frames %d to %d", first, last)
		if last == 0 {
			drawn = fmt.Sprintf("the frames from %d", first)
		}
		return 0, 0, badOption(fmt.Errorf("--frame %d: the render with %s draws %s: give a --frame among them (the picture is that frame of the render)", n, rangeFlags(start, end), drawn))
	}
	return first, n, nil
}

// rangeFlags says a render's range as its flags give it: "--start 40 --end 1m30s".
func rangeFlags(start, end video.Position) string {
	var flags []string
	for _, f := range []struct {
		name string
		p    video.Position
	}{{"--start", start}, {"--end", end}} {
		switch {
		case f.p.IsTime:
			flags = append(flags, f.name+" "+f.p.Time.String())
		case f.p.Frame > 0:
			flags = append(flags, f.name+" "+strconv.Itoa(f.p.Frame))
		}
	}
	return strings.Join(flags, " ")
}

// frameSpan says which frames sp covers, for messages: "1 to 795", or why none.
func frameSpan(sp scene.Span) string {
	if sp.Frames == 0 {
		return "none: the file is empty"
	}
	return fmt.Sprintf("%d to %d", sp.First, sp.Last)
}
