package eval

import (
	"fmt"
	"strings"

	"trackink/assign"
	"trackink/scene"
)

// Rules name the scorer whose rules an evaluation follows. The two agree on the measures'
// definitions and part in details that move the figures a little (docs/tracking.md, "Rule
// sets"): which ground truth is ignored, how a frame is matched, what a fragmentation is.
type Rules int

const (
	// PyMotmetrics follows py-motmetrics (github.com/cheind/py-motmetrics): MOTChallenge rows
	// whose consider flag is 0 are left out, every other ground-truth box counts; a frame
	// keeps the previous frame's pairs that may still match and matches the rest to make
	// the most pairs at the least total distance; mostly tracked is at least 80 % of the
	// frames; a fragmentation is a match after a miss.
	PyMotmetrics Rules = iota
	// TrackEval follows TrackEval (github.com/JonathonLuiten/TrackEval), MOTChallenge's and
	// KITTI's official scorer. Before scoring, each frame's track boxes matched to ground
	// truth of a distractor class are removed (MOTChallenge: person on vehicle, static
	// person, distractor, reflection, and for MOT20 non-motorised vehicle; KITTI: Van for
	// Car, Person for Pedestrian, and objects truncated or occluded beyond level 2), as are
	// KITTI's unmatched track boxes at most 25 px tall or more than half inside a DontCare
	// region; then only MOTChallenge's pedestrians, and KITTI's Car and Pedestrian class by
	// class, are scored. A frame matches for the greatest summed IoU, the previous frame's
	// pairs first, ties broken as TrackEval's scipy call breaks them; a frame without
	// ground truth or tracks leaves the previous pairs standing; mostly tracked is more
	// than 80 %; a fragmentation is every run of matched frames after a ground-truth
	// track's first.
	TrackEval
)

// String returns the rules' name as the --rules flag spells it.
func (r Rules) String() string {
	switch r {
	case PyMotmetrics:
		return "motmetrics"
	case TrackEval:
		return "trackeval"
	}
	return fmt.Sprintf("Rules(%d)", int(r))
}

// ParseRules returns the rules that s names: "motmetrics" or "trackeval".
func ParseRules(s string) (Rules, error) {
	for _, r := range []Rules{PyMotmetrics, TrackEval} {
		if s == r.String() {
			return r, nil
		}
	}
	return 0, fmt.Errorf("%q is not a rule set: want motmetrics or trackeval", s)
}

// continuationBonus is what TrackEval adds to the score of a pair matched in the previous
// frame: more than any sum of IoUs in a frame can make up, so that such pairs come first.
const continuationBonus = 1000

// maxScoreMatching returns the one-to-one matching of rows to columns of the greatest total
// score (score[i*cols+j]; NaN or ≤ 0: the pair may not match) that TrackEval makes:
// scipy's linear_sum_assignment on the dense matrix of negated scores, 0 for a pair that
// may not match, keeping the pairs that score more than TrackEval's epsilon. col[i] is row
// i's column or -1. Unlike assign's Solve, it does not first make the most pairs (two pairs
// of IoU 0.3 lose to one of 0.7), and it breaks ties as scipy does: a track half-way between
// two ground-truth boxes goes to the first, and which one moves identity switches and, in
// the distractor matching, whether the track is scored at all. work is reused for the
// matrix.
func maxScoreMatching(s *assign.Solver, work *[]float64, score []float64, rows, cols int) []int {
	*work = grow(*work, rows*cols)
	cost := *work
	for k, x := range score {
		cost[k] = 0
		if x > 0 {
			cost[k] = -x
		}
	}
	col := s.LinearSumAssignment(cost, rows, cols)
	for i, j := range col {
		if j >= 0 && !(score[i*cols+j] > trackEvalEpsilon) {
			col[i] = -1
		}
	}
	return col
}

// Dataset-specific rule tables of TrackEval.
var (
	// motDistractors are the MOTChallenge classes whose matched track boxes TrackEval
	// removes (mot_challenge_2d_box.py); motDistractors20 adds MOT20's.
	motDistractors   = []string{"person_on_vehicle", "static_person", "distractor", "reflection"}
	motDistractors20 = append(append([]string(nil), motDistractors...), "non_motorized_vehicle")
	// kittiClasses are KITTI's scored classes with their distractor classes: vans for cars,
	// people sitting (the tracking labels' Person, the object labels' Person_sitting) for
	// pedestrians.
	kittiClasses = []kittiClass{{"Car", []string{"Van"}}, {"Pedestrian", []string{"Person", "Person_sitting"}}}
)

// kittiClass is one class KITTI's evaluation scores and the classes that stand in for it
// without being scored.
type kittiClass struct {
	name        string
	distractors []string
}

// kittiMinHeight is the height in pixels at or under which TrackEval drops an unmatched KITTI
// track box.
const kittiMinHeight = 25

