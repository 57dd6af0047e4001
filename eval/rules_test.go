package eval

import (
	"math"
	"slices"
	"strings"
	"testing"

	"trackink/assign"
	"trackink/scene"
)

// TestRulesAccumulator: the CLEAR-MOT details in which TrackEval's rules part from
// py-motmetrics', each case worked by hand under both. Distances are 1 − IoU; NaN: the pair
// may not match.
func TestRulesAccumulator(t *testing.T) {
	type frame struct {
		gt, tracks []int
		dist       [][]float64
	}
	for _, c := range []struct {
		name                  string
		frames                []frame
		motmetrics, trackeval Result
	}{{
		// Ground truth 1 in 5 frames, matched in 4 (frame 5 its track is elsewhere): 80 %.
		// py-motmetrics: mostly tracked (≥ 80 %); TrackEval: partially (needs > 80 %).
		// Both: the miss in frame 5 is 1 miss and 1 false positive; MOTA 1 − 2/5 = 0.6.
		name: "mostly tracked at exactly 80 %",
		frames: []frame{
			{[]int{1}, []int{1}, [][]float64{{0.1}}}, {[]int{1}, []int{1}, [][]float64{{0.1}}},
			{[]int{1}, []int{1}, [][]float64{{0.1}}}, {[]int{1}, []int{1}, [][]float64{{0.1}}},
			{[]int{1}, []int{1}, [][]float64{{nan}}},
		},
		motmetrics: Result{Frames: 5, GTBoxes: 5, TrackBoxes: 5, GTIDs: 1, TrackIDs: 1, Matches: 4, Misses: 1,
			FalsePositives: 1, MostlyTracked: 1, IDTP: 4, IDFP: 1, IDFN: 1},
		trackeval: Result{Frames: 5, GTBoxes: 5, TrackBoxes: 5, GTIDs: 1, TrackIDs: 1, Matches: 4, Misses: 1,
			FalsePositives: 1, PartiallyTracked: 1, IDTP: 4, IDFP: 1, IDFN: 1},
	}, {
		// Ground truth 1 matched to track 1 in frames 1 and 3; in frame 2 it is not in the
		// ground truth (ground truth 2 is, and track 1 is far from it). py-motmetrics sees no
		// miss of 1, so no fragmentation; TrackEval sees two runs of matched frames, one
		// fragmentation. Both: frame 2 is 1 miss and 1 false positive.
		name: "fragmentation across a frame without the object",
		frames: []frame{
			{[]int{1}, []int{1}, [][]float64{{0.1}}},
			{[]int{2}, []int{1}, [][]float64{{nan}}},
			{[]int{1}, []int{1}, [][]float64{{0.1}}},
		},
		motmetrics: Result{Frames: 3, GTBoxes: 3, TrackBoxes: 3, GTIDs: 2, TrackIDs: 1, Matches: 2, Misses: 1,
			FalsePositives: 1, MostlyTracked: 1, MostlyLost: 1, IDTP: 2, IDFP: 1, IDFN: 1},
		trackeval: Result{Frames: 3, GTBoxes: 3, TrackBoxes: 3, GTIDs: 2, TrackIDs: 1, Matches: 2, Misses: 1,
			FalsePositives: 1, Fragmentations: 1, MostlyTracked: 1, MostlyLost: 1, IDTP: 2, IDFP: 1, IDFN: 1},
	}, {
		// Frame 1: 1↔1. Frame 2: no tracks, a miss. Frame 3: tracks 1 (distance 0.4) and 2
		// (0.1) both on ground truth 1. py-motmetrics forgets frame 1's pair at frame 2 and
		// takes the nearer track 2: a switch, and a fragmentation after the miss, track 1 a
		// false positive. TrackEval passes over frame 2, keeps the pair 1↔1 (its bonus beats
		// the better IoU): no switch; the run of matches is unbroken (no fragmentation);
		// track 2 is the false positive. Identity: 1–1 in frames 1 and 3 under both, IDTP 2.
		name: "a frame without tracks keeps the previous pairs",
		frames: []frame{
			{[]int{1}, []int{1}, [][]float64{{0.1}}},
			{[]int{1}, nil, nil},
			{[]int{1}, []int{1, 2}, [][]float64{{0.4, 0.1}}},
		},
		motmetrics: Result{Frames: 3, GTBoxes: 3, TrackBoxes: 3, GTIDs: 1, TrackIDs: 2, Matches: 2, Misses: 1,
			FalsePositives: 1, IDSwitches: 1, Fragmentations: 1, PartiallyTracked: 1, IDTP: 2, IDFP: 1, IDFN: 1},
		trackeval: Result{Frames: 3, GTBoxes: 3, TrackBoxes: 3, GTIDs: 1, TrackIDs: 2, Matches: 2, Misses: 1,
			FalsePositives: 1, PartiallyTracked: 1, IDTP: 2, IDFP: 1, IDFN: 1},
	}, {
		// Ground truth A (1), B (2); tracks X (1), Y (2); IoU A–X 0.9, A–Y 0.4, B–X 0.4, B–Y
		// none (a threshold of 0.3 lets 0.4 match). py-motmetrics makes the most pairs, A–Y and
		// B–X: 2 matches. TrackEval takes the greatest summed IoU, A–X alone (0.9 > 0.4 +
		// 0.4): 1 match, B a miss, Y a false positive, MOTA 1 − 2/2 = 0.
		name: "greatest summed IoU against most pairs",
		frames: []frame{
			{[]int{1, 2}, []int{1, 2}, [][]float64{{0.1, 0.6}, {0.6, nan}}},
		},
		motmetrics: Result{Frames: 1, GTBoxes: 2, TrackBoxes: 2, GTIDs: 2, TrackIDs: 2, Matches: 2,
			MostlyTracked: 2, IDTP: 2},
		trackeval: Result{Frames: 1, GTBoxes: 2, TrackBoxes: 2, GTIDs: 2, TrackIDs: 2, Matches: 1, Misses: 1,
			FalsePositives: 1, MostlyTracked: 1, MostlyLost: 1, IDTP: 2},
	}} {
		for _, r := range []struct {
			rules Rules
			want  Result
		}{{PyMotmetrics, c.motmetrics}, {TrackEval, c.trackeval}} {
			a := NewAccumulatorFor(r.rules)
			for _, f := range c.frames {
				update(a, f.gt, f.tracks, f.dist)
			}
			checkCounts(t, c.name+", "+r.rules.String(), a.Result(), r.want)
		}
	}
}

