package scene

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	tr, err := Load(filepath.Join("testdata", "formats", "supervision.csv"), Options{Untracked: DrawUntracked})
	if err != nil {
		t.Fatal(err)
	}
	s := tr.Summary()
	want := Summary{Format: FormatSupervision, Frames: 2, First: 1, Last: 2, Boxes: 4, Points: 3, Tracks: 2, Untracked: 1,
		Classes: []ClassCount{{"car", 2}, {"person", 2}}, Extent: Extent{40, 50, 3230, 1502}}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("got  %+v\nwant %+v", s, want)
	}
	var out strings.Builder
	if err := s.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	text := `format     supervision CSVSink CSV
frames     2, from 1 to 2
boxes      4 (1 untracked)
points     3
tracks     2
classes    car 2, person 2
extent     x 40.0 to 3230.0, y 50.0 to 1502.0 px
`
	if out.String() != text {
		t.Errorf("WriteText:\n%s\nwant\n%s", out.String(), text)
	}
}

func TestSummaryWarns(t *testing.T) {
	tests := []struct {
		name  string
		input string // JSON Lines
		want  Summary
		text  string
	}{
		{"empty", "", Summary{Format: FormatJSONL}, "format     trackink JSON Lines\nframes     none: nothing is tracked\n" +
			"boxes      0 (0 untracked)\npoints     0\ntracks     0\nclasses    none\n"},
		{"a box and a point of one id are one track; empty boxes",
			`{"frame":1,"points":[{"id":1,"x":-5,"y":0}],"boxes":[{"id":1,"x":0,"y":0,"w":0,"h":2,"label":"a"},{"id":2,"x":0,"y":0,"w":3,"h":4}]}`,
			Summary{Format: FormatJSONL, Frames: 1, First: 1, Last: 1, Boxes: 2, Points: 1, Tracks: 2,
				Classes: []ClassCount{{"a", 1}}, Extent: Extent{-5, 0, 3, 4}, Warnings: []string{"1 box has no width or no height"}}, ""},
		{"detection numbers for ids", func() string {
			var s strings.Builder
			for f := 1; f <= 4; f++ {
				fmt.Fprintf(&s, `{"frame":%d,"points":[{"id":%d,"x":1,"y":1},{"id":%d,"x":1,"y":1},{"id":%d,"x":1,"y":1}]}`+"\n", f, 3*f, 3*f+1, 3*f+2)
			}
			return s.String()
		}(), Summary{Format: FormatJSONL, Frames: 4, First: 1, Last: 4, Points: 12, Tracks: 12, Extent: Extent{1, 1, 1, 1},
			Warnings: []string{"12 of the 12 tracks appear in one frame only: are the ids detection numbers rather than track ids?"}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := readString("t.jsonl", FormatJSONL, Options{}, tc.input)
			if err != nil {
				t.Fatal(err)
			}
			s := tr.Summary()
			if !reflect.DeepEqual(s, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", s, tc.want)
			}
			var out strings.Builder
			if err := s.WriteText(&out); err != nil {
				t.Fatal(err)
			}
			if tc.text != "" && out.String() != tc.text {
				t.Errorf("WriteText:\n%s\nwant\n%s", out.String(), tc.text)
			}
			for _, w := range s.Warnings {
				if !strings.Contains(out.String(), "warning    "+w+"\n") {
					t.Errorf("WriteText leaves out the warning %q", w)
				}
			}
		})
	}
}
