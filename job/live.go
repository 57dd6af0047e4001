package job

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync/atomic"

	"trackink/composite"
	"trackink/detect"
	"trackink/internal/prose"
	"trackink/outfile"
	"trackink/scene"
	"trackink/tracker"
	"trackink/video"
)

// Live is a Source that runs the built-in tracker on each frame as it is decoded, just
// before the overlay draws on it, and keeps what it found frame by frame as a tracks file
// would hold it: boxes with the points they yield (at the anchor), or points. A new
// object's box appears from the frame it is confirmed in (tracker.Options.Confirm): the
// render draws as it goes and does not go back, and the tracks Write gives hold the same
// frames, so rendering them from a file gives the same picture.
type Live struct {
	o       tracker.Options
	anchor  scene.Anchor
	t       *tracker.Tracker
	keep    bool
	kept    *scene.Collector // every frame with something tracked, when kept (on disk past a few MB)
	done    *scene.Tracks    // what kept collected, once asked for (Tracks)
	cur     scene.Frame      // the last frame, as drawn
	ahead   []int            // the frames handed to Ahead and not yet tracked, oldest first
	tracked int              // frames with something tracked
	lastID  int              // the highest track id kept
	class   string           // the first class kept
	classes bool             // more than one class kept
	names   []string         // class names by number, for MOT text
	lost    []string         // what the tracks file written could not hold
	// found counts the detections a track could start from (of --start-score or more, of
	// an area the tracker keeps), so that tracking nothing from them is put down to
	// --confirm, not to the detector.
	found *atomic.Int64
	// Asked is what the user asked for (--detect's preset, whether --classes was given), for
	// the hints of NothingHint.
	Asked Asked
}

// Asked is what the user asked the built-in tracker for, beyond its options.
type Asked struct {
	Preset  string
	Classes bool // --classes given
}

// counted is a Detector whose detections a track could start from are counted in found.
type counted struct {
	tracker.Detector
	start            float32
	minArea, maxArea float64
	found            *atomic.Int64
}

func (c counted) Detect(dst []detect.Detection, im *detect.Image) ([]detect.Detection, error) {
	found, err := c.Detector.Detect(dst, im)
	n := 0
	for _, d := range found[len(dst):] {
		// The area as the tracker keeps it (tracker.Tracker.Next): --min-area, not
		// --confirm, is the cause when it keeps none.
		area := float64(d.X1-d.X0) * float64(d.Y1-d.Y0) / (float64(im.W) * float64(im.H))
		if d.Score >= c.start && area >= c.minArea && area <= c.maxArea {
			n++
		}
	}
	c.found.Add(int64(n)) // the detectors run on goroutines of their own
	return found, err
}

// NewLive returns a live tracker with options o; a box's point is made at anchor, as a
// tracks file's reader makes it. keep keeps the frames for Tracks and Write; names, when
// set, numbers the classes in MOTChallenge text (scene.WriteOptions.ClassNames).
func NewLive(o tracker.Options, anchor scene.Anchor, keep bool, names []string) *Live {
	found := new(atomic.Int64)
	if len(o.Detectors) > 0 {
		dets := slices.Clone(o.Detectors)
		for i, d := range dets {
			if d != nil { // the tracker refuses a nil one
				dets[i] = counted{Detector: d, start: float32(o.StartScore), minArea: o.MinArea, maxArea: o.MaxArea, found: found}
			}
		}
		o.Detectors = dets
	}
	return &Live{o: o, anchor: anchor, keep: keep, names: names, found: found}
}

// Frame tracks frame n (pic, before anything is drawn on it) and returns what is tracked
// in it, nil when nothing is. A frame handed to Ahead is tracked from what Ahead started.
func (l *Live) Frame(n int, pic composite.Surface) (*scene.Frame, error) {
	if len(l.ahead) > 0 {
		if l.ahead[0] != n {
			return nil, fmt.Errorf("the built-in tracker was handed frame %d ahead, and asked for frame %d", l.ahead[0], n)
		}
		return l.next()
	}
	if pic == nil {
		return nil, errors.New("the built-in tracker cannot replay frames it has not seen: track up to the frame (TrackUpTo)")
	}
	if err := l.start(pic); err != nil {
		return nil, err
	}
	f, err := l.t.Step(pic)
	if err != nil {
		return nil, err
	}
	return l.record(n, f)
}

