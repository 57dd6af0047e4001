package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/eval"
	"trackink/internal/mediatest"
	"trackink/scene"
)

// evalFiles writes a small ground truth and a tracker's output on it, in MOTChallenge text,
// and returns their paths. Ground truth: ids 1 and 2 in frames 1–3, 10 × 10 boxes at x 0
// and x 50. The tracker: track 1 on id 1 in every frame, in frame 1 two pixels off (IoU
// 80/120 = 0.667); track 2 on id 2 in frame 1; nothing on id 2 in frame 2 but a false
// track 3 far away; track 4 on id 2 in frame 3.
func evalFiles(t *testing.T) (gt, tracks string) {
	t.Helper()
	dir := t.TempDir()
	gt, tracks = filepath.Join(dir, "seq.gt.txt"), filepath.Join(dir, "seq.tracks.txt")
	rows := func(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }
	must(t, os.WriteFile(gt, rows("1,1,0,0,10,10,1,-1,-1,-1", "1,2,50,0,10,10,1,-1,-1,-1",
		"2,1,0,0,10,10,1,-1,-1,-1", "2,2,50,0,10,10,1,-1,-1,-1",
		"3,1,0,0,10,10,1,-1,-1,-1", "3,2,50,0,10,10,1,-1,-1,-1"), 0o644))
	must(t, os.WriteFile(tracks, rows("1,1,2,0,10,10,1,-1,-1,-1", "1,2,50,0,10,10,1,-1,-1,-1",
		"2,1,0,0,10,10,1,-1,-1,-1", "2,3,100,100,10,10,1,-1,-1,-1",
		"3,1,0,0,10,10,1,-1,-1,-1", "3,4,50,0,10,10,1,-1,-1,-1"), 0o644))
	return gt, tracks
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestEvalJSON: `eval --json` prints one object whose keys are the documented ones. On
// evalFiles at IoU 0.5: 6 ground-truth boxes, 5 matched; 1 miss (id 2, frame 2), 1 false
// positive (track 3), 1 switch (id 2: track 2, then 4): MOTA 1 − 3/6 = 0.5; MOTP the mean
// IoU of the matches, (0.667 + 4)/5 = 0.933. IDF1: the best one-to-one id pairing is 1–1
// (3 frames) and 2–2 or 2–4 (1 frame): IDTP 4 of 6 boxes on each side, IDF1 = IDP = IDR =
// 2/3. Id 1 is tracked in every frame (mostly tracked), id 2 in 2 of 3 (partially), its
// track interrupted once (1 fragmentation).
//
// HOTA: every overlapping pair is alone in its frame, so each frame matches its overlapping
// pairs. Boxes: id 1 3, id 2 3; track 1 3, tracks 2, 3, 4 1 each. At the 13 thresholds up
// to 0.65 (≤ 2/3): 5 TP, 1 FN, 1 FP, DetA 5/7; pair 1–1 TPA 3, A = 3/(3+3−3) = 1, pairs 2–2
// and 2–4 TPA 1, A = 1/(3+1−1) = 1/3: AssA (3 + 2/3)/5 = 11/15. At the 6 above, frame 1's
// 1–1 (IoU 2/3) no longer counts: 4 TP, 2 FN, 2 FP, DetA 1/2; 1–1 TPA 2, A = 2/(3+3−2) =
// 1/2: AssA (2 × 1/2 + 2/3)/4 = 5/12. Means: DetA (13 × 5/7 + 6 × 1/2)/19 = 0.6466, AssA
// (13 × 11/15 + 6 × 5/12)/19 = 0.6333, HOTA (13 √(5/7 × 11/15) + 6 √(1/2 × 5/12))/19 = 0.6393.
func TestEvalJSON(t *testing.T) {
	gt, tracks := evalFiles(t)
	code, out, errOut := trackink("eval", "--gt", gt, "--tracks", tracks, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	for key, want := range map[string]float64{"mota": 0.5, "motp": 14.0 / 15, "idf1": 2.0 / 3,
		"idp": 2.0 / 3, "idr": 2.0 / 3, "id_switches": 1, "false_positives": 1, "misses": 1,
		"mostly_tracked": 1, "partially_tracked": 1, "mostly_lost": 0, "fragmentations": 1, "iou": 0.5,
		"hota": (13*math.Sqrt(5.0/7*11/15) + 6*math.Sqrt(5.0/24)) / 19, "deta": (13*5.0/7 + 3) / 19,
		"assa": (13*11.0/15 + 6*5.0/12) / 19, "hota_0": math.Sqrt(5.0 / 7 * 11 / 15)} {
		if v, ok := got[key].(float64); !ok || math.Abs(v-want) > 1e-3 {
			t.Errorf("%q = %v, want %g", key, got[key], want)
		}
	}
	seqs, _ := got["sequences"].([]any)
	if len(seqs) != 1 || seqs[0].(map[string]any)["sequence"] != "seq" {
		t.Errorf("sequences = %v, want one named seq", got["sequences"])
	}
}

// TestEvalTable: two sequences give a row each, an OVERALL row and the frames of each;
// --iou changes the result. evalFiles' pair and the ground truth against itself: 12 ground-truth boxes, 3
// errors, MOTA 75.0 %; IDTP 4 + 6 of 12 + 12 boxes, IDF1 83.3 %. At --iou 0.9 track 1's
// frame 1 no longer matches (a miss and a false positive more): MOTA 1 − 5/6 = 16.7 %.
// OVERALL's HOTA combines the counts (TestEvalJSON's, and the perfect sequence's 6 TP of
// A = 1): up to α 0.65, 11 TP, 1 FN, 1 FP and AssA (11/3 + 6)/11 = 29/33; above, 10 TP, 2
// FN, 2 FP and AssA (5/3 + 6)/10 = 23/30: HOTA (13 √(11/13 × 29/33) + 6 √(10/14 × 23/30))/19
// = 82.4 %, where the mean of the two sequences' HOTA would be (63.9 + 100)/2 = 82.0 %.
func TestEvalTable(t *testing.T) {
	gt, tracks := evalFiles(t)
	args := []string{"eval", "--gt", gt, "--tracks", tracks, "--gt", gt, "--tracks", gt}
	code, out, errOut := trackink(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || !strings.Contains(lines[1], "MOTA") || !strings.HasPrefix(strings.TrimSpace(lines[4]), "OVERALL") ||
		lines[5] != "seq (seq.tracks.txt): ground truth frames 1-3, tracks frames 1-3" {
		t.Fatalf("want a note, a header, three rows and each sequence's frames:\n%s", out)
	}
	// One ground truth scored twice: the rows are named by their tracks files.
	if !strings.HasPrefix(strings.TrimSpace(lines[2]), "seq (seq.tracks.txt) ") || !strings.HasPrefix(strings.TrimSpace(lines[3]), "seq (seq.gt.txt) ") {
		t.Errorf("rows %q, %q: want them named seq (seq.tracks.txt), seq (seq.gt.txt)", lines[2], lines[3])
	}
	if !strings.Contains(lines[1], "HOTA") {
		t.Errorf("header %q: want HOTA", lines[1])
	}
	if f := strings.Fields(lines[4]); f[2] != "82.4%" || f[5] != "83.3%" || f[len(f)-2] != "75.0%" {
		t.Errorf("OVERALL row %q: want HOTA 82.4%%, IDF1 83.3%% and MOTA 75.0%%", lines[4])
	}
	_, strict, _ := trackink("eval", "--gt", gt, "--tracks", tracks, "--iou", "0.9")
	if !strings.Contains(strict, "16.7%") {
		t.Errorf("--iou 0.9: want MOTA 16.7%%:\n%s", strict)
	}
}

// TestEvalBadInput: every mistake on the command line is exit status 2, before any work,
// naming the flag; a file whose contents eval cannot score is 1 (as in every command),
// naming the file, line and field.
func TestEvalBadInput(t *testing.T) {
	gtFile, tracksFile := evalFiles(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("1,1,0,0,10,10,-1,-1,-1,-1\n2,1,0,0,-3,10,-1,-1,-1,-1\n"), 0o644)
	points := filepath.Join(dir, "points.jsonl")
	os.WriteFile(points, []byte(`{"frame":1,"points":[{"id":1,"x":3,"y":4}]}`+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"--gt", gtFile}, "--tracks", exitUsage},
		{[]string{"--tracks", tracksFile}, "--gt", exitUsage},
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--gt", gtFile}, "--gt given 2 times and --tracks 1 time:", exitUsage},
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--tracks", gtFile}, "--gt given 1 time and --tracks 2 times:", exitUsage}, // "1 times"
		// One sequence twice, by another spelling of the path: the overall row counted it twice.
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--gt", gtFile, "--tracks", filepath.Dir(tracksFile) + "/./" + filepath.Base(tracksFile)},
			"--tracks " + filepath.Dir(tracksFile) + "/./" + filepath.Base(tracksFile) + " is given twice (sequences 1 and 2)", exitUsage},
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--iou", "0"}, "--iou 0", exitUsage},
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--iou", "1.5"}, "--iou 1.5", exitUsage},
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--iou", "NaN"}, "--iou NaN", exitUsage},
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--frame-base", "2"}, "--frame-base", exitUsage},
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--rules", "official"}, "--rules official: want motmetrics, trackeval or auto", exitUsage},
		{[]string{"--gt", gtFile, "--tracks", tracksFile, "--rules", "trackeval", "--by-class"}, "--by-class with --rules trackeval", exitUsage},
		{[]string{"--gt", filepath.Join(dir, "missing.txt"), "--tracks", tracksFile}, "--gt " + filepath.Join(dir, "missing.txt"), exitUsage},
		{[]string{"--gt", gtFile, "--tracks", bad}, "--tracks: " + bad + ":2: field 5 (bb_width)", exitFailure},
		{[]string{"--gt", gtFile, "--tracks", points}, "--tracks " + points + " holds only points (1), no boxes", exitFailure},
	} {
		code, out, errOut := trackink(append([]string{"eval"}, c.args...)...)
		if code != c.code || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("eval %v: exit %d, stdout %q, stderr %q; want %d, nothing, a message with %q", c.args, code, out, errOut, c.code, c.want)
		}
	}
}

