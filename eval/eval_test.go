package eval

import (
	"maps"
	"math"
	"testing"

	"trackink/scene"
)

var nan = math.NaN()

// near reports whether got is want within tol, NaN matching NaN.
func near(got, want, tol float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= tol
}

// update feeds one frame given as py-motmetrics writes it: rows of distances.
func update(a *Accumulator, gt, tracks []int, rows [][]float64) {
	var d []float64
	for _, r := range rows {
		d = append(d, r...)
	}
	a.Update(gt, tracks, d)
}

// checkCounts compares the counts of r with want's, field by field.
func checkCounts(t *testing.T, name string, r, want Result) {
	t.Helper()
	r.DistanceSum, want.DistanceSum = 0, 0
	r.HOTA, want.HOTA = HOTACounts{}, HOTACounts{}
	if r != want {
		t.Errorf("%s:\n got %+v\nwant %+v", name, r, want)
	}
}

// TestPyMotmetricsMOTAMOTP is py-motmetrics' test_mota_motp (tests/test_metrics.py).
//
//	frame 0: no ground truth, tracks 1, 2                  → 2 false positives
//	frame 1: ground truth 1, 2, no tracks                  → 2 misses
//	frame 2: [[1, 0.5], [0.3, 1]]: the least total is 0.5 + 0.3, so 1↔2, 2↔1 (2 matches)
//	frame 3: [[0.2, NaN], [NaN, 0.1]]: both previous pairs are now forbidden; 1↔1, 2↔2,
//	         each a switch from the track at its last match (2 matches, 2 switches)
//	frame 4: [[5, 1], [1, 5]]: the previous pairs 1↔1, 2↔2 may still match (5 is a
//	         number), so they are kept although 1 + 1 would be cheaper (2 matches)
//	frame 5: nothing.
//
// Ground-truth boxes 8, track boxes 8, matches 6 (py-motmetrics: 4 matches + 2 switches),
// MOTA = 1 − (2 + 2 + 2)/8 = 0.25, mean distance (0.5+0.3+0.2+0.1+5+5)/6 = 11.1/6.
func TestPyMotmetricsMOTAMOTP(t *testing.T) {
	a := NewAccumulator()
	update(a, nil, []int{1, 2}, nil)
	update(a, []int{1, 2}, nil, nil)
	update(a, []int{1, 2}, []int{1, 2}, [][]float64{{1, 0.5}, {0.3, 1}})
	update(a, []int{1, 2}, []int{1, 2}, [][]float64{{0.2, nan}, {nan, 0.1}})
	update(a, []int{1, 2}, []int{1, 2}, [][]float64{{5, 1}, {1, 5}})
	update(a, nil, nil, nil)
	r := a.Result()
	if r.Matches != 6 || r.FalsePositives != 2 || r.Misses != 2 || r.IDSwitches != 2 ||
		r.GTBoxes != 8 || r.TrackBoxes != 8 || r.Frames != 6 {
		t.Errorf("counts %+v", r)
	}
	if !near(r.MOTA(), 0.25, 1e-12) || !near(r.MeanDistance(), 11.1/6, 1e-12) {
		t.Errorf("MOTA %g, mean distance %g; want 0.25, %g", r.MOTA(), r.MeanDistance(), 11.1/6)
	}
	// py-motmetrics' test_extract_counts on the same events: the frames each pair may match
	// (frames 2, 3, 4 for 1↔1 and 2↔2: 3 each; frames 2 and 4 for the crossed pairs).
	want := map[[2]int]int{{1, 1}: 3, {1, 2}: 2, {2, 1}: 2, {2, 2}: 3}
	if !maps.Equal(a.pairs, want) {
		t.Errorf("pair counts %v, want %v", a.pairs, want)
	}
}

