package baseline

import (
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
