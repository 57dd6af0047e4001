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
	rows := []Named{{"empty", Result{}}, {"fp only", Result{Frames: 1, TrackBoxes: 2, TrackIDs: 2, FalsePositives: 2, IDFP: 2}}}
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
