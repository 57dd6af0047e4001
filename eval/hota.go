package eval

import (
	"math"

	"trackink/assign"
)

// HOTAAlphas is the number of localisation thresholds HOTA is averaged over.
const HOTAAlphas = 19

// HOTAAlpha returns the i-th localisation threshold, 0.05 (i = 0) to 0.95 (i = 18), as
// TrackEval's np.arange(0.05, 0.99, 0.05) has it (0.15000000000000002 and the like).
func HOTAAlpha(i int) float64 {
	return 0.05 + float64(float64(i)*0.05) // no fused multiply-add: numpy's values exactly
}

// trackEvalEpsilon is TrackEval's slack on the thresholds (np.finfo('float').eps): a pair
// matches at α when its similarity is at least α − ε, and a frame's matching keeps only the
// pairs that score more than ε.
const trackEvalEpsilon = 2.220446049250313e-16

// HOTACounts are a sequence's counts and sums for HOTA, the Higher Order Tracking Accuracy
// of Luiten et al., "HOTA: A Higher Order Metric for Evaluating Multi-Object Tracking" (IJCV
// 2020), at each threshold α = HOTAAlpha(i), from which every HOTA measure follows as
// TrackEval (trackeval/metrics/hota.py) computes it. At α, a ground-truth box and a track
// box matched in a frame with similarity (IoU) at least α are a true positive (TP); every
// other ground-truth box is a false negative (FN), every other track box a false positive
// (FP). For a true positive c between ground-truth id g and track id t, with TPA(c) the true
// positives of the pair (g, t) over the sequence, FNA(c) the boxes of g not matched to t,
// FPA(c) the boxes of t not matched to g:
//
//	DetA = |TP| / (|TP| + |FN| + |FP|),  DetRe = |TP| / (|TP| + |FN|),  DetPr = |TP| / (|TP| + |FP|)
//	A(c) = |TPA| / (|TPA| + |FNA| + |FPA|),  AssA = (1/|TP|) Σ_c A(c)
//	AssRe = (1/|TP|) Σ_c |TPA| / (|TPA| + |FNA|),  AssPr = (1/|TP|) Σ_c |TPA| / (|TPA| + |FPA|)
//	HOTA = √(DetA · AssA),  LocA = mean similarity of the true positives
//
// each measure reported as its mean over α = 0.05, 0.10, …, 0.95. A frame is matched once,
// for every α, by the Hungarian method for the greatest summed score, a pair's score being
// its similarity times the global alignment of its two ids: over the sequence, the pair's
// summed per-frame overlap (its similarity divided by the sum of the similarities of its
// row and its column less its own) over the two ids' boxes less that sum, so that ids that
// go together long are kept together. A pair of similarity below α is no true positive at
// α even when matched.
//
// Sequences combine by adding their counts and sums (Sum), which gives TrackEval's combined
// figures: the detection counts summed, the association and localisation measures averaged
// over the sequences weighted by their true positives.
type HOTACounts struct {
	TP, FN, FP [HOTAAlphas]int
	// AssSum, AssReSum and AssPrSum are the sums over the true positives c of A(c), of
	// |TPA| / (|TPA| + |FNA|) and of |TPA| / (|TPA| + |FPA|): AssA, AssRe and AssPr times |TP|.
	AssSum, AssReSum, AssPrSum [HOTAAlphas]float64
	// LocSum is the summed similarity of the true positives: LocA times |TP|.
	LocSum [HOTAAlphas]float64
}

// add adds o's counts and sums to h's.
func (h *HOTACounts) add(o *HOTACounts) {
	for a := range HOTAAlphas {
		h.TP[a] += o.TP[a]
		h.FN[a] += o.FN[a]
		h.FP[a] += o.FP[a]
		h.AssSum[a] += o.AssSum[a]
		h.AssReSum[a] += o.AssReSum[a]
		h.AssPrSum[a] += o.AssPrSum[a]
		h.LocSum[a] += o.LocSum[a]
	}
}

// HOTAScores are the HOTA measures at one threshold, or their means over the thresholds.
type HOTAScores struct {
	HOTA, DetA, AssA, DetRe, DetPr, AssRe, AssPr, LocA float64
}

