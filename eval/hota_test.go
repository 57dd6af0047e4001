package eval

import (
	"math"
	"testing"
)

// hotaFrameIn is one frame fed to a HOTAAccumulator: ids and rows of similarities.
type hotaFrameIn struct {
	gt, tr []int
	sim    [][]float64
}

// hotaOf runs a HOTAAccumulator over frames.
func hotaOf(frames ...hotaFrameIn) HOTACounts {
	h := NewHOTAAccumulator()
	for _, f := range frames {
		var s []float64
		for _, r := range f.sim {
			s = append(s, r...)
		}
		h.Update(f.gt, f.tr, s)
	}
	return h.Result()
}

// repeat returns n copies of f.
func repeat(n int, f hotaFrameIn) []hotaFrameIn {
	fs := make([]hotaFrameIn, n)
	for i := range fs {
		fs[i] = f
	}
	return fs
}

// checkScores compares every measure of got with want's.
func checkScores(t *testing.T, name string, got, want HOTAScores) {
	t.Helper()
	g := []float64{got.HOTA, got.DetA, got.AssA, got.DetRe, got.DetPr, got.AssRe, got.AssPr, got.LocA}
	w := []float64{want.HOTA, want.DetA, want.AssA, want.DetRe, want.DetPr, want.AssRe, want.AssPr, want.LocA}
	for k, label := range []string{"HOTA", "DetA", "AssA", "DetRe", "DetPr", "AssRe", "AssPr", "LocA"} {
		if !near(g[k], w[k], 1e-12) {
			t.Errorf("%s: %s %.15g, want %.15g", name, label, g[k], w[k])
		}
	}
}

