package knn

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"trackink/scene"
)

// Order returns, in perm (reused when its capacity suffices), the indices of pts in track
// id order: the ranks by which every rule breaks its ties, so that the links do not depend
// on the order of the input. It rejects what would make the links ill-defined: a repeated
// track id, or a coordinate that is not finite. Graph.Update starts with it, and so does
// the GPU backend's link update on the device (package kernels/gpu).
func Order(pts []scene.Point, perm []int32) ([]int32, error) {
	if len(pts) > math.MaxInt32 {
		return perm, fmt.Errorf("knn: %d points is more than a frame can hold", len(pts))
	}
	perm = grow(perm, len(pts))
	sorted := true
	for i := range pts {
		perm[i] = int32(i)
		if i > 0 && pts[i].ID <= pts[i-1].ID {
			sorted = false
		}
	}
	// Trackers usually emit points in id order: then the sort is skipped.
	if !sorted {
		slices.SortFunc(perm, func(a, b int32) int { return cmp.Compare(pts[a].ID, pts[b].ID) })
	}
	for r, i := range perm {
		p := &pts[i]
		// x − x is 0 for every finite x, and NaN for an infinity or a NaN: one test for both.
		if p.X-p.X != 0 || p.Y-p.Y != 0 {
			return perm, fmt.Errorf("knn: point %d (track %d) has a non-finite coordinate (%g, %g)", i, p.ID, p.X, p.Y)
		}
		if r > 0 && p.ID == pts[perm[r-1]].ID {
			return perm, fmt.Errorf("knn: track id %d appears twice in the frame", p.ID)
		}
	}
	return perm, nil
}