// At returns the measures at threshold HOTAAlpha(a). As in TrackEval, a measure whose
// denominator is 0 is 0 (AssA without true positives, DetPr without track boxes), and LocA
// without true positives is 1; all are NaN when there is nothing to score (no ground truth
// and no track box).
func (h HOTACounts) At(a int) HOTAScores {
	tp, fn, fp := float64(h.TP[a]), float64(h.FN[a]), float64(h.FP[a])
	if tp+fn+fp == 0 {
		nan := math.NaN()
		return HOTAScores{nan, nan, nan, nan, nan, nan, nan, nan}
	}
	var s HOTAScores
	s.DetRe = tp / math.Max(1, tp+fn)
	s.DetPr = tp / math.Max(1, tp+fp)
	s.DetA = tp / math.Max(1, tp+fn+fp)
	s.AssA = h.AssSum[a] / math.Max(1, tp)
	s.AssRe = h.AssReSum[a] / math.Max(1, tp)
	s.AssPr = h.AssPrSum[a] / math.Max(1, tp)
	s.LocA = math.Max(1e-10, h.LocSum[a]) / math.Max(1e-10, tp)
	s.HOTA = math.Sqrt(s.DetA * s.AssA)
	return s
}

// Mean returns each measure's mean over the thresholds: the figures benchmarks report as
// HOTA, DetA, AssA and the others.
func (h HOTACounts) Mean() HOTAScores {
	var m HOTAScores
	for a := range HOTAAlphas {
		s := h.At(a)
		m.HOTA += s.HOTA
		m.DetA += s.DetA
		m.AssA += s.AssA
		m.DetRe += s.DetRe
		m.DetPr += s.DetPr
		m.AssRe += s.AssRe
		m.AssPr += s.AssPr
		m.LocA += s.LocA
	}
	n := float64(HOTAAlphas)
	return HOTAScores{m.HOTA / n, m.DetA / n, m.AssA / n, m.DetRe / n, m.DetPr / n, m.AssRe / n, m.AssPr / n, m.LocA / n}
}

// HOTAAccumulator gathers one sequence's frames (Update), then computes its HOTA counts
// (Result). HOTA's matching needs the whole sequence first (the global alignment of ids), so
// it keeps each frame's overlapping pairs until Result.
type HOTAAccumulator struct {
	gtIndex, trIndex map[int]int32 // id → its place in gtCount, trCount
	gtCount, trCount []int         // boxes of each ground-truth id and track id
	pairIndex        map[[2]int32]int32
	pairs            []hotaPair
	frames           []hotaFrame
	cells            []hotaCell // every frame's overlapping pairs, frame after frame
	rowSum, colSum   []float64
	gi, ti           []int32
}

// hotaPair is a ground-truth id and a track id that overlap in some frame.
type hotaPair struct {
	gt, tr    int32
	potential float64 // Σ over frames of the pair's normalised similarity
	matches   [HOTAAlphas]int32
}

// hotaFrame is one frame: its box counts and where its overlapping pairs lie in cells.
type hotaFrame struct {
	gt, tracks  int
	first, last int // cells[first:last]
}

// hotaCell is one overlapping pair of a frame: the ground truth's and the track's rows in the
// frame, the pair of ids, and their similarity.
type hotaCell struct {
	i, j int32
	pair int32
	sim  float64
}

// NewHOTAAccumulator returns an empty accumulator.
func NewHOTAAccumulator() *HOTAAccumulator {
	return &HOTAAccumulator{gtIndex: map[int]int32{}, trIndex: map[int]int32{}, pairIndex: map[[2]int32]int32{}}
}

