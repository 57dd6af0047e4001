package scene

import (
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// roundTrip writes tr in format f, reads it back with opts, and fails t unless the frames are
// the same. It returns what Write said was lost.
func roundTrip(t *testing.T, tr *Tracks, f Format, opts Options) []string {
	t.Helper()
	var out strings.Builder
	lost, err := Write(&out, tr, f)
	if err != nil {
		t.Fatal(err)
	}
	back, err := readString("back", f, opts, out.String())
	if err != nil {
		t.Fatalf("reading back what Write wrote: %v\n%s", err, out.String())
	}
	checkInvariants(t, back)
	if got, want := framesOf(back), framesOf(tr); !reflect.DeepEqual(got, want) {
		t.Fatalf("read back\n%+v\nwant\n%+v\nfrom\n%s", got, want, out.String())
	}
	return lost
}

// TestWriteRoundTrips reads each format's fixture, writes it as JSON Lines and reads that
// back: the same frames. MOTChallenge and KITTI files (tracked boxes, scores, nothing else
// MOTChallenge results cannot hold once classes are dropped) go through MOTChallenge text too.
func TestWriteRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		file string
		opts Options
	}{
		{"kitti_0000.txt", Options{}},
		{"kitti_results.txt", Options{Anchor: Center}},
		{"supervision.csv", Options{Untracked: DrawUntracked}},
		{"cvat_video.xml", Options{}},
		{"yolo", Options{Width: 1280, Height: 720, Untracked: DrawUntracked}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tr, err := Load(filepath.Join("testdata", "formats", tc.file), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if lost := roundTrip(t, tr, FormatJSONL, Options{}); lost != nil {
				t.Errorf("JSON Lines lost %q", lost)
			}
		})
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 10 {
		tr, err := NewTracks(randomFrames(rng))
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, tr, FormatJSONL, Options{})
	}
	for _, anchor := range []Anchor{BottomCenter, Center} {
		var s strings.Builder
		for frame := 1; frame <= 30; frame++ {
			for id := range rng.IntN(8) {
				fmt.Fprintf(&s, "%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,-1,-1,-1\n", frame, id, rng.NormFloat64()*500, rng.NormFloat64()*500,
					rng.ExpFloat64()*50, rng.ExpFloat64()*50, rng.Float64())
			}
		}
		opts := Options{Anchor: anchor}
		tr, err := readString("t.txt", FormatMOT, opts, s.String())
		if err != nil {
			t.Fatal(err)
		}
		if lost := roundTrip(t, tr, FormatMOT, opts); lost != nil {
			t.Errorf("MOTChallenge lost %q", lost)
		}
		roundTrip(t, tr, FormatJSONL, Options{})
		// Through JSON Lines and back to MOTChallenge text, read with the same anchor:
		// the points JSON Lines made explicit are the boxes' own, so nothing is lost (it
		// once warned of every point, and of every box without one).
		var jsonl strings.Builder
		if _, err := Write(&jsonl, tr, FormatJSONL); err != nil {
			t.Fatal(err)
		}
		viaJSONL, err := readString("t.jsonl", FormatJSONL, opts, jsonl.String())
		if err != nil {
			t.Fatal(err)
		}
		if lost := roundTrip(t, viaJSONL, FormatMOT, opts); lost != nil {
			t.Errorf("MOTChallenge from JSON Lines (%v) lost %q", anchor, lost)
		}
	}
}

