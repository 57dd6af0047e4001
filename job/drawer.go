package job

import (
	"context"
	"fmt"

	"trackink/composite"
	"trackink/internal/prose"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// Drawer draws a Source's tracks onto the decoded frames of a video: its Draw is the
// video.DrawFunc of a render. It starts the overlay.Drawer at the first frame (replaying
// the frames before a segment's first), sums the per-stage times, and counts what the
// picture does not show.
type Drawer struct {
	opts   overlay.Options
	src    Source
	d      *overlay.Drawer
	stages overlay.Timings // summed over frames
	firstN int             // the first tracks frame drawn, 0 before the first
	lastN  int             // the last tracks frame the video reached
	// tracked counts the frames drawn with something tracked in them: none, and the tracks
	// and the video do not line up (Render's warning).
	tracked int
	// drawnBy says, for each tracks file drawn together (Box.Source, scene.Tracks.Sources),
	// whether a frame drawn held any of its items, so that one that draws nothing is named;
	// nil with one file.
	drawnBy []bool
	// points and boxes count the tracked points and boxes drawn: points alone, under a look
	// that draws nothing of points, draw nothing (Drawer.warnings).
	points, boxes int
	off           offFrame
	// replayFrom, in a segment of a render or a preview, is the first tracks frame the
	// whole render draws: before its own first frame the drawer advances through the
	// frames from there (overlay.Drawer.Advance), and then draws what the whole render
	// draws. 0 in a whole render.
	replayFrom int
	replayed   int // tracks frames replayed
	// ctx, when set, ends the replay early: a picture's --frame may be millions of frames in,
	// and a stop signal must not wait for them.
	ctx context.Context
	// replayCapped is what the link caps dropped in the frames replayed, which are not drawn:
	// the warnings are of the frames drawn.
	replayCapped knn.Capped
	// none is what the overlay draws for a frame with nothing tracked: an empty frame
	// numbered as the video's (numbered), so that what counts frames (the camera look's
	// grain and clock) counts the video's frames, not those drawn, and a render from
	// --start draws its first frame as the whole render draws that frame.
	none scene.Frame
}

// NewDrawer returns a Drawer of src's tracks with options o.
func NewDrawer(o overlay.Options, src Source) *Drawer { return &Drawer{opts: o, src: src} }

// Draw draws tracks frame n onto dst, the decoded picture.
func (t *Drawer) Draw(n int, dst composite.Surface) error {
	w, h := dst.Size()
	if t.d == nil {
		d, err := overlay.New(t.opts)
		if err != nil {
			return err
		}
		t.d = d
		for k := t.replayFrom; t.replayFrom > 0 && k < n; k++ {
			if t.ctx != nil && k%replayCheck == 0 && t.ctx.Err() != nil {
				return t.ctx.Err()
			}
			tf, err := t.src.Frame(k, nil)
			if err == nil {
				t.d.Judge(judgement(t.src, k))
				err = t.d.Advance(w, h, t.numbered(tf, k))
			}
			if err != nil {
				return fmt.Errorf("tracks frame %d, replayed: %w", k, err)
			}
			t.replayed++
		}
		t.replayCapped = t.d.LinksCapped()
		if f := t.d.Font(); f != nil {
			f.ForgetMissing() // of the replayed frames' labels, which are not drawn
		}
	}
	if t.firstN == 0 {
		t.firstN = n
	}
	t.lastN = max(t.lastN, n)
	tf, err := t.src.Frame(n, dst)
	if err != nil {
		return fmt.Errorf("tracks frame %d: %w", n, err)
	}
	if tf != nil {
		t.tracked++
		t.points += len(tf.Points)
		t.boxes += len(tf.Boxes)
		t.off.check(tf, w, h)
		t.countSources(tf)
	}
	t.d.Judge(judgement(t.src, n))
	if err := t.d.Draw(dst, t.numbered(tf, n)); err != nil {
		return fmt.Errorf("tracks frame %d: %w", n, err)
	}
	t.stages.Add(t.d.Timings())
	return nil
}

// replayCheck is how many frames the replay goes between looks at its ctx: a few
// milliseconds' worth, a look (a lock) costing next to nothing beside them.
const replayCheck = 1024

// numbered is tracks frame n: tf, or none numbered n where nothing is tracked (tf nil).
func (t *Drawer) numbered(tf *scene.Frame, n int) *scene.Frame {
	if tf != nil {
		return tf
	}
	t.none.Index = n
	return &t.none
}

// drawFunc is the render's video.DrawFunc: nil when the tracks hold no frame and the style
// draws nothing without them (no camera look), so that the video goes through the pipeline
// as it goes through ffmpeg, with no copy of a decoded frame and no draw stage
// (video.Transcode).
func (t *Drawer) drawFunc() video.DrawFunc {
	if tr := stored(t.src); tr != nil && tr.Len() == 0 && !t.opts.Style.Camera.On() {
		return nil
	}
	return t.Draw
}

// Close frees the overlay's backend.
func (t *Drawer) Close() {
	if t.d != nil {
		t.d.Close()
		t.d = nil
	}
}

// warnings says, through o.Warn, what the frames drawn on the w × h picture did not show as
// asked: characters the font lacks, links the caps dropped, tracked items wholly outside the
// picture. A render, a preview and a still say the same of the frames they draw.
func (t *Drawer) warnings(o Options, w, h int) {
	if t.d != nil {
		if m := missingGlyphs(t.d.Font()); m != "" {
			warn(o, "%s", m)
		}
		c := t.d.LinksCapped()
		c.Frames -= t.replayCapped.Frames
		c.PerPoint -= t.replayCapped.PerPoint
		c.PerFrame -= t.replayCapped.PerFrame
		if m := linkCapWarning(c, o.Overlay); m != "" {
			warn(o, "%s", m)
		}
	}
	var sources []string
	if tr := stored(t.src); tr != nil {
		sources = tr.Sources()
	}
	if m := t.off.warning(w, h, sources); m != "" {
		warn(o, "%s", m)
	}
	if s := &o.Overlay.Style; t.points > 0 && t.boxes == 0 && !drawsPoints(s) {
		warn(o, "the tracks hold points alone (%s in %s), and the look draws nothing of points (no point disks, links, curves, trails or particles): nothing of them is drawn; give --point-radius 4, or another --look",
			prose.Plural(t.points, "point"), prose.Plural(t.tracked, "frame"))
	}
	if s := &o.Overlay.Style; t.points > 0 && t.boxes == 0 && len(s.BoxEffects) > 0 && (s.BoxFrom == "" || s.BoxFrom == "none") {
		warn(o, "the tracks hold points alone (%s in %s), and --box-effect changes the picture under boxes: nothing of it is drawn; give --box-from radius (or age) for a box around each point",
			prose.Plural(t.points, "point"), prose.Plural(t.tracked, "frame"))
	}
}

// countSources notes in drawnBy each tracks file tf holds items of, where several are drawn
// together.
func (t *Drawer) countSources(tf *scene.Frame) {
	if t.drawnBy == nil {
		tr := stored(t.src)
		if tr == nil || len(tr.Sources()) < 2 {
			return
		}
		t.drawnBy = make([]bool, len(tr.Sources()))
	}
	markSources(t.drawnBy, tf)
}

// markSources sets has[k] for each tracks file k (Box.Source, Point.Source) that f holds
// items of.
func markSources(has []bool, f *scene.Frame) {
	for i := range f.Boxes {
		if k := f.Boxes[i].Source; k < len(has) {
			has[k] = true
		}
	}
	for i := range f.Points {
		if k := f.Points[i].Source; k < len(has) {
			has[k] = true
		}
	}
}

// drawsPoints reports whether style s draws anything of tracked points: disks, links, curves,
// trails or particles (a box's label, fill and stroke need a box).
func drawsPoints(s *overlay.Style) bool {
	return s.PointRadius != 0 || s.LineWidth != 0 || s.CurveWidth != 0 || s.Trail > 0 || s.Particles > 0
}

// offFrame counts tracked items that lie wholly outside the video frame, to warn once.
type offFrame struct {
	items, frames                int
	firstFrame, firstID, firstOf int // firstOf: the item's tracks file (Box.Source)
	lastCounted                  int
	boxIDs                       map[int]bool // the frame's boxes' ids
}

// check counts the boxes of tf wholly outside the w × h frame, and the points that are not
// a box's: a box's point (its anchor, on its bottom edge) lies outside whenever that edge
// does, a pixel below the frame for a box that is all but wholly in it, and is drawn with
// the box.
func (o *offFrame) check(tf *scene.Frame, w, h int) {
	fw, fh := float32(w), float32(h)
	if o.boxIDs == nil {
		o.boxIDs = map[int]bool{}
	}
	clear(o.boxIDs)
	for _, b := range tf.Boxes {
		o.boxIDs[b.ID] = true
		if b.X+b.W < 0 || b.Y+b.H < 0 || b.X > fw || b.Y > fh {
			o.note(tf.Index, b.ID, b.Source)
		}
	}
	for _, p := range tf.Points {
		if o.boxIDs[p.ID] {
			continue
		}
		if p.X < 0 || p.Y < 0 || p.X > fw || p.Y > fh {
			o.note(tf.Index, p.ID, p.Source)
		}
	}
}

func (o *offFrame) note(frame, id, source int) {
	if o.items == 0 {
		o.firstFrame, o.firstID, o.firstOf = frame, id, source
	}
	o.items++
	if o.lastCounted != frame {
		o.frames++
		o.lastCounted = frame
	}
}

// warning says how many items lay wholly outside the w × h picture; "" when none did. With
// several tracks files (sources, scene.Tracks.Sources) the first is named by its own file's
// id and that file (as LoadAll names it: stdin for -): the merged id is in no file.
func (o *offFrame) warning(w, h int, sources []string) string {
	if o.items == 0 {
		return ""
	}
	verb := "lie"
	if o.items == 1 {
		verb = "lies" // a preview's one frame may hold one
	}
	return fmt.Sprintf("%s in %s %s wholly outside the %dx%d picture (first: frame %d, %s)",
		prose.Plural(o.items, "tracked item"), prose.Plural(o.frames, "frame"), verb, w, h, o.firstFrame,
		trackName(o.firstID, o.firstOf, sources))
}

// trackName names track id (a merged id where several files, sources, are drawn together)
// of tracks file source in a warning: "track 4 of edge.txt", "track 4" with one file, "an
// untracked item" without an id.
func trackName(id, source int, sources []string) string {
	if id == scene.NoID {
		return "an untracked item"
	}
	n := len(sources)
	if n < 2 {
		return fmt.Sprintf("track %d", id)
	}
	return fmt.Sprintf("track %d of %s", scene.FileID(id, n), sources[min(source, n-1)])
}
