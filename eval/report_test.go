package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestReportUndefined: a measure over nothing is "-" in the table and null in JSON, never
// NaN (which JSON cannot hold) or a made-up 0. HOTA, DetA and AssA of false positives alone
// are 0, as TrackEval has them; of nothing, undefined.
func TestReportUndefined(t *testing.T) {
	rows := []Named{{Name: "empty"}, {Name: "fp only", Result: Result{Frames: 1, TrackBoxes: 2, TrackIDs: 2, FalsePositives: 2, IDFP: 2,
		HOTA: hotaOf(hotaFrameIn{nil, []int{1, 2}, nil})}}}
	var table, js bytes.Buffer
	if err := WriteTable(&table, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and two rows:\n%s", table.String())
	}
	// fp only: HOTA, DetA, AssA 0.0%, IDF1 0.0%, IDP 0.0%, IDR -, Rcll -, Prcn 0.0%, …, MOTA -, MOTP -.
	if f := strings.Fields(lines[2]); strings.Join(f[3:11], " ") != "0.0% 0.0% 0.0% 0.0% 0.0% - - 0.0%" || f[len(f)-2] != "-" || f[len(f)-1] != "-" {
		t.Errorf("row %q", lines[2])
	}
	if f := strings.Fields(lines[1]); strings.Join(f[2:5], " ") != "- - -" {
		t.Errorf("row %q: want HOTA, DetA, AssA -", lines[1])
	}
	if err := WriteJSON(&js, rows, 0.5); err != nil {
		t.Fatal(err)
	}
	var got struct {
		MOTA      *float64         `json:"mota"`
		IDF1      *float64         `json:"idf1"`
		HOTA      *float64         `json:"hota"`
		FP        int              `json:"false_positives"`
		Sequences []map[string]any `json:"sequences"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.MOTA != nil || got.IDF1 == nil || *got.IDF1 != 0 || got.FP != 2 || len(got.Sequences) != 2 ||
		got.Sequences[0]["sequence"] != "empty" || got.Sequences[0]["mota"] != nil || got.Sequences[0]["hota"] != nil ||
		got.HOTA == nil || *got.HOTA != 0 {
		t.Errorf("JSON %s", js.String())
	}
}

// The table and the JSON state the frames each file spans; ranges that share no frame say
// so to Overlaps.
func TestReportFrameRanges(t *testing.T) {
	// As each file numbers them: the tracks' file from 0 (it said 2-790 for both).
	row := Named{Name: "seq", GTFrames: Numbered(FrameRange{1, 795}, 1), TrackFrames: Numbered(FrameRange{2, 790}, 0)}
	var table, js bytes.Buffer
	if err := WriteTable(&table, []Named{row}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "seq: ground truth frames 1-795, tracks frames 1-789") {
		t.Errorf("table:\n%s", table.String())
	}
	if err := WriteJSON(&js, []Named{row}, 0.5); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), "\"gt_frames\": [\n        1,\n        795\n      ]") || !strings.Contains(js.String(), "\"track_frames\": [\n        1,\n        789\n      ]") {
		t.Errorf("JSON:\n%s", js.String())
	}
	if empty := Numbered(FrameRange{}, 0); empty.String() != "none" {
		t.Errorf("an empty range of a 0-based file: %q", empty)
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

// Rows that would share a name are told apart by their ground truth's path, or by their
// tracks' where one ground truth file is scored twice (once they were identical rows).
func TestSequenceNames(t *testing.T) {
	for _, tc := range []struct {
		gts, tracks, want []string
	}{
		{[]string{"a/gt.txt", "b.txt"}, []string{"t1", "t2"}, []string{"a", "b"}},
		{[]string{"train/MOT17-02/gt/gt.txt", "test/MOT17-02/gt/gt.txt", "MOT17-04/gt/gt.txt"}, []string{"t1", "t2", "t3"},
			[]string{"MOT17-02 (train/MOT17-02/gt/gt.txt)", "MOT17-02 (test/MOT17-02/gt/gt.txt)", "MOT17-04"}},
		{[]string{"S2L1/gt/gt.txt", "S2L1/gt/gt.txt"}, []string{"/tmp/mine.txt", "theirs.txt"},
			[]string{"S2L1 (mine.txt)", "S2L1 (theirs.txt)"}},
		{[]string{"x/gt.txt", "x/gt.txt", "y/x.txt"}, []string{"/runs/a/t.txt", "/runs/b/t.txt", "t3"},
			[]string{"x (a/t.txt)", "x (b/t.txt)", "x (y/x.txt)"}},
		{[]string{"gt.txt", "gt.txt"}, []string{"t.txt", "t.txt"}, []string{"gt (t.txt)", "gt (t.txt)"}},
	} {
		if got := SequenceNames(tc.gts, tc.tracks); !slices.Equal(got, tc.want) {
			t.Errorf("SequenceNames(%q, %q) = %q, want %q", tc.gts, tc.tracks, got, tc.want)
		}
	}
}

// TestReportClasses: rows of classes scored apart (TrackEval's KITTI car and pedestrian) are
// labelled with their class, their overall rows are one per class and one of every row, and
// a sequence's frames count once however many classes it has. Sequences A (3 frames) and B
// (2), each a car row (1 and 2 false positives) and a pedestrian row (a miss each): OVERALL
// car 5 frames and 3 false positives, OVERALL pedestrian 5 frames and 2 misses; OVERALL,
// all rows together, 5 frames, not 10. A MOTChallenge sequence among them (no class) counts
// in OVERALL, which is the JSON's top level: OVERALL was once that sequence's alone.
func TestReportClasses(t *testing.T) {
	row := func(name, class string, k, frames, fp, fn int) Named {
		return Named{Name: name, Class: class, ClassIndex: k,
			Result: Result{Frames: frames, GTBoxes: 4, FalsePositives: fp, Misses: fn}}
	}
	rows := []Named{row("A", "car", 0, 3, 1, 0), row("A", "pedestrian", 1, 3, 0, 1),
		row("B", "car", 0, 2, 2, 0), row("B", "pedestrian", 1, 2, 0, 1)}
	mot := row("M", "", 0, 7, 0, 0)
	type want struct {
		label          string
		frames, fp, fn int
	}
	for _, c := range []struct {
		name string
		rows []Named
		want []want
	}{
		{"KITTI", rows, []want{{"OVERALL car", 5, 3, 0}, {"OVERALL pedestrian", 5, 0, 2}, {"OVERALL", 5, 3, 2}}},
		{"one KITTI sequence", rows[:2], []want{{"OVERALL", 3, 1, 1}}},
		{"one row", rows[:1], nil},
		{"no classes", []Named{mot, mot}, []want{{"OVERALL", 14, 0, 0}}},
		{"mixed", append(rows[:2:2], mot), []want{{"OVERALL car", 3, 1, 0}, {"OVERALL pedestrian", 3, 0, 1}, {"OVERALL", 10, 1, 1}}},
	} {
		over := OverallRows(c.rows)
		var got []want
		for _, o := range over {
			got = append(got, want{o.label(), o.Frames, o.FalsePositives, o.Misses})
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: OverallRows %v, want %v", c.name, got, c.want)
		}
		if len(over) == 0 {
			continue
		}
		// The last row is the JSON's top level.
		var js bytes.Buffer
		if err := WriteJSON(&js, c.rows, 0.5); err != nil {
			t.Fatal(err)
		}
		var top struct {
			Frames int      `json:"frames"`
			MOTA   *float64 `json:"mota"`
		}
		if err := json.Unmarshal(js.Bytes(), &top); err != nil {
			t.Fatal(err)
		}
		last := over[len(over)-1]
		if top.Frames != last.Frames || top.MOTA == nil || *top.MOTA != last.MOTA() {
			t.Errorf("%s: JSON's top level %s, OVERALL %+v", c.name, js.String(), last.Result)
		}
	}
	var table bytes.Buffer
	if err := WriteTable(&table, append(rows, OverallRows(rows)...)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"A car ", "A pedestrian ", "OVERALL car ", "OVERALL pedestrian ", "\n  OVERALL  "} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("no %q in\n%s", want, table.String())
		}
	}
}