// A box without an id is refused in the ground truth, naming its line (it scored 30 boxes,
// 20 without ids, as 10 and MOTA 1). In the tracks such boxes are left out with one warning,
// as render and tracks leave them out (eval refused the file, and real Ultralytics output
// holds such lines), or refused with --untracked refuse. Ground truth and tracks that share
// no frame are warned about, and the report states both files' frames.
func TestEvalUntrackedAndFrames(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.jsonl", `{"frame":1,"boxes":[{"id":1,"x":1,"y":1,"w":5,"h":9}]}`+"\n")
	untracked := write("untracked.jsonl", `{"frame":1,"boxes":[{"id":1,"x":1,"y":1,"w":5,"h":9},{"x":20,"y":1,"w":5,"h":9}]}`+"\n")
	// The same as Ultralytics' save_txt (100 × 100) and supervision's CSVSink write it.
	yolo := filepath.Dir(write("yolo/clip_1.txt", "0 0.035 0.055 0.05 0.09 0.9 1\n0 0.225 0.055 0.05 0.09 0.8\n"))
	csv := write("u.csv", "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n1,1,6,10,0,0.9,1,0\n20,1,25,10,0,0.8,,0\n")
	// CVAT's MOT export (datumaro) writes id -1 for a box in no track.
	cvat := write("cvat/gt/gt.txt", "1,1,1,1,5,9,1,1,1\n1,-1,20,1,5,9,1,1,1\n")
	size := []string{"--width", "100", "--height", "100"}
	for gt, line := range map[string]string{untracked: "untracked.jsonl:1: boxes[1]: has no track id", cvat: "gt.txt:2: field 2 (id): has no track id"} {
		if code, _, stderr := trackink("eval", "--gt", gt, "--tracks", ok); code != exitFailure || !strings.Contains(stderr, line) {
			t.Errorf("untracked ground truth %s: exit %d, %q", gt, code, stderr)
		}
	}
	for _, c := range []struct {
		tracks string
		extra  []string
		line   string // where --untracked refuse finds the box
	}{
		{untracked, nil, "untracked.jsonl:1: boxes[1]: has no track id"},
		{yolo, size, "clip_1.txt:2: the box has no track id"},
		{csv, nil, "u.csv:3: field 7 (tracker_id): has no track id"},
		{cvat, nil, "gt.txt:2: field 2 (id): has no track id"},
	} {
		args := append([]string{"eval", "--gt", ok, "--tracks", c.tracks, "--json"}, c.extra...)
		code, stdout, stderr := trackink(args...)
		if code != 0 || !strings.Contains(stdout, `"mota": 1`) || !strings.Contains(stdout, `"false_positives": 0`) ||
			strings.Count(stderr, "warning") != 1 || !strings.Contains(stderr, c.tracks+": 1 box without a track id (untracked detections) left out") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the untracked box left out, one warning", args[1:], code, stdout, stderr)
		}
		code, _, stderr = trackink(append(args, "--untracked", "refuse")...)
		if code != exitFailure || !strings.Contains(stderr, c.line) {
			t.Errorf("%v --untracked refuse: exit %d, %q; want %d, %q", args[1:], code, stderr, exitFailure, c.line)
		}
	}
	if code, _, stderr := trackink("eval", "--gt", ok, "--tracks", ok, "--untracked", "draw"); code != exitUsage || !strings.Contains(stderr, `--untracked "draw": want skip or refuse`) {
		t.Errorf("--untracked draw: exit %d, %q", code, stderr)
	}
	later := write("later.jsonl", `{"frame":50,"boxes":[{"id":1,"x":1,"y":1,"w":5,"h":9}]}`+"\n")
	code, stdout, stderr := trackink("eval", "--gt", ok, "--tracks", later)
	if code != 0 || !strings.Contains(stderr, "share no frame: --frame-base or --frame-offset off?") || !strings.Contains(stdout, "ground truth frames 1-1, tracks frames 50-50") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// --frame-offset lines them up (the warning once named it, and eval had no such flag).
	code, stdout, stderr = trackink("eval", "--gt", ok, "--tracks", later, "--frame-offset", "-49", "--json")
	if code != 0 || stderr != "" || !strings.Contains(stdout, `"mota": 1`) {
		t.Errorf("--frame-offset -49: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// MOT text a tracker numbered from 0, against ground truth from 1.
	gt1 := write("gt1.txt", "1,1,0,0,10,10,1,-1,-1,-1\n2,1,5,0,10,10,1,-1,-1,-1\n")
	from0 := write("from0.txt", "0,1,0,0,10,10,1,-1,-1,-1\n1,1,5,0,10,10,1,-1,-1,-1\n")
	if code, stdout, stderr = trackink("eval", "--gt", gt1, "--tracks", from0, "--frame-base", "0", "--frame-offset", "1", "--json"); code != 0 || !strings.Contains(stdout, `"mota": 1`) {
		t.Errorf("--frame-base 0 --frame-offset 1: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// The footer's frames and the JSON's are as each file numbers them (they were trackink's
	// own numbers, one higher for a file read from 0: "ground truth frames 2-3, tracks frames
	// 1-2").
	kitti := write("k.txt", "0 1 Car 0 0 -10 100 100 150 180 1.5 1.6 3.9 1 1 10 0\n4 1 Car 0 0 -10 100 100 150 180 1.5 1.6 3.9 1 1 10 0\n")
	for _, c := range []struct {
		args             []string
		footer, gtJ, trJ string
	}{
		{[]string{"--gt", gt1, "--tracks", from0, "--frame-base", "0", "--frame-offset", "1"}, "gt1: ground truth frames 1-2, tracks frames 0-1", "[1,2]", "[0,1]"},
		{[]string{"--gt", gt1, "--tracks", gt1}, "gt1: ground truth frames 1-2, tracks frames 1-2", "[1,2]", "[1,2]"},
		{[]string{"--gt", kitti, "--tracks", kitti}, "k: ground truth frames 0-4, tracks frames 0-4", "[0,4]", "[0,4]"},
		{[]string{"--gt", gt1, "--tracks", kitti, "--rules", "motmetrics"}, "gt1: ground truth frames 1-2, tracks frames 0-4", "[1,2]", "[0,4]"},
	} {
		_, table, _ := trackink(append([]string{"eval"}, c.args...)...)
		_, js, _ := trackink(append([]string{"eval", "--json"}, c.args...)...)
		var got struct {
			Sequences []struct {
				GT     json.RawMessage `json:"gt_frames"`
				Tracks json.RawMessage `json:"track_frames"`
			} `json:"sequences"`
		}
		must(t, json.Unmarshal([]byte(js), &got))
		compact := func(m json.RawMessage) string { return strings.Join(strings.Fields(string(m)), "") }
		if !strings.Contains(table, c.footer+"\n") || len(got.Sequences) == 0 || compact(got.Sequences[0].GT) != c.gtJ || compact(got.Sequences[0].Tracks) != c.trJ {
			t.Errorf("%v: table %q, JSON %s; want %q, %s and %s", c.args, table, js, c.footer, c.gtJ, c.trJ)
		}
	}
	empty := write("empty.txt", "")
	if code, _, stderr = trackink("eval", "--gt", ok, "--tracks", empty); code != 0 || !strings.Contains(stderr, "empty.txt holds no boxes: every ground-truth box is a miss") {
		t.Errorf("empty tracks: exit %d, stderr %q", code, stderr)
	}
}

// KITTI's evaluation scores each class apart: eval matches a KITTI ground truth's boxes only
// with track boxes of their class, unless told --by-class=false (a Pedestrian box on a Car
// matched it, MOTA 1).
func TestEvalKITTIByClass(t *testing.T) {
	dir := t.TempDir()
	kitti := func(name, typ string) string {
		p := filepath.Join(dir, name)
		line := "0 1 " + typ + " 0 0 -10 100 100 150 180 1.5 1.6 3.9 1 1 10 0\n"
		must(t, os.WriteFile(p, []byte(line), 0o644))
		return p
	}
	gt, other, same := kitti("gt.txt", "Car"), kitti("ped.txt", "Pedestrian"), kitti("car.txt", "Car")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tracks", same}, `"matches": 1`},
		{[]string{"--tracks", other}, `"matches": 0`},
		{[]string{"--tracks", other, "--by-class=false"}, `"matches": 1`},
	} {
		code, stdout, stderr := trackink(append([]string{"eval", "--gt", gt, "--json"}, c.args...)...)
		if code != 0 || !strings.Contains(stdout, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %s", c.args, code, stdout, stderr, c.want)
		}
	}
}

// TestEvalRules: --rules picks whose rules score, and auto picks TrackEval's (KITTI's devkit's)
// for KITTI ground truth alone.
//
// MOTChallenge: pedestrian 1 and a static person (class 7, consider flag 0), each with a track
// box on it. py-motmetrics' rules drop the static person and count the box on it a false
// positive: 1 match, 1 false positive, MOTA 1 − 1/1 = 0. TrackEval's remove the box on the
// distractor: MOTA 1.
//
// KITTI: a Car with a track box on it and a DontCare region (x 200–300) with a Car track box
// wholly inside. TrackEval's rules (auto) remove the box in the region: MOTA 1, and the
// classes are reported apart (car: 1 match; pedestrian: nothing, MOTA undefined).
// py-motmetrics' rules do not know the region: 1 false positive, MOTA 0.
// fileWriter returns a function writing text to a file of the given name in a directory of
// t's, returning its path.
func fileWriter(t *testing.T) func(name, text string) string {
	dir := t.TempDir()
	return func(name, text string) string {
		p := filepath.Join(dir, name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
}

func TestEvalRules(t *testing.T) {
	write := fileWriter(t)
	motGT := write("mot.gt.txt", "1,1,0,0,10,10,1,1,1\n1,2,50,0,10,10,0,7,1\n")
	motTracks := write("mot.tracks.txt", "1,1,0,0,10,10,1,-1,-1,-1\n1,2,50,0,10,10,1,-1,-1,-1\n")
	const rest = " 1 1 1 1 1 1 0\n"
	kittiGT := write("kitti.gt.txt", "0 1 Car 0 0 -10 0 0 40 30"+rest+"0 -1 DontCare -1 -1 -10 200 0 300 100"+rest)
	kittiTracks := write("kitti.tracks.txt", "0 1 Car 0 0 -10 0 0 40 30"+rest+"0 2 Car 0 0 -10 210 10 250 40"+rest)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--gt", motGT, "--tracks", motTracks}, []string{`"rules": "motmetrics"`, `"false_positives": 1`, `"mota": 0,`}},
		{[]string{"--gt", motGT, "--tracks", motTracks, "--rules", "trackeval"}, []string{`"rules": "trackeval"`, `"false_positives": 0`, `"mota": 1,`}},
		{[]string{"--gt", kittiGT, "--tracks", kittiTracks}, []string{`"rules": "trackeval"`, `"false_positives": 0`, `"mota": 1,`,
			`"class": "car"`, `"class": "pedestrian"`}},
		{[]string{"--gt", kittiGT, "--tracks", kittiTracks, "--rules", "motmetrics"}, []string{`"rules": "motmetrics"`, `"false_positives": 1`, `"mota": 0,`}},
	} {
		code, out, errOut := trackink(append([]string{"eval", "--json"}, c.args...)...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %s in\n%s", c.args, w, out)
			}
		}
	}
	// The table names the rules and a row for each class.
	code, out, errOut := trackink("eval", "--gt", kittiGT, "--tracks", kittiTracks)
	if code != 0 || !strings.Contains(out, "rules: trackeval") || !strings.Contains(out, "kitti car ") || !strings.Contains(out, "kitti pedestrian ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// KITTI and MOTChallenge together: the table's OVERALL row is the JSON's top level, every
	// row summed (it was the MOTChallenge sequence's alone: 1 frame, MOTA 0.0%, where the
	// JSON said 2 frames, MOTA 50.0%).
	mixed := []string{"eval", "--gt", kittiGT, "--tracks", kittiTracks, "--gt", motGT, "--tracks", motTracks}
	_, out, _ = trackink(mixed...)
	_, js, _ := trackink(append(mixed, "--json")...)
	var top struct {
		Frames int     `json:"frames"`
		MOTA   float64 `json:"mota"`
	}
	must(t, json.Unmarshal([]byte(js), &top))
	var overall []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "OVERALL" && f[1] != "car" && f[1] != "pedestrian" {
			overall = f
		}
	}
	if top.Frames != 2 || len(overall) < 3 || overall[1] != "2" || overall[len(overall)-2] != fmt.Sprintf("%.1f%%", 100*top.MOTA) {
		t.Errorf("mixed: OVERALL %q, JSON frames %d, MOTA %g:\n%s", overall, top.Frames, top.MOTA, out)
	}
}

// Track boxes of classes the ground truth does not score: MOTChallenge's is of people, and
// tracks of --detect objects (cars among them) were once scored against it without a word,
// every car a false positive. TrackEval refuses such tracks; py-motmetrics counts them.
// Class numbers without names are judged as TrackEval judges them (it refuses only numbers
// above 1), so Ultralytics' person, 0, passes; --class-names names them, as in render (a
// YOLO directory of people, class 0, was refused as "not people (0 2)", and eval had no
// --class-names).
func TestEvalTracksOfOtherClasses(t *testing.T) {
	write := fileWriter(t)
	gt := write("people.gt.txt", "1,1,0,0,10,10,1,-1,-1,-1\n1,2,50,0,10,10,1,-1,-1,-1\n")
	// MOT17's numbering: a car (3) to be considered (1) makes ground truth of cars too.
	carsGT := write("cars.gt.txt", "1,1,0,0,10,10,1,1,1\n1,2,50,0,10,10,1,3,1\n")
	people := write("people.jsonl", `{"frame":1,"boxes":[{"id":1,"x":0,"y":0,"w":10,"h":10,"label":"person"},{"id":2,"x":50,"y":0,"w":10,"h":10,"label":"person"}]}`+"\n")
	objects := write("objects.jsonl", `{"frame":1,"boxes":[{"id":1,"x":0,"y":0,"w":10,"h":10,"label":"person"},{"id":2,"x":50,"y":0,"w":10,"h":10,"label":"car"}]}`+"\n")
	// As track --detect objects writes MOTChallenge text: class numbers in x, names beside.
	objectsMOT := write("objects.txt", "1,1,0,0,10,10,0.9,0,-1,-1\n1,2,50,0,10,10,0.9,2,-1,-1\n")
	write("objects.names", "person\nbicycle\ncar\n")
	plainMOT := write("plain.txt", "1,1,0,0,10,10,0.9,0,-1,-1\n1,2,50,0,10,10,0.9,2,-1,-1\n")
	// Ultralytics' save_txt, no names: people are class 0; then a class 2 among them.
	yolo0 := filepath.Dir(write("yolo0/clip_1.txt", "0 0.05 0.05 0.1 0.1 0.9 1\n0 0.55 0.05 0.1 0.1 0.9 2\n"))
	yolo2 := filepath.Dir(write("yolo2/clip_1.txt", "0 0.05 0.05 0.1 0.1 0.9 1\n2 0.55 0.05 0.1 0.1 0.9 2\n"))
	// supervision CSV without class_name: class_id 0.
	csv0 := write("sv0.csv", "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n0,0,10,10,0,0.9,1,0\n50,0,60,10,0,0.9,2,0\n")
	coco := write("coco3.names", "person\nbicycle\ncar\n")
	peds := write("peds.names", "person\nbicycle\npedestrian\n")
	size := []string{"--width", "100", "--height", "100"}
	const (
		warning = "warning: %s: 1 track box is not people (%s): the MOTChallenge ground truth is of people, but py-motmetrics' rules match a box whatever its class"
		refusal = "--tracks %s: 1 track box is not people (%s): TrackEval's MOTChallenge evaluation scores pedestrians and refuses tracks of other classes"
	)
	for _, c := range []struct {
		gt, tracks, rules string
		extra             []string
		code              int
		stderr            string // a format for the tracks' path and the classes; "" for nothing said
		classes           string
	}{
		{gt, people, "motmetrics", nil, 0, "", ""},
		{gt, people, "trackeval", nil, 0, "", ""},
		{gt, objects, "motmetrics", nil, 0, warning, "car: 1"},
		{gt, objects, "trackeval", nil, 1, refusal, "car: 1"},
		{gt, objectsMOT, "motmetrics", nil, 0, warning, "car: 1"},
		{gt, objectsMOT, "trackeval", nil, 1, refusal, "car: 1"},
		{gt, plainMOT, "trackeval", nil, 0, "", ""}, // no names: x is not a class
		{gt, plainMOT, "trackeval", []string{"--class-names", coco}, 1, refusal, "car: 1"},
		{gt, objectsMOT, "trackeval", []string{"--class-names", peds}, 0, "", ""},
		{gt, objectsMOT, "trackeval", []string{"--class-names", "none"}, 0, "", ""},
		{carsGT, objects, "motmetrics", nil, 0, "", ""},
		{carsGT, objects, "trackeval", nil, 1, refusal, "car: 1"},
		{gt, yolo0, "trackeval", size, 0, "", ""},
		{gt, yolo0, "motmetrics", size, 0, "", ""},
		{gt, csv0, "trackeval", nil, 0, "", ""},
		{gt, yolo2, "trackeval", size, 1, refusal, "class number 2: 1"},
		{gt, yolo2, "motmetrics", size, 0, warning, "class number 2: 1"},
		{gt, yolo2, "trackeval", append([]string{"--class-names", coco}, size...), 1, refusal, "car: 1"},
		{gt, yolo2, "trackeval", append([]string{"--class-names", peds}, size...), 0, "", ""},
	} {
		args := append([]string{"eval", "--gt", c.gt, "--tracks", c.tracks, "--rules", c.rules}, c.extra...)
		code, _, stderr := trackink(args...)
		said := strings.Contains(stderr, "not people")
		want := fmt.Sprintf(c.stderr, c.tracks, c.classes)
		if code != c.code || said != (c.stderr != "") || said && !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, %q; want exit %d, %q", args[1:], code, stderr, c.code, want)
		}
		// The refusal points the way for another tracker's output too.
		if code == 1 && (!strings.Contains(stderr, "--class-names FILE") || !strings.Contains(stderr, "--rules motmetrics")) {
			t.Errorf("%v: %q: want --class-names and --rules motmetrics named", args[1:], stderr)
		}
	}
	// As the warning says, the car on a person is matched under py-motmetrics' rules (it
	// said the cars "count as false positives").
	if _, out, _ := trackink("eval", "--gt", gt, "--tracks", objects, "--json"); !strings.Contains(out, `"false_positives": 0`) {
		t.Errorf("objects: want no false positive in %s", out)
	}
	code, _, stderr := trackink("eval", "--gt", gt, "--tracks", people, "--class-names", filepath.Join(t.TempDir(), "no.names"))
	if code != exitUsage || !strings.Contains(stderr, "--class-names") {
		t.Errorf("a missing --class-names file: exit %d, %q; want %d naming the flag", code, stderr, exitUsage)
	}
}

// Track boxes in frames the ground truth does not reach are all false positives, and were
// scored without a word (a tracker run on a whole clip, 795 frames, against ground truth
// of its first 120: MOTA −535.6 %, 3974 of 4023 false positives past frame 120); they are
// warned about, with their count and frames, before and after.
func TestEvalTracksOutsideTruth(t *testing.T) {
	write := fileWriter(t)
	gt := write("part.gt.txt", "2,1,0,0,10,10,1,-1,-1,-1\n3,1,0,0,10,10,1,-1,-1,-1\n4,1,0,0,10,10,1,-1,-1,-1\n")
	row := func(frame int) string {
		return fmt.Sprintf("%d,1,0,0,10,10,1,-1,-1,-1\n%d,2,50,0,10,10,1,-1,-1,-1\n", frame, frame)
	}
	whole := write("whole.txt", row(1)+row(2)+row(3)+row(4)+row(5)+row(6))
	inside := write("inside.txt", row(2)+row(3)+row(4))
	from1 := write("from1.txt", row(1)+row(2)+row(3))
	for _, c := range []struct {
		tracks string
		extra  []string
		want   []string // the warnings' words; none for nothing said
	}{
		{whole, nil, []string{"part: 2 track boxes in 1 frame (tracks frames 1-1) lie before the ground truth's first frame (ground truth frames 2-4)",
			"part: 4 track boxes in 2 frames (tracks frames 5-6) lie past the ground truth's last frame (ground truth frames 2-4): each is a false positive. " +
				"A tracker run on the whole video, scored against ground truth of a part of it?"}},
		{inside, nil, nil},
		{from1, []string{"--frame-offset", "1"}, nil},
		{from1, nil, []string{"part: 2 track boxes in 1 frame (tracks frames 1-1) lie before"}},
	} {
		args := append([]string{"eval", "--gt", gt, "--tracks", c.tracks}, c.extra...)
		code, _, stderr := trackink(args...)
		if code != 0 || strings.Count(stderr, "warning") != len(c.want) {
			t.Errorf("%v: exit %d, %q; want %d warnings", args[1:], code, stderr, len(c.want))
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: %q; want %q", args[1:], stderr, w)
			}
		}
	}
}

