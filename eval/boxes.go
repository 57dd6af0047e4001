package eval

import (
	"math"
	"slices"

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
	// ByClass matches a track box only with ground truth of its own class, as KITTI's
	// evaluation scores each class apart; a box without a class matches any.
	ByClass bool
}

// Score is Boxes with the options o.
func Score(gt, tracks *scene.Tracks, o Options) Result {
	if !(o.IoU > 0 && o.IoU <= 1) {
		panic("eval: IoU threshold outside (0, 1]")
	}
	a := NewAccumulator()
	var fg, ft scene.Frame
	var gtIDs, trIDs []int
	var dist []float64
	for _, n := range frameIndexes(gt, tracks, o.FrameOffset) {
		gb := tracked(gt.Frame(n, &fg))
		tb := tracked(tracks.Frame(n-o.FrameOffset, &ft))
		gtIDs, trIDs = gtIDs[:0], trIDs[:0]
		for _, b := range gb {
			gtIDs = append(gtIDs, b.ID)
		}
		for _, b := range tb {
			trIDs = append(trIDs, b.ID)
		}
		dist = grow(dist, len(gb)*len(tb))
		for i, g := range gb {
			for j, t := range tb {
				d := math.NaN()
				if v := IoU(g, t); v >= o.IoU && (!o.ByClass || g.Class == "" || t.Class == "" || g.Class == t.Class) {
					d = 1 - v
				}
				dist[i*len(tb)+j] = d
			}
		}
		a.Update(gtIDs, trIDs, dist)
	}
	return a.Result()
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
	ax, ay, aw, ah := float64(a.X), float64(a.Y), float64(a.W), float64(a.H)
	bx, by, bw, bh := float64(b.X), float64(b.Y), float64(b.W), float64(b.H)
	ix := math.Min(ax+aw, bx+bw) - math.Max(ax, bx)
	iy := math.Min(ay+ah, by+bh) - math.Max(ay, by)
	if ix <= 0 || iy <= 0 {
		return 0
	}
	inter := ix * iy
	return inter / (float64(aw*ah) + float64(bw*bh) - inter) // no fused multiply-add: the same on every CPU
}
