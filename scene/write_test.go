package scene

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
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
