package scene

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func FuzzMOT(f *testing.F) {
	for _, seed := range []string{
		"",
		motLine,
		utf16Text(motLine, true),
		"1,1,10,20,30,40,0.5,-1,-1,-1\r\n2,1,10,20,30,40,-1,-1,-1,-1\r\n1,2, 1e3 ,-2.5,0,0,1,-1,-1,-1",
		"# c\n\n3,7,1,1,1,1,1,1,0.5\n1,7,1,1,1,1,0,13,0\n",
		"1.0,7.0e0,1,1,1,1,1,-1,-1,-1\n1,7,1,1,1,1,1,-1,-1,-1\n",
		"1,1,NaN,1,1,1,1,-1,-1,-1\n",
		"0,-1,1,1,-1,1,2,x,y,z\n",
		"1,1,10,20,30,40\n2,1,11,20,30,40\n",
		"1 1 10 20 30 40 1 -1 -1 -1\n2\t1\t11\t20\t30\t40\t0.5\t-1\t-1\t-1\n",
		"1,1,10,20,30,40,1,-1,-1,-1,\n",
		// BoxMOT's results (COCO class + 1, then the confidence), read with class names too.
		"1,1,10,20,30,40,1,2,0.912345\n1,2,1,1,1,1,0,-1,1\n2,1,1,1,1,1,1,1,1\n",
		"1,1,1,1,1,1,1,0,0.5\n1,2,1,1,1,1,1,3,0.5\n",
	} {
		f.Add(seed, false, false)
	}
	f.Fuzz(func(t *testing.T, data string, center, drop bool) {
		opts := Options{DropIgnored: drop}
		if center {
			opts.Anchor = Center
		}
		if !drop {
			// The x field, or the 9-field layout's class, as a class number of names
			// (--class-names).
			named := opts
			named.ClassNames = []string{"a", "b"}
			fuzzRead(t, "f.txt", FormatMOT, named, data)
		}
		tr := fuzzRead(t, "f.txt", FormatMOT, opts, data)
		if drop {
			checkMarkedAgainstDropped(t, tr, fuzzRead(t, "f.txt", FormatMOT, Options{MarkIgnored: true, Anchor: opts.Anchor}, data))
		}
		if tr == nil {
			return
		}
		for _, fr := range framesOf(tr) {
			if len(fr.Points) != len(fr.Boxes) {
				t.Fatalf("frame %d: %d points for %d boxes", fr.Index, len(fr.Points), len(fr.Boxes))
			}
			for i, b := range fr.Boxes {
				if p := fr.Points[i]; p.ID != b.ID || p.X != float32(float64(b.X)+float64(b.W)/2) {
					t.Fatalf("frame %d: point %+v does not belong to box %+v", fr.Index, p, b)
				}
			}
		}
	})
}

// Reference types for decoding a line with encoding/json in FuzzJSONL. Integers are
// float64 because encoding/json will not put 1.0 in an int, which this format allows.
type (
	refPoint struct {
		ID    float64 `json:"id"`
		X, Y  float32
		Color *string `json:"color"`
	}
	refBox struct {
		ID         *float64 `json:"id"`
		X, Y, W, H float32
		Label      *string  `json:"label"`
		Score      *float32 `json:"score"`
		Color      *string  `json:"color"`
	}
	refFrame struct {
		Frame  float64    `json:"frame"`
		Points []refPoint `json:"points"`
		Boxes  []refBox   `json:"boxes"`
	}
)

