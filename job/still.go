package job

import (
	"image"
	"trackink/composite"
	"trackink/overlay"
	"trackink/scene"
)

// Still draws tracks frame n onto a picture (premultiplied RGBA, as LoadCanvas makes it,
// drawn in place): the tracks of o.Tracks read at the picture's size (Live is for videos),
// or the seed scene's frame n.
func Still(o Options, img *image.RGBA, n int) (Report, error) {
	var rep Report
	pic := &composite.RGBA{Pix: img.Pix, Stride: img.Stride, W: img.Bounds().Dx(), H: img.Bounds().Dy()}
	o.Overlay.NewBackend = o.Place.New
	var tracks *scene.Tracks
	var err error
	if o.Tracks.Seed {
		tracks, err = scene.NewTracks(scene.Seed(pic.W, pic.H, n))
	} else {
		tracks, err = o.Tracks.Load(pic.W, pic.H)
	}
	if err != nil {
		return rep, err
	}
	fitTo(&o, tracks)
	if o.Place.Resolved != "" {
		say(o, "backend auto: %s", o.Place.Resolved)
	}
	d, err := overlay.New(o.Overlay)
	if err != nil {
		return rep, err
	}
	defer d.Close()
	tf := tracks.Frame(n, new(scene.Frame))
	if tf == nil {
		warn(o, "nothing is tracked in frame %d (tracks cover frames %s)", n, frameSpan(tracks))
	}
	if err := d.Draw(pic, tf); err != nil {
		return rep, err
	}
	rep.Stages = d.Timings()
	drawnWarnings(o, d)
	return rep, nil
}