// TestHOTAHandWorked: HOTA's measures on cases worked by hand, the paper's simple ones among
// them, each averaged over the 19 thresholds α = 0.05 … 0.95 (Mean) or at α = 0.05 (At(0)).
// A(c) is a true positive's association score |TPA| / (|TPA| + |FNA| + |FPA|) = TPA / (boxes
// of its ground-truth id + boxes of its track id − TPA).
func TestHOTAHandWorked(t *testing.T) {
	two := hotaFrameIn{[]int{1, 2}, []int{1, 2}, [][]float64{{1, 0}, {0, 1}}}
	r2 := math.Sqrt2 / 2
	for _, c := range []struct {
		name   string
		frames []hotaFrameIn
		alpha  int // -1: the mean over the thresholds
		want   HOTAScores
	}{
		// Perfect: 2 objects in 4 frames, each followed by its own track at IoU 1. At every
		// α: 8 TP, no FN or FP, DetA 1; each pair TPA 4 of 4 + 4 boxes: A = 4/(4+4−4) = 1.
		{"perfect", repeat(4, two), -1, HOTAScores{1, 1, 1, 1, 1, 1, 1, 1}},
		// One id switch halfway: object 1 in 4 frames, track 1 on it in frames 1–2, track 2
		// in 3–4. 4 TP, DetA 1. Pairs (1,1) and (1,2): TPA 2, A = 2/(4+2−2) = 0.5: AssA 0.5,
		// HOTA √0.5. AssRe = 2/4 for both, AssPr = 2/2.
		{"switch halfway", append(repeat(2, hotaFrameIn{[]int{1}, []int{1}, [][]float64{{1}}}),
			repeat(2, hotaFrameIn{[]int{1}, []int{2}, [][]float64{{1}}})...), -1,
			HOTAScores{r2, 1, 0.5, 1, 1, 0.5, 1, 1}},
		// Half the boxes found: objects 1 and 2 in 4 frames, a track on object 1 alone. 4 TP,
		// 4 FN: DetA = DetRe = 4/8, DetPr 1; the one pair A = 4/(4+4−4) = 1: AssA 1; HOTA √0.5.
		{"half found", repeat(4, hotaFrameIn{[]int{1, 2}, []int{1}, [][]float64{{1}, {0}}}), -1,
			HOTAScores{r2, 0.5, 1, 0.5, 1, 1, 1, 1}},
		// Localisation: one object and one track at IoU 0.5 in 3 frames. α = 0.05 … 0.5 (10
		// thresholds; 0.5 ≥ 0.5 − ε) match, HOTA 1 there; the 9 above do not: 3 FN and 3 FP,
		// DetA, AssA and HOTA 0 (AssA over no TP is 0, as TrackEval has it). Means 10/19.
		// LocA 0.5 at the 10, and TrackEval's 1 where nothing matched (1e-10 / 1e-10):
		// (10 × 0.5 + 9 × 1)/19 = 14/19.
		{"IoU 0.5", repeat(3, hotaFrameIn{[]int{1}, []int{1}, [][]float64{{0.5}}}), -1,
			HOTAScores{10.0 / 19, 10.0 / 19, 10.0 / 19, 10.0 / 19, 10.0 / 19, 10.0 / 19, 10.0 / 19, 14.0 / 19}},
		// The thresholds' slack: numpy's third α is 0.15000000000000002, which IoU 0.15
		// reaches only with TrackEval's ε: 3 thresholds match (0.05, 0.1, 0.15), means 3/19;
		// LocA (3 × 0.15 + 16)/19.
		{"IoU 0.15", repeat(2, hotaFrameIn{[]int{1}, []int{1}, [][]float64{{0.15}}}), -1,
			HOTAScores{3.0 / 19, 3.0 / 19, 3.0 / 19, 3.0 / 19, 3.0 / 19, 3.0 / 19, 3.0 / 19, (3*0.15 + 16) / 19}},
		// The global alignment decides a frame: frames 1–3 hold objects A (1), B (2) on
		// tracks X (1), Y (2) at IoU 1; frame 4 holds A alone, overlapping X at 0.6 and Y at
		// 0.7. Each pair alone in its row and column adds sim/(sim+sim−sim) = 1 to its
		// potential; in frame 4 row A sums 1.3, so A–X adds 0.6/(0.6+1.3−0.6) = 6/13 and
		// A–Y 7/13. Boxes: A 4, B 3, X 4, Y 4. Alignment A–X: (3+6/13)/(8−(3+6/13)) = 45/59;
		// A–Y: (7/13)/(8−7/13) = 7/97. Scores 0.6 × 45/59 = 0.458 > 0.7 × 7/97 = 0.051: A
		// goes with X although Y overlaps it more (IoU alone would take A–Y). At α = 0.05:
		// TP 7, FN 0, FP 1 (Y in frame 4): DetA 7/8, DetPr 7/8; A–X: TPA 4, A = 4/(4+4−4) =
		// 1; B–Y: TPA 3, A = 3/(3+4−3) = 3/4; AssA (4 × 1 + 3 × 3/4)/7 = 25/28; AssRe
		// (4 × 4/4 + 3 × 3/3)/7 = 1; AssPr (4 × 4/4 + 3 × 3/4)/7 = 25/28; HOTA √(7/8 × 25/28);
		// LocA (6 + 0.6)/7. (A–Y instead: AssA (3 × 3/5 + 1/7 + 3 × 3/4)/7 = 0.599.)
		{"global alignment", append(repeat(3, two), hotaFrameIn{[]int{1}, []int{1, 2}, [][]float64{{0.6, 0.7}}}), 0,
			HOTAScores{math.Sqrt(7.0 / 8 * 25 / 28), 7.0 / 8, 25.0 / 28, 1, 7.0 / 8, 1, 25.0 / 28, 6.6 / 7}},
		// Tracks without ground truth: all FP, DetA and HOTA 0, AssA 0, LocA 1 (TrackEval's).
		{"no ground truth", repeat(2, hotaFrameIn{nil, []int{1}, nil}), -1, HOTAScores{0, 0, 0, 0, 0, 0, 0, 1}},
		// Ground truth without tracks: all FN, the same.
		{"no tracks", repeat(2, hotaFrameIn{[]int{1}, nil, nil}), -1, HOTAScores{0, 0, 0, 0, 0, 0, 0, 1}},
	} {
		h := hotaOf(c.frames...)
		got := h.Mean()
		if c.alpha >= 0 {
			got = h.At(c.alpha)
		}
		checkScores(t, c.name, got, c.want)
	}
	// Nothing to score: every measure undefined.
	var none HOTACounts
	if m := none.Mean(); !math.IsNaN(m.HOTA) || !math.IsNaN(m.LocA) {
		t.Errorf("HOTA of nothing: %+v, want NaN", m)
	}
}