// TestRulesPreprocessing: TrackEval's per-frame removal of track boxes and choice of scored
// ground truth, on files as the readers give them with scene.Options.MarkIgnored. A track
// box on a ground-truth box has the same corners (IoU 1).
func TestRulesPreprocessing(t *testing.T) {
	// MOT17 ground truth (frame,id,x,y,w,h,consider,class,visibility), 10 × 10 boxes.
	const mot17 = `1,1,0,0,10,10,1,1,1
1,2,20,0,10,10,0,7,1
1,3,40,0,10,10,0,3,1
1,4,60,0,10,10,0,1,1
1,5,80,0,10,10,0,6,1
`
	// A track box on each of them, and one far off.
	const mot17Tracks = `1,1,0,0,10,10,1,-1,-1,-1
1,2,20,0,10,10,1,-1,-1,-1
1,3,40,0,10,10,1,-1,-1,-1
1,4,60,0,10,10,1,-1,-1,-1
1,5,80,0,10,10,1,-1,-1,-1
1,6,200,0,10,10,1,-1,-1,-1
`
	// KITTI: 10 × 30 boxes (frame id type truncated occluded alpha left top right bottom …).
	kitti := func(rows ...string) string {
		var s string
		for _, r := range rows {
			s += "0 " + r + " 1 1 1 1 1 1 0\n"
		}
		return s
	}
	for _, c := range []struct {
		name       string
		format     scene.Format
		gt, tracks string
		mot20      bool
		want       Result
	}{{
		// Ground truth: pedestrian 1; static person 2, car 3, pedestrian 4 and non-motorised
		// vehicle 5, all with consider flag 0. Removed: the box on the static person (a
		// distractor). Kept: the boxes on the car, on the pedestrian not considered and on
		// the vehicle (not MOT17 distractors), and the far one: 4 false positives. Scored
		// ground truth: pedestrian 1 alone, matched. MOTA 1 − 4/1 = −3.
		name: "MOT17 distractors", format: scene.FormatMOT, gt: mot17, tracks: mot17Tracks,
		want: Result{Frames: 1, GTBoxes: 1, TrackBoxes: 5, GTIDs: 1, TrackIDs: 5, Matches: 1, FalsePositives: 4,
			MostlyTracked: 1, IDTP: 1, IDFP: 4},
	}, {
		// MOT20's rules remove the box on the vehicle too: 3 false positives.
		name: "MOT20 distractors", format: scene.FormatMOT, gt: mot17, tracks: mot17Tracks, mot20: true,
		want: Result{Frames: 1, GTBoxes: 1, TrackBoxes: 4, GTIDs: 1, TrackIDs: 4, Matches: 1, FalsePositives: 3,
			MostlyTracked: 1, IDTP: 1, IDFP: 3},
	}, {
		// Pedestrian 1 at x 0 and reflection 2 at x 5; track 1 at x 2 has IoU 80/120 = 0.667
		// with the pedestrian and 70/130 = 0.538 with the reflection: the greatest summed IoU
		// gives it the pedestrian, and it stays. Pedestrian 3 at x 100 and reflection 4 at
		// x 103; track 2 at x 104 has IoU 60/140 = 0.429 (under 0.5) with the pedestrian and
		// 90/110 = 0.818 with the reflection: removed, and pedestrian 3 is missed.
		// 2 ground-truth boxes, 1 match, 1 miss: MOTA 0.5.
		name: "a track box goes to the ground truth it overlaps most", format: scene.FormatMOT,
		gt:     "1,1,0,0,10,10,1,1,1\n1,2,5,0,10,10,0,12,1\n1,3,100,0,10,10,1,1,1\n1,4,103,0,10,10,0,12,1\n",
		tracks: "1,1,2,0,10,10,1,-1,-1,-1\n1,2,104,0,10,10,1,-1,-1,-1\n",
		want: Result{Frames: 1, GTBoxes: 2, TrackBoxes: 1, GTIDs: 2, TrackIDs: 1, Matches: 1, Misses: 1,
			DistanceSum: 1 - 80.0/120, MostlyTracked: 1, MostlyLost: 1, IDTP: 1, IDFN: 1},
	}, {
		// Ground truth: Car 1 at x 0, Van 2 at x 20, Car 3 at x 40 truncated, Pedestrian 4 at
		// x 60, Person (sitting) 5 at x 80, Cyclist 6 at x 100, a DontCare region x 200–260.
		// Car class: track 1 on car 1 matches; tracks 2 (on the van) and 3 (on the truncated
		// car) are removed; track 4 at x 210, unmatched and wholly in the region, removed;
		// track 5 at x 255, half in the region (not more than half), stays, a false positive;
		// track 6 at x 300, 25 px tall (at most 25), removed; track 7 at x 320, 26 px tall,
		// stays, a false positive. Car: 1 match, 2 false positives.
		// Pedestrian class: track 8 on the person sitting is removed; track 9 on pedestrian 4
		// matches; track 10, a Pedestrian on car 1, matches no pedestrian: a false positive.
		// Track 11, a Cyclist, is in neither class. Pedestrian: 1 match, 1 false positive.
		// Summed: 2 ground-truth boxes, 5 track boxes, 2 matches, 3 false positives; MOTA
		// 1 − 3/2 = −0.5.
		name: "KITTI classes, distractors, DontCare and small boxes", format: scene.FormatKITTI,
		gt: kitti("1 Car 0 0 -10 0 0 10 30", "2 Van 0 0 -10 20 0 30 30", "3 Car 1 0 -10 40 0 50 30",
			"4 Pedestrian 0 0 -10 60 0 70 30", "5 Person 0 0 -10 80 0 90 30", "6 Cyclist 0 0 -10 100 0 110 30",
			"-1 DontCare -1 -1 -10 200 0 260 60"),
		tracks: kitti("1 Car 0 0 -10 0 0 10 30", "2 Car 0 0 -10 20 0 30 30", "3 Car 0 0 -10 40 0 50 30",
			"4 Car 0 0 -10 210 0 220 30", "5 Car 0 0 -10 255 0 265 30", "6 Car 0 0 -10 300 0 310 25",
			"7 Car 0 0 -10 320 0 330 26", "8 Pedestrian 0 0 -10 80 0 90 30", "9 Pedestrian 0 0 -10 60 0 70 30",
			"10 Pedestrian 0 0 -10 0 0 10 30", "11 Cyclist 0 0 -10 100 0 110 30"),
		want: Result{Frames: 1, GTBoxes: 2, TrackBoxes: 5, GTIDs: 2, TrackIDs: 5, Matches: 2, FalsePositives: 3,
			MostlyTracked: 2, IDTP: 2, IDFP: 3},
	}} {
		got := scoreTrackEval(t, c.format, c.gt, c.tracks, c.mot20)
		checkCounts(t, c.name, got, c.want)
		if d := math.Abs(got.DistanceSum - c.want.DistanceSum); d > 1e-9 {
			t.Errorf("%s: distance sum %g, want %g", c.name, got.DistanceSum, c.want.DistanceSum)
		}
	}
}