// Tracks made at another picture size (a detector fed a resized frame) were scored without
// a word (MOTA −100 %), even given the video, and eval had no --tracks-size: it now warns as
// render does where it knows the picture's size, and --tracks-size scales them as render's.
func TestEvalTracksSize(t *testing.T) {
	write := fileWriter(t)
	var gtRows, bigRows, yoloRows string
	for f := 1; f <= 3; f++ {
		gtRows += fmt.Sprintf("%d,1,10,10,20,20,1,-1,-1,-1\n%d,2,60,60,20,20,1,-1,-1,-1\n", f, f)
		bigRows += fmt.Sprintf("%d,1,20,20,40,40,1,-1,-1,-1\n%d,2,120,120,40,40,1,-1,-1,-1\n", f, f)
	}
	yoloRows = "0 0.2 0.2 0.2 0.2 0.9 1\n0 0.7 0.7 0.2 0.2 0.9 2\n"
	gt, big := write("gt.txt", gtRows), write("big.txt", bigRows)
	yolo := filepath.Dir(write("yolo/clip_1.txt", yoloRows))
	size := []string{"--width", "100", "--height", "100"}
	// The video's size, from -i (320 × 240): --tracks-size needs it after the probe (it was
	// checked before, and refused as missing).
	clip := mediatest.Clip(t, "mp4")
	gtClip := write("clip.gt.txt", "1,1,10,10,20,20,1,-1,-1,-1\n1,2,160,120,20,20,1,-1,-1,-1\n")
	bigClip := write("clipbig.txt", "1,1,20,20,40,40,1,-1,-1,-1\n1,2,320,240,40,40,1,-1,-1,-1\n")
	for _, c := range []struct {
		gt, tracks string
		extra      []string
		code       int
		want       string // in standard output (code 0) or the error
		warn       string // a warning; "" for none
	}{
		{gtClip, bigClip, []string{"-i", clip}, 0, `"mota": -1`, "warning: " + bigClip + ": tracks reach 360×280, past the 320×240 picture"},
		{gtClip, bigClip, []string{"-i", clip, "--tracks-size", "640x480"}, 0, `"mota": 1`, ""},
		{gt, big, size, 0, `"mota": -1`, "warning: " + big + ": tracks reach 160×160, past the 100×100 picture (3 of 6 boxes centred outside it): made at 200×200? --tracks-size 200x200 scales them to the picture"},
		{gt, big, append([]string{"--tracks-size", "200x200"}, size...), 0, `"mota": 1`, ""},
		{gt, big, nil, 0, `"mota": -1`, ""}, // no picture size: nothing to tell by
		{gt, gt, size, 0, `"mota": 1`, ""},
		{gt, big, []string{"--tracks-size", "200x200"}, exitUsage, "--tracks-size: give the video's size too (-i, or --width and --height)", ""},
		{gt, big, append([]string{"--tracks-size", "200"}, size...), exitUsage, `--tracks-size "200": want WIDTHxHEIGHT`, ""},
		{gt, yolo, append([]string{"--tracks-size", "200x200"}, size...), exitUsage, "--tracks-size: YOLO's coordinates are fractions of the frame", ""},
	} {
		args := append([]string{"eval", "--gt", c.gt, "--tracks", c.tracks, "--json"}, c.extra...)
		code, stdout, stderr := trackink(args...)
		got := stdout
		if code != 0 {
			got = stderr
		}
		warned := strings.Contains(stderr, "warning")
		if code != c.code || !strings.Contains(got, c.want) || warned != (c.warn != "") || !strings.Contains(stderr, c.warn) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, warning %q", args[1:], code, stdout, stderr, c.code, c.want, c.warn)
		}
	}
}

