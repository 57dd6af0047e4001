package tracker

import (
	"context"
	"fmt"
	"time"
	"trackink/composite"
	"trackink/internal/baseline"
	"trackink/internal/cputime"
	"trackink/internal/synthclip"
	"trackink/video"
)

// BenchSet is the frames one row of the tracker's bench is timed on.
type BenchSet struct {
	About  string // where the frames are from, for the report
	Frames []*composite.YUV420P
}

// benchFrames is the distinct 1080p frames each mode is timed on (cycled): drawing
// synthetic frames costs far more than tracking them.
const benchFrames = 16

// BenchResult is what Bench measured.
type BenchResult struct {
	FPS   float64 // frames a second of wall time
	CPUms float64 // CPU time a frame (user + system, all threads), which the machine's other jobs disturb far less
}

// Bench runs a tracker with options o over frames, once untimed, then times n frames of
// them in turn, pushed (Tracker.Push: with several detectors, as many frames are detected
// at once).
func Bench(o Options, frames []*composite.YUV420P, n int) (BenchResult, error) {
	w, h := frames[0].Size()
	tr, err := New(o, w, h)
	if err != nil {
		return BenchResult{}, err
	}
	defer tr.Close()
	track := func(n int) error {
		for i := range n {
			if _, err := tr.Push(frames[i%len(frames)]); err != nil {
				return err
			}
		}
		for tr.Pending() > 0 {
			if _, err := tr.Next(); err != nil {
				return err
			}
		}
		return nil
	}
	if err := track(len(frames)); err != nil {
		return BenchResult{}, err
	}
	t0, c0 := time.Now(), cputime.Self()
	if err := track(n); err != nil {
		return BenchResult{}, err
	}
	return BenchResult{FPS: float64(n) / time.Since(t0).Seconds(),
		CPUms: float64((cputime.Self() - c0).Microseconds()) / 1e3 / float64(n)}, nil
}

