package eval

import "trackink/scene"

// Verdict is what scoring made of one box in one frame.
type Verdict uint8

const (
	// Unscored: the rules left the box out (a track box on a distractor, one of a class not
	// scored, one without a track id).
	Unscored Verdict = iota
	// Matched: a ground-truth box and the track box matched to it.
	Matched
	// Switched: matched, the ground truth last matched to another track: an identity switch
	// (the track box took the identity over).
	Switched
	// FalsePositive: a track box matched to no ground truth.
	FalsePositive
	// Missed: a ground-truth box matched to no track box (a false negative).
	Missed
)

// String names the verdict as the tracking literature abbreviates it.
func (v Verdict) String() string {
	return [...]string{"unscored", "match", "IDSW", "FP", "FN"}[v]
}

// TruthBox is a scored ground-truth box and its verdict: Matched, Switched or Missed.
type TruthBox struct {
	scene.Box
	Verdict Verdict
}

// FrameVerdicts is what scoring one frame found, frame by frame as Score scores.
type FrameVerdicts struct {
	// Index is the frame's number in the ground truth's numbering.
	Index int
	// Truth are the frame's scored ground-truth boxes.
	Truth []TruthBox
	// Tracks are the verdicts on the frame's track boxes, by track id: Matched, Switched or
	// FalsePositive; a track box the rules left out is absent (Unscored).
	Tracks map[int]Verdict
	// Counts are the counts from the first frame up to and including this one, every class
	// the rules score apart added (Accumulator.Counts): MOTA, false positives, misses and
	// switches so far. At the last frame they are Score's.
	Counts Result
}

// Frames scores tracks against gt as Score does, the same frames in the same order with the
// same rules, and calls each with what every frame found. The FrameVerdicts and what it holds
// are each call's own.
func Frames(gt, tracks *scene.Tracks, o Options, each func(*FrameVerdicts)) {
	if !(o.IoU > 0 && o.IoU <= 1) {
		panic("eval: IoU threshold outside (0, 1]")
	}
	frames := 0
	scoreFrames(gt, tracks, o, false, func(n int, sc []frameScorer) {
		frames++
		v := &FrameVerdicts{Index: n, Tracks: map[int]Verdict{}}
		counts := make([]Result, len(sc))
		for i := range sc {
			s := &sc[i]
			counts[i] = s.a.Counts()
			match, switched := s.a.FrameMatches()
			for _, t := range s.lastTracks {
				v.Tracks[t.ID] = FalsePositive // until a ground truth names it
			}
			for k, g := range s.lastGT {
				tb := TruthBox{Box: g, Verdict: Missed}
				if j := match[k]; j >= 0 {
					tb.Verdict = Matched
					if switched[k] {
						tb.Verdict = Switched
					}
					v.Tracks[s.lastTracks[j].ID] = tb.Verdict
				}
				v.Truth = append(v.Truth, tb)
			}
		}
		v.Counts = Sum(counts...)
		v.Counts.Frames = frames // each class saw every frame
		each(v)
	})
}
