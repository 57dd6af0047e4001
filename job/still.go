package job

import (
	"context"
	"fmt"
	"image"

	"trackink/composite"
	"trackink/scene"
)

// Still draws tracks frame n onto a picture (premultiplied RGBA, as LoadCanvas makes it,
// drawn in place) as a render draws it on video frame n: the tracks of o.Tracks read at the
// picture's size (Live is for videos), or the seed scene. The tracks' frames before n are
// replayed first, as Preview replays them, so that the trails, ages, label reveals and
// whatever else counts on history are those of the render's frame n. A ctx that ends stops
// the replay, with ctx's error.
func Still(ctx context.Context, o Options, img *image.RGBA, n int) (Report, error) {
	var rep Report
	pic := &composite.RGBA{Pix: img.Pix, Stride: img.Stride, W: img.Bounds().Dx(), H: img.Bounds().Dy()}
	o.Overlay.NewBackend = o.Place.New
	var src Source = NewSeed(pic.W, pic.H)
	if !o.Tracks.Seed {
		s, err := loadStored(&o, pic.W, pic.H, false)
		if err != nil {
			return rep, err
		}
		src = s
	}
	if o.Place.Resolved != "" {
		say(o, "backend auto: %s", o.Place.Resolved)
	}
	var f scene.Frame
	switch tracks := stored(src); {
	case tracks != nil && len(tracks.Spans()) > 1:
		// Files drawn together: each that has nothing in the frame is named, as alone.
		for _, m := range sourcesUntracked(tracks, tracks.Frame(n, &f), fmt.Sprintf("frame %d (", n), n, "") {
			warn(o, "%s", m)
		}
	case tracks != nil && tracks.Frame(n, &f) == nil:
		warn(o, "nothing is tracked in frame %d (tracks cover frames %s)", n, frameSpan(tracks.Span()))
	}
	td := NewDrawer(o.Overlay, src)
	td.replayFrom, td.ctx = 1, ctx
	defer td.Close()
	err := td.Draw(n, pic)
	rep.Stages, rep.Replayed = td.stages, td.replayed
	if err != nil {
		return rep, err
	}
	td.warnings(o, pic.W, pic.H)
	return rep, nil
}