// Update adds one frame: the ids of its ground-truth boxes and of its track boxes, and
// sim[i*len(tracks)+j], the similarity (IoU) of ground truth i and track j, 0 for a pair that
// may not match at any threshold. Ids must be unique within gt and within tracks.
func (h *HOTAAccumulator) Update(gt, tracks []int, sim []float64) {
	n, m := len(gt), len(tracks)
	if len(sim) != n*m {
		panic("eval: similarity matrix does not match the ids")
	}
	index := func(ids map[int]int32, count *[]int, id int) int32 {
		k, ok := ids[id]
		if !ok {
			k = int32(len(*count))
			ids[id] = k
			*count = append(*count, 0)
		}
		(*count)[k]++
		return k
	}
	h.gi, h.ti = h.gi[:0], h.ti[:0]
	for _, id := range gt {
		h.gi = append(h.gi, index(h.gtIndex, &h.gtCount, id))
	}
	for _, id := range tracks {
		h.ti = append(h.ti, index(h.trIndex, &h.trCount, id))
	}
	// Each pair's share of the frame: its similarity over its row's and its column's sums
	// less itself, as TrackEval normalises it before adding it to the pair's potential.
	h.rowSum, h.colSum = grow(h.rowSum, n), grow(h.colSum, m)
	clear(h.rowSum)
	clear(h.colSum)
	for i := range n {
		for j := range m {
			h.rowSum[i] += sim[i*m+j]
			h.colSum[j] += sim[i*m+j]
		}
	}
	f := hotaFrame{gt: n, tracks: m, first: len(h.cells)}
	for i := range n {
		for j := range m {
			s := sim[i*m+j]
			if !(s > 0) {
				continue
			}
			key := [2]int32{h.gi[i], h.ti[j]}
			p, ok := h.pairIndex[key]
			if !ok {
				p = int32(len(h.pairs))
				h.pairIndex[key] = p
				h.pairs = append(h.pairs, hotaPair{gt: key[0], tr: key[1]})
			}
			if d := h.colSum[j] + h.rowSum[i] - s; d > trackEvalEpsilon {
				h.pairs[p].potential += s / d
			}
			h.cells = append(h.cells, hotaCell{int32(i), int32(j), p, s})
		}
	}
	f.last = len(h.cells)
	h.frames = append(h.frames, f)
}

// Result matches every frame and returns the sequence's HOTA counts.
func (h *HOTAAccumulator) Result() HOTACounts {
	var r HOTACounts
	// The global alignment of each pair of ids: its potential over the boxes of the two ids
	// less the potential.
	align := make([]float64, len(h.pairs))
	for k, p := range h.pairs {
		align[k] = p.potential / (float64(h.gtCount[p.gt]+h.trCount[p.tr]) - p.potential)
		h.pairs[k].matches = [HOTAAlphas]int32{}
	}
	var thr [HOTAAlphas]float64
	for a := range thr {
		thr[a] = HOTAAlpha(a) - trackEvalEpsilon
	}
	var (
		solver      assign.Solver
		score, work []float64
		cell        []int32 // the frame's cell of each (i, j), -1 for none
	)
	for _, f := range h.frames {
		n, m := f.gt, f.tracks
		var tp [HOTAAlphas]int
		var loc [HOTAAlphas]float64
		if f.first < f.last {
			score, cell = grow(score, n*m), grow(cell, n*m)
			clear(score)
			for k := range cell {
				cell[k] = -1
			}
			for k, c := range h.cells[f.first:f.last] {
				score[int(c.i)*m+int(c.j)] = align[c.pair] * c.sim
				cell[int(c.i)*m+int(c.j)] = int32(f.first + k)
			}
			for i, j := range maxScoreMatching(&solver, &work, score, n, m) {
				if j < 0 || cell[i*m+j] < 0 {
					continue
				}
				c := h.cells[cell[i*m+j]]
				p := &h.pairs[c.pair]
				for a := 0; a < HOTAAlphas && c.sim >= thr[a]; a++ {
					tp[a]++
					loc[a] += c.sim
					p.matches[a]++
				}
			}
		}
		for a := range HOTAAlphas {
			r.TP[a] += tp[a]
			r.FN[a] += n - tp[a]
			r.FP[a] += m - tp[a]
			r.LocSum[a] += loc[a]
		}
	}
	for _, p := range h.pairs {
		gtc, trc := float64(h.gtCount[p.gt]), float64(h.trCount[p.tr])
		for a, mc := range p.matches {
			if mc == 0 {
				continue
			}
			c := float64(mc)
			r.AssSum[a] += c * (c / math.Max(1, gtc+trc-c))
			r.AssReSum[a] += c * (c / math.Max(1, gtc))
			r.AssPrSum[a] += c * (c / math.Max(1, trc))
		}
	}
	return r
}
