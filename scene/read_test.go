package scene

import (
	"errors"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

const (
	motLine   = "1,1,10,20,30,40,1,-1,-1,-1\n"
	jsonlLine = `{"frame":1,"boxes":[{"id":1,"x":10,"y":20,"w":30,"h":40}]}` + "\n"
)

func TestLoadPicksTheReader(t *testing.T) {
	box1 := Box{ID: 1, X: 10, Y: 20, W: 30, H: 40}
	mot := []Frame{{Index: 1, Boxes: []Box{box1}, Points: []Point{{ID: 1, X: 25, Y: 60}}}}
	jsonl := []Frame{{Index: 1, Boxes: []Box{box1}}}
	kitti := []Frame{withPoints(1, box(1, 10, 20, 30, 40, "Car", -1))}
	cvat := []Frame{withPoints(1, box(1, 10, 20, 30, 40, "car", -1))}
	yolo := []Frame{withPoints(1, box(1, 240, 120, 160, 240, "0", 0.9))}
	const (
		kittiLine = "0 1 Car 0 0 -10 10 20 40 60 -1 -1 -1 -1000 -1000 -1000 -10\n"
		csvLines  = "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n10,20,40,60,,,1,0\n"
		yoloLine  = "0 0.5 0.5 0.25 0.5 0.9 1\n"
	)
	cvatXML := cvatDoc("", `<track id="1" label="car"><box frame="0" xtl="10" ytl="20" xbr="40" ybr="60" outside="0"/></track>`)
	tests := []struct {
		file, content string
		format        Format
		want          []Frame
		err           string // the error's text after the path
	}{
		{"a.txt", motLine, FormatMOT, mot, ""},
		{"a.CSV", motLine, FormatMOT, mot, ""},
		{"a.jsonl", jsonlLine, FormatJSONL, jsonl, ""},
		{"a.NDJSON", jsonlLine, FormatJSONL, jsonl, ""},
		{"gt", "\n\n" + motLine, FormatMOT, mot, ""},
		{"gt.dat", "# MOT\n" + motLine, FormatMOT, mot, ""},
		{"comment.md", "\n# Tracks\n", FormatMOT, nil, ""}, // a comment alone is an empty MOT file
		{"frames.log", "\n  " + jsonlLine, FormatJSONL, jsonl, ""},
		{"empty.bin", "", FormatMOT, nil, ""},
		{"blank.bin", "\n \n", FormatMOT, nil, ""},
		{"0000.txt", kittiLine, FormatKITTI, kitti, ""},
		{"0001", "\uFEFF" + kittiLine, FormatKITTI, kitti, ""},
		{"det.csv", csvLines, FormatSupervision, mot, ""},
		{"det", csvLines, FormatSupervision, mot, ""},
		{"task.XML", cvatXML, FormatCVAT, cvat, ""},
		{"annotations", cvatXML, FormatCVAT, cvat, ""},
		{"clip_1.txt", yoloLine, FormatYOLO, yolo, ""},
		{"spaced.txt", "1 1 10 20 30 40 -1 -1 -1 -1\n", FormatMOT, mot, ""},
		{"spaced", "1.0 1 10 20 30 40 -1 -1 -1 -1\n", FormatMOT, mot, ""},
		// A YOLO segment's nine numbers: its second is a fraction, not an id.
		{"segment.txt", "0 0.1 0.1 0.2 0.1 0.2 0.2 0.1 0.2\n", FormatMOT, nil, ":1: has 1 comma-separated fields; want 10 " +
			"(frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z), 9 (MOT17 ground truth: " +
			"frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility) or 6 (frame,id,bb_left,bb_top,bb_width,bb_height)"},
		{"json.txt", jsonlLine, 0, nil, ":1: looks like trackink JSON Lines, but a .txt file is read as MOTChallenge text or " +
			"KITTI tracking labels or Ultralytics YOLO track results: name it json.jsonl"},
		{"kitti.csv", kittiLine, 0, nil, ":1: looks like KITTI tracking labels, but a .csv file is read as MOTChallenge text or " +
			"supervision CSVSink CSV: name it kitti.txt"},
		{"short.txt", "0 1 Car 0 0 -10 10 20 40 60 -1 -1 -1 -1000 -1000 -1000\n", 0, nil,
			`:1: looks like KITTI (the third field, "Car", an object type) but has 16 fields; KITTI has 17 or 18`},
		{"headed.csv", "frame,id,x,y,w,h\n1,1,10,20,30,40\n", 0, nil,
			`:1: a CSV header (beginning "frame") that is not supervision's (x_min,y_min,x_max,y_max,…); MOTChallenge text has no header line`},
		{"headless.csv", "10,20,40,60,0,0.9,1,0\n", 0, nil, ":1: has 8 comma-separated fields; want 10 " +
			"(frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z), 9 (MOT17 ground truth: " +
			"frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility) or 6 (frame,id,bb_left,bb_top,bb_width,bb_height); " +
			"supervision CSV begins with CSVSink's header line, x_min,y_min,x_max,y_max,…"},
		{"six.txt", "1,1,10,20,30,40\n", FormatMOT, mot, ""},
		{"mot.jsonl", motLine, 0, nil, ":1: want an object, got a number"},
		{"mot.xml", motLine, 0, nil, ":1: text outside the root element"},
		{"notes.md", "\nTracks\n", 0, nil, ":2: cannot tell the format: the line is none of MOTChallenge (numbers and commas), " +
			"KITTI (17 or 18 fields, the third a type), JSON Lines ('{'), CVAT XML ('<') or supervision CSV (a header x_min,y_min,…); " +
			"name the file .txt, .csv, .jsonl, .ndjson or .xml"},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			tr, err := Load(path, Options{Width: 640, Height: 480})
			if tc.err != "" {
				if err == nil || err.Error() != path+tc.err {
					t.Fatalf("got error %v\nwant %s%s", err, path, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, tr)
			if tr.Format() != tc.format {
				t.Errorf("read as %s, want %s", tr.Format(), tc.format)
			}
			if f, err := FormatOf(path); err != nil || f != tc.format {
				t.Errorf("FormatOf: %v, %v; want %s, as read", f, err, tc.format)
			}
			if !reflect.DeepEqual(framesOf(tr), tc.want) {
				t.Errorf("got %+v, want %+v", framesOf(tr), tc.want)
			}
		})
	}
}

// TestFrameBase reads a box on the file's first frame, as each format numbers it, with each
// frame base: trackink's index is the file's frame - base + 1, and a frame below the base is
// an error.
func TestFrameBase(t *testing.T) {
	inputs := []struct {
		format        Format
		file          string
		first, second string // one box on the format's first frame, and on the frame before it
	}{
		{FormatMOT, "t.txt", "1,1,0,0,1,1,1,-1,-1,-1", "0,1,0,0,1,1,1,-1,-1,-1"},
		{FormatJSONL, "t.jsonl", `{"frame":1,"points":[{"id":1,"x":0,"y":0}]}`, `{"frame":0,"points":[{"id":1,"x":0,"y":0}]}`},
		{FormatKITTI, "t.txt", "0 1 Car 0 0 0 0 0 1 1 0 0 0 0 0 0 0", "-1 1 Car 0 0 0 0 0 1 1 0 0 0 0 0 0 0"},
		{FormatSupervision, "t.csv", "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n0,0,1,1,0,,1,0",
			"x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n0,0,1,1,0,,1,-1"},
		{FormatCVAT, "t.xml", cvatDoc("", `<track id="1" label="a"><points frame="0" outside="0" points="0,0"/></track>`),
			cvatDoc("", `<track id="1" label="a"><points frame="-1" outside="0" points="0,0"/></track>`)},
		{FormatYOLO, "v_1.txt", "0 0.5 0.5 0.1 0.1 0.5 1", ""},
		{FormatYOLO, "v_0.txt", "0 0.5 0.5 0.1 0.1 0.5 1", ""},
	}
	for _, in := range inputs {
		base := in.format.base()
		if in.file == "v_0.txt" {
			base = 0 // the file of frame 0
		}
		for _, fb := range []FrameBase{FormatBase, ZeroBased, OneBased} {
			opts := Options{FrameBase: fb, Width: 10, Height: 10}
			readBase := map[FrameBase]int{FormatBase: in.format.base(), ZeroBased: 0, OneBased: 1}[fb]
			tr, err := readString(in.file, in.format, opts, in.first)
			switch {
			case base < readBase:
				if err == nil || !strings.Contains(err.Error(), "is less than 1 (frames are numbered from 1 here; "+
					"if the file counts from 0, read it with --frame-base 0)") {
					t.Errorf("%s %s, frame base %d: got %v, want the hint", in.format, in.file, readBase, err)
				}
			case err != nil:
				t.Errorf("%s %s, frame base %d: %v", in.format, in.file, readBase, err)
			case tr.FirstIndex() != base-readBase+1:
				t.Errorf("%s %s, frame base %d: index %d, want %d", in.format, in.file, readBase, tr.FirstIndex(), base-readBase+1)
			}
			if in.second == "" || base != 0 || readBase != 0 {
				continue
			}
			if _, err := readString(in.file, in.format, opts, in.second); err == nil ||
				!strings.Contains(err.Error(), "-1 is negative (frames are numbered from 0 here)") {
				t.Errorf("%s, frame base 0, frame -1: got %v", in.format, err)
			}
		}
	}
}

func TestParseFrameBase(t *testing.T) {
	for s, want := range map[string]FrameBase{"": FormatBase, "auto": FormatBase, "0": ZeroBased, "1": OneBased} {
		if got, err := ParseFrameBase(s); got != want || err != nil {
			t.Errorf("ParseFrameBase(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseFrameBase("2"); err == nil || err.Error() != `frame base "2": want 0, 1 or auto` {
		t.Errorf("ParseFrameBase(2): %v", err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.txt"), Options{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want a not-exist error", err)
	}
}

func TestReadSniffsAStream(t *testing.T) {
	for _, input := range []string{motLine, jsonlLine} {
		tr, err := readString("", FormatAuto, Options{}, input)
		if err != nil || tr.Len() != 1 {
			t.Fatalf("%q: got %+v, %v", input, tr, err)
		}
	}
	_, err := readString("", FormatAuto, Options{}, "x")
	if err == nil || !strings.HasPrefix(err.Error(), "line 1: cannot tell the format") {
		t.Fatalf("got %v", err)
	}
}

// utf16Text is s in UTF-16 with its byte order mark, as Windows PowerShell 5's > writes text.
func utf16Text(s string, bigEndian bool) string {
	var b []byte
	for _, u := range append([]uint16{0xfeff}, utf16.Encode([]rune(s))...) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return string(b)
}

// Text in UTF-16 (a tracker's output redirected by Windows PowerShell 5) reads as the same
// text in UTF-8, whatever the format; it was once refused as '"\xff\xfe1\x00" is not a
// number'.
func TestReadUTF16(t *testing.T) {
	yolo := filepath.Join(t.TempDir(), "clip_1.txt")
	for _, tc := range []struct {
		name, text string
		format     Format
		opts       Options
	}{
		{"f.txt", motLine + "2,1,12,20,30,40,1,-1,-1,-1\r\n", FormatAuto, Options{}},
		{"f.jsonl", jsonlLine + `{"frame":2,"boxes":[{"id":1,"x":12,"y":20,"w":30,"h":40,"label":"café"}]}` + "\n", FormatAuto, Options{}},
		{"f.txt", "1 1 Car 0 0 0 10 20 40 60 0 0 0 0 0 0 0\n", FormatKITTI, Options{}},
		{yolo, "0 0.5 0.5 0.1 0.2 7\n", FormatYOLO, Options{Width: 640, Height: 480}},
	} {
		want, err := readString(tc.name, tc.format, tc.opts, tc.text)
		if err != nil {
			t.Fatalf("%s in UTF-8: %v", tc.name, err)
		}
		for _, big := range []bool{false, true} {
			got, err := readString(tc.name, tc.format, tc.opts, utf16Text(tc.text, big))
			if err != nil {
				t.Errorf("%s in UTF-16 (big-endian %v): %v", tc.name, big, err)
			} else if !reflect.DeepEqual(framesOf(got), framesOf(want)) {
				t.Errorf("%s in UTF-16 (big-endian %v): %v, want %v", tc.name, big, framesOf(got), framesOf(want))
			}
		}
	}
}

func TestReadRejectsBadArguments(t *testing.T) {
	tests := []struct {
		format Format
		opts   Options
		want   string
	}{
		{Format(9), Options{}, "unknown format 9"},
		{FormatMOT, Options{Anchor: 7}, "unknown anchor 7"},
		{FormatMOT, Options{FrameBase: 3}, "unknown frame base 3"},
		{FormatMOT, Options{Untracked: 3}, "unknown untracked policy 3"},
		{FormatMOT, Options{Width: -1}, "negative size -1x0"},
		{FormatMOT, Options{ClassNames: []string{"a", "b\n"}}, `class 1: "b\n" contains the control character U+000A`},
	}
	for _, tc := range tests {
		if _, err := readString("a.txt", tc.format, tc.opts, motLine); err == nil || err.Error() != "scene: reading a.txt: "+tc.want {
			t.Errorf("%+v: got %v, want %s", tc.opts, err, tc.want)
		}
	}
}

// failingReader returns its data, then err.
type failingReader struct {
	data string
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadPassesOnReadErrors(t *testing.T) {
	cause := errors.New("disk on fire")
	_, err := Read(&failingReader{motLine, cause}, "a.txt", FormatAuto, Options{})
	if !errors.Is(err, cause) || err.Error() != "a.txt: disk on fire" {
		t.Fatalf("got %v", err)
	}
}

// endlessLine is an io.Reader of a line that never ends.
type endlessLine struct{}

func (endlessLine) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '1'
	}
	return len(p), nil
}

func TestReadRejectsAnOverlongLine(t *testing.T) {
	r := io.MultiReader(strings.NewReader(motLine+"\n"), endlessLine{})
	_, err := Read(r, "a.txt", FormatAuto, Options{})
	want := &ParseError{File: "a.txt", Line: 3, Msg: "line is longer than 64 MiB"}
	if !reflect.DeepEqual(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
}

func TestParseErrorWithoutFile(t *testing.T) {
	e := &ParseError{Line: 3, Field: "boxes[0].w", Msg: "-1 is negative"}
	if got, want := e.Error(), "line 3: boxes[0].w: -1 is negative"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestParseColor(t *testing.T) {
	tests := []struct {
		in   string
		want Color
		ok   bool
	}{
		{"#000000", Color{0, 0, 0, 255}, true},
		{"#Ff8800", Color{255, 136, 0, 255}, true},
		{"#12345678", Color{0x12, 0x34, 0x56, 0x78}, true},
		{"#fff", Color{}, false},
		{"#ff88000", Color{}, false},
		{"ff880000", Color{}, false},
		{"#ff88zz", Color{}, false},
		{"#ff8800ff ", Color{}, false},
		{"", Color{}, false},
	}
	for _, tc := range tests {
		if got, ok := ParseColor(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParseColor(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestPlainDecimalMatchesParseFloat checks the fast path against strconv on the decimals it
// takes, including those at the edges of float32's exact range, and that it declines the rest.
func TestPlainDecimalMatchesParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inputs := []string{"0", "-0", "1", "-1", "0.1", ".5", "5.", "16777215", "16777216", "16777217",
		"1677721.7", "0.0000000001", "0.00000000001", "999999999999999", "9999999999999999",
		"123456789012345.", "-", ".", "", "1e5", "+1", "1..2", "1.2.3", "0x10", "1_0", "NaN"}
	for range 100_000 {
		digits := strconv.FormatUint(rng.Uint64N(1<<uint(rng.IntN(54))), 10)
		if k := rng.IntN(len(digits) + 1); rng.IntN(4) > 0 {
			digits = digits[:k] + "." + digits[k:]
		}
		if rng.IntN(2) == 0 {
			digits = "-" + digits
		}
		inputs = append(inputs, digits)
	}
	for _, s := range inputs {
		for _, bits := range []int{32, 64} {
			got, ok := plainDecimal(s, bits)
			want, err := strconv.ParseFloat(s, bits)
			if ok && (err != nil || math.Float64bits(got) != math.Float64bits(want)) {
				t.Fatalf("plainDecimal(%q, %d) = %v; ParseFloat gives %v, %v", s, bits, got, want, err)
			}
			if !ok && bits == 64 && err == nil && len(s) < 12 && !strings.ContainsAny(s, "ex_+N") && strings.Count(s, ".") < 2 {
				t.Errorf("plainDecimal(%q, %d) declined a short plain decimal", s, bits)
			}
		}
	}
}

// CVAT's MOT export (datumaro's MotSeqGtExporter, 9 fields) writes id -1 for a box in no
// track: read as an untracked box, left out with a warning that counts them, or drawn; in
// the 10- and 6-field layouts id -1 is a detection file's (det.txt), still refused. The
// 9-field file was refused whole ("-1 is negative").
func TestMOTUntrackedBoxes(t *testing.T) {
	cvat := "1,1,10,10,20,20,1,1,1\n1,-1,40,10,20,20,1,1,1\n2,1,12,10,20,20,1,1,1\n2,-1,40,10,20,20,1,1,1\n2,-1,60,10,20,20,0,1,0.5\n"
	for _, tc := range []struct {
		name, content string
		policy        UntrackedPolicy
		boxes, noID   int
		err           string
	}{
		{"skip", cvat, SkipUntracked, 2, 0, ""},
		{"draw", cvat, DrawUntracked, 5, 3, ""},
		{"det.txt, 10 fields", "1,-1,10,10,20,20,0.9,-1,-1,-1\n", DrawUntracked, 0, 0, "t.txt:1: field 2 (id): -1 is negative"},
		{"6 fields", "1,-1,10,10,20,20\n", DrawUntracked, 0, 0, "t.txt:1: field 2 (id): -1 is negative"},
		{"9 fields, -2", "1,-2,10,10,20,20,1,1,1\n", DrawUntracked, 0, 0, "t.txt:1: field 2 (id): -2 is negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Read(strings.NewReader(tc.content), "t.txt", FormatMOT, Options{Untracked: tc.policy})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sum := tr.Summary()
			if sum.Boxes != tc.boxes || sum.Untracked != tc.noID || sum.Tracks != 1 {
				t.Errorf("%d boxes, %d untracked, %d tracks; want %d, %d, 1", sum.Boxes, sum.Untracked, sum.Tracks, tc.boxes, tc.noID)
			}
			warned := slices.ContainsFunc(tr.Warnings(), func(w string) bool { return strings.Contains(w, "3 untracked boxes (id -1") })
			if warned != (tc.policy == SkipUntracked) {
				t.Errorf("warnings %q: the skipped boxes said %v, want %v", tr.Warnings(), warned, tc.policy == SkipUntracked)
			}
		})
	}
}

// RefuseUntracked turns a detection without a track id into an error naming its line, in
// every format that can hold one; SkipUntracked and DrawUntracked read the same lines.
func TestRefuseUntracked(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		format        Format
		err           string
	}{
		{"a.jsonl", "{\"frame\":1,\"boxes\":[{\"id\":1,\"x\":1,\"y\":1,\"w\":2,\"h\":2}]}\n{\"frame\":2,\"boxes\":[{\"x\":1,\"y\":1,\"w\":2,\"h\":2}]}\n",
			FormatJSONL, "a.jsonl:2: boxes[0]: has no track id"},
		{"a.jsonl", "{\"frame\":1,\"boxes\":[{\"id\":null,\"x\":1,\"y\":1,\"w\":2,\"h\":2}]}\n",
			FormatJSONL, "a.jsonl:1: boxes[0]: has no track id"},
		{"a.csv", "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n10,20,40,60,,,1,0\n10,20,40,60,,,,0\n",
			FormatSupervision, "a.csv:3: field 7 (tracker_id): has no track id"},
		{"clip_1.txt", "0 0.5 0.5 0.25 0.5 0.9\n", FormatYOLO, "clip_1.txt:1: the box has no track id"},
		{"gt.txt", "1,1,10,10,20,20,1,1,1\n1,-1,40,10,20,20,1,1,1\n", FormatMOT, "gt.txt:2: field 2 (id): has no track id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.content), tc.name, tc.format, Options{Untracked: RefuseUntracked, Width: 640, Height: 480})
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err %v, want %q", err, tc.err)
			}
			for _, p := range []UntrackedPolicy{SkipUntracked, DrawUntracked} {
				if _, err := Read(strings.NewReader(tc.content), tc.name, tc.format, Options{Untracked: p, Width: 640, Height: 480}); err != nil {
					t.Errorf("policy %d: %v", p, err)
				}
			}
		})
	}
}

// An error quoting a value of 100 000 digits is cut in its middle: what it says around the
// value stays, the line reads in a terminal (it was 100 KB long).
func TestLongValueCutInTheError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.txt")
	os.WriteFile(path, []byte("1,"+strings.Repeat("9", 100000)+",1,1,5,5,1,-1,-1,-1\n"), 0o644)
	_, err := Load(path, Options{Width: 640, Height: 480})
	if err == nil {
		t.Fatal("read")
	}
	msg := err.Error()
	if len(msg) > 1200 || !strings.HasPrefix(msg, path+":1: field 2 (id): 999") || !strings.Contains(msg, "bytes left out") || !strings.HasSuffix(msg, "999 is out of range") {
		t.Errorf("%d bytes: %.300s … %s", len(msg), msg, msg[max(0, len(msg)-100):])
	}
	if got := shortened("é" + strings.Repeat("ü", 2000)); !utf8.ValidString(got) || len(got) > 1200 {
		t.Errorf("%d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
}

// FormatOf does not open what is read once (a FIFO, a shell's <(…)): it would consume the
// head Load reads, or wait on a writer.
func TestFormatOfLeavesAPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "t.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if _, err := FormatOf(fifo); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FormatOf of a FIFO: %v, want ErrNotRegular", err)
	}
}
