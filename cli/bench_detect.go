package cli

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"trackink/composite"
	"trackink/detect"
	"trackink/internal/baseline"
	"trackink/internal/synthclip"
	"trackink/tracker"
	"trackink/video"
)

// benchDetectFrames is the distinct 1080p frames each mode is timed on (cycled): drawing
// synthetic frames costs far more than tracking them.
const benchDetectFrames = 16

// detectRow is one mode's figures: frames a second of wall time, and the CPU time a frame
// took (user + system, all threads), which the machine's other jobs disturb far less.
type detectRow struct {
	Mode        string  `json:"mode"`
	Size        string  `json:"size"`
	Frames      string  `json:"frames"`
	FPS         float64 `json:"fps"`
	CPUms       float64 `json:"cpu_ms"`
	OpenCVFPS   float64 `json:"opencv_fps,omitempty"`
	OpenCVCPUms float64 `json:"opencv_cpu_ms,omitempty"`
}

// benchDetect times the tracker alone on the frames of benchDetectFrameSets (analysed at 540
// lines), after a pass of warm-up, and beside it the same pipeline written with OpenCV
// (baseline.Bench) on the same frames, when python3-opencv is there.
func benchDetect(modes string, frames int, jsonOut bool, stdout, stderr io.Writer) error {
	list := tracker.Modes
	if modes != "all" {
		list = strings.Split(modes, ",")
		for i, m := range list {
			if m == "people" {
				list[i] = tracker.Objects // the objects row times the people preset
				continue
			}
			if !slices.Contains(tracker.Modes, m) {
				return usageError{fmt.Errorf("--detect %q: want all, people, or modes among %s", modes, strings.Join(tracker.Modes, ","))}
			}
		}
	}
	py, pyErr := baseline.Python()
	if pyErr != nil {
		fmt.Fprintf(stderr, "trackink bench: OpenCV not timed: %v\n", pyErr)
	}
	var rows []detectRow
	for _, mode := range list {
		sets, err := benchDetectFrameSets(mode)
		if err != nil {
			return err
		}
		o := tracker.DefaultOptions(mode)
		if mode == tracker.Objects {
			// The people preset's network, as track and render --detect people make it.
			d := detectFlags{preset: "people", minScore: detect.DefaultOptions().MinScore}
			p, _ := tracker.LookupPreset(d.preset)
			o = p.Options
			closeDetector, err := d.detector(&o)
			if err != nil {
				return err
			}
			defer closeDetector()
		}
		for _, set := range sets {
			fs := set.frames
			w, h := fs[0].Size()
			tr, err := tracker.New(o, w, h)
			if err != nil {
				return err
			}
			for _, f := range fs {
				if _, err := tr.Step(f); err != nil {
					return err
				}
			}
			t0, c0 := time.Now(), video.SelfCPU()
			for i := range frames {
				tr.Step(fs[i%len(fs)])
			}
			row := detectRow{Mode: mode, Size: fmt.Sprintf("%dx%d", w, h), Frames: set.about,
				FPS:   float64(frames) / time.Since(t0).Seconds(),
				CPUms: float64((video.SelfCPU() - c0).Microseconds()) / 1e3 / float64(frames)}
			if pyErr == nil && mode != tracker.Color {
				if row.OpenCVFPS, row.OpenCVCPUms, err = openCVFPS(py, mode, fs, frames); err != nil {
					fmt.Fprintf(stderr, "trackink bench: OpenCV %s: %v\n", mode, err)
				}
			}
			rows = append(rows, row)
		}
	}
	if jsonOut {
		return json.NewEncoder(stdout).Encode(map[string]any{"detect": rows, "analysis_lines": 540})
	}
	fmt.Fprintf(stdout, "tracking alone, frames analysed at 540 lines, %d frames a mode (trackink's tracker on 1 thread, its network and OpenCV on their own; CPU: user + system a frame, all threads)\n", frames)
	fmt.Fprintf(stdout, "%-8s %-10s %12s %12s %8s   %10s %10s %8s\n", "mode", "size", "trackink fps", "OpenCV fps", "ratio",
		"CPU ms/fr", "OpenCV", "ratio")
	for _, r := range rows {
		cv, ratio, cvCPU, cpuRatio := "-", "-", "-", "-"
		if r.OpenCVFPS > 0 {
			cv, ratio = fmt.Sprintf("%.1f", r.OpenCVFPS), fmt.Sprintf("%.2f×", r.FPS/r.OpenCVFPS)
			cvCPU, cpuRatio = fmt.Sprintf("%.2f", r.OpenCVCPUms), fmt.Sprintf("%.2f×", r.OpenCVCPUms/r.CPUms)
		}
		fmt.Fprintf(stdout, "%-8s %-10s %12.1f %12s %8s   %10.2f %10s %8s\n", r.Mode, r.Size, r.FPS, cv, ratio, r.CPUms, cvCPU, cpuRatio)
	}
	for _, r := range rows {
		if r.Mode == tracker.Objects {
			fmt.Fprintf(stdout, "objects: --detect people (YOLOX-Nano) on %s; OpenCV: its HOG people detector, the same association\n", r.Frames)
			break
		}
	}
	return nil
}

// frameSet is the frames one row of the bench is timed on.
type frameSet struct {
	about  string
	frames []*composite.YUV420P
}

// benchDetectFrameSets are the frames mode is timed on: for the region and point modes 1080p
// frames of a synthetic clip of the mode's kind; for objects (the people detector) the first
// frames of vtest.avi, as they are (768x576) and enlarged to 1080p.
func benchDetectFrameSets(mode string) ([]frameSet, error) {
	const w, h = 1920, 1080
	if mode != tracker.Objects {
		kinds := map[string]synthclip.Kind{tracker.Bright: synthclip.Bright, tracker.Dark: synthclip.Dark,
			tracker.Motion: synthclip.Motion, tracker.Color: synthclip.Bright, tracker.Points: synthclip.Pan}
		clip, err := synthclip.New(synthclip.Options{Kind: kinds[mode], Width: w, Height: h, Frames: benchDetectFrames, Seed: 1})
		if err != nil {
			return nil, err
		}
		fs := make([]*composite.YUV420P, benchDetectFrames)
		for i := range fs {
			fs[i] = newYUV420P(w, h)
			clip.Frame(i+1, fs[i].Y, fs[i].U, fs[i].V)
		}
		return []frameSet{{"a synthetic clip", fs}}, nil
	}
	var native, big []*composite.YUV420P
	_, err := video.Frames(context.Background(), video.Options{Input: vtestPath, End: video.Position{Frame: benchDetectFrames}}, func(n int, s composite.Surface) error {
		f, ok := s.(*composite.YUV420P)
		if !ok {
			return fmt.Errorf("%s decodes to %T, not yuv420p", vtestPath, s)
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
		return nil, fmt.Errorf("the people bench reads %s (Debian's opencv-doc): %w", vtestPath, err)
	}
	about := fmt.Sprintf("the first %d frames of vtest.avi", len(native))
	return []frameSet{{about, native}, {about, big}}, nil
}

// vtestPath is the pedestrians clip of Debian's opencv-doc package.
const vtestPath = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"

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

// openCVFPS times the same pipeline in OpenCV (baseline.Bench) on the same luma planes: a
// pass of warm-up, then frames.
func openCVFPS(py, mode string, fs []*composite.YUV420P, frames int) (fps, cpuMS float64, err error) {
	planes := make([][]byte, len(fs)+frames)
	for i := range planes {
		planes[i] = fs[i%len(fs)].Y
	}
	w, h := fs[0].Size()
	return baseline.Bench(py, mode, planes, w, h, len(fs))
}
