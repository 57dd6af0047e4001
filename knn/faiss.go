//go:build faiss

package knn

import (
	"fmt"
	"math"

	faiss "github.com/DataIntelligenceCrew/go-faiss"
)

// faissSearch asks FAISS's exhaustive IndexFlatL2 for a few more candidates than needed and
// re-ranks them with dist2. FAISS computes in float32 (‖x‖² + ‖y‖² − 2x·y for large batches)
// and breaks ties its own way, so its list alone is not the exact answer; the re-ranked list
// is proven exact per query (see search), and a query that cannot be proven is answered by an
// exact scan. One index is reused across frames (Reset + Add) and freed by close.
type faissSearch struct {
	idx *faiss.IndexFlat
	buf []float32
	// fallbacks counts the queries answered by the exact scan, for tests and the benchmark.
	fallbacks int
}

func init() {
	searchers[BackendFAISS] = func() (searcher, error) { return newFAISSSearch() }
}

func newFAISSSearch() (*faissSearch, error) {
	idx, err := faiss.NewIndexFlatL2(2)
	if err != nil {
		return nil, fmt.Errorf("knn: creating the FAISS index: %w", err)
	}
	return &faissSearch{idx: idx}, nil
}

func (f *faissSearch) close() error {
	f.idx.Delete()
	f.idx = nil
	return nil
}

// faissSlack is the bound on |FAISS's float32 squared distance − the true squared distance|
// per R², R being the largest absolute centred coordinate. First-order error analysis with
// u = 2⁻²⁴: rounding the centred coordinates to float32 moves a squared distance by ≤ 16uR²;
// the norms (≤ 2R² each, 2 roundings) err by ≤ 4uR² each, 2x·y by ≤ 8uR², and the final
// sum of terms totalling ≤ 8R² by ≤ 16uR², 48uR² in all (the direct formula FAISS uses for
// small batches errs less). 128u leaves a factor of 2.6 for what the analysis neglects.
const faissSlack = 128 * 0x1p-24

func (f *faissSearch) search(xs, ys []float64, k int, nbr []int32, d2 []float64) error {
	n := len(xs)
	// Centring the points shrinks the norms, and with them FAISS's cancellation error.
	minX, maxX, minY, maxY := extent(xs, ys)
	ox, oy := (minX+maxX)/2, (minY+maxY)/2
	rad := max(maxX-ox, ox-minX, maxY-oy, oy-minY)
	slack := faissSlack * rad * rad
	f.buf = grow(f.buf, 2*n)
	for i := range xs {
		f.buf[2*i], f.buf[2*i+1] = float32(xs[i]-ox), float32(ys[i]-oy)
	}
	if err := f.idx.Reset(); err != nil {
		return fmt.Errorf("knn: FAISS reset: %w", err)
	}
	if err := f.idx.Add(f.buf); err != nil {
		return fmt.Errorf("knn: FAISS add: %w", err)
	}
	// The query itself is among the candidates, plus k spare ones so that the proof below
	// usually succeeds.
	kq := min(n, 2*k+2)
	dist, labels, err := f.idx.Search(f.buf, int64(kq))
	if err != nil {
		return fmt.Errorf("knn: FAISS search: %w", err)
	}
	for q := range n {
		nd, nb := d2[q*k:(q+1)*k], nbr[q*k:(q+1)*k]
		m := 0
		last := math.Inf(-1)
		for j := q * kq; j < (q+1)*kq; j++ {
			r := labels[j]
			if r < 0 || r >= int64(n) {
				last = math.NaN() // FAISS found too few: fall back
				break
			}
			last = max(last, float64(dist[j]))
			if int(r) != q {
				m = insert(nd, nb, m, dist2(xs[q], ys[q], xs[r], ys[r]), int32(r))
			}
		}
		if kq == n && m == k {
			continue // every point was a candidate
		}
		// A point FAISS left out has FAISS distance ≥ last, so true squared distance
		// ≥ last − slack, and dist2 is within a relative 2⁻⁵² of the truth. If the k-th
		// re-ranked candidate is strictly nearer than that, no left-out point can be among
		// the k nearest, not even through a tie.
		if m == k && nd[k-1]+slack < last*(1-1e-12) {
			continue
		}
		f.fallbacks++
		scanAll(xs, ys, q, nb, nd)
	}
	return nil
}