// BenchSets are the frames mode is timed on: for the region and point modes 1080p frames of
// a synthetic clip of the mode's kind; for objects (the people detector) the first frames of
// vtest, OpenCV's vtest.avi, as they are (768x576) and enlarged to 1080p.
func BenchSets(mode, vtest string) ([]BenchSet, error) {
	const w, h = 1920, 1080
	if mode != Objects {
		kinds := map[string]synthclip.Kind{Bright: synthclip.Bright, Dark: synthclip.Dark,
			Motion: synthclip.Motion, Color: synthclip.Bright, Points: synthclip.Pan}
		clip, err := synthclip.New(synthclip.Options{Kind: kinds[mode], Width: w, Height: h, Frames: benchFrames, Seed: 1})
		if err != nil {
			return nil, err
		}
		fs := make([]*composite.YUV420P, benchFrames)
		for i := range fs {
			fs[i] = newYUV420P(w, h)
			clip.Frame(i+1, fs[i].Y, fs[i].U, fs[i].V)
		}
		return []BenchSet{{"a synthetic clip", fs}}, nil
	}
	var native, big []*composite.YUV420P
	_, err := video.Frames(context.Background(), video.Options{Input: vtest, End: video.Position{Frame: benchFrames}}, func(n int, s composite.Surface) error {
		f, ok := s.(*composite.YUV420P)
		if !ok {
			return fmt.Errorf("%s decodes to %T, not yuv420p", vtest, s)
		}
		native = append(native, copyYUV420P(f))
		b := newYUV420P(w, h)
		enlarge(b.Y, w, h, f.Y, f.StrideY, f.W, f.H)
		enlarge(b.U, w/2, h/2, f.U, f.StrideU, f.W/2, f.H/2)
		enlarge(b.V, w/2, h/2, f.V, f.StrideV, f.W/2, f.H/2)
		big = append(big, b)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the people bench reads %s (Debian's opencv-doc): %w", vtest, err)
	}
	about := fmt.Sprintf("the first %d frames of vtest.avi", len(native))
	return []BenchSet{{about, native}, {about, big}}, nil
}

func newYUV420P(w, h int) *composite.YUV420P {
	return &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
		StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
}

func copyYUV420P(f *composite.YUV420P) *composite.YUV420P {
	c := newYUV420P(f.W, f.H)
	for y := range f.H {
		copy(c.Y[y*f.W:(y+1)*f.W], f.Y[y*f.StrideY:])
	}
	for y := range f.H / 2 {
		copy(c.U[y*f.W/2:(y+1)*f.W/2], f.U[y*f.StrideU:])
		copy(c.V[y*f.W/2:(y+1)*f.W/2], f.V[y*f.StrideV:])
	}
	c.Matrix, c.Range = f.Matrix, f.Range
	return c
}

// enlarge scales a plane to w × h by nearest neighbour: frames to time at another size, not
// to look at.
func enlarge(dst []byte, w, h int, src []byte, stride, sw, sh int) {
	for y := range h {
		row := src[(y*sh/h)*stride:]
		for x := range w {
			dst[y*w+x] = row[x*sw/w]
		}
	}
}

// ModeBench is one row of the tracker's bench beside OpenCV (BenchModes): frames a second
// of wall time, and the CPU time a frame took (user + system, all threads), which the
// machine's other jobs disturb far less; as JSON names them.
type ModeBench struct {
	Mode        string  `json:"mode"`
	Size        string  `json:"size"`
	Frames      string  `json:"frames"`
	FPS         float64 `json:"fps"`
	CPUms       float64 `json:"cpu_ms"`
	OpenCVFPS   float64 `json:"opencv_fps,omitempty"`
	OpenCVCPUms float64 `json:"opencv_cpu_ms,omitempty"`
}

// BenchModes times the tracker alone in each mode on its BenchSets (vtest is vtest.avi's
// path), frames frames after a pass of warm-up, and beside it the same pipeline written
// with OpenCV (baseline.Bench) on the same frames, when python3-opencv is there; what keeps
// OpenCV out is said to warn. The objects mode is timed with options people gives (the
// people preset's network), closed when done.
func BenchModes(modes []string, vtest string, frames int, people func() (Options, func(), error), warn func(string)) ([]ModeBench, error) {
	py, pyErr := baseline.Python()
	if pyErr != nil {
		warn(fmt.Sprintf("OpenCV not timed: %v", pyErr))
	}
	var rows []ModeBench
	for _, mode := range modes {
		sets, err := BenchSets(mode, vtest)
		if err != nil {
			return nil, err
		}
		o := DefaultOptions(mode)
		if mode == Objects {
			var closeDetector func()
			if o, closeDetector, err = people(); err != nil {
				return nil, err
			}
			defer closeDetector()
		}
		for _, set := range sets {
			b, err := Bench(o, set.Frames, frames)
			if err != nil {
				return nil, err
			}
			w, h := set.Frames[0].Size()
			row := ModeBench{Mode: mode, Size: fmt.Sprintf("%dx%d", w, h), Frames: set.About, FPS: b.FPS, CPUms: b.CPUms}
			if pyErr == nil && mode != Color {
				if row.OpenCVFPS, row.OpenCVCPUms, err = openCVBench(py, mode, set.Frames, frames); err != nil {
					warn(fmt.Sprintf("OpenCV %s: %v", mode, err))
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// openCVBench times the same pipeline in OpenCV (baseline.Bench) on the same luma planes: a
// pass of warm-up, then frames.
func openCVBench(py, mode string, fs []*composite.YUV420P, frames int) (fps, cpuMS float64, err error) {
	planes := make([][]byte, len(fs)+frames)
	for i := range planes {
		planes[i] = fs[i%len(fs)].Y
	}
	w, h := fs[0].Size()
	return baseline.Bench(py, mode, planes, w, h, len(fs))
}
