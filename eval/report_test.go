package eval

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestReportUndefined: a measure over nothing is "-" in the table and null in JSON, never
// NaN (which JSON cannot hold) or a made-up 0.
func TestReportUndefined(t *testing.T) {
	rows := []Named{{Name: "empty"}, {Name: "fp only", Result: Result{Frames: 1, TrackBoxes: 2, TrackIDs: 2, FalsePositives: 2, IDFP: 2}}}
	var table, js bytes.Buffer
	if err := WriteTable(&table, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and two rows:\n%s", table.String())
	}
	// fp only: IDF1 0.0%, IDP 0.0%, IDR -, Rcll -, Prcn 0.0%, …, MOTA -, MOTP -.
	if f := strings.Fields(lines[2]); strings.Join(f[3:8], " ") != "0.0% 0.0% - - 0.0%" || f[len(f)-2] != "-" || f[len(f)-1] != "-" {
		t.Errorf("row %q", lines[2])
	}
	if err := WriteJSON(&js, rows, 0.5); err != nil {
		t.Fatal(err)
	}
	var got struct {
		MOTA      *float64         `json:"mota"`
		IDF1      *float64         `json:"idf1"`
		FP        int              `json:"false_positives"`
		Sequences []map[string]any `json:"sequences"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.MOTA != nil || got.IDF1 == nil || *got.IDF1 != 0 || got.FP != 2 || len(got.Sequences) != 2 ||
		got.Sequences[0]["sequence"] != "empty" || got.Sequences[0]["mota"] != nil {
		t.Errorf("JSON %s", js.String())
	}
}

// The table and the JSON state the frames each file spans; ranges that share no frame say
// so to Overlaps.
func TestReportFrameRanges(t *testing.T) {
	row := Named{Name: "seq", GTFrames: FrameRange{1, 795}, TrackFrames: FrameRange{2, 790}}
	var table, js bytes.Buffer
	if err := WriteTable(&table, []Named{row}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "seq: ground truth frames 1-795, tracks frames 2-790") {
		t.Errorf("table:\n%s", table.String())
	}
	if err := WriteJSON(&js, []Named{row}, 0.5); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"gt_frames": [`) || !strings.Contains(js.String(), `"track_frames": [`) {
		t.Errorf("JSON:\n%s", js.String())
	}
	for _, c := range []struct {
		a, b FrameRange
		want bool
	}{
		{FrameRange{1, 10}, FrameRange{10, 20}, true},
		{FrameRange{1, 10}, FrameRange{11, 20}, false},
		{FrameRange{}, FrameRange{1, 2}, false},
	} {
		if c.a.Overlaps(c.b) != c.want || c.b.Overlaps(c.a) != c.want {
			t.Errorf("%v and %v: overlap %v, want %v", c.a, c.b, !c.want, c.want)
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
		if got := SequenceName(path); got != want {
			t.Errorf("SequenceName(%q) = %q, want %q", path, got, want)
		}
	}
}
