// Package eval scores a tracker's output against ground truth with the measures the
// multi-object tracking literature reports: CLEAR-MOT (MOTA, MOTP, identity switches,
// fragmentations, mostly tracked / lost), the identity measures IDF1, IDP and IDR, and HOTA
// with its detection, association and localisation parts (see HOTACounts).
//
// CLEAR-MOT follows Bernardin and Stiefelhagen, "Evaluating Multiple Object Tracking
// Performance: The CLEAR MOT Metrics" (2008), frame by frame: a ground-truth/track
// correspondence of the previous frame is kept while the pair may still match (for boxes:
// IoU at least the threshold), the remaining objects are matched one to one by the Hungarian
// method on the distance (1 − IoU) among the pairs that may match, and a match whose track
// differs from the ground truth's track at its last match is an identity switch. Unmatched
// ground truth is a miss, an unmatched track box a false positive, and
//
//	MOTA = 1 − (misses + false positives + switches) / ground-truth boxes.
//
// MOTP is reported as the mean IoU of the matched pairs, as MOTChallenge and TrackEval
// report it (higher is better); py-motmetrics reports the mean distance, 1 − IoU, instead.
// A ground-truth track is mostly tracked when matched in at least 80 % of the frames it is
// in, mostly lost under 20 %, partially tracked otherwise; a fragmentation is a return to
// being matched after a miss.
//
// The identity measures follow Ristani et al., "Performance Measures and a Data Set for
// Multi-Target, Multi-Camera Tracking" (2016): one global one-to-one assignment of
// ground-truth ids to track ids, chosen to maximise the number of frames in which an
// assigned pair may match (IDTP); every other ground-truth box is an IDFN, every other track
// box an IDFP, and IDF1 = 2 IDTP / (2 IDTP + IDFP + IDFN). The paper builds the assignment on
// a matrix augmented with a false-positive and a false-negative column and row for each id;
// since IDFP + IDFN = ground-truth boxes + track boxes − 2 IDTP for any assignment, minimising
// the augmented cost is exactly maximising IDTP, which is what is solved here, by the same
// Hungarian method, separately for each group of ids that ever overlap.
//
// The event logic is py-motmetrics' (github.com/cheind/py-motmetrics), whose published test
// cases and MOTChallenge example sequences this package's tests reproduce, or, with the rules
// TrackEval, that of TrackEval (github.com/JonathonLuiten/TrackEval), the benchmarks'
// official scorer, whose figures its tests reproduce: the two part in details of the
// matching, the fragmentations and mostly tracked, and in the ground truth they ignore
// (see Rules).
package eval

import (
	"cmp"
	"math"
	"slices"

	"trackink/assign"
)

// Result holds one sequence's counts, from which every measure follows; Sum adds the
// results of several sequences into an overall one, as the benchmarks do.
type Result struct {
	Frames     int // frames with ground truth or tracks
	GTBoxes    int // ground-truth boxes over all frames
	TrackBoxes int // track boxes over all frames
	GTIDs      int // distinct ground-truth ids
	TrackIDs   int // distinct track ids
	// Matches counts matched ground-truth boxes, the switches among them included
	// (TrackEval's CLR_TP; py-motmetrics' num_detections).
	Matches        int
	FalsePositives int
	Misses         int
	IDSwitches     int
	Fragmentations int
	// DistanceSum is the sum of the matched pairs' distances: 1 − IoU for boxes.
	DistanceSum float64
	// Ground-truth tracks matched in ≥ 80 %, 20–80 % and < 20 % of their frames.
	MostlyTracked, PartiallyTracked, MostlyLost int
	// IDTP, IDFP, IDFN are the identity measures' counts (see the package documentation).
	IDTP, IDFP, IDFN int
	// HOTA holds the HOTA counts (see HOTACounts); zero, and its measures NaN, for a result
	// of an Accumulator alone, which sees no similarity below the matching threshold.
	HOTA HOTACounts
}

// ratio returns a/b, NaN when b is 0: a measure over nothing is undefined, not 0 or 1.
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// MOTA is 1 − (misses + false positives + switches) / ground-truth boxes; NaN without
// ground truth. It can be negative.
func (r Result) MOTA() float64 {
	return 1 - ratio(float64(r.Misses+r.FalsePositives+r.IDSwitches), float64(r.GTBoxes))
}