// TestWriteMOTPointsAtTheirAnchors: an explicit point at its box's anchor, which reading
// MOTChallenge text back makes again, is not lost; a point elsewhere, or without a tracked
// box, still is, and so is a colour.
func TestWriteMOTPointsAtTheirAnchors(t *testing.T) {
	const (
		boxes   = `"boxes":[{"id":1,"x":10,"y":20,"w":10,"h":20},{"id":2,"x":100,"y":30,"w":11,"h":30}]`
		bottoms = `"points":[{"id":1,"x":15,"y":40},{"id":2,"x":105.5,"y":60}]`
		centres = `"points":[{"id":1,"x":15,"y":30},{"id":2,"x":105.5,"y":45}]`
	)
	pointLost := func(n int) string {
		return fmt.Sprintf("%d tracked points not written: MOTChallenge holds boxes only", n)
	}
	boxWithout := func(n int) string {
		return fmt.Sprintf("%d boxes without a tracked point will yield one when read back (every MOTChallenge box does)", n)
	}
	for _, tc := range []struct {
		name string
		line string // frame 1
		opts Options
		lost []string
		same bool // read back, the same frames
	}{
		{"at the bottom centres", bottoms + "," + boxes, Options{}, nil, true},
		{"at the centres, read with that anchor", centres + "," + boxes, Options{Anchor: Center}, nil, true},
		{"in another order than their boxes", `"points":[{"id":2,"x":105.5,"y":60},{"id":1,"x":15,"y":40}],` + boxes, Options{}, nil, false},
		{"at the centres, read with the bottom's", centres + "," + boxes, Options{}, []string{pointLost(2), boxWithout(2)}, false},
		{"at the bottom centres, read with the centre", bottoms + "," + boxes, Options{Anchor: Center}, []string{pointLost(2), boxWithout(2)}, false},
		{"one a pixel off", `"points":[{"id":1,"x":15,"y":41},{"id":2,"x":105.5,"y":60}],` + boxes, Options{}, []string{pointLost(1), boxWithout(1)}, false},
		{"one of another id", `"points":[{"id":1,"x":15,"y":40},{"id":3,"x":105.5,"y":60}],` + boxes, Options{}, []string{pointLost(1), boxWithout(1)}, false},
		{"one without a box", bottoms + `,"boxes":[{"id":1,"x":10,"y":20,"w":10,"h":20}]`, Options{}, []string{pointLost(1)}, false},
		{"one at an untracked box's anchor", bottoms + `,"boxes":[{"id":1,"x":10,"y":20,"w":10,"h":20},{"x":100,"y":30,"w":11,"h":30}]`,
			Options{Untracked: DrawUntracked}, []string{"1 untracked boxes not written: MOTChallenge rows need a track id", pointLost(1)}, false},
		{"one with a colour", `"points":[{"id":1,"x":15,"y":40,"color":"#ff0000"},{"id":2,"x":105.5,"y":60}],` + boxes, Options{}, []string{"1 colours not written"}, false},
		{"boxes alone", boxes, Options{}, []string{boxWithout(2)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := readString("t.jsonl", FormatJSONL, tc.opts, `{"frame":1,`+tc.line+"}\n")
			if err != nil {
				t.Fatal(err)
			}
			var lost []string
			if tc.same {
				lost = roundTrip(t, tr, FormatMOT, tc.opts)
			} else if lost, err = Write(io.Discard, tr, FormatMOT); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(lost, tc.lost) {
				t.Errorf("lost\n%q\nwant\n%q", lost, tc.lost)
			}
		})
	}
}

