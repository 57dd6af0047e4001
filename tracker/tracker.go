package tracker

import (
	"fmt"
	"math"
	"slices"

	"trackink/assign"
	"trackink/composite"
	"trackink/internal/field"
	"trackink/scene"
)

// Tracker follows objects through the frames of one video. Step it with every frame in
// order; it is not safe for use by several goroutines at once.
type Tracker struct {
	o            Options
	w, h, factor int
	diag         float64
	q, r         float64 // Kalman process and measurement noise
	start        float32 // the score a detection needs to start a track

	lum, cb, cr plane
	colorOn     *[1 << 16]byte // Color: colorTable
	mask        []byte
	moving      []rect // Motion: movingAt's
	morph       morph
	lab         labeller
	bg          background
	points      pointTracker

	// Objects: a frame for each detector, a ring of which queued from first are being
	// detected (ahead.go).
	objects       []objectsFrame
	first, queued int
	dets          []rect // this frame's detections, frame pixels
	taken         []bool // dets consumed by a match or a merge
	tracks        []track
	nextID        int
	solver        assign.Solver
	cost          []float64
	out           scene.Frame
	associated    int // frames associated (region modes and Objects)
}

// track is one object being followed; id 0 until it is confirmed.
type track struct {
	id           int
	k            [4]kalman1 // centre x, centre y, width, height
	hits, misses int
	det          int     // this frame's detection, -1 none
	region       int     // the detection it is merged in with other tracks (merges), -1 none
	held         int     // frames held in a merge since it last had a detection of its own
	sides        uint8   // the sides of region that are its own, bit s for side s (side)
	cut          uint8   // the sides of its last detection on the frame's border (bordersOf)
	class        int     // Objects: the class of its last detection
	score        float32 // Objects: the score of its last detection
}

func (t *track) predicted() rect { return t.ahead(0) }

// ahead is the track's box n frames on: each of its Kalman states moved by n times its
// velocity (predicted, before a frame's prediction, is ahead(1)).
func (t *track) ahead(n float64) rect {
	cx, cy := t.k[0].p+n*t.k[0].v, t.k[1].p+n*t.k[1].v
	w, h := max(t.k[2].p+n*t.k[2].v, 1), max(t.k[3].p+n*t.k[3].v, 1)
	return rect{x0: cx - w/2, y0: cy - h/2, x1: cx + w/2, y1: cy + h/2, area: w * h}
}

// New returns a Tracker for frames of w × h pixels.
func New(o Options, w, h int) (*Tracker, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.Mode == Objects && (len(o.Detectors) == 0 || slices.Contains(o.Detectors, nil)) {
		return nil, field.Errorf("tracker.Options.Detectors", nil, "mode %s needs a detector, and none of them nil", Objects)
	}
	t := &Tracker{o: o, w: w, h: h, factor: analysisFactor(h, o.AnalysisSize), nextID: 1}
	t.diag = math.Hypot(float64(w), float64(h))
	// Accelerations of a few thousandths of the diagonal per frame² are what hand-held or
	// walking motion shows; the measurement noise follows from --smooth.
	t.q = math.Pow(0.002*t.diag, 2)
	t.r = t.q * smoothRatio(o.Smooth)
	if o.Mode == Objects {
		t.start = float32(o.StartScore)
		t.objects = newObjectsFrames(o.Detectors)
	}
	return t, nil
}

// PrimeBackground gives Motion's background a frame from anywhere in the video, before the
// first Step. Primed with PrimeFrames frames spread over the whole video (PrimeAt), the
// background starts as the median of the video, not of its first frames: objects in view
// from the start, or slow to leave where they were, are not in it, and leave no ghosts.
// Tracking then samples the frames as it goes, as without priming. Other modes ignore it.
func (t *Tracker) PrimeBackground(s composite.Surface) error {
	if t.o.Mode != Motion {
		return nil
	}
	y, _, _, err := t.planes(s)
	if err != nil {
		return err
	}
	downscale(&t.lum, y, t.factor)
	t.bg.prime(&t.lum)
	return nil
}

