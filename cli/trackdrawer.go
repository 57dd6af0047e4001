package cli

import (
	"fmt"

	"trackink/composite"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// trackDrawer draws the tracks onto the decoded frames of a video (its draw is the
// video.DrawFunc of a render): it starts the overlay.Drawer at the first frame, sums the
// per-stage times for --stats-json, and notes what the video does not show.
type trackDrawer struct {
	opts   overlay.Options
	src    *trackSource
	d      *overlay.Drawer
	stages overlay.Timings // summed over frames
	lastN  int             // the last tracks frame the video reached
	off    offFrame
	// replayFrom, in a segment of a render, is the first tracks frame the whole render
	// draws: before its own first frame the drawer advances through the frames from
	// there (overlay.Drawer.Advance), and then draws what the whole render draws. 0 in a
	// whole render.
	replayFrom int
	replayed   int // tracks frames replayed
}

func (t *trackDrawer) draw(n int, dst composite.Surface) error {
	w, h := dst.Size()
	if t.d == nil {
		d, err := overlay.New(t.opts)
		if err != nil {
			return err
		}
		t.d = d
		for k := t.replayFrom; t.replayFrom > 0 && k < n; k++ {
			if err := t.d.Advance(w, h, t.src.frame(k, w, h)); err != nil {
				return fmt.Errorf("tracks frame %d, replayed: %w", k, err)
			}
			t.replayed++
		}
	}
	t.lastN = max(t.lastN, n)
	tf := t.src.frame(n, w, h)
	if t.src.tracks != nil {
		// A long file's tracks are read back from disk (scene.Tracks.Err): a frame that
		// could not be read must not be drawn as an empty one.
		if err := t.src.tracks.Err(); err != nil {
			return fmt.Errorf("tracks frame %d: %w", n, err)
		}
	}
	if tf != nil {
		t.off.check(tf, w, h)
	}
	if err := t.d.Draw(dst, tf); err != nil {
		return fmt.Errorf("tracks frame %d: %w", n, err)
	}
	t.stages.Add(t.d.Timings())
	return nil
}

// drawFunc is the render's video.DrawFunc: nil when the tracks hold no frame, so that the
// video goes through the pipeline as it goes through ffmpeg, with no copy of a decoded frame
// and no draw stage (video.Transcode).
func (t *trackDrawer) drawFunc() video.DrawFunc {
	if t.src.tracks != nil && t.src.tracks.Len() == 0 {
		return nil
	}
	return t.draw
}

func (t *trackDrawer) close() {
	if t.d != nil {
		t.d.Close()
		t.d = nil
	}
}

// trackSource gives the tracking frame for a video frame: from a file, or the seed scene
// generated at the video's size.
type trackSource struct {
	tracks *scene.Tracks
	seed   *scene.SeedScene
	buf    scene.Frame
	live   *liveTracks // render --detect: what the tracker found in the frame being drawn
}

func (s *trackSource) frame(n, w, h int) *scene.Frame {
	if s.live != nil {
		return s.live.frame(n)
	}
	if s.tracks != nil {
		return s.tracks.Frame(n, &s.buf)
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
	boxIDs              map[int]bool // the frame's boxes' ids
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
			o.note(tf.Index, b.ID)
		}
	}
	for _, p := range tf.Points {
		if o.boxIDs[p.ID] {
			continue
		}
		if p.X < 0 || p.Y < 0 || p.X > fw || p.Y > fh {
			o.note(tf.Index, p.ID)
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