// MeanDistance is the mean distance of the matched pairs (py-motmetrics' MOTP); NaN without
// matches.
func (r Result) MeanDistance() float64 { return ratio(r.DistanceSum, float64(r.Matches)) }

// MOTP is the mean IoU of the matched pairs, 1 − MeanDistance (MOTChallenge's MOTP); NaN
// without matches.
func (r Result) MOTP() float64 { return 1 - r.MeanDistance() }

// Recall is the fraction of ground-truth boxes matched.
func (r Result) Recall() float64 { return ratio(float64(r.Matches), float64(r.GTBoxes)) }

// Precision is the fraction of track boxes matched.
func (r Result) Precision() float64 { return ratio(float64(r.Matches), float64(r.TrackBoxes)) }

// IDF1 is 2 IDTP / (2 IDTP + IDFP + IDFN).
func (r Result) IDF1() float64 {
	return ratio(float64(2*r.IDTP), float64(2*r.IDTP+r.IDFP+r.IDFN))
}

// IDP is IDTP / (IDTP + IDFP): the fraction of track boxes on their track's ground truth.
func (r Result) IDP() float64 { return ratio(float64(r.IDTP), float64(r.IDTP+r.IDFP)) }

// IDR is IDTP / (IDTP + IDFN): the fraction of ground-truth boxes covered by their track.
func (r Result) IDR() float64 { return ratio(float64(r.IDTP), float64(r.IDTP+r.IDFN)) }

// Sum returns the overall result of several sequences: every count added.
func Sum(rs ...Result) Result {
	var s Result
	for _, r := range rs {
		s.Frames += r.Frames
		s.GTBoxes += r.GTBoxes
		s.TrackBoxes += r.TrackBoxes
		s.GTIDs += r.GTIDs
		s.TrackIDs += r.TrackIDs
		s.Matches += r.Matches
		s.FalsePositives += r.FalsePositives
		s.Misses += r.Misses
		s.IDSwitches += r.IDSwitches
		s.Fragmentations += r.Fragmentations
		s.DistanceSum += r.DistanceSum
		s.MostlyTracked += r.MostlyTracked
		s.PartiallyTracked += r.PartiallyTracked
		s.MostlyLost += r.MostlyLost
		s.IDTP += r.IDTP
		s.IDFP += r.IDFP
		s.IDFN += r.IDFN
		s.HOTA.add(&r.HOTA)
	}
	return s
}

// Accumulator gathers one sequence's events frame by frame (Update), then gives its Result.
// Boxes drives it for two track files; tests and other distances may drive it directly.
type Accumulator struct {
	res            Result
	gt             map[int]*gtState
	tracks         map[int]int    // track id → boxes
	pairs          map[[2]int]int // (ground-truth id, track id) → frames the pair may match
	prev           map[int]int    // ground-truth id → track matched in the previous update
	cur            map[int]int    // the same, being built for this update
	solver         assign.Solver
	cost, work     []float64
	gtDone, trDone []bool
	rules          Rules
	// The last update's matching (FrameMatches): ground truth i's track index, -1 for a
	// miss, and whether that match was an identity switch.
	matchOf  []int
	switched []bool
}

// gtState is what the accumulator remembers of one ground-truth id.
type gtState struct {
	present, matched int
	last             int  // track id at its last match
	everMatched      bool // last is set
	missedSince      bool // a miss followed its last match: the next match ends a fragment
	runs             int  // TrackEval: times matched when not matched in the previous frame
}

// NewAccumulator returns an empty accumulator that follows py-motmetrics' rules.
func NewAccumulator() *Accumulator { return NewAccumulatorFor(PyMotmetrics) }

// NewAccumulatorFor returns an empty accumulator that follows the CLEAR-MOT rules r (see
// Rules).
func NewAccumulatorFor(r Rules) *Accumulator {
	return &Accumulator{gt: map[int]*gtState{}, tracks: map[int]int{}, pairs: map[[2]int]int{},
		prev: map[int]int{}, cur: map[int]int{}, rules: r}
}

