package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	tudCampusGT     = "../eval/testdata/TUD-Campus.gt.txt"
	tudCampusTracks = "../eval/testdata/TUD-Campus.tracks.txt"
)

// TestEvalJSON: `eval --json` prints one object whose keys are the documented ones, with
// py-motmetrics' published TUD-Campus values (see eval's TestMOTChallengeSequences).
func TestEvalJSON(t *testing.T) {
	code, out, errOut := trackink("eval", "--gt", tudCampusGT, "--tracks", tudCampusTracks, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	for key, want := range map[string]float64{"mota": 0.526462, "motp": 1 - 0.277201, "idf1": 0.557659,
		"idp": 0.729730, "idr": 0.451253, "id_switches": 7, "false_positives": 13, "misses": 150,
		"mostly_tracked": 1, "partially_tracked": 6, "mostly_lost": 1, "fragmentations": 7, "iou": 0.5} {
		if v, ok := got[key].(float64); !ok || math.Abs(v-want) > 1e-3 {
			t.Errorf("%q = %v, want %g", key, got[key], want)
		}
	}
	seqs, _ := got["sequences"].([]any)
	if len(seqs) != 1 || seqs[0].(map[string]any)["sequence"] != "TUD-Campus" {
		t.Errorf("sequences = %v, want one named TUD-Campus", got["sequences"])
	}
}

// TestEvalTable: two sequences give a row each and an OVERALL row; --iou changes the
// result (at 0.9 almost nothing matches).
func TestEvalTable(t *testing.T) {
	args := []string{"eval", "--gt", tudCampusGT, "--tracks", tudCampusTracks,
		"--gt", "../eval/testdata/TUD-Stadtmitte.gt.txt", "--tracks", "../eval/testdata/TUD-Stadtmitte.tracks.txt"}
	code, out, errOut := trackink(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.Contains(lines[1], "MOTA") || !strings.HasPrefix(strings.TrimSpace(lines[4]), "OVERALL") {
		t.Fatalf("want a note, a header and three rows:\n%s", out)
	}
	// OVERALL: MOTA 55.5 %, IDF1 62.4 % (py-motmetrics' published overall row).
	if f := strings.Fields(lines[4]); f[2] != "62.4%" || f[len(f)-2] != "55.5%" {
		t.Errorf("OVERALL row %q: want IDF1 62.4%% and MOTA 55.5%%", lines[4])
	}
	_, strict, _ := trackink("eval", "--gt", tudCampusGT, "--tracks", tudCampusTracks, "--iou", "0.9")
	if strict == "" || strings.Contains(strict, "52.6%") {
		t.Errorf("--iou 0.9 gives the same table as 0.5:\n%s", strict)
	}
}

// TestEvalBadInput: every mistake is exit status 2, before any work, naming the flag, or
// the file, line and field.
func TestEvalBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("1,1,0,0,10,10,-1,-1,-1,-1\n2,1,0,0,-3,10,-1,-1,-1,-1\n"), 0o644)
	points := filepath.Join(dir, "points.jsonl")
	os.WriteFile(points, []byte(`{"frame":1,"points":[{"id":1,"x":3,"y":4}]}`+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--gt", tudCampusGT}, "--tracks"},
		{[]string{"--tracks", tudCampusTracks}, "--gt"},
		{[]string{"--gt", tudCampusGT, "--tracks", tudCampusTracks, "--gt", tudCampusGT}, "--gt given 2 times and --tracks 1"},
		{[]string{"--gt", tudCampusGT, "--tracks", tudCampusTracks, "--iou", "0"}, "--iou 0"},
		{[]string{"--gt", tudCampusGT, "--tracks", tudCampusTracks, "--iou", "1.5"}, "--iou 1.5"},
		{[]string{"--gt", tudCampusGT, "--tracks", tudCampusTracks, "--iou", "NaN"}, "--iou NaN"},
		{[]string{"--gt", tudCampusGT, "--tracks", tudCampusTracks, "--frame-base", "2"}, "--frame-base"},
		{[]string{"--gt", filepath.Join(dir, "missing.txt"), "--tracks", tudCampusTracks}, "--gt " + filepath.Join(dir, "missing.txt")},
		{[]string{"--gt", tudCampusGT, "--tracks", bad}, "--tracks: " + bad + ":2: field 5 (bb_width)"},
		{[]string{"--gt", tudCampusGT, "--tracks", points}, "--tracks " + points + " holds only points (1), no boxes"},
	} {
		code, out, errOut := trackink(append([]string{"eval"}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("eval %v: exit %d, stdout %q, stderr %q; want 2, nothing, a message with %q", c.args, code, out, errOut, c.want)
		}
	}
}

func TestSequenceName(t *testing.T) {
	for path, want := range map[string]string{
		"MOT17-02/gt/gt.txt":   "MOT17-02",
		"data/bright.gt.txt":   "bright",
		"TUD-Campus_gt.txt":    "TUD-Campus",
		"/x/run3.jsonl":        "run3",
		"gt.txt":               "gt",
		"labels/seq-gt/gt.txt": "seq-gt",
	} {
		if got := sequenceName(path); got != want {
			t.Errorf("sequenceName(%q) = %q, want %q", path, got, want)
		}
	}
}