// AheadFrames is how many frames Ahead can take before the one Frame tracks: one a
// detector but one (the frame being tracked holds a detector until it is), 0 where the
// tracker has one detector or is not of mode objects.
func (l *Live) AheadFrames() int {
	if l.o.Mode != tracker.Objects {
		return 0
	}
	return max(len(l.o.Detectors)-1, 0)
}

// Ahead starts the detection of frame n (pic), the next in order, for Frame to track it
// (video.Options.Ahead): with several detectors, frames are detected at once while the
// render draws and encodes the frames before them.
func (l *Live) Ahead(n int, pic composite.Surface) error {
	if err := l.start(pic); err != nil {
		return err
	}
	if err := l.t.Ahead(pic); err != nil {
		return err
	}
	l.ahead = append(l.ahead, n)
	return nil
}

// push tracks frame n (pic) as Frame does, with the tracker's detectors on several frames at
// once (as tracker.Tracker.Push does): with every detector busy, the oldest frame is
// tracked first, and kept; flush keeps the rest.
func (l *Live) push(n int, pic composite.Surface) error {
	if err := l.start(pic); err != nil {
		return err
	}
	if l.AheadFrames() == 0 {
		f, err := l.t.Step(pic)
		if err != nil {
			return err
		}
		_, err = l.record(n, f)
		return err
	}
	if len(l.ahead) > l.AheadFrames() {
		if err := l.nextDetected(); err != nil {
			return err
		}
	}
	return l.Ahead(n, pic)
}

// flush keeps what was found in the frames handed to Ahead and not yet tracked.
func (l *Live) flush() error {
	for len(l.ahead) > 0 {
		if err := l.nextDetected(); err != nil {
			return err
		}
	}
	return nil
}

// nextDetected tracks the oldest frame handed to Ahead, for push and flush, whose errors
// name it: it is frames before the frame being decoded, or after the last.
func (l *Live) nextDetected() error {
	oldest := l.ahead[0]
	if _, err := l.next(); err != nil {
		return fmt.Errorf("detecting frame %d: %w", oldest, err)
	}
	return nil
}

// next tracks the oldest frame handed to Ahead.
func (l *Live) next() (*scene.Frame, error) {
	f, err := l.t.Next()
	if err != nil {
		return nil, err
	}
	return l.recordOldest(f)
}

// recordOldest records f as the oldest frame handed to Ahead (or push).
func (l *Live) recordOldest(f *scene.Frame) (*scene.Frame, error) {
	n := l.ahead[0]
	l.ahead = append(l.ahead[:0], l.ahead[1:]...)
	return l.record(n, f)
}

