package cli

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"trackink/composite"
	"trackink/internal/baseline"
	"trackink/internal/synthclip"
	"trackink/tracker"
	"trackink/video"
)

//go:embed bench_detect.py
var benchDetectScript []byte

// benchDetectFrames is the distinct 1080p frames each mode is timed on (cycled): drawing
// synthetic frames costs far more than tracking them.
const benchDetectFrames = 16

// detectRow is one mode's figures: frames a second of wall time, and the CPU time a frame
// took (user + system, all threads), which the machine's other jobs disturb far less.
type detectRow struct {
	Mode        string  `json:"mode"`
	FPS         float64 `json:"fps"`
	CPUms       float64 `json:"cpu_ms"`
	OpenCVFPS   float64 `json:"opencv_fps,omitempty"`
	OpenCVCPUms float64 `json:"opencv_cpu_ms,omitempty"`
}

// benchDetect times the tracker alone on 1080p frames of a synthetic clip of each mode's
// kind (analysed at 540 lines), after a pass of warm-up, and beside it the same pipeline
// written with OpenCV (bench_detect.py) on the same frames, when python3-opencv is there.
func benchDetect(modes string, frames int, jsonOut bool, stdout, stderr io.Writer) error {
	list := tracker.Modes
	if modes != "all" {
		list = strings.Split(modes, ",")
		for _, m := range list {
			if !slices.Contains(tracker.Modes, m) {
				return usageError{fmt.Errorf("--detect %q: want all or modes among %s", modes, strings.Join(tracker.Modes, ","))}
			}
		}
	}
	py, pyErr := baseline.Python()
	if pyErr != nil {
		fmt.Fprintf(stderr, "trackink bench: OpenCV not timed: %v\n", pyErr)
	}
	dir, err := os.MkdirTemp("", "trackink-bench-detect-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	kinds := map[string]synthclip.Kind{tracker.Bright: synthclip.Bright, tracker.Dark: synthclip.Dark,
		tracker.Motion: synthclip.Motion, tracker.Color: synthclip.Bright, tracker.Points: synthclip.Pan}
	const w, h = 1920, 1080
	var rows []detectRow
	for _, mode := range list {
		clip, err := synthclip.New(synthclip.Options{Kind: kinds[mode], Width: w, Height: h, Frames: benchDetectFrames, Seed: 1})
		if err != nil {
			return err
		}
		fs := make([]*composite.YUV420P, benchDetectFrames)
		for i := range fs {
			f := &composite.YUV420P{Y: make([]byte, w*h), U: make([]byte, w*h/4), V: make([]byte, w*h/4),
				StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
			clip.Frame(i+1, f.Y, f.U, f.V)
			fs[i] = f
		}
		tr, err := tracker.New(tracker.DefaultOptions(mode), w, h)
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
		row := detectRow{Mode: mode, FPS: float64(frames) / time.Since(t0).Seconds(),
			CPUms: float64((video.SelfCPU() - c0).Microseconds()) / 1e3 / float64(frames)}
		if pyErr == nil && mode != tracker.Color {
			if row.OpenCVFPS, row.OpenCVCPUms, err = openCVFPS(py, dir, mode, fs, frames); err != nil {
				fmt.Fprintf(stderr, "trackink bench: OpenCV %s: %v\n", mode, err)
			}
		}
		rows = append(rows, row)
	}
	if jsonOut {
		return json.NewEncoder(stdout).Encode(map[string]any{"detect": rows, "width": w, "height": h, "analysis_lines": 540})
	}
	fmt.Fprintf(stdout, "tracking alone, %dx%d frames analysed at 540 lines, %d frames a mode (trackink on 1 thread, OpenCV on its own; CPU: user + system a frame, all threads)\n", w, h, frames)
	fmt.Fprintf(stdout, "%-8s %12s %12s %8s   %10s %10s %8s\n", "mode", "trackink fps", "OpenCV fps", "ratio",
		"CPU ms/fr", "OpenCV", "ratio")
	for _, r := range rows {
		cv, ratio, cvCPU, cpuRatio := "-", "-", "-", "-"
		if r.OpenCVFPS > 0 {
			cv, ratio = fmt.Sprintf("%.1f", r.OpenCVFPS), fmt.Sprintf("%.2f×", r.FPS/r.OpenCVFPS)
			cvCPU, cpuRatio = fmt.Sprintf("%.2f", r.OpenCVCPUms), fmt.Sprintf("%.2f×", r.OpenCVCPUms/r.CPUms)
		}
		fmt.Fprintf(stdout, "%-8s %12.1f %12s %8s   %10.2f %10s %8s\n", r.Mode, r.FPS, cv, ratio, r.CPUms, cvCPU, cpuRatio)
	}
	return nil
}

// openCVFPS runs bench_detect.py on the same luma planes: a pass of warm-up, then frames.
// It returns the frames a second and the CPU milliseconds a frame.
func openCVFPS(py, dir, mode string, fs []*composite.YUV420P, frames int) (fps, cpuMS float64, err error) {
	raw := filepath.Join(dir, "frames.raw")
	f, err := os.Create(raw)
	if err != nil {
		return 0, 0, err
	}
	for i := range len(fs) + frames {
		if _, err := f.Write(fs[i%len(fs)].Y); err != nil {
			f.Close()
			return 0, 0, err
		}
	}
	if err := f.Close(); err != nil {
		return 0, 0, err
	}
	prog := filepath.Join(dir, "bench_detect.py")
	if err := os.WriteFile(prog, benchDetectScript, 0o644); err != nil {
		return 0, 0, err
	}
	w, h := fs[0].Size()
	out, err := exec.Command(py, prog, mode, raw, strconv.Itoa(w), strconv.Itoa(h), strconv.Itoa(len(fs))).Output()
	if err != nil {
		return 0, 0, err
	}
	if _, err := fmt.Sscan(string(out), &fps, &cpuMS); err != nil {
		return 0, 0, fmt.Errorf("bench_detect.py printed %q: %v", out, err)
	}
	return fps, cpuMS, nil
}