// TestHOTAAlphas: the thresholds are numpy's np.arange(0.05, 0.99, 0.05), bit for bit.
func TestHOTAAlphas(t *testing.T) {
	want := []float64{0.05, 0.1, 0.15000000000000002, 0.2, 0.25, 0.3, 0.35000000000000003, 0.4, 0.45, 0.5,
		0.55, 0.6000000000000001, 0.6500000000000001, 0.7000000000000001, 0.7500000000000001, 0.8,
		0.8500000000000001, 0.9000000000000001, 0.9500000000000001}
	for i, w := range want {
		if HOTAAlpha(i) != w {
			t.Errorf("α %d = %.17g, want %.17g", i, HOTAAlpha(i), w)
		}
	}
}

// TestHOTACombined: sequences combine as TrackEval combines them, by their counts and sums,
// not by averaging their HOTA. A perfect sequence (2 objects, 4 frames: 8 TP, A = 1 each)
// and the switch-halfway one (4 TP, A = 0.5 each: HOTA √0.5): DetA 12/12 = 1, AssA
// (8 × 1 + 4 × 0.5)/12 = 5/6, HOTA √(5/6) = 0.913 at every α, where the mean of the two
// sequences' HOTA would be (1 + 0.707)/2 = 0.854. AssRe (8 + 4 × 0.5)/12, AssPr 1.
func TestHOTACombined(t *testing.T) {
	perfect := Result{HOTA: hotaOf(repeat(4, hotaFrameIn{[]int{1, 2}, []int{1, 2}, [][]float64{{1, 0}, {0, 1}}})...)}
	switched := Result{HOTA: hotaOf(append(repeat(2, hotaFrameIn{[]int{1}, []int{1}, [][]float64{{1}}}),
		repeat(2, hotaFrameIn{[]int{1}, []int{2}, [][]float64{{1}}})...)...)}
	all := Sum(perfect, switched)
	checkScores(t, "combined", all.HOTA.Mean(), HOTAScores{math.Sqrt(5.0 / 6), 1, 5.0 / 6, 1, 1, 5.0 / 6, 1, 1})
}

// crowd returns a crowded sequence, frames frames of n objects, each followed by its track
// at similarity 0.5 to 0.9 and overlapping the next object's track a little (0.1), a tenth
// of the tracks renumbered every 100 frames: ids, each frame's track ids and similarities.
func crowd(n, frames int) (ids []int, trs [][]int, sims [][]float64) {
	ids = make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	sims = make([][]float64, frames)
	trs = make([][]int, frames)
	for f := range frames {
		s := make([]float64, n*n)
		tr := make([]int, n)
		for i := range n {
			s[i*n+i] = 0.5 + 0.4*float64((i*7+f*3)%10)/10
			if i+1 < n {
				s[i*n+i+1] = 0.1
			}
			tr[i] = i
			if i%10 == 0 {
				tr[i] += 1000 * (f / 100)
			}
		}
		sims[f], trs[f] = s, tr
	}
	return ids, trs, sims
}

// BenchmarkHOTA: crowd's sequence, 500 frames of 150 objects.
func BenchmarkHOTA(b *testing.B) {
	const n, frames = 150, 500
	ids, trs, sims := crowd(n, frames)
	b.ResetTimer()
	for range b.N {
		h := NewHOTAAccumulator()
		for f := range frames {
			h.Update(ids, trs[f], sims[f])
		}
		h.Result()
	}
}
