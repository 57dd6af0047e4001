package eval

import (
	"maps"
	"testing"

	"trackink/scene"
)

// TestFramesVerdicts: each frame's verdicts on hand-worked cases, under both rule sets.
// Ground truth 1 at (0, 0) and 2 at (100, 0), 10 × 10 boxes; track boxes exactly on them
// unless said.
func TestFramesVerdicts(t *testing.T) {
	type frame struct {
		gt, tracks []scene.Box
		truth      map[int]Verdict // ground-truth id → verdict
		verdicts   map[int]Verdict // track id → verdict
		fp, fn, sw int             // counts so far
	}
	for _, c := range []struct {
		name   string
		frames []frame
	}{
		{"a match", []frame{
			{gt: []scene.Box{box(1, 0, 0)}, tracks: []scene.Box{box(7, 1, 0)}, // IoU 90/110 ≥ 0.5
				truth: map[int]Verdict{1: Matched}, verdicts: map[int]Verdict{7: Matched}},
		}},
		{"a miss", []frame{
			// IoU 50/150 = 1/3 < 0.5: no match, a miss and a false positive.
			{gt: []scene.Box{box(1, 0, 0)}, tracks: []scene.Box{box(7, 5, 0)},
				truth: map[int]Verdict{1: Missed}, verdicts: map[int]Verdict{7: FalsePositive}, fp: 1, fn: 1},
			{gt: []scene.Box{box(1, 0, 0), box(2, 100, 0)}, tracks: []scene.Box{box(7, 0, 0)},
				truth: map[int]Verdict{1: Matched, 2: Missed}, verdicts: map[int]Verdict{7: Matched}, fp: 1, fn: 2},
		}},
		{"a false positive", []frame{
			{gt: []scene.Box{box(1, 0, 0)}, tracks: []scene.Box{box(7, 0, 0), box(8, 50, 50)},
				truth: map[int]Verdict{1: Matched}, verdicts: map[int]Verdict{7: Matched, 8: FalsePositive}, fp: 1},
		}},
		{"a switch", []frame{
			{gt: []scene.Box{box(1, 0, 0), box(2, 100, 0)}, tracks: []scene.Box{box(7, 0, 0), box(8, 100, 0)},
				truth: map[int]Verdict{1: Matched, 2: Matched}, verdicts: map[int]Verdict{7: Matched, 8: Matched}},
			// Track 7 is lost; track 9 takes ground truth 1 over: a switch on 9, none on 8.
			{gt: []scene.Box{box(1, 0, 0), box(2, 100, 0)}, tracks: []scene.Box{box(9, 0, 0), box(8, 100, 0)},
				truth: map[int]Verdict{1: Switched, 2: Matched}, verdicts: map[int]Verdict{9: Switched, 8: Matched}, sw: 1},
			// 9 keeps it: no further switch.
			{gt: []scene.Box{box(1, 0, 0)}, tracks: []scene.Box{box(9, 0, 0)},
				truth: map[int]Verdict{1: Matched}, verdicts: map[int]Verdict{9: Matched}, sw: 1},
		}},
	} {
		for _, rules := range []Rules{PyMotmetrics, TrackEval} {
			gtFrames, trFrames := map[int][]scene.Box{}, map[int][]scene.Box{}
			for i, f := range c.frames {
				gtFrames[i+1], trFrames[i+1] = f.gt, f.tracks
			}
			gt, tr := tracksOf(t, gtFrames), tracksOf(t, trFrames)
			var got []*FrameVerdicts
			Frames(gt, tr, Options{IoU: DefaultIoU, Rules: rules}, func(v *FrameVerdicts) { got = append(got, v) })
			if len(got) != len(c.frames) {
				t.Fatalf("%s, %s: %d frames of verdicts, want %d", c.name, rules, len(got), len(c.frames))
			}
			for i, f := range c.frames {
				v := got[i]
				truth := map[int]Verdict{}
				for _, b := range v.Truth {
					truth[b.ID] = b.Verdict
				}
				if v.Index != i+1 || !maps.Equal(truth, f.truth) || !maps.Equal(v.Tracks, f.verdicts) {
					t.Errorf("%s, %s, frame %d: frame %d, truth %v, tracks %v; want truth %v, tracks %v",
						c.name, rules, i+1, v.Index, truth, v.Tracks, f.truth, f.verdicts)
				}
				if r := v.Counts; r.FalsePositives != f.fp || r.Misses != f.fn || r.IDSwitches != f.sw || r.Frames != i+1 {
					t.Errorf("%s, %s, frame %d: %d frames, FP %d FN %d IDSW %d; want %d, %d %d %d",
						c.name, rules, i+1, r.Frames, r.FalsePositives, r.Misses, r.IDSwitches, i+1, f.fp, f.fn, f.sw)
				}
			}
			final := Score(gt, tr, Options{IoU: DefaultIoU, Rules: rules})
			if last := got[len(got)-1].Counts; last.MOTA() != final.MOTA() || last.GTBoxes != final.GTBoxes {
				t.Errorf("%s, %s: last frame's MOTA %g of %d boxes, Score's %g of %d", c.name, rules, last.MOTA(), last.GTBoxes, final.MOTA(), final.GTBoxes)
			}
		}
	}
}

// TestFramesEndAsScore: on PETS09-S2L1 made into MOT17 ground truth with distractors, and
// a tracker's output with misses, switches and false positives (petsFiles), the last frame's
// counts are Score's under both rule sets, and each frame's verdicts add up to the change
// in the counts.
func TestFramesEndAsScore(t *testing.T) {
	gt17, tracks := petsFiles(t, t.TempDir())
	tr, err := scene.Load(tracks, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range []Rules{PyMotmetrics, TrackEval} {
		g, err := scene.Load(gt17, scene.Options{MarkIgnored: rules == TrackEval, DropIgnored: rules == PyMotmetrics})
		if err != nil {
			t.Fatal(err)
		}
		o := Options{IoU: DefaultIoU, Rules: rules}
		var last, prev Result
		Frames(g, tr, o, func(v *FrameVerdicts) {
			var fp, fn, sw int
			for _, b := range v.Truth {
				if b.Verdict == Missed {
					fn++
				}
			}
			for _, verdict := range v.Tracks {
				switch verdict {
				case FalsePositive:
					fp++
				case Switched:
					sw++
				}
			}
			c := v.Counts
			if c.FalsePositives-prev.FalsePositives != fp || c.Misses-prev.Misses != fn || c.IDSwitches-prev.IDSwitches != sw {
				t.Fatalf("%s, frame %d: verdicts FP %d FN %d IDSW %d, counts moved by %d %d %d", rules, v.Index, fp, fn, sw,
					c.FalsePositives-prev.FalsePositives, c.Misses-prev.Misses, c.IDSwitches-prev.IDSwitches)
			}
			prev, last = c, c
		})
		want := Score(g, tr, o)
		if last.MOTA() != want.MOTA() || last.FalsePositives != want.FalsePositives || last.Misses != want.Misses ||
			last.IDSwitches != want.IDSwitches || last.Frames != want.Frames || want.IDSwitches == 0 {
			t.Errorf("%s: last frame %d frames, MOTA %g FP %d FN %d IDSW %d; Score %d, %g %d %d %d", rules, last.Frames, last.MOTA(),
				last.FalsePositives, last.Misses, last.IDSwitches, want.Frames, want.MOTA(), want.FalsePositives, want.Misses, want.IDSwitches)
		}
	}
}
