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
	if !(minIoU > 0 && minIoU <= 1) {
		panic("eval: IoU threshold outside (0, 1]")
	}
	a := NewAccumulator()
	var fg, ft scene.Frame
	var gtIDs, trIDs []int
	var dist []float64
	for _, n := range frameIndexes(gt, tracks) {
		gb := tracked(gt.Frame(n, &fg))
		tb := tracked(tracks.Frame(n, &ft))
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
				if v := IoU(g, t); v >= minIoU {
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

// frameIndexes returns the indexes of the frames that a or b holds, ascending.
func frameIndexes(a, b *scene.Tracks) []int {
	var idx []int
	for _, t := range []*scene.Tracks{a, b} {
		for f := range t.All() {
			idx = append(idx, f.Index)
		}
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