// PrimeFrames is how many frames PrimeBackground takes: the background's samples.
const PrimeFrames = motionSamples

// PrimeAt returns the frames (1-based) to prime a tracker of a video of n frames with:
// PrimeFrames of them, evenly spread from the first to the last; none for a video shorter
// than that.
func PrimeAt(n int) []int {
	if n < PrimeFrames {
		return nil
	}
	at := make([]int, PrimeFrames)
	for k := range at {
		at[k] = 1 + k*(n-1)/(PrimeFrames-1)
	}
	return at
}

// planes returns frame s's planes, which must be of the tracker's size.
func (t *Tracker) planes(s composite.Surface) (y, cb, cr source, err error) {
	if w, h := s.Size(); w != t.w || h != t.h {
		return y, cb, cr, fmt.Errorf("tracker: frame is %dx%d, the tracker's %dx%d", w, h, t.w, t.h)
	}
	return planes(s)
}

// Factor is the box filter's factor: the analysed planes are 1/Factor of the frame's size.
func (t *Tracker) Factor() int { return t.factor }

// Size is the size of the frames the tracker takes (New's).
func (t *Tracker) Size() (w, h int) { return t.w, t.h }

// Step analyses the next frame and returns what is tracked in it: boxes with their ids
// (region modes) or points (Points). The frame's Index is left 0 for the caller to set;
// the returned frame and its slices are the Tracker's and valid until the next Step,
// Next or Push. With Objects, the frames handed to Ahead (or Push) go to Next before a Step.
// With Motion, a frame that repeats the last picture analysed is not analysed: it returns
// what was tracked in that picture (background.repeats), and counts for neither
// Options.Confirm nor Options.Grace.
func (t *Tracker) Step(s composite.Surface) (*scene.Frame, error) {
	if t.o.Mode == Objects {
		if t.queued > 0 {
			return nil, fmt.Errorf("tracker: Step with %d frames handed to Ahead and not to Next", t.queued)
		}
		if err := t.Ahead(s); err != nil {
			return nil, err
		}
		return t.Next()
	}
	y, cb, cr, err := t.planes(s)
	if err != nil {
		return nil, err
	}
	downscale(&t.lum, y, t.factor)
	if t.o.Mode == Motion && t.bg.repeats(&t.lum) {
		// The same picture again: what is tracked in it is what was.
		return &t.out, nil
	}
	t.out.Boxes, t.out.Points = t.out.Boxes[:0], t.out.Points[:0]
	if t.o.Mode == Color || t.o.Mode == Points && (t.o.PointSeed == SeedColor || t.o.PointSeed == SeedColorEdges) {
		chromaAt(&t.cb, cb, t.factor, t.lum.w, t.lum.h)
		chromaAt(&t.cr, cr, t.factor, t.lum.w, t.lum.h)
	}
	if t.o.Mode == Points {
		t.points.step(t, &t.lum)
		return &t.out, nil
	}
	t.detect()
	t.associate()
	return &t.out, nil
}

