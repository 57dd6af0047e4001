package scene

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The YOLO fixtures follow what Ultralytics writes with `yolo track ... save_txt=True`
// (ultralytics/engine/results.py, Results.save_txt): one line a box, "%g"-formatted,
// class, then x_center y_center width height normalised to 0..1 (xywhn), then the confidence
// with save_conf, then the track id when the box is tracked; one file a frame, named
// NAME_<frame>.txt after the video with frames counted from 1 (engine/predictor.py and the
// frame counter of data/loaders.py). testdata/formats/yolo holds frames 1, 2 and 4 of a clip
// read with save_conf (so seven fields, and six for a box the tracker did not follow), and a
// file that is not a label file.

func TestYOLOFixture(t *testing.T) {
	names, err := ReadClassNames(filepath.Join("testdata", "formats", "coco8.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		opts     Options
		want     []Frame
		warnings []string
	}{
		{"class numbers", Options{}, []Frame{
			withPoints(1, box(1, 240, 120, 160, 240, "0", 0.91), box(4, 32, 72, 64, 48, "2", 0.5)),
			withPoints(2, box(1, 252.8, 120, 160, 240, "0", 0.88)),
			withPoints(4, box(4, 38.4, 76.8, 64, 48, "2", 0.47)),
		}, []string{"1 untracked detections (lines without an id) skipped; --untracked draw shows them"}},
		{"class names, untracked drawn", Options{ClassNames: names, Untracked: DrawUntracked}, []Frame{
			withPoints(1, box(1, 240, 120, 160, 240, "person", 0.91), box(4, 32, 72, 64, 48, "car", 0.5)),
			withPoints(2, box(1, 252.8, 120, 160, 240, "person", 0.88), box(NoID, 560, 420, 32, 24, "person", 0.42)),
			withPoints(4, box(4, 38.4, 76.8, 64, 48, "car", 0.47)),
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Width, tc.opts.Height = 640, 480
			testFixture(t, "yolo", tc.opts, FormatYOLO, tc.want, tc.warnings)
		})
	}
}

// TestYOLOSixFields checks what a six-field line is taken for, across the files of a
// directory: a confidence or a track id, as the lines show.
func TestYOLOSixFields(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []Frame // the boxes' ids and scores matter here; the frames are 10 by 10 px
		err   string
	}{
		{"a fraction: confidences", map[string]string{"v_1.txt": "0 0.5 0.5 0.2 0.2 1\n", "v_2.txt": "0 0.5 0.5 0.2 0.2 0.75\n"},
			[]Frame{{Index: 1, Boxes: []Box{box(NoID, 4, 4, 2, 2, "0", 1)}}, {Index: 2, Boxes: []Box{box(NoID, 4, 4, 2, 2, "0", 0.75)}}}, ""},
		{"an integer above 1: ids", map[string]string{"v_1.txt": "0 0.5 0.5 0.2 0.2 1\n", "v_2.txt": "0 0.5 0.5 0.2 0.2 7\n"},
			[]Frame{withPoints(1, box(1, 4, 4, 2, 2, "0", -1)), withPoints(2, box(7, 4, 4, 2, 2, "0", -1))}, ""},
		{"seven fields somewhere: confidences", map[string]string{"v_1.txt": "0 0.5 0.5 0.2 0.2 1\n", "v_3.txt": "0 0.5 0.5 0.2 0.2 0.5 3\n"},
			[]Frame{{Index: 1, Boxes: []Box{box(NoID, 4, 4, 2, 2, "0", 1)}}, withPoints(3, box(3, 4, 4, 2, 2, "0", 0.5))}, ""},
		{"only 0s and 1s: ids", map[string]string{"v_1.txt": "0 0.5 0.5 0.2 0.2 1\n0 0.1 0.1 0.2 0.2 0\n"},
			[]Frame{withPoints(1, box(1, 4, 4, 2, 2, "0", -1), box(0, 0, 0, 2, 2, "0", -1))}, ""},
		{"a byte order mark and CRLF, as Windows tools write", map[string]string{"v_1.txt": "\uFEFF0 0.5 0.5 0.2 0.2 1\r\n", "v_2.txt": "\uFEFF0 0.5 0.5 0.2 0.2 0.75\r\n"},
			[]Frame{{Index: 1, Boxes: []Box{box(NoID, 4, 4, 2, 2, "0", 1)}}, {Index: 2, Boxes: []Box{box(NoID, 4, 4, 2, 2, "0", 0.75)}}}, ""},
		{"a fraction where ids were shown", map[string]string{"v_1.txt": "0 0.5 0.5 0.2 0.2 7\n", "v_2.txt": "0 0.5 0.5 0.2 0.2 0.5\n"},
			nil, "v_2.txt:1: field 6 (id): 0.5 is not an integer (six-field lines hold track ids in these results: {dir}/v_1.txt:1 has the id 7)"},
		{"an id where confidences were shown", map[string]string{"v_1.txt": "0 0.5 0.5 0.2 0.2 0.5\n", "v_2.txt": "0 0.5 0.5 0.2 0.2 7\n"},
			nil, "v_2.txt:1: field 6 (conf): 7 is outside [0,1] (six-field lines hold confidences in these results: {dir}/v_1.txt:1 has the confidence 0.5)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tr, err := Load(dir, Options{Width: 10, Height: 10, Untracked: DrawUntracked})
			if tc.err != "" {
				if want := filepath.Join(dir, strings.ReplaceAll(tc.err, "{dir}", dir)); err == nil || err.Error() != want {
					t.Fatalf("got error %v\nwant %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, tr)
			checkNear(t, framesOf(tr), tc.want)
			if f, err := FormatOf(dir); err != nil || f != FormatYOLO || tr.Format() != FormatYOLO {
				t.Errorf("FormatOf: %v, %v, read as %v; want YOLO", f, err, tr.Format())
			}
		})
	}
}

func TestYOLOErrors(t *testing.T) {
	opts := Options{Width: 640, Height: 480}
	testErrors(t, "v_3.txt", FormatYOLO, opts, []errorCase{
		{"too few fields", "0 0.5 0.5 0.1\n", "v_3.txt:1: has 4 space-separated fields; want 5 to 7 (cls cx cy w h [conf] [id]); " +
			"segmentation, pose and oriented-box results are not supported"},
		{"a segment", "0 0.1 0.1 0.2 0.1 0.2 0.2 0.1 0.2\n", "v_3.txt:1: has 9 space-separated fields; want 5 to 7 " +
			"(cls cx cy w h [conf] [id]); segmentation, pose and oriented-box results are not supported"},
		{"pixels, not fractions", "0 320 240 10 10\n",
			"v_3.txt:1: field 2 (cx): 320 is outside [0,1] (YOLO coordinates are fractions of the picture's width and height)"},
		{"negative class", "-1 0.5 0.5 0.1 0.1\n", "v_3.txt:1: field 1 (cls): -1 is not a class number (0 to 2147483647)"},
		{"duplicate id", "0 0.5 0.5 0.1 0.1 0.5 3\n1 0.5 0.5 0.1 0.1 0.5 3\n",
			"v_3.txt:2: field 7 (id): track 3 appears twice in frame 3 (also line 1)"},
		{"confidence above 1", "0 0.5 0.5 0.1 0.1 1.5 3\n", "v_3.txt:1: field 6 (conf): 1.5 is outside [0,1]"},
	})
	for _, tc := range []struct {
		name  string
		files []string
		opts  Options
		want  string
	}{
		{"no size", []string{"v_1.txt"}, Options{}, "scene: reading {dir}: YOLO coordinates are fractions of the picture, " +
			"so the video's size is needed (Options.Width and Height, 1 to 1e7 px; got 0x0)"},
		{"no label files", []string{"notes.txt"}, opts, "{dir}: a directory, but no Ultralytics label files (NAME_<frame>.txt) in it"},
		{"two videos", []string{"a_1.txt", "b_1.txt"}, opts, "{dir}: holds the label files of 2 videos (a_*.txt, b_*.txt…); give a directory with one"},
		{"frame 0", []string{"v_0.txt"}, opts, "{dir}/v_0.txt: the frame number in the name: 0 is less than 1 " +
			"(frames are numbered from 1 here; if the file counts from 0, read it with --frame-base 0)"},
		{"a frame twice", []string{"v_7.txt", "v_07.txt"}, opts, "{dir}/v_7.txt: frame 7 already has {dir}/v_07.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, name := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("0 0.5 0.5 0.1 0.1 0.5 1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(dir, tc.opts)
			if want := strings.ReplaceAll(tc.want, "{dir}", dir); err == nil || err.Error() != want {
				t.Fatalf("got %v\nwant %s", err, want)
			}
		})
	}
	if _, err := readString("labels.txt", FormatYOLO, opts, "0 0.5 0.5 0.1 0.1\n"); err == nil ||
		err.Error() != "labels.txt: looks like Ultralytics YOLO results, but the name does not give the frame (NAME_<frame>.txt); "+
			"pass the directory of the video's label files" {
		t.Errorf("a YOLO file without a frame in its name: %v", err)
	}
}