// Update adds one frame: the ids of the ground-truth objects and of the tracks in it, and
// dist[i*len(tracks)+j], the distance between ground truth i and track j: a number for a
// pair that may match, NaN for one that may not. Ids must be unique within gt and within
// tracks. Under TrackEval's rules the distance is 1 − similarity (1 − IoU for boxes).
func (a *Accumulator) Update(gt, tracks []int, dist []float64) {
	if len(dist) != len(gt)*len(tracks) {
		panic("eval: distance matrix does not match the ids")
	}
	n, m := len(gt), len(tracks)
	a.res.Frames++
	a.res.GTBoxes += n
	a.res.TrackBoxes += m
	a.gtDone = grow(a.gtDone, n)
	a.trDone = grow(a.trDone, m)
	clear(a.gtDone)
	clear(a.trDone)
	clear(a.cur)
	a.matchOf, a.switched = grow(a.matchOf, n), grow(a.switched, n)
	for i := range a.matchOf {
		a.matchOf[i], a.switched[i] = -1, false
	}
	for _, h := range tracks {
		a.tracks[h]++
	}
	for i, o := range gt {
		st := a.gt[o]
		if st == nil {
			st = &gtState{}
			a.gt[o] = st
		}
		st.present++
		for j, h := range tracks {
			if !math.IsNaN(dist[i*m+j]) {
				a.pairs[[2]int{o, h}]++
			}
		}
	}
	if a.rules == TrackEval {
		if n == 0 || m == 0 {
			// TrackEval passes over a frame without ground truth or without tracks: all
			// false positives or all misses, and the previous frame's pairs still stand.
			a.res.Misses += n
			a.res.FalsePositives += m
			return
		}
		a.matchTrackEval(gt, tracks, dist)
	} else {
		a.matchPyMotmetrics(gt, tracks, dist)
	}
	for i, o := range gt {
		if !a.gtDone[i] {
			a.res.Misses++
			if st := a.gt[o]; st.everMatched {
				st.missedSince = true
			}
		}
	}
	for j := range tracks {
		if !a.trDone[j] {
			a.res.FalsePositives++
		}
	}
	a.prev, a.cur = a.cur, a.prev
}

// matchPyMotmetrics matches a frame as py-motmetrics does: the previous frame's pairs first,
// then the most pairs at the least total distance.
func (a *Accumulator) matchPyMotmetrics(gt, tracks []int, dist []float64) {
	n, m := len(gt), len(tracks)
	// 1. Keep the previous frame's correspondences that may still match.
	for i, o := range gt {
		h, ok := a.prev[o]
		if !ok {
			continue
		}
		for j, t := range tracks {
			if t == h && !a.trDone[j] && !math.IsNaN(dist[i*m+j]) {
				a.match(i, j, gt, tracks, dist)
				break
			}
		}
	}
	// 2. Match the rest at least total distance among the pairs that may match.
	a.cost = grow(a.cost, n*m)
	for i := range n {
		for j := range m {
			c := dist[i*m+j]
			if a.gtDone[i] || a.trDone[j] {
				c = math.NaN()
			}
			a.cost[i*m+j] = c
		}
	}
	for i, j := range a.solver.Solve(a.cost, n, m) {
		if j >= 0 {
			a.match(i, j, gt, tracks, dist)
		}
	}
}

// matchTrackEval matches a frame as TrackEval does: the matching of the greatest total
// score, a pair's score being its similarity (1 − distance) plus 1000 if it was matched in
// the previous frame, so that every previous pair that may still match is kept and then the
// summed similarity is the greatest.
func (a *Accumulator) matchTrackEval(gt, tracks []int, dist []float64) {
	m := len(tracks)
	a.cost = grow(a.cost, len(dist))
	for i, o := range gt {
		h, cont := a.prev[o]
		for j, t := range tracks {
			s := 1 - dist[i*m+j] // NaN stays NaN: the pair may not match
			if cont && t == h {
				s += continuationBonus
			}
			a.cost[i*m+j] = s
		}
	}
	for i, j := range maxScoreMatching(&a.solver, &a.work, a.cost, len(gt), m) {
		if j >= 0 {
			a.match(i, j, gt, tracks, dist)
		}
	}
}

// match records ground truth i matched to track j in this update.
func (a *Accumulator) match(i, j int, gt, tracks []int, dist []float64) {
	o, h := gt[i], tracks[j]
	st := a.gt[o]
	if st.everMatched && st.last != h {
		a.res.IDSwitches++
		a.switched[i] = true
	}
	a.matchOf[i] = j
	if _, cont := a.prev[o]; a.rules == TrackEval && !cont {
		st.runs++
	} else if a.rules != TrackEval && st.missedSince {
		a.res.Fragmentations++
	}
	st.last, st.everMatched, st.missedSince = h, true, false
	st.matched++
	a.res.Matches++
	a.res.DistanceSum += dist[i*len(tracks)+j]
	a.gtDone[i], a.trDone[j] = true, true
	a.cur[o] = h
}

