package scene

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestJSONLAccepted(t *testing.T) {
	orange := Color{0xff, 0x88, 0x00, 0xff}
	tests := []struct {
		name, input string
		want        []Frame
	}{
		{"empty", "", nil},
		{"blank lines", "\n \t\r\n\n", nil},
		{"the formats doc example",
			`{"frame":1,"points":[{"id":3,"x":10.5,"y":20,"color":"#ff8800"}],` +
				`"boxes":[{"id":3,"x":1,"y":2,"w":30,"h":40,"label":"person","score":0.93,"color":"#00FF0080"}]}`,
			[]Frame{{Index: 1,
				Points: []Point{{ID: 3, X: 10.5, Y: 20, Color: orange, HasColor: true}},
				Boxes: []Box{{ID: 3, X: 1, Y: 2, W: 30, H: 40, Class: "person", Score: 0.93, HasScore: true,
					Color: Color{0, 0xff, 0, 0x80}, HasColor: true}}}}},
		{"points only, boxes only, sorted, CRLF, spaces",
			"\uFEFF { \"frame\" : 9 , \"boxes\" : [ { \"id\" : 0 , \"x\" : -1e3 , \"y\" : 0 , \"w\" : 0 , \"h\" : 1E1 } ] } \r\n" +
				"\r\n" + `{"points":[{"id":1,"x":1,"y":2},{"id":2,"x":3,"y":4}],"frame":2}` + "\r\n",
			[]Frame{
				{Index: 2, Points: []Point{{ID: 1, X: 1, Y: 2}, {ID: 2, X: 3, Y: 4}}},
				{Index: 9, Boxes: []Box{{ID: 0, X: -1000, H: 10}}},
			}},
		{"null is absent and empty frames are left out",
			`{"frame":1,"points":null,"boxes":[]}` + "\n" +
				`{"frame":2,"boxes":[{"id":1,"x":0,"y":0,"w":1,"h":1,"label":null,"score":null,"color":null}]}` + "\n" +
				`{"frame":3}`,
			[]Frame{{Index: 2, Boxes: []Box{{ID: 1, W: 1, H: 1}}}}},
		{"boxes without an id are untracked, and may be many",
			`{"frame":1,"boxes":[{"x":0,"y":0,"w":2,"h":2},{"id":null,"x":1,"y":0,"w":2,"h":2},{"id":0,"x":2,"y":0,"w":2,"h":2}]}`,
			[]Frame{{Index: 1, Boxes: []Box{{ID: NoID, W: 2, H: 2}, {ID: NoID, X: 1, W: 2, H: 2}, {ID: 0, X: 2, W: 2, H: 2}}}}},
		{"a point and a box may share an id",
			`{"frame":1,"points":[{"id":5,"x":1,"y":2}],"boxes":[{"id":5,"x":0,"y":0,"w":2,"h":2}]}`,
			[]Frame{{Index: 1, Points: []Point{{ID: 5, X: 1, Y: 2}}, Boxes: []Box{{ID: 5, W: 2, H: 2}}}}},
		{"integral fractions, escapes, score limits",
			`{"frame":1.0,"boxes":[{"id":7e0,"x":0,"y":0,"w":1,"h":1,"label":"caf\u00e9 \"A\" \ud83d\ude00 \/","score":0},` +
				`{"id":8,"x":0,"y":0,"w":1,"h":1,"label":"ünïcode","score":1}]}`,
			[]Frame{{Index: 1, Boxes: []Box{
				{ID: 7, W: 1, H: 1, Class: "café \"A\" 😀 /", HasScore: true},
				{ID: 8, W: 1, H: 1, Class: "ünïcode", Score: 1, HasScore: true}}}}},
		{"unpaired surrogate becomes U+FFFD, as in encoding/json",
			`{"frame":1,"boxes":[{"id":1,"x":0,"y":0,"w":1,"h":1,"label":"a\ud800b\udc00"}]}`,
			[]Frame{{Index: 1, Boxes: []Box{{ID: 1, W: 1, H: 1, Class: "a\uFFFDb\uFFFD"}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := readString("t.jsonl", FormatJSONL, Options{}, tc.input)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, tr)
			if !reflect.DeepEqual(framesOf(tr), tc.want) {
				t.Errorf("got  %+v\nwant %+v", framesOf(tr), tc.want)
			}
		})
	}
}

func TestJSONLErrors(t *testing.T) {
	box := func(members string) string {
		return `{"frame":1,"boxes":[{"id":1,"x":0,"y":0,"w":1,"h":1},{` + members + `}]}`
	}
	const okBox = `"id":2,"x":0,"y":0,"w":1,"h":1`
	testErrors(t, "t.jsonl", FormatJSONL, Options{}, []errorCase{
		{"not an object", `[1]`, `t.jsonl:1: want an object, got an array`},
		{"not JSON", `{frame:1}`, `t.jsonl:1: malformed JSON at column 2: want a key in double quotes`},
		{"truncated", `{"frame":1,"boxes":[`, `t.jsonl:1: boxes[0]: malformed JSON at column 21: want a value`},
		{"trailing comma", `{"frame":1,}`, `t.jsonl:1: malformed JSON at column 12: want a key in double quotes`},
		{"trailing comma in array", `{"frame":1,"points":[{"id":1,"x":0,"y":0},]}`,
			`t.jsonl:1: points[1]: malformed JSON at column 43: want a value`},
		{"two objects", `{"frame":1} {"frame":2}`, `t.jsonl:1: malformed JSON at column 13: text after the object`},
		{"missing colon", `{"frame" 1}`, `t.jsonl:1: frame: malformed JSON at column 10: want ':' after the key`},
		{"missing comma", `{"frame":1 "boxes":[]}`, `t.jsonl:1: malformed JSON at column 12: want ',' or '}'`},
		{"bad literal", `{"frame":1,"boxes":nul}`, `t.jsonl:1: boxes: malformed JSON at column 20: want a value`},
		{"leading zero", `{"frame":01}`, `t.jsonl:1: frame: malformed JSON at column 11: malformed number`},
		{"letters after a number", `{"frame":1x}`, `t.jsonl:1: frame: malformed JSON at column 11: malformed number`},
		{"bare minus", `{"frame":-}`, `t.jsonl:1: frame: malformed JSON at column 11: want a digit after '-'`},
		{"bad fraction", `{"frame":1.}`, `t.jsonl:1: frame: malformed JSON at column 12: want a digit after '.'`},
		{"bad exponent", `{"frame":1e+}`, `t.jsonl:1: frame: malformed JSON at column 13: want a digit in the exponent`},
		{"NaN is not JSON", `{"frame":NaN}`, `t.jsonl:1: frame: malformed JSON at column 10: want a value`},
		{"number out of range", box(`"id":2,"x":1e39,"y":0,"w":1,"h":1`), `t.jsonl:1: boxes[1].x: 1e39 is out of range`},
		{"unterminated string", `{"frame":1,"boxes":[{"id":1,"label":"abc`,
			`t.jsonl:1: boxes[0].label: malformed JSON at column 41: unterminated string`},
		{"bad escape", `{"fr\ame":1}`, `t.jsonl:1: malformed JSON at column 5: invalid escape`},
		{"bad unicode escape", `{"fr\u00zz":1}`, `t.jsonl:1: malformed JSON at column 5: want four hex digits after \u`},
		{"control character in string", "{\"frame\":1,\"boxes\":[{\"label\":\"a\tb\"}]}",
			`t.jsonl:1: boxes[0].label: malformed JSON at column 32: control character in a string`},
		{"invalid UTF-8", "{\"frame\":1,\"boxes\":[{\"label\":\"a\xffb\"}]}", `t.jsonl:1: boxes[0].label: string is not valid UTF-8`},
		{"unknown top-level key", `{"frame":1,"Frame":2}`, `t.jsonl:1: unknown key "Frame"`},
		{"unknown box key", box(okBox + `,"z":3`), `t.jsonl:1: boxes[1]: unknown key "z"`},
		{"unknown point key", `{"frame":1,"points":[{"id":1,"x":0,"y":0,"w":1}]}`, `t.jsonl:1: points[0]: unknown key "w"`},
		{"repeated key", box(okBox + `,"x":1`), `t.jsonl:1: boxes[1].x: key appears twice`},
		{"missing frame", `{"boxes":[]}`, `t.jsonl:1: missing "frame"`},
		{"missing box size", box(`"id":2,"x":0,"y":0,"w":1`), `t.jsonl:1: boxes[1]: missing "h"`},
		{"missing point id", `{"frame":1,"points":[{"x":0,"y":0}]}`, `t.jsonl:1: points[0]: missing "id"`},
		{"null frame", `{"frame":null}`, `t.jsonl:1: frame: want a number, got null`},
		{"string number", box(`"id":2,"x":"1","y":0,"w":1,"h":1`), `t.jsonl:1: boxes[1].x: want a number, got a string`},
		{"boolean", box(okBox + `,"score":true`), `t.jsonl:1: boxes[1].score: want a number, got a boolean`},
		{"points not an array", `{"frame":1,"points":{}}`, `t.jsonl:1: points: want an array, got an object`},
		{"box not an object", `{"frame":1,"boxes":[3]}`, `t.jsonl:1: boxes[0]: want an object, got a number`},
		{"fractional frame", `{"frame":1.5}`, `t.jsonl:1: frame: 1.5 is not an integer`},
		{"frame 0", `{"frame":0}`, `t.jsonl:1: frame: 0 is less than 1 (frames are numbered from 1 here; if the file counts from 0, read it with --frame-base 0)`},
		{"frame twice", "{\"frame\":3}\n\n{\"frame\":3.0}", `t.jsonl:3: frame: frame 3 already appears on line 1`},
		{"negative id", box(`"id":-2,"x":0,"y":0,"w":1,"h":1`), `t.jsonl:1: boxes[1].id: -2 is negative ` +
			`(track ids are 0 or more; MOTChallenge detection files, with id -1, have no tracks to draw)`},
		{"duplicate box id", box(`"id":1,"x":0,"y":0,"w":1,"h":1`), `t.jsonl:1: boxes[1].id: track 1 appears twice (also boxes[0])`},
		{"duplicate point id", `{"frame":1,"points":[{"id":4,"x":0,"y":0},{"id":5,"x":0,"y":0},{"id":4,"x":1,"y":1}]}`,
			`t.jsonl:1: points[2].id: track 4 appears twice (also points[0])`},
		{"negative width", box(`"id":2,"x":0,"y":0,"w":-3,"h":1`), `t.jsonl:1: boxes[1].w: -3 is negative`},
		{"huge coordinate", `{"frame":1,"points":[{"id":1,"x":0,"y":1.5e7}]}`, `t.jsonl:1: points[0].y: 1.5e7 is beyond ±1e7 px`},
		{"box reaching past the limit", `{"frame":1,"boxes":[{"id":1,"x":0,"y":9999990,"w":5,"h":30}]}`, `t.jsonl:1: boxes[0]: the box's bottom edge, 1.000002e+07, is beyond ±1e7 px`},
		{"score above 1", box(okBox + `,"score":1.01`), `t.jsonl:1: boxes[1].score: 1.01 is outside [0,1]`},
		{"score -1", box(okBox + `,"score":-1`), `t.jsonl:1: boxes[1].score: -1 is outside [0,1]`},
		{"short colour", box(okBox + `,"color":"#f80"`), `t.jsonl:1: boxes[1].color: "#f80" is not a color: want "#rrggbb" or "#rrggbbaa"`},
		{"colour without #", `{"frame":1,"points":[{"id":1,"x":0,"y":0,"color":"ff8800"}]}`,
			`t.jsonl:1: points[0].color: "ff8800" is not a color: want "#rrggbb" or "#rrggbbaa"`},
		{"colour not hex", box(okBox + `,"color":"#gg0000"`), `t.jsonl:1: boxes[1].color: "#gg0000" is not a color: want "#rrggbb" or "#rrggbbaa"`},
		{"colour name", box(okBox + `,"color":"red"`), `t.jsonl:1: boxes[1].color: "red" is not a color: want "#rrggbb" or "#rrggbbaa"`},
		{"label with newline", box(okBox + `,"label":"a\nb"`), `t.jsonl:1: boxes[1].label: "a\nb" contains the control character U+000A`},
		{"label too long", box(okBox + `,"label":"` + strings.Repeat("é", 129) + `"`),
			`t.jsonl:1: boxes[1].label: label is 258 bytes long; the limit is 256`},
		{"error on a later line", "{\"frame\":1}\n\n{\"frame\":2,\"boxes\":[{\"id\":1,\"x\":0,\"y\":0,\"w\":1,\"h\":-1}]}",
			`t.jsonl:3: boxes[0].h: -1 is negative`},
	})
}

// The test encoder below writes Tracks as JSON Lines with encoding/json, as a third-party
// producer would.

type jsonPoint struct {
	ID    int     `json:"id"`
	X     float32 `json:"x"`
	Y     float32 `json:"y"`
	Color string  `json:"color,omitempty"`
}

type jsonBox struct {
	ID    int      `json:"id"`
	X     float32  `json:"x"`
	Y     float32  `json:"y"`
	W     float32  `json:"w"`
	H     float32  `json:"h"`
	Label string   `json:"label,omitempty"`
	Score *float32 `json:"score,omitempty"`
	Color string   `json:"color,omitempty"`
}

type jsonFrame struct {
	Frame  int         `json:"frame"`
	Points []jsonPoint `json:"points,omitempty"`
	Boxes  []jsonBox   `json:"boxes,omitempty"`
}

func colorText(c Color, has bool) string {
	switch {
	case !has:
		return ""
	case c.A == 0xff && c.R%2 == 0: // both spellings, as producers differ
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return fmt.Sprintf("#%02X%02X%02X%02X", c.R, c.G, c.B, c.A)
}

func encodeJSONL(t *testing.T, frames []Frame) string {
	var s strings.Builder
	enc := json.NewEncoder(&s)
	for _, f := range frames {
		jf := jsonFrame{Frame: f.Index}
		for _, p := range f.Points {
			jf.Points = append(jf.Points, jsonPoint{p.ID, p.X, p.Y, colorText(p.Color, p.HasColor)})
		}
		for _, b := range f.Boxes {
			jb := jsonBox{b.ID, b.X, b.Y, b.W, b.H, b.Class, nil, colorText(b.Color, b.HasColor)}
			if b.HasScore {
				jb.Score = &b.Score
			}
			jf.Boxes = append(jf.Boxes, jb)
		}
		if err := enc.Encode(jf); err != nil {
			t.Fatal(err)
		}
	}
	return s.String()
}

// randomFrames makes frames of random points and boxes, in ascending order.
func randomFrames(rng *rand.Rand) []Frame {
	coord := func() float32 { return float32(rng.NormFloat64() * 1000) }
	size := func() float32 { return float32(rng.ExpFloat64() * 100) }
	color := func() (Color, bool) {
		if rng.IntN(2) == 0 {
			return Color{}, false
		}
		c := Color{uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32()), 0xff}
		if rng.IntN(2) == 0 {
			c.A = uint8(rng.Uint32())
		}
		return c, true
	}
	labels := []string{"", "person", "car", "vélo \"rapide\"", "日本"}
	var frames []Frame
	for index := 1; index <= 40; index++ {
		f := Frame{Index: index}
		for _, id := range rng.Perm(30)[:rng.IntN(10)] {
			p := Point{ID: id, X: coord(), Y: coord()}
			p.Color, p.HasColor = color()
			f.Points = append(f.Points, p)
		}
		for _, id := range rng.Perm(30)[:rng.IntN(10)] {
			b := Box{ID: id, X: coord(), Y: coord(), W: size(), H: size(), Class: labels[rng.IntN(len(labels))]}
			if rng.IntN(2) == 0 {
				b.Score, b.HasScore = rng.Float32(), true
			}
			b.Color, b.HasColor = color()
			f.Boxes = append(f.Boxes, b)
		}
		if len(f.Points) > 0 || len(f.Boxes) > 0 {
			frames = append(frames, f)
		}
	}
	return frames
}

// TestJSONLRoundTrip writes random frames with encoding/json, shuffles the lines, and checks
// that reading them gives the frames back exactly.
func TestJSONLRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		want := randomFrames(rng)
		lines := strings.Split(strings.TrimSuffix(encodeJSONL(t, want), "\n"), "\n")
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		tr, err := readString("t.ndjson", FormatAuto, Options{}, strings.Join(lines, "\n"))
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, tr)
		if !reflect.DeepEqual(framesOf(tr), want) {
			t.Fatalf("got  %+v\nwant %+v", framesOf(tr), want)
		}
	}
}
