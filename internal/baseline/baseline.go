// Package baseline runs what trackink's tracker is measured against: what a user would
// write in an afternoon with OpenCV (opencv_baseline.py, the one OpenCV script, embedded
// here). Track runs its tracker (Otsu threshold or MOG2, connected components, Hungarian
// matching on IoU) or OpenCV's HOG people detector, the classical peer of the trained
// network behind --detect people, for the accuracy tests, which print its scores beside
// trackink's; Bench times trackink's own pipeline written in OpenCV, for `trackink bench
// --detect`.
//
// It needs python3 with OpenCV, NumPy and SciPy (Debian's python3-opencv and
// python3-scipy, which trackink's setup installs); Score skips the test, saying so, where
// they are missing.
package baseline

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"trackink/eval"
	"trackink/internal/synthclip"
	"trackink/scene"
)

//go:embed opencv_baseline.py
var script []byte

// Python returns a python3 that imports cv2, numpy and scipy: the one on PATH, else
// Debian's /usr/bin/python3 (a pyenv or virtualenv python on PATH does not see Debian's
// packages). The error says what is missing.
func Python() (string, error) {
	var tried []string
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		out, err := exec.Command(path, "-c", "import cv2, numpy, scipy.optimize").CombinedOutput()
		if err == nil {
			return path, nil
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		tried = append(tried, fmt.Sprintf("%s: %s", path, lines[len(lines)-1]))
	}
	if len(tried) == 0 {
		return "", errors.New("no python3 found")
	}
	return "", fmt.Errorf("no python3 with OpenCV and SciPy (install python3-opencv python3-scipy): %s", strings.Join(tried, "; "))
}

// Track runs the baseline tracker in mode "bright" or "motion" on video with the given
// python, writing its tracks to out as MOTChallenge text; mode "hog" writes OpenCV's HOG
// people detections instead (id -1), for trackink's association to follow. frames > 0 stops
// after that many frames.
func Track(python, video, out, mode string, frames int) error {
	_, err := run(python, "track", "--mode", mode, "--frames", fmt.Sprint(frames), video, out)
	return err
}

// Bench times trackink's pipeline for mode (bright, dark, motion, points, objects) written
// in OpenCV on planes, w × h 8-bit luma planes run in turn: the first warmup of them
// untimed. It returns the frames a second and the CPU milliseconds a frame (user + system,
// all of OpenCV's threads).
func Bench(python, mode string, planes [][]byte, w, h, warmup int) (fps, cpuMS float64, err error) {
	dir, err := os.MkdirTemp("", "trackink-baseline-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	raw := filepath.Join(dir, "frames.raw")
	if err := os.WriteFile(raw, bytes.Join(planes, nil), 0o644); err != nil {
		return 0, 0, err
	}
	out, err := run(python, "bench", mode, raw, strconv.Itoa(w), strconv.Itoa(h), strconv.Itoa(warmup))
	if err != nil {
		return 0, 0, err
	}
	if _, err := fmt.Sscan(out, &fps, &cpuMS); err != nil {
		return 0, 0, fmt.Errorf("baseline: bench %s printed %q: %v", mode, out, err)
	}
	return fps, cpuMS, nil
}

// run runs the script with args and returns what it printed.
func run(python string, args ...string) (string, error) {
	dir, err := os.MkdirTemp("", "trackink-baseline-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	prog := filepath.Join(dir, "opencv_baseline.py")
	if err := os.WriteFile(prog, script, 0o644); err != nil {
		return "", err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(python, append([]string{prog}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("baseline: opencv_baseline.py %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Score makes the synthetic clip o describes (Bright or Motion) in a temporary directory
// and returns ScoreFiles' result on it.
func Score(tb testing.TB, o synthclip.Options) eval.Result {
	tb.Helper()
	clip, err := synthclip.New(o)
	if err != nil {
		tb.Fatal(err)
	}
	kind := clip.Options().Kind
	if kind != synthclip.Bright && kind != synthclip.Motion {
		tb.Fatalf("baseline: the OpenCV baseline has no mode for %s clips", kind)
	}
	video, truth, err := clip.Save(tb.TempDir(), kind.String())
	if err != nil {
		tb.Fatal(err)
	}
	return ScoreFiles(tb, video, truth, kind.String())
}

// ScoreFiles runs the baseline in mode ("bright" or "motion") on video and returns its
// scores against the ground-truth file truth at eval.DefaultIoU; a test that has saved a
// clip (synthclip's Save) for its own tracker scores the baseline on the same file. It
// skips tb when python3, OpenCV or SciPy is missing, and fails it on any other error.
func ScoreFiles(tb testing.TB, video, truth, mode string) eval.Result {
	tb.Helper()
	python, err := Python()
	if err != nil {
		tb.Skipf("OpenCV baseline not run: %v", err)
	}
	out := filepath.Join(tb.TempDir(), mode+".opencv.txt")
	if err := Track(python, video, out, mode, 0); err != nil {
		tb.Fatal(err)
	}
	gt, err := scene.Load(truth, scene.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tracks, err := scene.Load(out, scene.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return eval.Boxes(gt, tracks, eval.DefaultIoU)
}
