package scene

import (
	"reflect"
	"testing"
)

// The fixtures follow the label format of the KITTI tracking devkit's readme
// (devkit_tracking.zip, readme.txt, "Data Format Description", from
// cvlibs.net/datasets/kitti/eval_tracking.php): 17 space-separated values a row (frame,
// track id, type, truncated, occluded, alpha, the 2D box left top right bottom in 0-based
// pixels, 3D dimensions, location and rotation_y), an 18th, score, in results; frames from 0;
// DontCare regions with track id -1. testdata/formats/kitti_0000.txt is written as the
// training labels are (label_02/0000.txt), kitti_results.txt as trackers write results (-1
// and -10 and -1000 where they know nothing).

func TestKITTIFixtures(t *testing.T) {
	tests := []struct {
		file     string
		want     []Frame
		warnings []string
	}{
		{"kitti_0000.txt", []Frame{
			withPoints(1,
				box(0, 296.744956, 161.752147, 158.481086, 130.620657, "Van", -1),
				box(1, 737.619499, 161.531951, 193.49273, 212.468049, "Cyclist", -1)),
			withPoints(2,
				box(0, 294.898777, 156.024256, 157.300941, 128.597013, "Van", -1),
				box(2, 1106.137292, 166.576807, 98.333336, 157.299337, "Pedestrian", -1)),
		}, []string{"2 DontCare rows (regions left unlabelled) skipped"}},
		{"kitti_results.txt", []Frame{
			withPoints(1, box(1, 296.74, 161.75, 158.49, 130.62, "Car", 0.98), box(2, 1106.14, 166.58, 98.33, 157.3, "Pedestrian", 0.61)),
			withPoints(3, box(1, 290, 160, 160, 130, "Car", 0.95)),
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) { testFixture(t, tc.file, Options{}, FormatKITTI, tc.want, tc.warnings) })
	}
}

