package baseline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/eval"
	"trackink/internal/synthclip"
)

// TestOpenCVBaseline runs the OpenCV baseline on the default Bright and Motion clips and
// logs its scores as `trackink eval` prints them. It holds that the baseline runs, reads
// the whole clip, finds the objects (Otsu on bright shapes is easy: recall above a half;
// MOG2 on moving texture finds some) with boxes that fit where they match, and that the
// clips stay hard for it (MOTA under 0.9): the tracker's targets are above this line.
func TestOpenCVBaseline(t *testing.T) {
	var rows []eval.Named
	for _, c := range []struct {
		kind      synthclip.Kind
		minRecall float64
	}{{synthclip.Bright, 0.5}, {synthclip.Motion, 0.2}} {
		r := Score(t, synthclip.Options{Kind: c.kind, Seed: 1})
		rows = append(rows, eval.Named{Name: "OpenCV " + c.kind.String(), Result: r})
		if r.Frames != 90 || r.GTBoxes == 0 || r.TrackBoxes == 0 {
			t.Errorf("%s: %d frames, %d ground-truth boxes, %d track boxes: the clip was not read whole", c.kind, r.Frames, r.GTBoxes, r.TrackBoxes)
		}
		if r.Recall() < c.minRecall || r.MOTP() < 0.7 {
			t.Errorf("%s: recall %.3f, MOTP %.3f: want recall ≥ %g and MOTP ≥ 0.7", c.kind, r.Recall(), r.MOTP(), c.minRecall)
		}
		if r.MOTA() >= 0.9 {
			t.Errorf("%s: MOTA %.3f: the clip has become easy for the baseline", c.kind, r.MOTA())
		}
	}
	var b strings.Builder
	eval.WriteTable(&b, rows)
	t.Logf("OpenCV baseline on the synthetic clips (seed 1, 640×360, 90 frames, IoU ≥ 0.5):\n%s", b.String())
}

// TestBenchWithoutHOG: Bench of the modes that need no HOG detector runs on an OpenCV
// without one (a GPU machine's opencv-python-headless had no cv2.HOGDescriptor, and every
// mode failed there). A cv2 put first on PYTHONPATH hands out the real module less
// HOGDescriptor.
func TestBenchWithoutHOG(t *testing.T) {
	python, err := Python()
	if err != nil {
		t.Skip(err)
	}
	shim := filepath.Join(t.TempDir(), "cv2")
	if err := os.Mkdir(shim, 0o755); err != nil {
		t.Fatal(err)
	}
	const hide = `import os, sys
here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != here]
del sys.modules["cv2"]
import cv2 as real
del real.HOGDescriptor
sys.modules["cv2"] = real
`
	if err := os.WriteFile(filepath.Join(shim, "__init__.py"), []byte(hide), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", filepath.Dir(shim))
	const w, h = 64, 48
	planes := make([][]byte, 4)
	for i := range planes {
		planes[i] = bytes.Repeat([]byte{byte(40 * i)}, w*h)
	}
	for _, mode := range []string{"bright", "dark", "motion", "points"} {
		if _, _, err := Bench(python, mode, planes, w, h, 1); err != nil {
			t.Errorf("%s: %v", mode, err)
		}
	}
	if _, _, err := Bench(python, "objects", planes, w, h, 1); err == nil || !strings.Contains(err.Error(), "HOGDescriptor") {
		t.Errorf("objects without HOG: %v, want an error naming HOGDescriptor (the shim did not hide it?)", err)
	}
}