// scoreTrackEval reads ground truth and tracks of the format from text and scores them at
// IoU 0.5 under TrackEval's rules (MOT20's where mot20 is set).
func scoreTrackEval(t *testing.T, format scene.Format, gtText, tracksText string, mot20 bool) Result {
	t.Helper()
	gt, err := scene.Read(strings.NewReader(gtText), "gt", format, scene.Options{MarkIgnored: true})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := scene.Read(strings.NewReader(tracksText), "tracks", format, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Score(gt, tr, Options{IoU: 0.5, Rules: TrackEval, MOT20: mot20})
}

// TestTrackEvalTies: where several matchings of a frame score the same, TrackEval's rules
// pick the one TrackEval's scipy.optimize.linear_sum_assignment picks, and the counts follow
// it. The matrices (score[i*cols+j], 0: may not match) are tie-heavy cases on which an
// earlier matching picked another, equally good, one; their matchings are scipy 1.10.1's,
// on −score, less the pairs of score 0.
func TestTrackEvalTies(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		score      []float64
		want       []int
	}{
		{2, 1, []float64{0.9, 0.9}, []int{0, -1}},
		{3, 1, []float64{0.8, 0.9, 0.9}, []int{-1, 0, -1}},
		{5, 1, []float64{0.9, 0.9, 0.8, 0.9, 0.8}, []int{0, -1, -1, -1, -1}},
		{2, 2, []float64{0.9, 0.8, 0.9, 0.8}, []int{1, 0}},
		{2, 2, []float64{0, 0, 0.8, 0.8}, []int{-1, 1}},
		{2, 2, []float64{0.7, 0, 0.7, 0}, []int{0, -1}},
		{3, 2, []float64{0.9, 0.9, 0.9, 0.9, 0.9, 0.9}, []int{0, 1, -1}},
		{4, 2, []float64{0, 0.8, 0.9, 0, 0.9, 0.8, 0, 0.9}, []int{-1, 0, -1, 1}},
		{4, 2, []float64{0.8, 0.7, 0.9, 0.7, 0.8, 0.7, 0.7, 0.7}, []int{1, 0, -1, -1}},
		{2, 3, []float64{0.9, 0.8, 0.8, 0.9, 0.8, 0.7}, []int{1, 0}},
		{2, 4, []float64{0.9, 0.9, 0.8, 0.8, 0.9, 0, 0.9, 0.8}, []int{0, 2}},
		{2, 4, []float64{0.9, 0.7, 0.9, 0.8, 0.9, 0.7, 0, 0.9}, []int{0, 3}},
		{3, 3, []float64{0.7, 0.7, 0, 0.7, 0.7, 0, 0.7, 0.8, 0}, []int{0, -1, 1}},
		{3, 3, []float64{0.9, 0.7, 0.8, 0.9, 0.7, 0.9, 0.9, 0.7, 0.9}, []int{0, 1, 2}},
	} {
		var s assign.Solver
		var work []float64
		if got := maxScoreMatching(&s, &work, c.score, c.rows, c.cols); !slices.Equal(got, c.want) {
			t.Errorf("%d×%d %v: got %v, want %v", c.rows, c.cols, c.score, got, c.want)
		}
	}

	// Files on which the order of ties moved the counts, with TrackEval's.
	for _, c := range []struct {
		name       string
		gt, tracks string
		want       Result
		hota       float64
	}{{
		// MOT15. Frame 1: track 10 at x 10 overlaps ground truth 1 (x 0) and 2 (x 20) alike,
		// IoU 9000/11000; it goes to the first, 1. Frame 2: track 30 on ground truth 1, an
		// identity switch; 2 (now at x 500) is missed in both frames. MOTA 1 − 3/4 = 0.25,
		// 1 mostly tracked, 1 mostly lost; HOTA 0.470983 (TrackEval).
		name: "track between two people",
		gt: "1,1,0,0,100,100,1,-1,-1,-1\n1,2,20,0,100,100,1,-1,-1,-1\n" +
			"2,1,0,0,100,100,1,-1,-1,-1\n2,2,500,0,100,100,1,-1,-1,-1\n",
		tracks: "1,10,10,0,100,100,1,-1,-1,-1\n2,30,0,0,100,100,1,-1,-1,-1\n",
		want: Result{Frames: 2, GTBoxes: 4, TrackBoxes: 2, GTIDs: 2, TrackIDs: 2, Matches: 2, Misses: 2,
			IDSwitches: 1, DistanceSum: 1 - 9000.0/11000, MostlyTracked: 1, MostlyLost: 1, IDTP: 2, IDFN: 2},
		hota: 0.470983,
	}, {
		// MOT17. The track overlaps static person 2, listed first, and pedestrian 1 alike:
		// the distractor matching gives it to the static person, and it is removed. The
		// pedestrian is missed: MOTA 0, HOTA 0 (TrackEval).
		name:   "track between a static person and a pedestrian",
		gt:     "1,2,20,0,100,100,1,7,1\n1,1,0,0,100,100,1,1,1\n",
		tracks: "1,10,10,0,100,100,0.9,-1,-1,-1\n",
		want:   Result{Frames: 1, GTBoxes: 1, GTIDs: 1, Misses: 1, MostlyLost: 1, IDFN: 1},
	}} {
		got := scoreTrackEval(t, scene.FormatMOT, c.gt, c.tracks, false)
		checkCounts(t, c.name, got, c.want)
		if h := got.HOTA.Mean().HOTA; math.Abs(h-c.hota) > 1e-6 {
			t.Errorf("%s: HOTA %.6f, want %.6f", c.name, h, c.hota)
		}
	}
}

// BenchmarkTrackEvalCLEAR: CLEAR-MOT under TrackEval's rules on crowd's sequence, 500
// frames of 150 objects, the pairs of similarity 0.1 beyond the 0.5 threshold.
func BenchmarkTrackEvalCLEAR(b *testing.B) {
	const n, frames = 150, 500
	ids, trs, sims := crowd(n, frames)
	dists := make([][]float64, frames)
	for f, s := range sims {
		d := make([]float64, len(s))
		for k, x := range s {
			d[k] = math.NaN()
			if x >= DefaultIoU {
				d[k] = 1 - x
			}
		}
		dists[f] = d
	}
	b.ResetTimer()
	for range b.N {
		a := NewAccumulatorFor(TrackEval)
		for f := range frames {
			a.Update(ids, trs[f], dists[f])
		}
		a.Result()
	}
}