func TestKITTIAccepted(t *testing.T) {
	const row = " 0 0 -10 10 20 40 60 -1 -1 -1 -1000 -1000 -1000 -10"
	testAccepted(t, "t.txt", FormatKITTI, []acceptCase{
		{"empty", Options{}, "", nil},
		{"frames from 1 on request", Options{FrameBase: OneBased}, "1 3 Car" + row + "\n",
			[]Frame{withPoints(1, box(3, 10, 20, 30, 40, "Car", -1))}},
		{"centre anchor, CRLF, BOM, blank lines, tabs", Options{Anchor: Center}, "\uFEFF\r\n4\t3\tCar" + row + " \r\n\r\n",
			[]Frame{{Index: 5, Boxes: []Box{box(3, 10, 20, 30, 40, "Car", -1)}, Points: []Point{{ID: 3, X: 25, Y: 40}}}}},
		{"rows of a frame spread, frames unsorted", Options{},
			"2 1 Car" + row + "\n0 1 Car" + row + "\n2 2 Van" + row + "\n",
			[]Frame{withPoints(1, box(1, 10, 20, 30, 40, "Car", -1)),
				withPoints(3, box(1, 10, 20, 30, 40, "Car", -1), box(2, 10, 20, 30, 40, "Van", -1))}},
		{"scores beyond [0,1] are not shown", Options{},
			"0 1 Car" + row + " 0.5\n0 2 Car" + row + " 12.25\n",
			[]Frame{withPoints(1, box(1, 10, 20, 30, 40, "Car", -1), box(2, 10, 20, 30, 40, "Car", -1))}},
		{"DontCare whatever its id", Options{}, "0 -1 DontCare" + row + "\n0 5 DontCare" + row + "\n", nil},
	})
	// For TrackEval's rules: DontCare rows are regions (no id, no point), and objects
	// truncated (level 1 or 2) or occluded beyond level 2 are marked; the levels are read as
	// integers, so truncated 0.9 is 0 and occluded 2.5 is 2, as TrackEval reads them.
	mark := func(b Box) Box { b.Ignored = true; return b }
	lv := func(trunc, occ string) string {
		return " " + trunc + " " + occ + " -10 10 20 40 60 -1 -1 -1 -1000 -1000 -1000 -10\n"
	}
	testAccepted(t, "t.txt", FormatKITTI, []acceptCase{
		{"TrackEval's ignore marks", Options{MarkIgnored: true},
			"0 -1 DontCare" + lv("-1", "-1") + "0 1 Car" + lv("0", "2") + "0 2 Car" + lv("1", "0") + "0 3 Car" + lv("0", "3") +
				"0 4 Car" + lv("0.9", "2.5") + "0 7 DontCare" + lv("-1", "-1"),
			[]Frame{{Index: 1, Boxes: []Box{mark(box(NoID, 10, 20, 30, 40, "DontCare", -1)), box(1, 10, 20, 30, 40, "Car", -1),
				mark(box(2, 10, 20, 30, 40, "Car", -1)), mark(box(3, 10, 20, 30, 40, "Car", -1)), box(4, 10, 20, 30, 40, "Car", -1),
				mark(box(NoID, 10, 20, 30, 40, "DontCare", -1))},
				Points: []Point{{ID: 1, X: 25, Y: 60}, {ID: 2, X: 25, Y: 60}, {ID: 3, X: 25, Y: 60}, {ID: 4, X: 25, Y: 60}}}}},
	})
	tr, err := readString("t.txt", FormatKITTI, Options{}, "0 1 Car"+row+" 0.5\n0 2 Car"+row+" 12.25\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`scores are not shown: 12.25 on line 2 is outside [0,1] (KITTI results' scores are "higher is better", not probabilities)`}
	if !reflect.DeepEqual(tr.Warnings(), want) {
		t.Errorf("warnings %q, want %q", tr.Warnings(), want)
	}
}

func TestKITTIErrors(t *testing.T) {
	const row = " 0 0 -10 10 20 40 60 -1 -1 -1 -1000 -1000 -1000 -10"
	testErrors(t, "t.txt", FormatKITTI, Options{}, []errorCase{
		{"too few fields", "0 1 Car 0 0 -10 10 20 40 60\n", "t.txt:1: has 10 space-separated fields; want 17 (frame track_id " +
			"type truncated occluded alpha left top right bottom height width length x y z rotation_y) or 18 (and score)"},
		{"field count changes", "0 1 Car" + row + "\n0 2 Car" + row + " 0.5\n", "t.txt:2: has 18 space-separated fields, but line 1 has 17"},
		{"negative frame", "-1 1 Car" + row + "\n", "t.txt:1: field 1 (frame): -1 is negative (frames are numbered from 0 here)"},
		{"negative id", "0 -1 Car" + row + "\n", "t.txt:1: field 2 (track_id): -1 is negative (track ids are 0 or more; only DontCare rows have -1)"},
		{"right before left", "0 1 Car 0 0 -10 50 20 40 60 -1 -1 -1 -1000 -1000 -1000 -10\n",
			"t.txt:1: field 9 (right): 40 is less than the left, 50"},
		{"bottom before top", "0 1 Car 0 0 -10 10 70 40 60 -1 -1 -1 -1000 -1000 -1000 -10\n",
			"t.txt:1: field 10 (bottom): 60 is less than the top, 70"},
		// A DontCare row is not drawn, but a broken one is a broken file all the same.
		{"broken DontCare row", "0 -1 DontCare" + row + "\n0 -1 DontCare -1 -1 -10 10 20 x 60 -1 -1 -1 -1000 -1000 -1000 -10\n",
			"t.txt:2: field 9 (right): \"x\" is not a number"},
		{"shifted column", "0 1 Car 0 0 -10 10 20 40 60 -1 -1 x -1000 -1000 -1000 -10\n", `t.txt:1: field 13 (length): "x" is not a number`},
		{"bad score", "0 1 Car" + row + " NaN\n", "t.txt:1: field 18 (score): NaN is not a finite number"},
		{"duplicate id", "0 1 Car" + row + "\n1 1 Car" + row + "\n0 1 Van" + row + "\n",
			"t.txt:3: field 2 (track_id): track 1 appears twice in frame 0 (also line 1)"},
		{"type with a control character", "0 1 Ca\x01r" + row + "\n", `t.txt:1: field 3 (type): "Ca\x01r" contains the control character U+0001`},
	})
	testErrors(t, "t.txt", FormatKITTI, Options{FrameBase: OneBased}, []errorCase{
		{"frame 0 read from 1", "0 1 Car" + row + "\n", "t.txt:1: field 1 (frame): 0 is less than 1 " +
			"(frames are numbered from 1 here; if the file counts from 0, read it with --frame-base 0)"},
	})
}