// detect fills t.dets with this frame's regions in frame pixels.
func (t *Tracker) detect() {
	p := &t.lum
	t.mask = grow(t.mask, p.w*p.h)
	found := true
	switch t.o.Mode {
	case Bright, Dark:
		var hist [256]int
		histogram(&hist, p.pix)
		dark := t.o.Mode == Dark
		if dark {
			// The mirror image: the darker class becomes the upper one.
			for i := 0; i < 128; i++ {
				hist[i], hist[255-i] = hist[255-i], hist[i]
			}
		}
		th, ok := isodata(&hist, t.o.Sensitivity)
		if t.o.Threshold != Auto {
			th, ok = int(t.o.Threshold), true
			if dark {
				th = 255 - th
			}
		}
		found = ok
		if dark {
			binarize(t.mask, p.pix, 255-th-1, true) // v ≤ 254−th ⇔ 255−v > th
		} else {
			binarize(t.mask, p.pix, th, false)
		}
	case Motion:
		found = t.bg.foreground(t.mask, p, t.o.Threshold, t.o.Sensitivity)
	case Color:
		t.colorMask()
	}
	t.dets = t.dets[:0]
	if t.o.Mode == Motion {
		// Sampled after this frame's regions are found (and ghosts absorbed).
		defer func() { t.bg.update(p, t.dets, t.factor) }()
	}
	if !found {
		return
	}
	open, closing := 3, 3
	if t.o.Mode == Motion {
		// The neighbourhood mean widens what moves by motionRadius on each side: a wire or
		// a ribbon in the wind, a few pixels thick, is not an object.
		open = 2*motionRadius + 3
		closing = grainClosing(t.bg.grain, open)
	}
	t.morph.clean(t.mask, p.w, p.h, open, closing)
	comps := t.lab.components(t.mask, p.w, p.h)
	if t.o.Mode == Motion {
		comps = t.bg.dropGhosts(&t.lab, comps, p, t.movingAt())
	}
	a := float64(p.w * p.h)
	comps = keep(comps, t.o.MinArea*a, t.o.MaxArea*a, t.o.MaxObjects)
	f := float64(t.factor)
	for _, c := range comps {
		t.dets = append(t.dets, rect{x0: c.x0 * f, y0: c.y0 * f, x1: c.x1 * f, y1: c.y1 * f, area: c.area * f * f})
	}
}

// colorMask marks the saturated pixels, or those near the hue asked for, by the table
// colorTable makes once.
func (t *Tracker) colorMask() {
	if t.colorOn == nil {
		t.colorOn = colorTable(t.o)
	}
	on := t.colorOn
	cb, cr := t.cb.pix[:len(t.mask)], t.cr.pix[:len(t.mask)]
	for i := range t.mask {
		t.mask[i] = on[int(cb[i])<<8|int(cr[i])]
	}
}

// colorTable says, for every chroma pair (Cb·256 + Cr), whether it is saturated, or near
// the hue asked for: 1 or 0. Saturation is the chroma's distance from grey; the hue, the
// angle of (Cb, Cr), compared with the angle of the pure colour of that hue (BT.601
// coefficients; BT.709's differ by a few degrees).
func colorTable(o Options) *[1 << 16]byte {
	th := o.Threshold
	if th == Auto {
		th = 20 + float64(40*(1-o.Sensitivity))
	}
	var hueCb, hueCr float64
	if o.Hue != Auto {
		r, g, b := hueRGB(o.Hue)
		hueCb = float64(-0.168736*r) - float64(0.331264*g) + float64(0.5*b)
		hueCr = float64(0.5*r) - float64(0.418688*g) - float64(0.081312*b)
		n := math.Hypot(hueCb, hueCr)
		hueCb, hueCr = hueCb/n, hueCr/n
	}
	// Within 30° of the hue: cos 30° of the chroma's length.
	const cos30 = 0.8660254
	var tab [1 << 16]byte
	for i := range tab {
		u, v := float64(i>>8)-128, float64(i&255)-128
		sat := math.Hypot(u, v)
		on := sat > th
		if on && o.Hue != Auto {
			on = float64(u*hueCb)+float64(v*hueCr) > cos30*sat
		}
		tab[i] = b2u(on)
	}
	return &tab
}

// hueRGB is the fully saturated colour of hue h degrees, components 0..1.
func hueRGB(h float64) (r, g, b float64) {
	c := func(n float64) float64 {
		k := math.Mod(n+h/60, 6)
		return 1 - max(0, min(k, 4-k, 1))
	}
	return c(5), c(3), c(1)
}

// movingAt returns where the confirmed tracks that move (minMoving) are predicted in this
// frame, in analysed pixels: where the ghost test (dropGhosts) must not write a ghost into
// the background.
func (t *Tracker) movingAt() []rect {
	t.moving = t.moving[:0]
	f := float64(t.factor)
	for i := range t.tracks {
		tr := &t.tracks[i]
		if tr.id == 0 || math.Hypot(tr.k[0].v, tr.k[1].v) < minMoving*f {
			continue
		}
		b := tr.ahead(1)
		t.moving = append(t.moving, rect{x0: b.x0 / f, y0: b.y0 / f, x1: b.x1 / f, y1: b.y1 / f})
	}
	return t.moving
}
