package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"trackink/internal/needs"
	"trackink/scene"
)

// petsGT is PETS09-S2L1's published ground truth (MOT15's 10 fields), kept beside the
// repository (its licence does not suit it).
var petsGT = filepath.Join("..", "..", "shared", "data", "real-mot", "PETS09-S2L1", "gt.txt")

// petsFiles derives from PETS09-S2L1's ground truth a MOT17-style ground truth with
// distractors and a tracker's output with misses, switches and false positives, and
// returns their paths (in dir). Ground truth: id ≡ 1 (mod 5) a static person and id ≡ 2 a
// distractor (both with consider flag 0), id 4 a car (flag 0), id 9 a non-motorised
// vehicle (flag 0), id 13 a reflection (flag 1); the rest pedestrians with their own flag.
// Tracks: every ground-truth row, consider-0 ones included, shifted right by id mod 4 px;
// a row left out where (7 × frame + id) mod 10 is 0, and for ids ≡ 3 (mod 4) in frames
// 100–249; odd ids from frame 401 on renumbered
// id + 1000; and a false box (id 5000) at (10, 10) 30 × 60 in every fifth frame.
func petsFiles(t *testing.T, dir string) (gt17, tracks string) {
	t.Helper()
	needs.File(t, petsGT, "the ground truth is kept in ../shared/data beside the repository")
	raw, err := os.ReadFile(petsGT)
	if err != nil {
		t.Fatal(err)
	}
	var g, tr strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Split(line, ",")
		frame, _ := strconv.Atoi(f[0])
		id, _ := strconv.Atoi(f[1])
		x, _ := strconv.ParseFloat(f[2], 64)
		consider, class := f[6], 1
		switch {
		case id%5 == 1:
			consider, class = "0", 7
		case id%5 == 2:
			consider, class = "0", 8
		case id == 4:
			consider, class = "0", 3
		case id == 9:
			consider, class = "0", 6
		case id == 13:
			consider, class = "1", 12
		}
		fmt.Fprintf(&g, "%s,%s,%s,%s,%s,%s,%s,%d,1\n", f[0], f[1], f[2], f[3], f[4], f[5], consider, class)
		if (7*frame+id)%10 == 0 || id%4 == 3 && frame >= 100 && frame < 250 {
			continue
		}
		tid := id
		if id%2 == 1 && frame > 400 {
			tid += 1000
		}
		fmt.Fprintf(&tr, "%d,%d,%g,%s,%s,%s,1,-1,-1,-1\n", frame, tid, x+float64(id%4), f[3], f[4], f[5])
		if frame%5 == 0 && id == 15 { // once a frame: id 15 is in every frame
			fmt.Fprintf(&tr, "%d,5000,10,10,30,60,1,-1,-1,-1\n", frame)
		}
	}
	gt17, tracks = filepath.Join(dir, "MOT17-PETS", "gt", "gt.txt"), filepath.Join(dir, "MOT17-PETS.txt")
	err = os.MkdirAll(filepath.Dir(gt17), 0o755)
	if err == nil {
		err = os.WriteFile(gt17, []byte(g.String()), 0o644)
	}
	if err == nil {
		err = os.WriteFile(tracks, []byte(tr.String()), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return gt17, tracks
}

// TestTrackEvalOnPETS09: TrackEval's rules on real ground truth against TrackEval's own
// figures. The files are petsFiles'; set TRACKINK_EVAL_KEEP to a directory to keep them there
// and run TrackEval on them (docs/tracking.md, "Rule sets"). The figures are TrackEval's
// (commit 12c8791, benchmark MOT15 for the published ground truth, MOT17 for the derived
// one), every count of CLEAR and Identity, its MOTP, and its HOTA measures (HOTA, DetA,
// AssA, DetRe, DetPr, AssRe, AssPr, LocA, each the mean over its 19 thresholds) with HOTA(0)
// and LocA(0), to 1e-9; LocA to 1e-6, as trackink keeps box coordinates in float32.
func TestTrackEvalOnPETS09(t *testing.T) {
	dir := os.Getenv("TRACKINK_EVAL_KEEP")
	if dir == "" {
		dir = t.TempDir()
	}
	gt17, tracks := petsFiles(t, dir)
	load := func(path string, o scene.Options) *scene.Tracks {
		tr, err := scene.Load(path, o)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	tr := load(tracks, scene.Options{})
	for _, c := range []struct {
		name string
		gt   string
		want Result
		motp float64
		hota HOTAScores
		// hota0, loca0: HOTA(0) and LocA(0), at α = 0.05.
		hota0, loca0 float64
	}{
		// MOT15: no distractors; the 174 consider-0 rows left out (4476 boxes of 4650).
		{"MOT15", petsGT, Result{Frames: 795, GTBoxes: 4476, TrackBoxes: 3919, GTIDs: 19, TrackIDs: 22,
			Matches: 3817, FalsePositives: 102, Misses: 659, IDSwitches: 2, Fragmentations: 423,
			MostlyTracked: 16, PartiallyTracked: 3, IDTP: 3551, IDFP: 368, IDFN: 925}, 0.9097321363485074,
			HOTAScores{HOTA: 0.745474138705715, DetA: 0.7546257771253874, AssA: 0.7574660925873535,
				DetRe: 0.7884624429706975, DetPr: 0.9005251071030472, AssRe: 0.7777183551091724,
				AssPr: 0.9687973082908773, LocA: 0.9179438112706207}, 0.7985640052331947, 0.9095946154762431},
		// MOT17: the boxes on static persons, distractors and the reflection removed (3919 −
		// 1837), the car's and the vehicle's kept; pedestrians with flag 1 alone scored.
		{"MOT17", gt17, Result{Frames: 795, GTBoxes: 1377, TrackBoxes: 1837, GTIDs: 8, TrackIDs: 12,
			Matches: 1102, FalsePositives: 735, Misses: 275, IDSwitches: 2, Fragmentations: 119,
			MostlyTracked: 6, PartiallyTracked: 2, IDTP: 1101, IDFP: 736, IDFN: 276}, 0.8766402488815863,
			HOTAScores{HOTA: 0.6039389328019162, DetA: 0.4614285356287093, AssA: 0.8319095598486769,
				DetRe: 0.7171195963765623, DetPr: 0.5375469157379023, AssRe: 0.8351314363156347,
				AssPr: 0.9825727321855958, LocA: 0.8877408085535237}, 0.6636384315241997, 0.8689969188612258},
	} {
		r := Score(load(c.gt, scene.Options{MarkIgnored: true}), tr, Options{IoU: 0.5, Rules: TrackEval})
		checkCounts(t, c.name, r, c.want)
		if !near(r.MOTP(), c.motp, 1e-6) {
			t.Errorf("%s: MOTP %.9f, TrackEval's %.9f", c.name, r.MOTP(), c.motp)
		}
		h, w := r.HOTA.Mean(), c.hota
		got := []float64{h.HOTA, h.DetA, h.AssA, h.DetRe, h.DetPr, h.AssRe, h.AssPr, r.HOTA.At(0).HOTA, h.LocA, r.HOTA.At(0).LocA}
		want := []float64{w.HOTA, w.DetA, w.AssA, w.DetRe, w.DetPr, w.AssRe, w.AssPr, c.hota0, w.LocA, c.loca0}
		for k, name := range []string{"HOTA", "DetA", "AssA", "DetRe", "DetPr", "AssRe", "AssPr", "HOTA(0)", "LocA", "LocA(0)"} {
			tol := 1e-9
			if strings.HasPrefix(name, "LocA") {
				tol = 1e-6
			}
			if !near(got[k], want[k], tol) {
				t.Errorf("%s: %s %.12f, TrackEval's %.12f", c.name, name, got[k], want[k])
			}
		}
		if c.name != "MOT15" {
			continue
		}
		// py-motmetrics' rules leave out the same consider-0 rows of MOT15 and remove no
		// track box: the same HOTA.
		m := Score(load(c.gt, scene.Options{DropIgnored: true}), tr, Options{IoU: 0.5}).HOTA.Mean()
		if !near(m.HOTA, w.HOTA, 1e-9) || !near(m.DetA, w.DetA, 1e-9) || !near(m.AssA, w.AssA, 1e-9) {
			t.Errorf("MOT15, py-motmetrics' rules: HOTA, DetA, AssA %.12f %.12f %.12f, TrackEval's %.12f %.12f %.12f",
				m.HOTA, m.DetA, m.AssA, w.HOTA, w.DetA, w.AssA)
		}
	}
}