// TestPyMotmetricsIDs is py-motmetrics' test_ids.
//
//	frame 0: nothing
//	frame 1: [[1, 0], [0, 1]]                → 1↔2, 2↔1 (distance 0 + 0)
//	frame 2: [[0.4, NaN], [NaN, 0.4]]        → 1↔1, 2↔2: 2 switches (0.4 + 0.4)
//	frame 3: [[0, 1], [1, 0]]                → kept (0 + 0)
//	frame 4: tracks 2, 3: [[1, 0], [0.4, 0.7]]: 2↔2 kept (0.4); 1's track 1 is gone, 1↔3
//	         (0): a switch
//	frame 5: ground truth 1, 3, tracks 2, 3: [[1, 0], [0.4, 0.7]]: 1↔3 kept (0); 3↔2 (0.4),
//	         3's first match, no switch
//	frame 6: nothing.
//
// 10 matches, 3 switches, MOTA = 1 − 3/10 = 0.7, mean distance 1.6/10.
func TestPyMotmetricsIDs(t *testing.T) {
	a := NewAccumulator()
	update(a, nil, nil, nil)
	update(a, []int{1, 2}, []int{1, 2}, [][]float64{{1, 0}, {0, 1}})
	update(a, []int{1, 2}, []int{1, 2}, [][]float64{{0.4, nan}, {nan, 0.4}})
	update(a, []int{1, 2}, []int{1, 2}, [][]float64{{0, 1}, {1, 0}})
	update(a, []int{1, 2}, []int{2, 3}, [][]float64{{1, 0}, {0.4, 0.7}})
	update(a, []int{1, 3}, []int{2, 3}, [][]float64{{1, 0}, {0.4, 0.7}})
	update(a, nil, nil, nil)
	r := a.Result()
	if r.Matches != 10 || r.FalsePositives != 0 || r.Misses != 0 || r.IDSwitches != 3 || r.Frames != 7 {
		t.Errorf("counts %+v", r)
	}
	if !near(r.MOTA(), 0.7, 1e-12) || !near(r.MeanDistance(), 0.16, 1e-12) {
		t.Errorf("MOTA %g, mean distance %g; want 0.7, 0.16", r.MOTA(), r.MeanDistance())
	}
}

// TestCorrectAverage is py-motmetrics' test_correct_average, figure 3 of the CLEAR MOT
// paper: four objects missed for four frames (16 misses), then one object tracked alone for
// four frames: MOTA = 1 − 16/20 = 0.2, not the mean of the frames' MOTAs.
func TestCorrectAverage(t *testing.T) {
	a := NewAccumulator()
	for range 4 {
		update(a, []int{1, 2, 3, 4}, nil, nil)
	}
	for range 4 {
		update(a, []int{4}, []int{4}, [][]float64{{0}})
	}
	if r := a.Result(); !near(r.MOTA(), 0.2, 1e-12) {
		t.Errorf("MOTA %g, want 0.2", r.MOTA())
	}
}

// TestEmpty is py-motmetrics' three empty-input tests: no ground truth (all false
// positives, IDFP = 16), no tracks (all misses, IDFN = 16), neither (four frames, nothing
// counted); and no update at all, whose measures are undefined.
func TestEmpty(t *testing.T) {
	run := func(gt, tr []int) Result {
		a := NewAccumulator()
		for range 4 {
			a.Update(gt, tr, make([]float64, len(gt)*len(tr)))
		}
		return a.Result()
	}
	checkCounts(t, "no ground truth", run(nil, []int{1, 2, 3, 4}),
		Result{Frames: 4, TrackBoxes: 16, TrackIDs: 4, FalsePositives: 16, IDFP: 16})
	checkCounts(t, "no tracks", run([]int{1, 2, 3, 4}, nil),
		Result{Frames: 4, GTBoxes: 16, GTIDs: 4, Misses: 16, MostlyLost: 4, IDFN: 16})
	checkCounts(t, "neither", run(nil, nil), Result{Frames: 4})
	r := NewAccumulator().Result()
	for name, v := range map[string]float64{"MOTA": r.MOTA(), "MOTP": r.MOTP(), "IDF1": r.IDF1(), "recall": r.Recall()} {
		if !math.IsNaN(v) {
			t.Errorf("%s of nothing is %g, want NaN", name, v)
		}
	}
	if r := run(nil, []int{1}); r.IDF1() != 0 || !math.IsNaN(r.MOTA()) {
		t.Errorf("tracks without ground truth: IDF1 %g, MOTA %g; want 0, NaN", r.IDF1(), r.MOTA())
	}
}