// FrameMatches returns the last Update's matching: track[i] is the index (in that update's
// tracks) of the track matched to ground truth i, -1 where it was missed; switched[i] says
// that the match was an identity switch. A track index no ground truth names was a false
// positive. The slices are reused by the next Update.
func (a *Accumulator) FrameMatches() (track []int, switched []bool) { return a.matchOf, a.switched }

// Counts returns the frame-by-frame counts so far (boxes, matches, false positives, misses,
// switches, fragmentations under py-motmetrics' rules, distances), without what Result
// works out over whole tracks: cheap enough to ask after every frame.
func (a *Accumulator) Counts() Result { return a.res }

// Result returns the sequence's result: the counts so far, the track-coverage classes and the
// identity assignment.
func (a *Accumulator) Result() Result {
	r := a.res
	r.GTIDs, r.TrackIDs = len(a.gt), len(a.tracks)
	for _, st := range a.gt {
		f := float64(st.matched) / float64(st.present)
		if a.rules == TrackEval {
			// A fragment is a run of matched frames; each run after the first is a
			// fragmentation. Mostly tracked needs more than 80 %.
			r.Fragmentations += max(st.runs-1, 0)
			if f == 0.8 {
				r.PartiallyTracked++
				continue
			}
		}
		switch {
		case f >= 0.8:
			r.MostlyTracked++
		case f < 0.2:
			r.MostlyLost++
		default:
			r.PartiallyTracked++
		}
	}
	r.IDTP = a.identityTruePositives()
	r.IDFN = r.GTBoxes - r.IDTP
	r.IDFP = r.TrackBoxes - r.IDTP
	return r
}

// identityTruePositives returns the most frames of may-match pairs that a one-to-one
// assignment of ground-truth ids to track ids can collect. Ids that never share a may-match
// frame cannot affect each other's choice, so each connected group of the pair graph is
// solved on its own: a sequence of many ids costs many small problems, not one large one.
func (a *Accumulator) identityTruePositives() int {
	type pair struct{ o, h, n int }
	pairs := make([]pair, 0, len(a.pairs))
	for k, n := range a.pairs {
		pairs = append(pairs, pair{k[0], k[1], n})
	}
	// Sorted, so that the groups and the solver's ties come out the same on every run.
	slices.SortFunc(pairs, func(x, y pair) int { return cmp.Or(cmp.Compare(x.o, y.o), cmp.Compare(x.h, y.h)) })
	// Union-find over nodes: ground-truth ids as themselves, track ids tagged apart.
	parent := map[[2]int]([2]int){}
	var find func(x [2]int) [2]int
	find = func(x [2]int) [2]int {
		p, ok := parent[x]
		if !ok || p == x {
			return x
		}
		root := find(p)
		parent[x] = root
		return root
	}
	for _, p := range pairs {
		ro, rh := find([2]int{0, p.o}), find([2]int{1, p.h})
		if ro != rh {
			parent[rh] = ro
		}
	}
	groups := map[[2]int][]pair{}
	var roots [][2]int
	for _, p := range pairs {
		r := find([2]int{0, p.o})
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], p)
	}
	total := 0
	var s assign.Solver
	for _, r := range roots {
		g := groups[r]
		rows, cols := map[int]int{}, map[int]int{}
		for _, p := range g {
			if _, ok := rows[p.o]; !ok {
				rows[p.o] = len(rows)
			}
			if _, ok := cols[p.h]; !ok {
				cols[p.h] = len(cols)
			}
		}
		// A pair never together costs 0: assigning it gains nothing and takes nothing from
		// the others. (Forbidding it instead would make the solver prefer more pairs to
		// more frames.)
		cost := make([]float64, len(rows)*len(cols))
		for _, p := range g {
			cost[rows[p.o]*len(cols)+cols[p.h]] = -float64(p.n)
		}
		for i, j := range s.Solve(cost, len(rows), len(cols)) {
			if j >= 0 {
				total -= int(cost[i*len(cols)+j])
			}
		}
	}
	return total
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
