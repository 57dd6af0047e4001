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
	"strconv"
	"strings"
	"testing"
)

const (
	motLine   = "1,1,10,20,30,40,1,-1,-1,-1\n"
	jsonlLine = `{"frame":1,"boxes":[{"id":1,"x":10,"y":20,"w":30,"h":40}]}` + "\n"
)

func TestLoadPicksTheReader(t *testing.T) {
	box := Box{ID: 1, X: 10, Y: 20, W: 30, H: 40}
	mot := []Frame{{Index: 1, Boxes: []Box{box}, Points: []Point{{ID: 1, X: 25, Y: 60}}}}
	jsonl := []Frame{{Index: 1, Boxes: []Box{box}}}
	tests := []struct {
		file, content string
		want          []Frame
		err           string // the error's text after the path
	}{
		{"a.txt", motLine, mot, ""},
		{"a.CSV", motLine, mot, ""},
		{"a.jsonl", jsonlLine, jsonl, ""},
		{"a.NDJSON", jsonlLine, jsonl, ""},
		{"gt", "\n\n" + motLine, mot, ""},
		{"gt.dat", "# MOT\n" + motLine, mot, ""},
		{"comment.md", "\n# Tracks\n", nil, ""}, // a comment alone is an empty MOT file
		{"frames.log", "\n  " + jsonlLine, jsonl, ""},
		{"empty.bin", "", nil, ""},
		{"blank.bin", "\n \n", nil, ""},
		{"json.txt", jsonlLine, nil, ":1: has 6 comma-separated fields; want 10 (frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z) " +
			"or 9 (MOT17 ground truth: frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility)"},
		{"mot.jsonl", motLine, nil, ":1: want an object, got a number"},
		{"notes.md", "\nTracks\n", nil, ":2: cannot tell the format: the line starts with neither a digit (MOTChallenge) " +
			"nor '{' (JSON Lines); name the file .txt, .csv, .jsonl or .ndjson"},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			tr, err := Load(path, Options{})
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
			if !reflect.DeepEqual(tr.Frames, tc.want) {
				t.Errorf("got %+v, want %+v", tr.Frames, tc.want)
			}
		})
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
		if err != nil || len(tr.Frames) != 1 {
			t.Fatalf("%q: got %+v, %v", input, tr, err)
		}
	}
	_, err := readString("", FormatAuto, Options{}, "x")
	if err == nil || !strings.HasPrefix(err.Error(), "line 1: cannot tell the format") {
		t.Fatalf("got %v", err)
	}
}

func TestReadRejectsBadArguments(t *testing.T) {
	if _, err := readString("a.txt", Format(9), Options{}, motLine); err == nil ||
		err.Error() != "scene: reading a.txt: unknown format 9" {
		t.Errorf("format 9: got %v", err)
	}
	if _, err := readString("a.txt", FormatMOT, Options{Anchor: 7}, motLine); err == nil ||
		err.Error() != "scene: reading a.txt: unknown anchor 7" {
		t.Errorf("anchor 7: got %v", err)
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
		if got, ok := parseColor(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("parseColor(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
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
