package cli

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"trackink/composite"
	"trackink/detect"
	"trackink/internal/baseline"
	"trackink/tracker"
)

// vtestPath is the pedestrians clip of Debian's opencv-doc package.
const vtestPath = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"

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
		sets, err := tracker.BenchSets(mode, vtestPath)
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
			b, err := tracker.Bench(o, set.Frames, frames)
			if err != nil {
				return err
			}
			w, h := set.Frames[0].Size()
			row := detectRow{Mode: mode, Size: fmt.Sprintf("%dx%d", w, h), Frames: set.About, FPS: b.FPS, CPUms: b.CPUms}
			if pyErr == nil && mode != tracker.Color {
				if row.OpenCVFPS, row.OpenCVCPUms, err = openCVFPS(py, mode, set.Frames, frames); err != nil {
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
