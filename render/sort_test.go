package render

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortLine: runs of keys in the range are sorted by key, stably, long runs (counting
// sort) as short ones (insertion sort); keys outside the range stay, and split the runs.
func TestSortLine(t *testing.T) {
	for _, c := range []struct {
		keys   []int32
		lo, hi int32
		want   []int32 // the keys in their new order
	}{
		{[]int32{5, 3, 4}, 0, 255, []int32{3, 4, 5}},
		{[]int32{5, 3, 9, 4, 2}, 0, 8, []int32{3, 5, 9, 2, 4}}, // 9 is out: two runs
		{[]int32{1, 7, 6, 0}, 2, 7, []int32{1, 6, 7, 0}},
		{[]int32{}, 0, 255, []int32{}},
	} {
		perm := make([]int32, len(c.keys))
		var counts [257]int32
		sortLine(perm, c.keys, c.lo, c.hi, &counts)
		got := make([]int32, len(perm))
		for i, j := range perm {
			got[i] = c.keys[j]
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("keys %v in %d..%d: %v, want %v", c.keys, c.lo, c.hi, got, c.want)
		}
	}
	// Long runs, against a stable sort of each run.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		n := rng.IntN(400)
		keys := make([]int32, n)
		for i := range keys {
			keys[i] = int32(rng.IntN(256))
		}
		lo, hi := int32(rng.IntN(100)), int32(100+rng.IntN(156))
		perm := make([]int32, n)
		var counts [257]int32
		sortLine(perm, keys, lo, hi, &counts)
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		for i := 0; i < n; {
			if keys[i] < lo || keys[i] > hi {
				i++
				continue
			}
			s := i
			for i < n && keys[i] >= lo && keys[i] <= hi {
				i++
			}
			slices.SortStableFunc(want[s:i], func(a, b int32) int { return int(keys[a] - keys[b]) })
		}
		if !slices.Equal(perm, want) {
			t.Fatalf("keys %v in %d..%d: perm %v, want %v", keys, lo, hi, perm, want)
		}
	}
}