// box makes a 10 × 10 box (or w × h) at x, y.
func box(id int, x, y float32, size ...float32) scene.Box {
	w, h := float32(10), float32(10)
	if len(size) == 2 {
		w, h = size[0], size[1]
	}
	return scene.Box{ID: id, X: x, Y: y, W: w, H: h}
}

func tracksOf(t *testing.T, frames map[int][]scene.Box) *scene.Tracks {
	t.Helper()
	var fs []scene.Frame
	for n, b := range frames {
		fs = append(fs, scene.Frame{Index: n, Boxes: b})
	}
	tr, err := scene.NewTracks(fs)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestBoxesHandWorked: box files whose every number is worked out in the comments.
func TestBoxesHandWorked(t *testing.T) {
	type measures struct{ mota, motp, idf1, idp, idr float64 }
	for _, c := range []struct {
		name        string
		gt, tracks  map[int][]scene.Box
		want        Result
		wantMeasure measures
	}{{
		// Two still objects, A at x 0 and B at x 100. Tracks 1 and 2 sit on A and B in
		// frames 1–2 and swap in frames 3–4. Frame 3: the previous pairs no longer overlap,
		// so 1↔2 and 2↔1 are matched: 2 switches; frame 4 keeps them. 8 boxes each side, 8
		// matches at IoU 1: MOTA = 1 − 2/8 = 0.75, MOTP = 1. Identity: every pair of ids
		// overlaps in 2 frames, so the best assignment holds 4 frames: IDTP 4, IDFP = IDFN =
		// 8 − 4 = 4, IDF1 = 8/16, IDP = IDR = 4/8.
		name: "swap",
		gt: map[int][]scene.Box{1: {box(1, 0, 0), box(2, 100, 0)}, 2: {box(1, 0, 0), box(2, 100, 0)},
			3: {box(1, 0, 0), box(2, 100, 0)}, 4: {box(1, 0, 0), box(2, 100, 0)}},
		tracks: map[int][]scene.Box{1: {box(1, 0, 0), box(2, 100, 0)}, 2: {box(1, 0, 0), box(2, 100, 0)},
			3: {box(2, 0, 0), box(1, 100, 0)}, 4: {box(2, 0, 0), box(1, 100, 0)}},
		want: Result{Frames: 4, GTBoxes: 8, TrackBoxes: 8, GTIDs: 2, TrackIDs: 2, Matches: 8, IDSwitches: 2,
			MostlyTracked: 2, IDTP: 4, IDFP: 4, IDFN: 4},
		wantMeasure: measures{0.75, 1, 0.5, 0.5, 0.5},
	}, {
		// History beats a better overlap: frame 1 matches object 1 with track 1 (IoU 1).
		// Frame 2: track 1 shrinks to 10 × 6 (IoU 60/100 = 0.6 ≥ 0.5, so the pair is kept)
		// while track 2 covers the object exactly (IoU 1): track 2 is a false positive. 2
		// ground-truth boxes, 3 track boxes, 2 matches: MOTA = 1 − 1/2 = 0.5, MOTP =
		// (1 + 0.6)/2 = 0.8. Identity: 1↔1 overlaps in 2 frames, 1↔2 in 1: IDTP 2, IDFP
		// 3 − 2 = 1, IDFN 0: IDF1 = 4/5, IDP = 2/3, IDR = 1.
		name:   "history kept",
		gt:     map[int][]scene.Box{1: {box(1, 0, 0)}, 2: {box(1, 0, 0)}},
		tracks: map[int][]scene.Box{1: {box(1, 0, 0)}, 2: {box(1, 0, 0, 10, 6), box(2, 0, 0)}},
		want: Result{Frames: 2, GTBoxes: 2, TrackBoxes: 3, GTIDs: 1, TrackIDs: 2, Matches: 2, FalsePositives: 1,
			MostlyTracked: 1, IDTP: 2, IDFP: 1},
		wantMeasure: measures{0.5, 0.8, 0.8, 2.0 / 3, 1},
	}, {
		// Frames in one file only, a fragment, the threshold's edge. Object 1 in frames 1–5,
		// object 2 in frame 1 only. Track 7 on object 1 in frames 1, 2, 4 and 5, in frame 5
		// as 10 × 5 (IoU 50/100 = 0.5, which matches: the threshold is inclusive). Track 9
		// in frames 6–7, where there is no ground truth. Frames 1–7: 7. Ground-truth boxes
		// 5 + 1 = 6, track boxes 4 + 2 = 6, matches 4, misses 2 (object 1 in frame 3, object
		// 2), false positives 2 (track 9), one fragmentation (object 1 matched again in
		// frame 4 after its miss). MOTA = 1 − (2 + 2)/6 = 1/3, MOTP = (1 + 1 + 1 + 0.5)/4 =
		// 0.875. Object 1 is matched in 4 of its 5 frames (0.8: mostly tracked), object 2
		// in none (mostly lost). Identity: 1↔7 in 4 frames: IDTP 4, IDFP = IDFN = 2, IDF1 =
		// 8/12, IDP = IDR = 4/6.
		name: "one-file frames",
		gt: map[int][]scene.Box{1: {box(1, 0, 0), box(2, 50, 50)}, 2: {box(1, 0, 0)}, 3: {box(1, 0, 0)},
			4: {box(1, 0, 0)}, 5: {box(1, 0, 0)}},
		tracks: map[int][]scene.Box{1: {box(7, 0, 0)}, 2: {box(7, 0, 0)}, 4: {box(7, 0, 0)},
			5: {box(7, 0, 0, 10, 5)}, 6: {box(9, 200, 0)}, 7: {box(9, 200, 0)}},
		want: Result{Frames: 7, GTBoxes: 6, TrackBoxes: 6, GTIDs: 2, TrackIDs: 2, Matches: 4, FalsePositives: 2,
			Misses: 2, Fragmentations: 1, MostlyTracked: 1, MostlyLost: 1, IDTP: 4, IDFP: 2, IDFN: 2},
		wantMeasure: measures{1.0 / 3, 0.875, 2.0 / 3, 2.0 / 3, 2.0 / 3},
	}, {
		// Identity counts frames, not pairs: object 1 and track 1 share frames 1–10 at A.
		// Frame 11: object 1 at A with track 2, object 2 at B with track 1. CLEAR: frame 11's
		// previous pair 1↔1 no longer overlaps; 1↔2 is a switch, 2↔1 a first match. 12
		// boxes each side, 12 matches, 1 switch: MOTA = 1 − 1/12. Identity: 1↔1 (10 frames)
		// beats 1↔2 plus 2↔1 (1 + 1): IDTP 10, IDFP = IDFN = 2, IDF1 = 20/24, IDP = IDR =
		// 10/12. (An assignment that made the most pairs first would score 2.)
		name: "frames beat pairs",
		gt: func() map[int][]scene.Box {
			m := map[int][]scene.Box{11: {box(1, 0, 0), box(2, 100, 0)}}
			for n := 1; n <= 10; n++ {
				m[n] = []scene.Box{box(1, 0, 0)}
			}
			return m
		}(),
		tracks: func() map[int][]scene.Box {
			m := map[int][]scene.Box{11: {box(2, 0, 0), box(1, 100, 0)}}
			for n := 1; n <= 10; n++ {
				m[n] = []scene.Box{box(1, 0, 0)}
			}
			return m
		}(),
		want: Result{Frames: 11, GTBoxes: 12, TrackBoxes: 12, GTIDs: 2, TrackIDs: 2, Matches: 12, IDSwitches: 1,
			MostlyTracked: 2, IDTP: 10, IDFP: 2, IDFN: 2},
		wantMeasure: measures{1 - 1.0/12, 1, 20.0 / 24, 10.0 / 12, 10.0 / 12},
	}, {
		// Both files empty: nothing to count, every measure undefined.
		name: "empty", gt: nil, tracks: nil,
		wantMeasure: measures{nan, nan, nan, nan, nan},
	}, {
		// No ground truth, two track boxes: 2 false positives, MOTA undefined (no ground
		// truth to divide by), IDF1 = 0/(0 + 2 + 0) = 0, IDP 0, IDR undefined.
		name: "no ground truth", tracks: map[int][]scene.Box{3: {box(1, 0, 0), box(2, 20, 0)}},
		want:        Result{Frames: 1, TrackBoxes: 2, TrackIDs: 2, FalsePositives: 2, IDFP: 2},
		wantMeasure: measures{nan, nan, 0, 0, nan},
	}} {
		r := Boxes(tracksOf(t, c.gt), tracksOf(t, c.tracks), DefaultIoU)
		checkCounts(t, c.name, r, c.want)
		got := measures{r.MOTA(), r.MOTP(), r.IDF1(), r.IDP(), r.IDR()}
		w := c.wantMeasure
		if !near(got.mota, w.mota, 1e-9) || !near(got.motp, w.motp, 1e-6) || !near(got.idf1, w.idf1, 1e-9) ||
			!near(got.idp, w.idp, 1e-9) || !near(got.idr, w.idr, 1e-9) {
			t.Errorf("%s: MOTA, MOTP, IDF1, IDP, IDR = %v, want %v", c.name, got, w)
		}
	}
}

// TestScoreOptions: FrameOffset lines up tracks numbered one behind the ground truth; ByClass keeps a box of one class from matching ground truth of another (a box
// without a class matches any), as KITTI's evaluation scores each class apart.
func TestScoreOptions(t *testing.T) {
	classed := func(b scene.Box, class string) scene.Box { b.Class = class; return b }
	gt := tracksOf(t, map[int][]scene.Box{2: {classed(box(1, 0, 0), "Car")}, 3: {classed(box(1, 0, 0), "Car")}})
	for _, c := range []struct {
		name    string
		tracks  map[int][]scene.Box
		o       Options
		matches int
		fp      int
	}{
		// Frames 1 and 2 of the tracks are the ground truth's 2 and 3.
		{"one behind, no offset", map[int][]scene.Box{1: {box(1, 0, 0)}, 2: {box(1, 0, 0)}}, Options{IoU: 0.5}, 1, 1},
		{"one behind, offset 1", map[int][]scene.Box{1: {box(1, 0, 0)}, 2: {box(1, 0, 0)}}, Options{IoU: 0.5, FrameOffset: 1}, 2, 0},
		{"another class", map[int][]scene.Box{2: {classed(box(1, 0, 0), "Pedestrian")}, 3: {classed(box(1, 0, 0), "Car")}}, Options{IoU: 0.5}, 2, 0},
		{"another class, by class", map[int][]scene.Box{2: {classed(box(1, 0, 0), "Pedestrian")}, 3: {classed(box(1, 0, 0), "Car")}}, Options{IoU: 0.5, ByClass: true}, 1, 1},
		{"no class, by class", map[int][]scene.Box{2: {box(1, 0, 0)}, 3: {box(1, 0, 0)}}, Options{IoU: 0.5, ByClass: true}, 2, 0},
	} {
		r := Score(gt, tracksOf(t, c.tracks), c.o)
		if r.Matches != c.matches || r.FalsePositives != c.fp {
			t.Errorf("%s: %d matches, %d false positives; want %d, %d", c.name, r.Matches, r.FalsePositives, c.matches, c.fp)
		}
	}
}

// TestIoU checks overlaps worked out by hand.
func TestIoU(t *testing.T) {
	for _, c := range []struct {
		a, b scene.Box
		want float64
	}{
		{box(0, 0, 0), box(0, 0, 0), 1},
		{box(0, 0, 0), box(0, 5, 0), 50.0 / 150},    // half overlaps: 50 / (100 + 100 − 50)
		{box(0, 0, 0), box(0, 10, 0), 0},            // touching edges
		{box(0, 0, 0), box(0, 2, 2, 4, 4), 0.16},    // inside: 16 / 100
		{box(0, 0, 0, 0, 0), box(0, 0, 0, 0, 0), 0}, // empty boxes
	} {
		if got := IoU(c.a, c.b); !near(got, c.want, 1e-12) {
			t.Errorf("IoU(%v, %v) = %g, want %g", c.a, c.b, got, c.want)
		}
	}
}
