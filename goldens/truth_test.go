package goldens

import (
	"bytes"
	"testing"

	"trackink/eval"
	"trackink/job"
	"trackink/scene"
)

// readFootageTracks reads the footage's tracks (footageTracks).
func readFootageTracks(t *testing.T) *scene.Tracks {
	t.Helper()
	tr, err := scene.Read(bytes.NewReader(footageTracks), "vtest-tracks.jsonl", scene.FormatJSONL, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// truthJudged returns drawer-truth's tracks and their judgement (render --gt): a tracker's
// output against
// ground truth both made from the footage's tracks so that frame drawerFrame shows every
// verdict: the ground truth is the tracks' boxes 4 px right and down (matched, the dashed
// outlines beside the boxes) without track 10 (a false positive in every frame); the
// tracker's output is the tracks with track 12 lost from frame 230 (its ground truth red
// from there) and track 1 renamed 101 from drawerFrame (an identity switch there).
func truthJudged(t *testing.T) (*scene.Tracks, *job.Judged) {
	t.Helper()
	var gtFrames, trFrames []scene.Frame
	for f := range readFootageTracks(t).All() {
		var g, tr []scene.Box
		for _, b := range f.Boxes {
			if b.ID != 10 {
				moved := b
				moved.X, moved.Y = b.X+4, b.Y+4
				g = append(g, moved)
			}
			switch {
			case b.ID == 12 && f.Index >= 230:
				continue
			case b.ID == 1 && f.Index >= drawerFrame:
				b.ID = 101
			}
			tr = append(tr, b)
		}
		gtFrames = append(gtFrames, scene.Frame{Index: f.Index, Boxes: g})
		trFrames = append(trFrames, scene.Frame{Index: f.Index, Boxes: tr})
	}
	gt, err := scene.NewTracks(gtFrames)
	if err != nil {
		t.Fatal(err)
	}
	tracks, err := scene.NewTracks(trFrames)
	if err != nil {
		t.Fatal(err)
	}
	j := job.Judge(gt, tracks, eval.Options{IoU: eval.DefaultIoU})
	at := j.Frame(drawerFrame)
	if at.Tags[10] != "FP" || at.Tags[101] != "IDSW" || len(at.Tags) != 2 {
		t.Fatalf("frame %d's tags %v: want track 10 FP, 101 IDSW", drawerFrame, at.Tags)
	}
	return tracks, j
}
