package eval

import (
	"math"
	"slices"
	"strings"

	"trackink/scene"
)

// DefaultIoU is the overlap at which a track box may match a ground-truth box unless told
// otherwise: MOTChallenge's and py-motmetrics' 0.5.
const DefaultIoU = 0.5

// Boxes scores tracks against gt: every frame that either holds (frames in one file only
// count too: all misses, or all false positives), boxes matched where their IoU is at least
// minIoU (0 < minIoU ≤ 1). Boxes without a track id (scene.NoID) are left out of both.
func Boxes(gt, tracks *scene.Tracks, minIoU float64) Result {
	return Score(gt, tracks, Options{IoU: minIoU})
}

// Options say how Score matches boxes.
type Options struct {
	// IoU is the least intersection over union at which a track box may match a
	// ground-truth box, 0 < IoU ≤ 1.
	IoU float64
	// FrameOffset lines the files' frames up: the tracks' frame t is the ground truth's
	// frame t + FrameOffset (a tracker that numbered from 0 against ground truth from 1: 1).
	FrameOffset int
	// ByClass matches a track box only with ground truth of its own class (SameClass), as
	// KITTI's evaluation scores each class apart; a box without a class matches any. (TrackEval's
	// rules for KITTI always score class by class.)
	ByClass bool
	// Rules are the scorer's rules to follow. Under TrackEval's, ground truth is best read
	// with scene.Options.MarkIgnored, which keeps what its ignore rules need.
	Rules Rules
	// MOT20 applies TrackEval's MOT20 benchmark rules to MOTChallenge ground truth: a
	// non-motorised vehicle is a distractor too.
	MOT20 bool
}

// Score is Boxes with the options o: ScoreClasses' results added up.
func Score(gt, tracks *scene.Tracks, o Options) Result {
	cs := ScoreClasses(gt, tracks, o)
	rs := make([]Result, len(cs))
	for i, c := range cs {
		rs[i] = c.Result
	}
	r := Sum(rs...)
	r.Frames = rs[0].Frames // each class saw every frame
	return r
}

// ClassResult is the result of one class that the rules score apart; Class is empty where
// they score all boxes as one.
type ClassResult struct {
	Class string
	Result
}

// ScoreClasses scores tracks against gt with the options o, each class that the rules score
// apart on its own: TrackEval's rules score KITTI's car and pedestrian classes apart (named
// as TrackEval names them, in lower case); otherwise it returns one result, of no class.
func ScoreClasses(gt, tracks *scene.Tracks, o Options) []ClassResult {
	if !(o.IoU > 0 && o.IoU <= 1) {
		panic("eval: IoU threshold outside (0, 1]")
	}
	pre, sc := scoreFrames(gt, tracks, o, true, nil)
	out := make([]ClassResult, len(sc))
	for i := range sc {
		out[i].Result = sc[i].a.Result()
		out[i].HOTA = sc[i].h.Result()
		if p := pre[i]; p != nil {
			out[i].Class = p.class
		}
	}
	return out
}

// scoreFrames feeds every frame of gt and tracks, in order, to one frameScorer for each class
// the rules score apart (HOTA's accumulators too where hota is set), calling each, when set,
// after every frame with its number and the scorers. It returns the classes' preprocessors
// (nil for rules without) and their scorers.
func scoreFrames(gt, tracks *scene.Tracks, o Options, hota bool, each func(n int, sc []frameScorer)) ([]*preprocessor, []frameScorer) {
	var pre []*preprocessor
	if o.Rules == TrackEval {
		pre = preprocessors(gt.Format(), o)
	} else {
		pre = []*preprocessor{nil}
	}
	sc := make([]frameScorer, len(pre))
	for i := range sc {
		sc[i].a, sc[i].o = NewAccumulatorFor(o.Rules), o
		if hota {
			sc[i].h = NewHOTAAccumulator()
		}
	}
	var fg, ft scene.Frame
	for _, n := range frameIndexes(gt, tracks, o.FrameOffset) {
		var gb []scene.Box
		if f := gt.Frame(n, &fg); f != nil {
			gb = f.Boxes
		}
		tb := tracked(tracks.Frame(n-o.FrameOffset, &ft))
		for i, p := range pre {
			if p == nil {
				sc[i].update(tracked(&scene.Frame{Boxes: gb}), tb)
				continue
			}
			// Each class's rules filter copies: the frame's boxes serve them all.
			g, t := p.frame(gb, append(sc[i].tb[:0], tb...))
			sc[i].tb = t
			sc[i].update(g, t)
		}
		if each != nil {
			each(n, sc)
		}
	}
	return pre, sc
}