// record makes frame n of what the tracker found in it (f), its boxes' points included,
// and keeps it when asked to; nil when nothing is tracked.
func (l *Live) record(n int, f *scene.Frame) (*scene.Frame, error) {
	c := &l.cur
	c.Index = n
	c.Boxes = append(c.Boxes[:0], f.Boxes...)
	c.Points = append(c.Points[:0], f.Points...)
	for _, b := range f.Boxes {
		p := scene.AnchorPoint(b.X, b.Y, b.W, b.H, l.anchor) // as the file's reader makes it
		p.ID = b.ID
		c.Points = append(c.Points, p)
	}
	if len(c.Boxes) == 0 && len(c.Points) == 0 {
		return nil, nil
	}
	l.tracked++
	if l.keep {
		if err := l.add(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// add keeps frame c, noting its highest id and its classes.
func (l *Live) add(c *scene.Frame) error {
	if l.kept == nil {
		l.kept = scene.NewCollector()
	}
	for _, b := range c.Boxes {
		l.lastID = max(l.lastID, b.ID)
		if l.class == "" {
			l.class = b.Class
		}
		l.classes = l.classes || b.Class != l.class
	}
	for _, p := range c.Points {
		l.lastID = max(l.lastID, p.ID)
	}
	return l.kept.Add(c)
}

// Tracks returns the frames kept.
func (l *Live) Tracks() (*scene.Tracks, error) {
	if l.done == nil {
		if l.kept == nil {
			l.kept = scene.NewCollector()
		}
		t, err := l.kept.Tracks()
		if err != nil {
			return nil, err
		}
		l.done = t
	}
	return l.done, nil
}

// errPrimed stops Prime's pass once it has its frames.
var errPrimed = errors.New("primed")

// Prime runs, for the motion mode, a first pass over the video vo reads (frames long, 0
// when unknown) and gives the background the frames tracker.PrimeAt picks, so that it
// starts as the whole video's median (tracker.PrimeBackground). The pass decodes up to the
// last frame picked; other modes need none. An input that cannot be read twice (a pipe, a
// stream) is not primed: the background learns from the frames as they come, as for a video
// of unknown length.
func (l *Live) Prime(ctx context.Context, vo video.Options, frames int) error {
	at := tracker.PrimeAt(frames)
	if l.o.Mode != tracker.Motion || at == nil || !rereadable(vo.Input) {
		return nil
	}
	vo.Source, vo.Progress, vo.Start, vo.End = nil, nil, video.Position{}, video.Position{}
	k := 0
	_, err := video.Frames(ctx, vo, func(n int, dst composite.Surface) error {
		if n != at[k] {
			return nil
		}
		if err := l.start(dst); err != nil {
			return err
		}
		if err := l.t.PrimeBackground(dst); err != nil {
			return err
		}
		if k++; k == len(at) {
			return errPrimed
		}
		return nil
	})
	if errors.Is(err, errPrimed) || errors.Is(err, video.ErrInputDamaged) {
		return nil // the frames that decoded are enough: the main pass reports damage
	}
	return err
}

// start makes l's tracker for pictures of pic's size, once.
func (l *Live) start(pic composite.Surface) error {
	if l.t != nil {
		return nil
	}
	w, h := pic.Size()
	t, err := tracker.New(l.o, w, h)
	l.t = t
	return err
}

// Track runs the tracker on the frames vo reads (of a video frames long), primed first as
// Prime says, and keeps what it found for Tracks and Write. With several detectors it
// detects as many frames at once; their goroutines stop when it returns.
func (l *Live) Track(ctx context.Context, vo video.Options, frames int) (video.Stats, error) {
	l.keep = true
	prime := video.Options{Input: vo.Input, VideoStream: vo.VideoStream, Orientation: vo.Orientation}
	if err := l.Prime(ctx, prime, frames); err != nil {
		return video.Stats{}, err
	}
	stats, err := video.Frames(ctx, vo, l.push)
	if err == nil || errors.Is(err, video.ErrInputDamaged) {
		err = cmp.Or(l.flush(), err)
	}
	l.Close()
	return stats, err
}

// Close stops the tracker's detections once those in flight are done (tracker.Tracker.Close),
// so that its detectors can be freed; Track closes it itself. A Live still tracks after
// Close, one frame at a time.
func (l *Live) Close() {
	if l.t != nil {
		l.t.Close()
	}
}

// TrackUpTo runs the tracker on the frames of vo's input (frames long) up to frame last, as
// a whole render would (primed from the whole video), and returns what it tracked.
func (l *Live) TrackUpTo(ctx context.Context, vo video.Options, last, frames int) (*scene.Tracks, error) {
	vo.End = video.Position{Frame: last}
	if _, err := l.Track(ctx, vo, frames); err != nil && !errors.Is(err, video.ErrInputDamaged) {
		return nil, err
	}
	return l.Tracks()
}

// Mode is the tracker's mode (tracker.Motion, tracker.Objects…).
func (l *Live) Mode() string { return l.o.Mode }

// Tracked is the number of frames with something tracked so far.
func (l *Live) Tracked() int { return l.tracked }

// LastID is the highest track id kept.
func (l *Live) LastID() int { return l.lastID }

// Analysis is the size the tracker analyses the frames at, 1/factor of theirs as it took
// them (upright, as shown, unless --orientation stored); 0 × 0 and 1 before the first frame.
func (l *Live) Analysis() (w, h, factor int) {
	if l.t == nil {
		return 0, 0, 1
	}
	w, h = l.t.Size()
	factor = l.t.Factor()
	return w / factor, h / factor, factor
}

// Names are the class names MOTChallenge text numbers the classes by (nil: none).
func (l *Live) Names() []string { return l.names }

// Lost says what the tracks Write wrote could not hold.
func (l *Live) Lost() []string { return l.lost }

// Write writes the frames kept to w in format f: JSON Lines holds them as they are; MOT
// text holds boxes (each point becomes a PointSize box centred on it, and a box's point is
// made again from it by the reader's anchor), with their classes numbered in Names when
// there are names, else without them (noted in Lost).
func (l *Live) Write(w io.Writer, f scene.Format) error {
	t, err := l.Tracks()
	if err != nil {
		return err
	}
	if f == scene.FormatMOT {
		// Boxes only, points as boxes: collected again, frame by frame.
		boxes := scene.NewCollector()
		var mf scene.Frame
		for fr := range t.All() {
			mf.Index, mf.Boxes = fr.Index, l.o.MOTBoxes(mf.Boxes[:0], fr)
			if err := boxes.Add(&mf); err != nil {
				return err
			}
		}
		if t, err = boxes.Tracks(); err != nil {
			return err
		}
	}
	if _, err := scene.WriteWith(w, t, f, scene.WriteOptions{ClassNames: l.names}); err != nil {
		return err
	}
	if err := t.Err(); err != nil {
		return err
	}
	if f == scene.FormatMOT && l.classes && l.names == nil {
		// Several classes are what such a tracks file is for: say how to keep them.
		l.lost = append(l.lost, "MOTChallenge text has no class column, so the classes are not written; write .jsonl to keep them")
	}
	return nil
}

// NothingHint says what to try when the tracker found nothing in the frames frames it
// tracked: a track is drawn from the frame its object is confirmed in (--confirm), so a clip
// shorter than that, or boxes the detector found and no track confirmed, point there; else
// at what finds the objects.
func (l *Live) NothingHint(frames int) string {
	switch {
	case frames < l.o.Confirm && l.found.Load() > 0:
		return fmt.Sprintf("a track is drawn once its object is seen in --confirm %d frames in a row, more than the %s tracked: try --confirm %d", l.o.Confirm, prose.Plural(frames, "frame"), max(frames, 1))
	case l.found.Load() > 0:
		return fmt.Sprintf("the detector found %s of --start-score %g or more, but none was seen in --confirm %d frames in a row to become a track: try a lower --confirm, or --min-area 0 for small objects",
			prose.Plural(int(l.found.Load()), "box"), l.o.StartScore, l.o.Confirm)
	}
	// What the mode reads that finds more, then another preset for what it misses.
	o := l.o
	var try []string
	switch {
	case o.Mode == tracker.Objects:
		try = append(try, "a lower --min-score or --start-score")
	case o.Threshold != tracker.Auto:
		try = append(try, "a lower --threshold")
	case o.Sensitivity < 1:
		try = append(try, "a higher --sensitivity")
	}
	// The automatic threshold finds nothing in a frame where nothing stands out of the
	// background; a fixed one does.
	switch {
	case o.Threshold != tracker.Auto:
	case o.Mode == tracker.Bright:
		try = append(try, "--threshold LEVEL (the 8-bit luma above which a pixel counts as bright)")
	case o.Mode == tracker.Dark:
		try = append(try, "--threshold LEVEL (the 8-bit luma below which a pixel counts as dark)")
	}
	if o.Mode != tracker.Points && o.MinArea > 0 {
		try = append(try, "a lower --min-area (0 for small objects)")
	}
	if l.Asked.Classes {
		try = append(try, "other --classes")
	}
	switch {
	case l.Asked.Preset == "people":
		try = append(try, "--detect objects for other things, or motion for anything that moves")
	case o.Mode == tracker.Objects:
		try = append(try, "--detect motion for anything that moves")
	case o.Mode == tracker.Motion:
		try = append(try, "--detect people for people, or points for a moving camera")
	default:
		try = append(try, "another --detect (people for people, motion for anything that moves)")
	}
	return "try " + prose.List(try, ", or ")
}

// rereadable reports whether input gives the same frames when opened again: a file or an
// image sequence, not a pipe (once reopened half read: "Invalid data found") or a stream.
func rereadable(input string) bool {
	if video.IsSequence(input) {
		return true
	}
	local, ok := outfile.LocalPath(input)
	if !ok {
		return false
	}
	st, err := os.Stat(local)
	return err == nil && st.Mode().IsRegular()
}
