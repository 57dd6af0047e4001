package tracker

import (
	"fmt"
	"testing"

	"trackink/eval"
	"trackink/internal/synthclip"
)

// motionVariants are motion clips made unlike TestAccuracy's: other seeds, and objects
// smaller or larger, slower or faster, over finer or coarser texture. None of their
// parameters was tuned on them.
var motionVariants = []synthclip.Options{
	{Seed: 21}, {Seed: 22}, {Seed: 23}, {Seed: 24}, {Seed: 25}, {Seed: 26},
	{Seed: 11, Size: 0.5},
	{Seed: 12, Size: 1.6},
	{Seed: 13, Speed: 0.4},
	{Seed: 31, Speed: 0.4},
	{Seed: 32, Speed: 0.4},
	{Seed: 14, Speed: 2},
	{Seed: 15, Grain: 0.5},
	{Seed: 33, Grain: 0.5},
	{Seed: 16, Grain: 2.5},
	{Seed: 17, Size: 1.4, Speed: 1.6, Grain: 1.8, Objects: 8},
	{Seed: 18, Size: 0.7, Speed: 0.6, Grain: 0.7, Width: 960, Height: 540},
}

// freshVariants are made as motionVariants are, with seeds 41 to 60, after the motion
// mode's rules were chosen on motionVariants. They check those rules on clips that chose
// none of them: choose no rule by them, or they no longer can.
var freshVariants = []synthclip.Options{
	{Seed: 41}, {Seed: 42}, {Seed: 43}, {Seed: 44}, {Seed: 45}, {Seed: 46},
	{Seed: 47, Size: 0.5}, {Seed: 48, Size: 0.5},
	{Seed: 49, Size: 1.6}, {Seed: 50, Size: 1.6},
	{Seed: 51, Speed: 0.4}, {Seed: 52, Speed: 0.4},
	{Seed: 53, Speed: 2}, {Seed: 54, Speed: 2},
	{Seed: 55, Grain: 0.5}, {Seed: 56, Grain: 0.5},
	{Seed: 57, Grain: 2.5}, {Seed: 58, Grain: 2.5},
	{Seed: 59, Size: 1.4, Speed: 1.6, Grain: 1.8, Objects: 8},
	{Seed: 60, Size: 0.7, Speed: 0.6, Grain: 0.7, Width: 960, Height: 540},
}

// TestMotionGeneralises scores the motion mode on every variant against the target,
// MOTA 0.75 on each, and holds 0.90 over all.
func TestMotionGeneralises(t *testing.T) {
	all := scoreMotionClips(t, motionVariants, 0.75)
	if r := eval.Sum(all...); r.MOTA() < 0.90 {
		t.Errorf("all variants: MOTA %.3f, want at least 0.90", r.MOTA())
	} else {
		t.Logf("all variants: MOTA %.3f IDF1 %.3f", r.MOTA(), r.IDF1())
	}
}

// TestMotionFreshClips scores the motion mode on clips its rules were not chosen on. Four
// of the twenty fall below the 0.75, down to 0.39: two objects that start or enter
// the frame as one region and stay one for 30 to 110 frames (seeds 53, 55, 57), and coarse
// texture that breaks objects into more pieces than the mask's closing mends (57, 58);
// splitting regions by the motion of their blocks did not lift them (docs/tracking.md,
// Measured). This test holds what the mode reaches over all, 0.892, less a margin: 0.85.
func TestMotionFreshClips(t *testing.T) {
	if testing.Short() {
		t.Skip("tracks 20 clips of 150 frames")
	}
	if r := eval.Sum(scoreMotionClips(t, freshVariants, 0)...); r.MOTA() < 0.85 {
		t.Errorf("all fresh clips: MOTA %.3f, want at least 0.85", r.MOTA())
	} else {
		t.Logf("all fresh clips: MOTA %.3f IDF1 %.3f", r.MOTA(), r.IDF1())
	}
}

// scoreMotionClips tracks each motion clip of variants (150 frames) in motion mode, logs its
// scores, reports an error for each whose MOTA is below least, and returns the results.
func scoreMotionClips(t *testing.T, variants []synthclip.Options, least float64) []eval.Result {
	t.Helper()
	var all []eval.Result
	for _, v := range variants {
		v.Kind, v.Frames = synthclip.Motion, 150
		clip, err := synthclip.New(v)
		if err != nil {
			t.Fatal(err)
		}
		r := eval.Boxes(clip.Truth(), trackClip(t, clip, DefaultOptions(Motion)), eval.DefaultIoU)
		all = append(all, r)
		o := clip.Options()
		name := fmt.Sprintf("seed %d size %g speed %g grain %g", o.Seed, o.Size, o.Speed, o.Grain)
		t.Logf("%s: MOTA %.3f IDF1 %.3f (misses %d, false positives %d, switches %d of %d boxes)",
			name, r.MOTA(), r.IDF1(), r.Misses, r.FalsePositives, r.IDSwitches, r.GTBoxes)
		if r.MOTA() < least {
			t.Errorf("%s: MOTA %.3f, want at least %.2f", name, r.MOTA(), least)
		}
	}
	return all
}
