package tracker

import (
	"errors"
	"fmt"

	"trackink/composite"
	"trackink/detect"
	"trackink/scene"
)

// Objects' detections need nothing from the frames before them; only the association does,
// and it takes microseconds where the network takes milliseconds. So with several detectors
// (Options.Detectors), Ahead starts a frame's detection on a detector of its own and Next
// associates the frames in order as their detections finish: as many frames are detected at
// once as there are detectors. A network a frame, each on a core of its own, keeps every
// core busy where one network's own threads share out too little of a small network's short
// layers (two cores: two single-thread networks detect 1.3 to 1.6 times the frames a second
// one two-thread network does).

// objectsFrame is a frame whose detection is running or done: its analysis planes, as the
// detector reads them, and the detector's boxes.
type objectsFrame struct {
	lum, cb, cr plane
	image       detect.Image
	found       []detect.Detection // analysis pixels
	err         error
	det         Detector
	// run starts the detection in the frame's goroutine and done says it has finished; both
	// nil when the detection runs on the caller's goroutine (one detector, or after Close).
	run, done chan struct{}
}

func (f *objectsFrame) detect() { f.found, f.err = f.det.Detect(f.found[:0], &f.image) }

// serve runs the detections run asks for until run is closed. It is handed the channels
// rather than reading f's: Close clears f's, maybe before the goroutine has started.
func (f *objectsFrame) serve(run <-chan struct{}, done chan<- struct{}) {
	for range run {
		f.detect()
		done <- struct{}{}
	}
}

// newObjectsFrames returns a frame for each detector, with a goroutine for each when there
// are several.
func newObjectsFrames(dets []Detector) []objectsFrame {
	fs := make([]objectsFrame, len(dets))
	for i, d := range dets {
		fs[i].det = d
		if len(dets) > 1 {
			fs[i].run, fs[i].done = make(chan struct{}), make(chan struct{}, 1)
			go fs[i].serve(fs[i].run, fs[i].done)
		}
	}
	return fs
}

// Ahead starts the detection of frame s, the next in order (Objects), on a detector of its
// own; Next tracks it once the frames before it are tracked. With every detector busy it is
// an error: Next frees one. Ahead does not read s after it returns.
func (t *Tracker) Ahead(s composite.Surface) error {
	switch {
	case t.o.Mode != Objects:
		return fmt.Errorf("tracker: Ahead is for mode %s, not %s", Objects, t.o.Mode)
	case t.queued == len(t.objects):
		return fmt.Errorf("tracker: Ahead with %d frames being detected, one a detector: Next first", t.queued)
	}
	y, cb, cr, err := t.planes(s)
	if err != nil {
		return err
	}
	f := &t.objects[(t.first+t.queued)%len(t.objects)]
	downscale(&f.lum, y, t.factor)
	chromaAt(&f.cb, cb, t.factor, f.lum.w, f.lum.h)
	chromaAt(&f.cr, cr, t.factor, f.lum.w, f.lum.h)
	m, r := matrixRange(s)
	f.image = detect.Image{Y: f.lum.pix, Cb: f.cb.pix, Cr: f.cr.pix, W: f.lum.w, H: f.lum.h, Matrix: m, Range: r}
	t.queued++
	if f.run == nil {
		f.detect()
	} else {
		f.run <- struct{}{}
	}
	return nil
}

// Next tracks the oldest frame handed to Ahead, once its detection is done, and returns
// what is tracked in it, as Step does.
func (t *Tracker) Next() (*scene.Frame, error) {
	if t.queued == 0 {
		return nil, errors.New("tracker: Next with no frame handed to Ahead")
	}
	f := &t.objects[t.first]
	if f.run != nil {
		<-f.done
	}
	t.first = (t.first + 1) % len(t.objects)
	t.queued--
	t.out.Boxes, t.out.Points = t.out.Boxes[:0], t.out.Points[:0]
	if f.err != nil {
		return nil, f.err
	}
	t.dets = t.dets[:0]
	s := float64(t.factor)
	a := float64(f.lum.w * f.lum.h)
	for _, d := range f.found {
		r := rect{x0: float64(d.X0) * s, y0: float64(d.Y0) * s, x1: float64(d.X1) * s, y1: float64(d.Y1) * s,
			class: d.Class, score: d.Score}
		r.area = r.w() * r.h()
		if ar := r.area / (s * s * a); ar >= t.o.MinArea && ar <= t.o.MaxArea && len(t.dets) < t.o.MaxObjects {
			t.dets = append(t.dets, r)
		}
	}
	t.associate()
	return &t.out, nil
}

// Pending is the number of frames handed to Ahead and not yet tracked by Next.
func (t *Tracker) Pending() int { return t.queued }

// Push tracks frame s, the next in order, as Step does, but with several detectors
// (Objects) detects as many frames at once (Ahead) and returns the frame tracked now: with
// n detectors, the frame pushed n pushes before, nil for the first n. Next returns the
// others (Pending of them). Push does not read s after it returns. With one detector, or
// in another mode, Push is Step.
func (t *Tracker) Push(s composite.Surface) (*scene.Frame, error) {
	if len(t.objects) < 2 {
		return t.Step(s)
	}
	var out *scene.Frame
	if t.queued == len(t.objects) {
		var err error
		if out, err = t.Next(); err != nil {
			return nil, err
		}
	}
	return out, t.Ahead(s)
}

// Close stops the detectors' goroutines, once the frames they are detecting are done; the
// detectors are the caller's to close. A Tracker still tracks after Close, detecting each
// frame on the caller's goroutine.
func (t *Tracker) Close() {
	for i := range t.objects {
		f := &t.objects[(t.first+i)%len(t.objects)]
		if f.run != nil && i < t.queued {
			<-f.done
		}
	}
	for i := range t.objects {
		f := &t.objects[i]
		if f.run != nil {
			close(f.run)
			f.run, f.done = nil, nil
		}
	}
}
