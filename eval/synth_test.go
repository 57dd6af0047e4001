package eval

import (
	"testing"

	"trackink/internal/synthclip"
	"trackink/scene"
)

// relabel returns t with every box's id mapped by id, except in frame swapAt, where the
// ids of the first two boxes are exchanged.
func relabel(t *testing.T, tr *scene.Tracks, id func(int) int, swapAt int) *scene.Tracks {
	t.Helper()
	var frames []scene.Frame
	for f := range tr.All() {
		boxes := append([]scene.Box(nil), f.Boxes...)
		for i := range boxes {
			boxes[i].ID = id(boxes[i].ID)
		}
		if f.Index == swapAt {
			boxes[0].ID, boxes[1].ID = boxes[1].ID, boxes[0].ID
		}
		frames = append(frames, scene.Frame{Index: f.Index, Boxes: boxes})
	}
	out, err := scene.NewTracks(frames)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSyntheticTruth scores a synthetic clip's ground truth against itself: perfect, and
// still perfect with every id renamed (ids are labels, not answers). Exchanging two ids in
// one frame of the middle costs two switches there and two more when they return (the
// previous frame's pairs no longer hold either time): MOTA = 1 − 4/boxes; IDF1 loses those
// two boxes on each side: 2(B − 2) / 2B.
func TestSyntheticTruth(t *testing.T) {
	clip, err := synthclip.New(synthclip.Options{Kind: synthclip.Bright, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	gt := clip.Truth()
	perfect := Boxes(gt, gt, DefaultIoU)
	renamed := Boxes(gt, relabel(t, gt, func(id int) int { return 1000 - id }, 0), DefaultIoU)
	for name, r := range map[string]Result{"itself": perfect, "renamed": renamed} {
		if r.MOTA() != 1 || r.IDF1() != 1 || r.MOTP() != 1 || r.IDSwitches != 0 || r.MostlyTracked != r.GTIDs {
			t.Errorf("truth against %s: MOTA %g IDF1 %g MOTP %g, %d switches, %d of %d mostly tracked",
				name, r.MOTA(), r.IDF1(), r.MOTP(), r.IDSwitches, r.MostlyTracked, r.GTIDs)
		}
	}
	// Frame 45 has at least two objects in every default clip (they cross mid-clip).
	var f scene.Frame
	if n := len(gt.Frame(45, &f).Boxes); n < 2 {
		t.Fatalf("frame 45 has %d boxes", n)
	}
	swapped := Boxes(gt, relabel(t, gt, func(id int) int { return id }, 45), DefaultIoU)
	b := float64(perfect.GTBoxes)
	if swapped.IDSwitches != 4 || !near(swapped.MOTA(), 1-4/b, 1e-12) || !near(swapped.IDF1(), (b-2)/b, 1e-12) {
		t.Errorf("one frame's ids exchanged: %d switches, MOTA %g, IDF1 %g; want 4, %g, %g",
			swapped.IDSwitches, swapped.MOTA(), swapped.IDF1(), 1-4/b, (b-2)/b)
	}
}
