package scene

import (
	"testing"
)

// testdata/formats/supervision.csv is written as supervision's CSVSink writes a file
// (supervision/detection/tools/csv_sink.py; the docs' "Save Detections" guide): Python's csv
// writer (CRLF line ends, fields with commas or quotes quoted, quotes doubled), the header
// BASE_HEADER x_min,y_min,x_max,y_max,class_id,confidence,tracker_id followed by the sorted
// data keys (class_name, which Detections.from_ultralytics adds) and custom_data keys
// (frame_index, from `for frame_index, frame in enumerate(frames_generator)`, so 0-based; a
// free-text note); an untracked detection has an empty tracker_id.

func TestSupervisionFixture(t *testing.T) {
	car1, person2 := box(1, 2941.14, 1269.31, 279.63, 231.36, "car", 0.8517), box(2, 1103.5, 1177, 105.75, 260.75, "person", 0.71)
	untracked := box(NoID, 40, 50, 20, 40, "person", 0.33)
	later := withPoints(2, box(1, 2950, 1270.5, 280, 231.5, "car", 0.85))
	tests := []struct {
		name     string
		opts     Options
		want     []Frame
		warnings []string
	}{
		{"untracked skipped", Options{}, []Frame{withPoints(1, car1, person2), later},
			[]string{"1 untracked detections (empty tracker_id) skipped; --untracked draw shows them"}},
		{"untracked drawn", Options{Untracked: DrawUntracked}, []Frame{withPoints(1, car1, person2, untracked), later}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			testFixture(t, "supervision.csv", tc.opts, FormatSupervision, tc.want, tc.warnings)
		})
	}
}

func TestSupervisionAccepted(t *testing.T) {
	const header = "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id"
	names := []string{"person", "", "car"}
	testAccepted(t, "t.csv", FormatSupervision, []acceptCase{
		{"header only", Options{}, header + ",frame_index\n", nil},
		{"class numbers named by ClassNames, or shown as numbers", Options{ClassNames: names},
			header + ",frame_index\n0,0,1,2,0,0.5,3,0\n0,0,1,2,1,0.5,4,0\n0,0,1,2,2,0.5,5,0\n0,0,1,2,7,0.5,6,0\n0,0,1,2,,0.5,7,0\n",
			[]Frame{withPoints(1, box(3, 0, 0, 1, 2, "person", 0.5), box(4, 0, 0, 1, 2, "1", 0.5), box(5, 0, 0, 1, 2, "car", 0.5),
				box(6, 0, 0, 1, 2, "7", 0.5), box(7, 0, 0, 1, 2, "", 0.5))}},
		{"class_name wins over ClassNames", Options{ClassNames: names},
			header + ",class_name,frame_index\n0,0,1,2,0,,3,pedestrian,0\n",
			[]Frame{withPoints(1, box(3, 0, 0, 1, 2, "pedestrian", -1))}},
		{"a frame column of another name, frames from 1, floats for integers", Options{FrameColumn: "frame", FrameBase: OneBased},
			header + ",frame,time\n0,0,1,2,0,0.5,3.0,2.0,0.08\n",
			[]Frame{withPoints(2, box(3, 0, 0, 1, 2, "0", 0.5))}},
		{"quoted fields, spaces", Options{}, `"x_min","y_min",x_max,y_max,class_id,confidence,tracker_id,frame_index` + "\n" +
			` "1.5" , 2,3.5,4, "0" ,0.5,"9", 0` + "\n",
			[]Frame{withPoints(1, box(9, 1.5, 2, 2, 2, "0", 0.5))}},
	})
}

func TestSupervisionErrors(t *testing.T) {
	const header = "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n"
	testErrors(t, "t.csv", FormatSupervision, Options{}, []errorCase{
		{"not CSVSink's header", "frame,x_min,y_min,x_max,y_max\n", "t.csv:1: the header does not start with " +
			"x_min,y_min,x_max,y_max,class_id,confidence,tracker_id, as supervision's CSVSink writes it"},
		{"no frame column", "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,class_name\n", `t.csv:1: no "frame_index" column: ` +
			`CSVSink writes no frame number of its own; add one with sink.append(detections, custom_data={"frame_index": frame_index}), ` +
			`or name the column that holds it with --frame-column`},
		{"column twice", "x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index,frame_index\n",
			`t.csv:1: field 9 (frame_index): column "frame_index" appears twice (also field 8)`},
		{"field count", header + "0,0,1,2,0,0.5,3\n", "t.csv:2: has 7 comma-separated fields, but the header (line 1) has 8"},
		{"unterminated quote", header + `0,0,1,2,0,0.5,3,"0` + "\n",
			"t.csv:2: a quoted field does not end on its line (fields with line breaks are not supported)"},
		{"text after a quote", header + `0,0,1,2,0,0.5,3,"0"x` + "\n", `t.csv:2: text after a quoted field: "x"`},
		{"x_max before x_min", header + "5,0,1,2,0,0.5,3,0\n", "t.csv:2: field 3 (x_max): 1 is less than the x_min, 5"},
		{"negative frame", header + "0,0,1,2,0,0.5,3,-1\n", "t.csv:2: field 8 (frame_index): -1 is negative (frames are numbered from 0 here)"},
		{"confidence above 1", header + "0,0,1,2,0,1.5,3,0\n", "t.csv:2: field 6 (confidence): 1.5 is outside [0,1]"},
		{"negative tracker id", header + "0,0,1,2,0,0.5,-1,0\n",
			"t.csv:2: field 7 (tracker_id): -1 is negative (track ids are 0 or more; an untracked detection has an empty tracker_id)"},
		{"fractional class", header + "0,0,1,2,0.5,0.5,3,0\n", "t.csv:2: field 5 (class_id): 0.5 is not an integer"},
		{"duplicate id", header + "0,0,1,2,0,0.5,3,0\n0,0,1,2,0,0.5,3,1\n0,0,1,2,0,0.5,3,0\n",
			"t.csv:4: field 7 (tracker_id): track 3 appears twice in frame 0 (also line 2)"},
		{"NaN", header + "nan,0,1,2,0,0.5,3,0\n", "t.csv:2: field 1 (x_min): nan is not a finite number"},
	})
}
