package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"trackink/internal/prose"
	"trackink/options"
	"trackink/tracker"
)

// vtestPath is the pedestrians clip of Debian's opencv-doc package.
const vtestPath = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"

// benchDetect times the tracker alone (tracker.BenchModes) on frames analysed at 540 lines (768 × 576 whole),
// beside the same pipeline written with OpenCV, and prints the rows.
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
				return options.UsageError{Err: fmt.Errorf("--detect %q: want all, people, or modes among %s", modes, strings.Join(tracker.Modes, ","))}
			}
		}
	}
	people, skipped := options.People, ""
	if modes == "all" {
		// all is every mode this machine can time: the objects mode needs the detector's
		// model and runtime, which a machine may lack; without them the other modes are
		// timed and the skip said first (it failed before timing any).
		o, closeNets, err := options.People()
		if err != nil {
			list = slices.DeleteFunc(slices.Clone(list), func(m string) bool { return m == tracker.Objects })
			skipped = err.Error()
			fmt.Fprintf(stderr, "trackink bench: objects (--detect people) not timed: %s\n", skipped)
		} else {
			people = func() (tracker.Options, func(), error) { return o, closeNets, nil }
		}
	}
	rows, err := tracker.BenchModes(list, vtestPath, frames, people, func(s string) { fmt.Fprintf(stderr, "trackink bench: %s\n", s) })
	if err != nil {
		return err
	}
	if jsonOut {
		rep := map[string]any{"detect": rows, "analysis_lines": 540}
		if skipped != "" {
			rep["skipped"] = map[string]string{tracker.Objects: skipped}
		}
		return json.NewEncoder(stdout).Encode(rep)
	}
	fmt.Fprintln(stdout, detectHeader(frames))
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
			networks, threads := options.Networks(runtime.GOMAXPROCS(0))
			fmt.Fprintf(stdout, "objects: --detect people (YOLOX-Nano; networks: %d, each on a frame of its own; threads a network: %d) on %s; OpenCV: its HOG people detector, the same association\n",
				networks, threads, r.Frames)
			break
		}
	}
	if skipped != "" {
		fmt.Fprintln(stdout, "objects: not timed: no detector here (standard error says why)")
	}
	return nil
}

// detectHeader is the line above the tracker's table.
func detectHeader(frames int) string {
	return fmt.Sprintf("tracking alone, frames analysed at 540 lines (768 × 576 whole), %s a mode (trackink's tracker on 1 thread, its network and OpenCV on their own; CPU: user + system a frame, all threads)",
		prose.Plural(frames, "frame"))
}
