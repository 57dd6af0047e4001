package job

import (
	"testing"

	"trackink/eval"
	"trackink/overlay"
	"trackink/scene"
)

// TestJudgedDrawing: a segment's plan counts the judgement drawn (render --gt), so that the
// join refuses segments drawn with other ground truth or none; the same ground truth draws
// the same plan.
func TestJudgedDrawing(t *testing.T) {
	box := func(id int, x float32) scene.Box { return scene.Box{ID: id, X: x, Y: 10, W: 20, H: 40} }
	tracks, err := scene.NewTracks([]scene.Frame{{Index: 1, Boxes: []scene.Box{box(1, 10)}}, {Index: 2, Boxes: []scene.Box{box(1, 12)}}})
	if err != nil {
		t.Fatal(err)
	}
	truth := func(x float32) *scene.Tracks {
		gt, err := scene.NewTracks([]scene.Frame{{Index: 1, Boxes: []scene.Box{box(5, x)}}, {Index: 2, Boxes: []scene.Box{box(5, x)}}})
		if err != nil {
			t.Fatal(err)
		}
		return gt
	}
	o := overlay.Options{Style: overlay.DefaultStyle()}
	plan := func(j *Judged) string { return drawing("cpu", o, &Stored{Tracks: tracks, Judged: j}, 1, 2) }
	judge := func(x float32) *Judged { return Judge(truth(x), tracks, eval.Options{IoU: eval.DefaultIoU}) }
	none, near, far := plan(nil), plan(judge(10)), plan(judge(200))
	if none == near || near == far || none == far {
		t.Errorf("plans: without ground truth %s, with it near %s, far %s: want three", none, near, far)
	}
	if again := plan(judge(10)); again != near {
		t.Errorf("the same ground truth drew plan %s, then %s", near, again)
	}
}
