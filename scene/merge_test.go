package scene

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Merge draws several files together: ids of different files never meet, each item says
// its file, the files' frames interleave in order, and FileID gives each file's own id back.
func TestMerge(t *testing.T) {
	mot := "1,3,10,20,30,40,1,-1,-1,-1\n1,5,50,20,30,40,1,-1,-1,-1\n3,3,12,20,30,40,1,-1,-1,-1\n"
	jsonl := `{"frame":1,"boxes":[{"id":3,"x":100,"y":100,"w":10,"h":10,"label":"car"}]}
{"frame":2,"points":[{"id":3,"x":7,"y":8}],"boxes":[{"x":1,"y":1,"w":1,"h":1,"label":"dog"}]}
`
	read := func(name, data string) *Tracks {
		t.Helper()
		tr, err := Read(strings.NewReader(data), name, FormatAuto, Options{Untracked: DrawUntracked})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	merged, err := Merge([]*Tracks{read("a.txt", mot), read("b.jsonl", jsonl)}, []string{"a.txt", "b.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	// Each file's own frames, told apart for the render's warnings.
	if got, want := merged.Spans(), []Span{{1, 3, 2}, {1, 2, 2}}; !slices.Equal(got, want) {
		t.Errorf("spans %v, want %v", got, want)
	}
	withEmpty, err := Merge([]*Tracks{read("a.txt", mot), read("e.txt", "")}, []string{"a.txt", "e.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := withEmpty.Spans(), []Span{{1, 3, 2}, {}}; !slices.Equal(got, want) {
		t.Errorf("spans with an empty file %v, want %v", got, want)
	}
	type item struct {
		file, id int // the file's index and its own id
		x        float32
	}
	for _, tc := range []struct {
		frame         int
		boxes, points []item
	}{
		// Track 3 of a.txt and track 3 of b.jsonl are two tracks; a.txt's boxes yield
		// points (b.jsonl gives its own, so its boxes yield none).
		{1, []item{{0, 3, 10}, {0, 5, 50}, {1, 3, 100}}, []item{{0, 3, 25}, {0, 5, 65}}},
		// b.jsonl's own point, and its untracked box (no id, still its file's).
		{2, []item{{1, NoID, 1}}, []item{{1, 3, 7}}},
		{3, []item{{0, 3, 12}}, []item{{0, 3, 27}}},
	} {
		var f Frame
		if merged.Frame(tc.frame, &f) == nil {
			t.Fatalf("frame %d: none", tc.frame)
		}
		var boxes, points []item
		ids := map[int]bool{}
		for _, b := range f.Boxes {
			boxes = append(boxes, item{b.Source, FileID(b.ID, 2), b.X})
			if b.ID != NoID && ids[b.ID] {
				t.Errorf("frame %d: two boxes of id %d", tc.frame, b.ID)
			}
			ids[b.ID] = true
		}
		for _, p := range f.Points {
			points = append(points, item{p.Source, FileID(p.ID, 2), p.X})
		}
		if !slices.Equal(boxes, tc.boxes) || !slices.Equal(points, tc.points) {
			t.Errorf("frame %d: boxes %v, points %v; want %v, %v", tc.frame, boxes, points, tc.boxes, tc.points)
		}
	}
	if got := merged.Classes(); strings.Join(got, ",") != "car,dog" {
		t.Errorf("classes %q, want car, dog", got)
	}
	if got := merged.Sources(); strings.Join(got, ",") != "a.txt,b.jsonl" {
		t.Errorf("sources %q", got)
	}
	if merged.Len() != 3 || merged.FirstIndex() != 1 || merged.LastIndex() != 3 {
		t.Errorf("frames %d, %d to %d; want 3, 1 to 3", merged.Len(), merged.FirstIndex(), merged.LastIndex())
	}

	// One file is drawn as it is: its ids are its own.
	one := read("a.txt", mot)
	if got, err := Merge([]*Tracks{one}, []string{"a.txt"}); err != nil || got != one || len(got.Sources()) != 1 {
		t.Errorf("one file: %v, %v", got, err)
	}
	for id := range 5 {
		for k := range 3 {
			if m := MergedID(id, k, 3); FileID(m, 3) != id || m%3 != k {
				t.Errorf("MergedID(%d, %d, 3) = %d, back %d", id, k, m, FileID(m, 3))
			}
		}
	}

	// An id too large to be made distinct names its file.
	big := read("big.txt", "1,2000000000,1,1,1,1,1,-1,-1,-1\n")
	if _, err := Merge([]*Tracks{read("a.txt", mot), big}, []string{"a.txt", "big.txt"}); err == nil || !strings.HasPrefix(err.Error(), "big.txt: track id 2000000000") {
		t.Errorf("id past MaxID/2: %v", err)
	}
}

// A file read as one of several drawn together (Options.Files) refuses an id that Merge
// could not keep apart at its line and field, as every bad value is named, in each format.
func TestTooLargeIDNamesItsLine(t *testing.T) {
	const files = 2
	most := MaxFileID(1, files) // 1073741823
	for _, tc := range []struct {
		name, data, want string
	}{
		{"b.txt", fmt.Sprintf("1,3,1,1,5,5,1,-1,-1,-1\n2,%d,1,1,5,5,1,-1,-1,-1\n", most+1),
			"b.txt:2: field 2 (id): 1073741824 is beyond 1073741823, the highest track id with 2 tracks files drawn together"},
		{"b.jsonl", fmt.Sprintf(`{"frame":1,"boxes":[{"id":3,"x":1,"y":1,"w":5,"h":5}]}`+"\n"+`{"frame":2,"points":[{"id":%d,"x":1,"y":1}]}`+"\n", most+1),
			"b.jsonl:2: track id: 1073741824 is beyond 1073741823"},
		{"ok.txt", fmt.Sprintf("1,%d,1,1,5,5,1,-1,-1,-1\n", most), ""},
	} {
		_, err := Read(strings.NewReader(tc.data), tc.name, FormatAuto, Options{File: 1, Files: files})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		// Alone, the same file is read.
		if _, err := Read(strings.NewReader(tc.data), tc.name, FormatAuto, Options{}); err != nil {
			t.Errorf("%s alone: %v", tc.name, err)
		}
	}
}