// --by-class pairs a tracker's person with MOTChallenge's pedestrian (it scored trackink's
// own --detect people tracks against MOT17 ground truth as 0 matches, MOTA −94 %, without a
// word), matches class names in any case, and warns when no track class is a ground-truth
// class.
func TestEvalByClassNames(t *testing.T) {
	write := fileWriter(t)
	gt17 := write("g17.gt.txt", "1,1,0,0,10,10,1,1,1\n1,2,50,0,10,10,1,1,1\n") // class 1: pedestrian
	box := func(name, label string) string {
		return write(name, `{"frame":1,"boxes":[{"id":1,"x":0,"y":0,"w":10,"h":10,"label":"`+label+`"},{"id":2,"x":50,"y":0,"w":10,"h":10,"label":"`+label+`"}]}`+"\n")
	}
	person, ped, car := box("person.jsonl", "person"), box("ped.jsonl", "Pedestrian"), box("car.jsonl", "car")
	const none = "no track class is a ground-truth class"
	for _, c := range []struct {
		tracks, want, warn string
	}{
		{person, `"matches": 2`, ""},
		{ped, `"matches": 2`, ""},
		{car, `"matches": 0`, car + ": --by-class: " + none + " (tracks: car; ground truth: pedestrian), so no track box can match"},
	} {
		code, stdout, stderr := trackink("eval", "--gt", gt17, "--tracks", c.tracks, "--by-class", "--json")
		if code != 0 || !strings.Contains(stdout, c.want) || strings.Contains(stderr, none) != (c.warn != "") || !strings.Contains(stderr, c.warn) {
			t.Errorf("%s: exit %d, stderr %q; want %s, warning %q", filepath.Base(c.tracks), code, stderr, c.want, c.warn)
		}
	}
}