// preprocessor applies TrackEval's per-frame rules: which track boxes are removed before
// scoring and which ground truth is scored.
type preprocessor struct {
	class string // the class scored apart, as TrackEval names it; "" for all
	// distractor reports whether ground-truth box g, when a track box matches it, takes the
	// track box out of the scoring; nil for none.
	distractor func(g scene.Box) bool
	// candidate reports whether ground-truth box g takes part in the matching that finds
	// the track boxes to remove (all of them for MOTChallenge, the class and its
	// distractors for KITTI).
	candidate func(g scene.Box) bool
	// scored reports whether ground-truth box g is scored.
	scored func(g scene.Box) bool
	// track reports whether track box t is scored at all (KITTI: of the class).
	track func(t scene.Box) bool
	// kitti drops unmatched track boxes at most kittiMinHeight tall or more than half in a
	// DontCare region.
	kitti bool

	solver        assign.Solver
	iou           []float64
	regions, cand []scene.Box // frame's, reused from frame to frame
	matched       []int       // frame's: track j → candidate + 1, 0 if unmatched
	work          []float64   // maxScoreMatching's
}

// preprocessors returns the rules for ground truth of format f, one per class scored apart.
func preprocessors(f scene.Format, o Options) []*preprocessor {
	all := func(scene.Box) bool { return true }
	notIgnored := func(g scene.Box) bool { return !g.Ignored }
	switch f {
	case scene.FormatKITTI:
		var ps []*preprocessor
		for _, c := range kittiClasses {
			isDistractor := func(g scene.Box) bool { return classIn(g.Class, c.distractors) }
			ps = append(ps, &preprocessor{
				class:      strings.ToLower(c.name),
				distractor: func(g scene.Box) bool { return g.Ignored || isDistractor(g) },
				candidate:  func(g scene.Box) bool { return strings.EqualFold(g.Class, c.name) || isDistractor(g) },
				scored:     func(g scene.Box) bool { return !g.Ignored && strings.EqualFold(g.Class, c.name) },
				track:      func(t scene.Box) bool { return strings.EqualFold(t.Class, c.name) },
				kitti:      true,
			})
		}
		return ps
	case scene.FormatMOT:
		d := motDistractors
		if o.MOT20 {
			d = motDistractors20
		}
		return []*preprocessor{{
			distractor: func(g scene.Box) bool { return classIn(g.Class, d) },
			candidate:  all,
			// MOT17's classes: pedestrians alone; MOT15's ground truth has none; CVAT's
			// MOT 1.1 names its own (labels.txt), people's person among them.
			scored: func(g scene.Box) bool { return !g.Ignored && (g.Class == "" || IsPerson(g.Class)) },
			track:  all,
		}}
	}
	return []*preprocessor{{candidate: all, scored: notIgnored, track: all}}
}

func classIn(c string, set []string) bool {
	for _, s := range set {
		if strings.EqualFold(c, s) {
			return true
		}
	}
	return false
}

// frame returns the ground truth and the track boxes of one frame that are scored. gb holds
// every ground-truth box of the frame, regions (NoID) included; tb the tracked boxes. It
// reuses tb's array and the preprocessor's own, so gt holds until the next call.
func (p *preprocessor) frame(gb, tb []scene.Box) (gt, tracks []scene.Box) {
	regions, cand := p.regions[:0], p.cand[:0]
	for _, g := range gb {
		switch {
		case g.ID == scene.NoID:
			if g.Ignored {
				regions = append(regions, g)
			}
		case p.candidate(g):
			cand = append(cand, g)
		}
	}
	tracks = tb[:0]
	for _, t := range tb {
		if p.track(t) {
			tracks = append(tracks, t)
		}
	}
	// Match the track boxes to the candidates for the greatest summed IoU among pairs of
	// IoU at least 0.5 (TrackEval's fixed threshold here, whatever the scoring's).
	n, m := len(cand), len(tracks)
	p.regions, p.cand = regions, cand
	p.matched = grow(p.matched, m)
	matched := p.matched
	clear(matched)
	if n > 0 && m > 0 && (p.distractor != nil || p.kitti) {
		p.iou = grow(p.iou, n*m)
		for i, g := range cand {
			for j, t := range tracks {
				v := IoU(g, t)
				if v < DefaultIoU {
					v = 0
				}
				p.iou[i*m+j] = v
			}
		}
		for i, j := range maxScoreMatching(&p.solver, &p.work, p.iou, n, m) {
			if j >= 0 {
				matched[j] = i + 1
			}
		}
	}
	k := 0
	for j, t := range tracks {
		var drop bool
		if i := matched[j] - 1; i >= 0 {
			drop = p.distractor != nil && p.distractor(cand[i])
		} else if p.kitti {
			drop = t.H <= kittiMinHeight || inRegion(t, regions)
		}
		if !drop {
			tracks[k] = t
			k++
		}
	}
	tracks = tracks[:k]
	gt = cand[:0]
	for _, g := range cand {
		if p.scored(g) {
			gt = append(gt, g)
		}
	}
	return gt, tracks
}

// inRegion reports whether more than half of box t's area lies in one of the regions (the
// intersection over t's area, TrackEval's crowd-ignore test); a box of no area is in none.
func inRegion(t scene.Box, regions []scene.Box) bool {
	area := float64(t.W) * float64(t.H)
	if area <= 0 {
		return false
	}
	for _, r := range regions {
		if intersection(t, r)/area > 0.5 {
			return true
		}
	}
	return false
}