// frameScorer feeds CLEAR's and Identity's accumulator and HOTA's (when set) the boxes of
// each frame.
type frameScorer struct {
	a            *Accumulator
	h            *HOTAAccumulator
	o            Options
	gtIDs, trIDs []int
	dist, sim    []float64
	tb           []scene.Box // work space for the preprocessor
	// lastGT and lastTracks are the boxes the last update scored, in its order.
	lastGT, lastTracks []scene.Box
}

// update adds one frame's boxes: a pair may match at IoU at least o.IoU (and, with ByClass,
// of the same class); for HOTA, whose thresholds are its own, a pair's similarity is its IoU
// (0 across classes with ByClass).
func (s *frameScorer) update(gb, tb []scene.Box) {
	s.gtIDs, s.trIDs = s.gtIDs[:0], s.trIDs[:0]
	for _, b := range gb {
		s.gtIDs = append(s.gtIDs, b.ID)
	}
	for _, b := range tb {
		s.trIDs = append(s.trIDs, b.ID)
	}
	s.dist, s.sim = grow(s.dist, len(gb)*len(tb)), grow(s.sim, len(gb)*len(tb))
	for i, g := range gb {
		for j, t := range tb {
			d, v := math.NaN(), 0.0
			if !s.o.ByClass || g.Class == "" || t.Class == "" || SameClass(g.Class, t.Class) {
				v = IoU(g, t)
			}
			if v >= s.o.IoU {
				d = 1 - v
			}
			s.dist[i*len(tb)+j], s.sim[i*len(tb)+j] = d, v
		}
	}
	s.a.Update(s.gtIDs, s.trIDs, s.dist)
	if s.h != nil {
		s.h.Update(s.gtIDs, s.trIDs, s.sim)
	}
	s.lastGT, s.lastTracks = gb, tb
}

// SameClass reports whether a ground-truth box of class a and a track box of class b are of
// one class for Options.ByClass: the same name in any case (KITTI's Car, a tracker's car),
// or both people's, person (COCO's name, which trackers write) and pedestrian (MOTChallenge's
// and KITTI's): a tracker of people scored by class against MOT17's ground truth matched
// nothing.
func SameClass(a, b string) bool {
	return strings.EqualFold(a, b) || IsPerson(a) && IsPerson(b)
}

// IsPerson reports whether class c is people's: person or pedestrian, in any case.
func IsPerson(c string) bool {
	return strings.EqualFold(c, "person") || strings.EqualFold(c, "pedestrian")
}

// tracked returns the frame's boxes that have a track id, none for a nil frame.
func tracked(f *scene.Frame) []scene.Box {
	if f == nil {
		return nil
	}
	return slices.DeleteFunc(f.Boxes, func(b scene.Box) bool { return b.ID == scene.NoID })
}

// frameIndexes returns the indexes of the frames that gt holds, or tracks with offset added
// to theirs, ascending.
func frameIndexes(gt, tracks *scene.Tracks, offset int) []int {
	var idx []int
	for f := range gt.All() {
		idx = append(idx, f.Index)
	}
	for f := range tracks.All() {
		idx = append(idx, f.Index+offset)
	}
	slices.Sort(idx)
	return slices.Compact(idx)
}

// IoU returns the intersection over union of two boxes, 0 when both are empty.
func IoU(a, b scene.Box) float64 {
	inter := intersection(a, b)
	if inter == 0 {
		return 0
	}
	return inter / (float64(float64(a.W)*float64(a.H)) + float64(float64(b.W)*float64(b.H)) - inter) // no fused multiply-add: the same on every CPU
}

// intersection returns the area two boxes share.
func intersection(a, b scene.Box) float64 {
	ax, ay, aw, ah := float64(a.X), float64(a.Y), float64(a.W), float64(a.H)
	bx, by, bw, bh := float64(b.X), float64(b.Y), float64(b.W), float64(b.H)
	ix := math.Min(ax+aw, bx+bw) - math.Max(ax, bx)
	iy := math.Min(ay+ah, by+bh) - math.Max(ay, by)
	if ix <= 0 || iy <= 0 {
		return 0
	}
	return ix * iy
}