// Eval's messages say what happened in the user's words: a box of no class is "no class"
// (it printed "( 609)"); a reader's warning names the file's role, once for each (it said
// the same twice for a file given as both); empty ground truth says it holds no boxes (it
// blamed --frame-base or --frame-offset).
func TestEvalMessages(t *testing.T) {
	write := fileWriter(t)
	kitti := write("gk.txt", "0 1 Pedestrian 0 0 -10 0 0 10 30 1 1 1 1 1 1 0\n")
	classless := write("plain.txt", "1,1,0,0,10,30,1,-1,-1,-1\n")
	zero := write("g0.txt", "1,1,0,0,10,30,1,-1,-1,-1\n1,2,50,0,0,30,1,-1,-1,-1\n")
	empty := write("empty.txt", "")
	scoredGT := write("scored.txt", "1,1,0,0,10,30,0.85,-1,-1,-1\n2,1,0,0,10,30,0.9,-1,-1,-1\n")
	for _, c := range []struct {
		args    []string
		want    []string
		notWant string
	}{
		{[]string{"--gt", kitti, "--tracks", classless}, []string{"1 track box is neither Car nor Pedestrian (no class: 1)"}, "( 1)"},
		{[]string{"--gt", zero, "--tracks", zero}, []string{"warning: --gt " + zero + ": ", "warning: --tracks " + zero + ": "}, ""},
		{[]string{"--gt", empty, "--tracks", classless}, []string{"warning: empty: the ground truth " + empty + " holds no boxes: every track box is a false positive"}, "--frame-offset off"},
		// A tracker's output as ground truth: TrackEval reads its scores as consider flags of 0.
		{[]string{"--gt", scoredGT, "--tracks", classless, "--rules", "trackeval"}, []string{"every box of the ground truth " + scoredGT + " is one to leave out (its consider flag", "--rules motmetrics scores such a file), so nothing is scored"}, ""},
		{[]string{"--gt", scoredGT, "--tracks", classless, "--rules", "motmetrics"}, nil, "leave out"},
	} {
		code, _, stderr := trackink(append([]string{"eval"}, c.args...)...)
		if code != 0 || c.notWant != "" && strings.Contains(stderr, c.notWant) {
			t.Errorf("%v: exit %d, %q; want 0, without %q", c.args, code, stderr, c.notWant)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: %q; want %q", c.args, stderr, w)
			}
		}
	}
}

// MOT20's rules (its distractors) are a MOT20 sequence's, by the sequence's name as
// TrackEval's benchmark names them, not by any directory of the path (MOT17 ground truth
// under a directory named MOT20-runs once scored by MOT20's rules).
func TestEvalMOT20ByName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gt.txt")
	if err := os.WriteFile(path, []byte("1,1,10,10,20,20,1,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gt, err := scene.Load(path, scene.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  string
		mot20 bool
	}{
		{"data/MOT20/train/MOT20-05/gt/gt.txt", true},
		{"MOT20-01/gt/gt.txt", true},
		{"MOT20-runs/MOT17-02/gt/gt.txt", false},
		{"/home/me/MOT20-baselines/MOT17-04-gt.txt", false},
		{"MOT17-02/gt/gt.txt", false},
	} {
		if o := evalOptions(tc.path, gt, 0.5, eval.TrackEval); o.MOT20 != tc.mot20 {
			t.Errorf("%s: MOT20 rules %v, want %v", tc.path, o.MOT20, tc.mot20)
		}
	}
}
