package job

import (
	"fmt"
	"math"
	"sort"

	"trackink/eval"
	"trackink/overlay"
	"trackink/scene"
)

// Judged is the judgement of every frame of a render with ground truth (render --gt): what
// scoring the tracks against it found, frame by frame, as eval scores them.
type Judged struct {
	frames []judgedFrame // ascending by index: the ground truth's, the video's frame
	offset int           // the tracks' frame n is the video's n + offset (--frame-offset)
	last   int           // the ground truth's last frame
}

type judgedFrame struct {
	index  int
	truth  []overlay.TruthBox
	tags   map[int]string
	counts eval.Result
}

// Judge scores tracks against gt with o, from the first frame either holds to the last
// (eval.Frames: the accumulator, the frames and the rules of trackink eval), and keeps each
// frame's verdicts, so that any frame's judgement (Frame) is the one a whole render draws
// there, whatever frame a render starts at.
func Judge(gt, tracks *scene.Tracks, o eval.Options) *Judged {
	j := &Judged{offset: o.FrameOffset, last: gt.LastIndex()}
	eval.Frames(gt, tracks, o, func(v *eval.FrameVerdicts) {
		f := judgedFrame{index: v.Index, counts: v.Counts, tags: map[int]string{}}
		for _, b := range v.Truth {
			f.truth = append(f.truth, overlay.TruthBox{X: b.X, Y: b.Y, W: b.W, H: b.H, Missed: b.Verdict == eval.Missed})
		}
		for id, verdict := range v.Tracks {
			switch verdict {
			case eval.FalsePositive:
				f.tags[id] = overlay.TagFP
			case eval.Switched:
				f.tags[id] = overlay.TagIDSW
			}
		}
		j.frames = append(j.frames, f)
	})
	return j
}

// Frame is the judgement drawn on tracks frame n, the video's n + offset: its ground truth
// and tags, and the counts up to it (those of the last frame before it where neither file
// holds it), with the video's frame number.
func (j *Judged) Frame(n int) *overlay.Judgement {
	n += j.offset
	k := sort.Search(len(j.frames), func(i int) bool { return j.frames[i].index > n }) - 1
	var counts eval.Result
	out := &overlay.Judgement{}
	if k >= 0 {
		f := &j.frames[k]
		counts = f.counts
		if f.index == n {
			out.Truth, out.Tags = f.truth, f.tags
		}
	}
	out.Panel = Panel(n, counts)
	return out
}

// TruthEnd is the ground truth's last frame, the video's: a video that ends before it ends
// the counts before eval's.
func (j *Judged) TruthEnd() int { return j.last }

// Last is the counts at the last frame: eval's.
func (j *Judged) Last() eval.Result {
	if len(j.frames) == 0 {
		return eval.Result{}
	}
	return j.frames[len(j.frames)-1].counts
}

// Panel is the panel's line for frame n with the counts so far: MOTA as trackink eval's table
// prints it (a dash before any ground truth), false positives, misses, switches.
func Panel(n int, r eval.Result) string {
	mota := "-"
	if m := r.MOTA(); !math.IsNaN(m) {
		mota = fmt.Sprintf("%.1f%%", 100*m)
	}
	return fmt.Sprintf("frame %d  MOTA %s  FP %d  FN %d  IDSW %d", n, mota, r.FalsePositives, r.Misses, r.IDSwitches)
}
