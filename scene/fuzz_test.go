package scene

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func FuzzMOT(f *testing.F) {
	for _, seed := range []string{
		"",
		motLine,
		"1,1,10,20,30,40,0.5,-1,-1,-1\r\n2,1,10,20,30,40,-1,-1,-1,-1\r\n1,2, 1e3 ,-2.5,0,0,1,-1,-1,-1",
		"# c\n\n3,7,1,1,1,1,1,1,0.5\n1,7,1,1,1,1,0,13,0\n",
		"1.0,7.0e0,1,1,1,1,1,-1,-1,-1\n1,7,1,1,1,1,1,-1,-1,-1\n",
		"1,1,NaN,1,1,1,1,-1,-1,-1\n",
		"0,-1,1,1,-1,1,2,x,y,z\n",
	} {
		f.Add(seed, false, false)
	}
	f.Fuzz(func(t *testing.T, data string, center, drop bool) {
		opts := Options{DropIgnored: drop}
		if center {
			opts.Anchor = Center
		}
		tr := fuzzRead(t, "f.txt", FormatMOT, opts, data)
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
		for i, line := range strings.Split(data, "\n") {
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
					q.Color, q.HasColor = parseColor(*p.Color)
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
					c.Color, c.HasColor = parseColor(*b.Color)
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