// TestWriteMOTSaysWhatItLoses writes what MOTChallenge results cannot hold.
func TestWriteMOTSaysWhatItLoses(t *testing.T) {
	tr, err := NewTracks([]Frame{{Index: 1,
		Points: []Point{{ID: 1, X: 1, Y: 2}},
		Boxes:  []Box{{ID: NoID, W: 1, H: 1}, {ID: 2, W: 1, H: 1, Class: "car", Score: 1, HasScore: true, Color: Color{A: 9}, HasColor: true}}}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	lost, err := Write(&out, tr, FormatMOT)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "1,2,0,0,1,1,1,-1,-1,-1\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	want := []string{
		"1 untracked boxes not written: MOTChallenge rows need a track id",
		"1 tracked points not written: MOTChallenge holds boxes only",
		"1 class names not written: MOTChallenge results have no class column",
		"1 colours not written",
		"1 boxes without a tracked point will yield one when read back (every MOTChallenge box does)",
		"every score is 1, which MOTChallenge readers take for the placeholder: read back, no box has a score",
	}
	if !reflect.DeepEqual(lost, want) {
		t.Errorf("lost\n%q\nwant\n%q", lost, want)
	}
	if _, err := Write(&out, tr, FormatCVAT); err == nil || err.Error() != "scene: cannot write CVAT for video 1.1 XML; "+
		"only trackink JSON Lines and MOTChallenge text" {
		t.Errorf("writing CVAT: %v", err)
	}
}

// TestWriteJSONLSpelling checks the JSON Lines that Write writes, member by member.
func TestWriteJSONLSpelling(t *testing.T) {
	tr, err := NewTracks([]Frame{
		{Index: 3, Boxes: []Box{{ID: NoID, X: 0.1, Y: -2, W: 1e6, H: 0, Class: `say "hi" \o/ 日本`, Score: 0.25, HasScore: true}}},
		{Index: 1, Points: []Point{{ID: 7, X: 1.5, Y: 2, Color: Color{255, 136, 0, 255}, HasColor: true}},
			Boxes: []Box{{ID: 7, X: 1, Y: 2, W: 3, H: 4, Color: Color{0, 255, 0, 128}, HasColor: true}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if _, err := Write(&out, tr, FormatJSONL); err != nil {
		t.Fatal(err)
	}
	want := `{"frame":1,"points":[{"id":7,"x":1.5,"y":2,"color":"#ff8800"}],"boxes":[{"id":7,"x":1,"y":2,"w":3,"h":4,"color":"#00ff0080"}]}` + "\n" +
		`{"frame":3,"boxes":[{"x":0.1,"y":-2,"w":1e+06,"h":0,"label":"say \"hi\" \\o/ 日本","score":0.25}]}` + "\n"
	if out.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", out.String(), want)
	}
}

// MOTChallenge results with class names: the classes go into field x as numbers of the
// names, and read back with the names they are the same; a number the names do not have is
// refused on its line and field; without the names, x is a world coordinate, ignored.
func TestWriteMOTClasses(t *testing.T) {
	names := []string{"person", "bicycle", "car", "dog"}
	in, err := NewTracks([]Frame{
		{Index: 1, Boxes: []Box{{ID: 1, X: 1, Y: 2, W: 3, H: 4, Class: "person"}, {ID: 2, X: 5, Y: 6, W: 7, H: 8, Class: "dog"}}},
		{Index: 2, Boxes: []Box{{ID: 1, X: 1, Y: 2, W: 3, H: 4, Class: "person"}, {ID: 3, X: 9, Y: 9, W: 9, H: 9}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	lost, err := WriteWith(&b, in, FormatMOT, WriteOptions{ClassNames: names})
	if err != nil {
		t.Fatal(err)
	}
	want := "1,1,1,2,3,4,-1,0,-1,-1\n1,2,5,6,7,8,-1,3,-1,-1\n2,1,1,2,3,4,-1,0,-1,-1\n2,3,9,9,9,9,-1,-1,-1,-1\n"
	if b.String() != want || len(lost) != 1 || strings.Contains(lost[0], "class") {
		t.Errorf("wrote\n%s(lost %q), want\n%s", b.String(), lost, want)
	}
	back, err := Read(strings.NewReader(b.String()), "t.txt", FormatMOT, Options{ClassNames: names})
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Classes(); !slices.Equal(got, []string{"person", "dog"}) {
		t.Errorf("read back, classes %v", got)
	}
	if plain, _ := Read(strings.NewReader(b.String()), "t.txt", FormatMOT, Options{}); len(plain.Classes()) != 0 {
		t.Errorf("without names, classes %v", plain.Classes())
	}
	_, err = Read(strings.NewReader("1,1,1,2,3,4,-1,7,-1,-1\n"), "t.txt", FormatMOT, Options{ClassNames: names})
	if err == nil || !strings.Contains(err.Error(), "t.txt:1: field 8 (x)") || !strings.Contains(err.Error(), "0 to 3") {
		t.Errorf("class 7 of 4 names: %v", err)
	}
	var nb strings.Builder
	WriteClassNames(&nb, names)
	if got, err := parseClassNames("t.names", []byte(nb.String())); err != nil || !slices.Equal(got, names) {
		t.Errorf("names written read back as %v (%v)", got, err)
	}
}