func FuzzJSONL(f *testing.F) {
	for _, seed := range []string{
		"",
		jsonlLine,
		utf16Text(jsonlLine+jsonlLine, false),
		`{"frame":1,"points":[{"id":3,"x":10.5,"y":20,"color":"#ff8800"}],` +
			`"boxes":[{"id":3,"x":1,"y":2,"w":30,"h":40,"label":"person","score":0.93,"color":"#00ff0080"}]}`,
		"\uFEFF{\"frame\":2}\r\n\r\n{ \"frame\" : 1.0e0 , \"points\" : null }\n",
		`{"frame":1,"boxes":[{"id":1,"x":0,"y":0,"w":1,"h":1,"label":"\u00e9\ud83d\ude00\ud800\/","score":null}]}`,
		`{"frame":1,"boxes":[{"id":1,"x":0,"y":0,"w":-1,"h":1}]}`,
		`{"frame":1,"Frame":2}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		tr := fuzzRead(t, "f.jsonl", FormatJSONL, Options{}, data)
		if tr == nil {
			return
		}
		// What this reader accepts, encoding/json must accept and read the same way.
		for i, line := range strings.Split(asRead(data), "\n") {
			if i == 0 {
				line = strings.TrimPrefix(line, "\uFEFF")
			}
			line = strings.TrimSuffix(line, "\r")
			if strings.Trim(line, " \t\r") == "" {
				continue
			}
			var ref refFrame
			if err := json.Unmarshal([]byte(line), &ref); err != nil {
				t.Fatalf("line %d: accepted here, but encoding/json says %v", i+1, err)
			}
			want := Frame{Index: int(ref.Frame)}
			for _, p := range ref.Points {
				q := Point{ID: int(p.ID), X: p.X, Y: p.Y}
				if p.Color != nil {
					q.Color, q.HasColor = ParseColor(*p.Color)
				}
				want.Points = append(want.Points, q)
			}
			for _, b := range ref.Boxes {
				c := Box{ID: NoID, X: b.X, Y: b.Y, W: b.W, H: b.H}
				if b.ID != nil {
					c.ID = int(*b.ID)
				}
				if b.Label != nil {
					c.Class = *b.Label
				}
				if b.Score != nil {
					c.Score, c.HasScore = *b.Score, true
				}
				if b.Color != nil {
					c.Color, c.HasColor = ParseColor(*b.Color)
				}
				want.Boxes = append(want.Boxes, c)
			}
			var got Frame
			if len(want.Points) == 0 && len(want.Boxes) == 0 {
				if tr.Frame(want.Index, &got) != nil {
					t.Fatalf("line %d: empty frame %d is in the result", i+1, want.Index)
				}
				continue
			}
			if tr.Frame(want.Index, &got) == nil || !reflect.DeepEqual(copyFrame(&got), want) {
				t.Fatalf("line %d:\ngot  %+v\nwant %+v (encoding/json)", i+1, got, want)
			}
		}
	})
}

// seedFile returns a fixture's content, as a fuzz seed.
func seedFile(f *testing.F, name string) string {
	f.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "formats", name))
	if err != nil {
		f.Fatal(err)
	}
	return string(data)
}

// dataLines counts the lines of s that hold something.
func dataLines(s string) int {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		if trimSpaces(strings.TrimPrefix(line, "\uFEFF")) != "" {
			n++
		}
	}
	return n
}

func FuzzSupervision(f *testing.F) {
	const header = "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n"
	for _, seed := range []string{
		"",
		seedFile(f, "supervision.csv"),
		header + "0,0,1,2,0,0.5,3,0\n1.5e2,-4,3e2,0,,,,7\r\n",
		header + `"1","2","3","4","0","0.5","","1"` + "\n" + `1,2,3,4,0,0.5,,"a""b"` + "\n",
		header + "0,0,1,2,0,0.5,3,0\n0,0,1,2,0,0.5,3,0\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		tr := fuzzRead(t, "f.csv", FormatSupervision, Options{Untracked: DrawUntracked, ClassNames: []string{"a"}}, data)
		if tr == nil {
			return
		}
		// Every row after the header is one box: none is dropped or made up.
		if rows := dataLines(asRead(data)) - 1; rows >= 0 && countBoxes(tr) != rows {
			t.Fatalf("%d boxes from %d rows", countBoxes(tr), rows)
		}
	})
}

func FuzzKITTI(f *testing.F) {
	for _, seed := range []string{
		"",
		seedFile(f, "kitti_0000.txt"),
		seedFile(f, "kitti_results.txt"),
		"0 1 Car 0 0 -10 10 20 40 60 -1 -1 -1 -1000 -1000 -1000 -10 12.5\r\n\r\n1 1 Car 0 0 -10 10 20 40 60 -1 -1 -1 -1000 -1000 -1000 -10 0.5",
		"0 1 Car 0 0 -10 50 20 40 60 -1 -1 -1 -1000 -1000 -1000 -10\n",
	} {
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, data string, oneBased bool) {
		opts := Options{}
		if oneBased {
			opts.FrameBase = OneBased
		}
		tr := fuzzRead(t, "f.txt", FormatKITTI, opts, data)
		if tr == nil {
			return
		}
		for f := range tr.All() {
			if len(f.Points) != len(f.Boxes) {
				t.Fatalf("frame %d: %d points for %d boxes", f.Index, len(f.Points), len(f.Boxes))
			}
			for _, b := range f.Boxes {
				if b.Class == "" || b.Class == "DontCare" {
					t.Fatalf("frame %d: box %d of type %q", f.Index, b.ID, b.Class)
				}
			}
		}
		// Read for TrackEval's rules, the same rows are kept and the DontCare ones added as
		// regions: ignored, without an id or a point.
		opts.MarkIgnored = true
		marked := fuzzRead(t, "f.txt", FormatKITTI, opts, data)
		if marked == nil {
			t.Fatalf("read for TrackEval's rules, a file read otherwise is refused")
		}
		kept, all := framesOf(tr), framesOf(marked)
		for i, j := 0, 0; j < len(all); j++ {
			var objects []Box
			for _, b := range all[j].Boxes {
				if b.Class == "DontCare" {
					if !b.Ignored || b.ID != NoID {
						t.Fatalf("frame %d: DontCare region %+v", all[j].Index, b)
					}
					continue
				}
				b.Ignored = false
				objects = append(objects, b)
			}
			if len(all[j].Points) != len(objects) {
				t.Fatalf("frame %d: %d points for %d objects", all[j].Index, len(all[j].Points), len(objects))
			}
			if len(objects) == 0 {
				continue
			}
			if i >= len(kept) || kept[i].Index != all[j].Index || !reflect.DeepEqual(kept[i].Boxes, objects) {
				t.Fatalf("frame %d: objects %+v read for TrackEval's rules, %+v otherwise", all[j].Index, objects, kept[min(i, len(kept)-1)])
			}
			i++
		}
	})
}

// checkMarkedAgainstDropped checks ground truth read for TrackEval's rules (marked) against
// the same read for py-motmetrics' (dropped): what the marked read takes the dropped read
// takes (the marked read may refuse a file whose rows the other drops, as a track id twice
// in a frame on rows not scored: TrackEval refuses it too), and each frame's boxes that are
// not marked are among the dropped read's, which are among the marked read's (a consider
// flag of 0.3 is dropped only by TrackEval, which reads it as an integer).
func checkMarkedAgainstDropped(t *testing.T, dropped, marked *Tracks) {
	t.Helper()
	if marked == nil {
		return
	}
	if dropped == nil {
		t.Fatalf("read for TrackEval's rules, a file refused for py-motmetrics'")
	}
	byFrame := map[int][]Box{}
	for _, f := range framesOf(dropped) {
		byFrame[f.Index] = f.Boxes
	}
	for _, f := range framesOf(marked) {
		all, scored := 0, 0
		for _, b := range f.Boxes {
			all++
			if !b.Ignored {
				scored++
			}
		}
		if n := len(byFrame[f.Index]); scored > n || n > all {
			t.Fatalf("frame %d: %d boxes read for py-motmetrics' rules, %d (%d scored) for TrackEval's", f.Index, n, all, scored)
		}
	}
}

func FuzzCVAT(f *testing.F) {
	for _, seed := range []string{
		"",
		seedFile(f, "cvat_video.xml"),
		cvatDoc("<meta><task><size>4</size></task></meta>", `<track id="4" label="car">`+cvatBox("2", "2", "0")+cvatBox("0", "1", "0")+"</track>"),
		cvatDoc("", `<track id="5" label="hand"><points frame="0" outside="0" points="1,2"/><points frame="9" outside="1" points="1,2"/></track>`),
		"<annotations><track id=\"1\" label=\"a\"><box frame=\"1\" xtl=\"0\" ytl=\"0\" xbr=\"1\" ybr=\"1\" outside=\"0\"><attribute name=\"x\">1</attribute></box></track></annotations>",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		fuzzRead(t, "f.xml", FormatCVAT, Options{}, data)
	})
}

func FuzzYOLO(f *testing.F) {
	for _, seed := range []string{
		"",
		seedFile(f, filepath.Join("yolo", "clip_1.txt")),
		seedFile(f, filepath.Join("yolo", "clip_2.txt")),
		"0 0.5 0.5 1 1\n1 0 0 0 0 1\n2 1 1 0.5 0.5 0.25 3\r\n",
		"0 0.5 0.5 1 1 7\n0 0.5 0.5 1 1 0.5\n",
		// One byte order mark is skipped, and only one.
		"\uFEFF0 0.5 0.5 1 1\n",
		"\uFEFF\uFEFF",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		tr := fuzzRead(t, "clip_12.txt", FormatYOLO, Options{Width: 1920, Height: 1080, Untracked: DrawUntracked}, data)
		if tr == nil {
			return
		}
		// Every line is one box, on the frame the name gives, within the picture's bounds
		// stretched by half a box each way.
		if n := countBoxes(tr); n != dataLines(asRead(data)) || n > 0 && (tr.FirstIndex() != 12 || tr.LastIndex() != 12) {
			t.Fatalf("%d boxes in frames %d to %d from %d lines", n, tr.FirstIndex(), tr.LastIndex(), dataLines(asRead(data)))
		}
		for f := range tr.All() {
			for _, b := range f.Boxes {
				if b.X < -960 || b.Y < -540 || b.X+b.W > 1920+960 || b.Y+b.H > 1080+540 {
					t.Fatalf("box %+v leaves the picture", b)
				}
			}
		}
	})
}

func FuzzClassNames(f *testing.F) {
	for _, seed := range []struct{ file, data string }{
		{"coco8.yaml", seedFile(f, "coco8.yaml")},
		{"a.names", "person\r\nbicycle\n"},
		{"a.yaml", "names: [a, 'b c', \"d\"]\n"},
		{"a.yaml", "names: {0: a, 3: 'b: c'}\n"},
		{"a", "names:\n  - a # x\n  - 'it''s'\n"},
	} {
		f.Add(seed.file, seed.data)
	}
	f.Fuzz(func(t *testing.T, file, data string) {
		names, err := parseClassNames(file, []byte(data))
		if err != nil {
			return
		}
		if len(names) > MaxClasses {
			t.Fatalf("%d names", len(names))
		}
		for i, name := range names {
			if msg := checkLabel(name); msg != "" {
				t.Fatalf("class %d: %s", i, msg)
			}
		}
		// The names are good Options.ClassNames.
		if _, err := readString("t.txt", FormatMOT, Options{ClassNames: names}, ""); err != nil {
			t.Fatal(err)
		}
	})
}
