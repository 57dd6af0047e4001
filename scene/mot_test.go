package scene

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// motBox is a box and the point it yields at the bottom centre.
func motBox(id int, x, y, w, h float32) (Box, Point) {
	return Box{ID: id, X: x, Y: y, W: w, H: h}, Point{ID: id, X: x + w/2, Y: y + h}
}

// motFrameOf builds a frame from alternating boxes and points.
func motFrameOf(index int, bps ...any) Frame {
	f := Frame{Index: index}
	for i := 0; i < len(bps); i += 2 {
		f.Boxes = append(f.Boxes, bps[i].(Box))
		f.Points = append(f.Points, bps[i+1].(Point))
	}
	return f
}

func scored(b Box, p Point, score float32) (Box, Point) {
	b.Score, b.HasScore = score, true
	return b, p
}

func classed(b Box, p Point, class string) (Box, Point) {
	b.Class = class
	return b, p
}

func TestMOTAccepted(t *testing.T) {
	b1, p1 := motBox(1, 10, 20, 30, 40)
	b2, p2 := motBox(2, -5, 0, 0, 0) // boxes may reach past the frame's edge, and be empty
	classScored := func(b Box, p Point, class string, score float32) []any {
		b, p = classed(b, p, class)
		return tuple(scored(b, p, score))
	}
	tests := []struct {
		name  string
		opts  Options
		input string
		want  []Frame
	}{
		{"empty", Options{}, "", nil},
		{"only blank lines and comments", Options{}, "\n  \n# frame,id,...\n\t# indented\n", nil},
		{"placeholder conf 1 is no score", Options{},
			"1,1,10,20,30,40,1,-1,-1,-1\n1,2,-5,0,0,0,1,-1,-1,-1\n",
			[]Frame{motFrameOf(1, b1, p1, b2, p2)}},
		{"conf -1 is no score", Options{},
			"1,1,10,20,30,40,-1,-1,-1,-1\n",
			[]Frame{motFrameOf(1, b1, p1)}},
		{"a real score makes 1 a score too", Options{},
			"1,1,10,20,30,40,1,-1,-1,-1\n1,2,-5,0,0,0,0.5,-1,-1,-1\n2,1,10,20,30,40,-1,-1,-1,-1\n",
			[]Frame{
				motFrameOf(1, append(tuple(scored(b1, p1, 1)), tuple(scored(b2, p2, 0.5))...)...),
				motFrameOf(2, b1, p1),
			}},
		{"spaces, tabs, CRLF, BOM, comments, no final newline", Options{},
			"\uFEFF# results\r\n\r\n 1 , 1 ,\t10, 20 ,30,40 ,1, -1,-1,-1 \r\n  # more\r\n1,2,-5,0,0,0,1,-1,-1,-1",
			[]Frame{motFrameOf(1, b1, p1, b2, p2)}},
		{"separated by spaces and tabs, as numpy.savetxt('%g ' * 10) writes", Options{},
			"1 1 10 20 30 40 1 -1 -1 -1 \n1\t2\t-5\t0  0 0 1 -1 -1 -1\n",
			[]Frame{motFrameOf(1, b1, p1, b2, p2)}},
		{"MOT17 ground truth separated by spaces", Options{},
			"1 1 10 20 30 40 1 1 0.8\n",
			[]Frame{motFrameOf(1, tuple(classed(b1, p1, "pedestrian"))...)}},
		{"a comma after the last field, as some SORT forks write", Options{},
			"1,1,10,20,30,40,1,-1,-1,-1,\n1,2,-5,0,0,0,1,-1,-1,-1, \n",
			[]Frame{motFrameOf(1, b1, p1, b2, p2)}},
		{"a comma after six fields", Options{},
			"1,1,10,20,30,40,\n",
			[]Frame{motFrameOf(1, b1, p1)}},
		{"integers written as floats, as numpy.savetxt does", Options{},
			"1.0,1.000000e+00,10,20,30,40,1,-1,-1,-1\n",
			[]Frame{motFrameOf(1, b1, p1)}},
		// The corner 9999999.7 is stored as float32 1e7; the edges the file gives, 9999999.9,
		// are within the limit and round back to it: once refused ("right edge, 1.00000002e+07").
		{"edges within the limit that the corner's rounding reaches", Options{},
			"1,1,9999999.7,0,0.2,10,1,-1,-1,-1\n1,2,100,0.3,10,9999999.6,1,-1,-1,-1\n",
			[]Frame{motFrameOf(1, append(tuple(motBox(1, 9999999.7, 0, 0.2, 10)), tuple(motBox(2, 100, 0.3, 10, 9999999.6))...)...)}},
		{"unsorted and interleaved frames", Options{},
			"3,1,10,20,30,40,1,-1,-1,-1\n1,2,-5,0,0,0,1,-1,-1,-1\n3,2,-5,0,0,0,1,-1,-1,-1\n1,1,10,20,30,40,1,-1,-1,-1\n",
			[]Frame{motFrameOf(1, b2, p2, b1, p1), motFrameOf(3, b1, p1, b2, p2)}},
		{"centre anchor", Options{Anchor: Center},
			"1,1,10,20,30,40,1,-1,-1,-1\n",
			[]Frame{{Index: 1, Boxes: []Box{b1}, Points: []Point{{ID: 1, X: 25, Y: 40}}}}},
		{"MOT17 ground truth keeps ignored rows", Options{},
			"1,1,10,20,30,40,1,1,0.8\n1,2,-5,0,0,0,0,13,1\n2,2,-5,0,0,0,0,9,0\n",
			[]Frame{
				motFrameOf(1, append(tuple(classed(b1, p1, "pedestrian")), tuple(classed(b2, p2, "crowd"))...)...),
				motFrameOf(2, tuple(classed(b2, p2, "occluder"))...),
			}},
		{"MOT17 ground truth drops ignored rows on request", Options{DropIgnored: true},
			"1,1,10,20,30,40,1,1,0.8\n1,2,-5,0,0,0,0,13,1\n2,2,-5,0,0,0,0,9,0\n",
			[]Frame{motFrameOf(1, tuple(classed(b1, p1, "pedestrian"))...)}},
		// TrackEval's ignore rules need the rows: kept, marked (the same rows as above).
		{"MOT17 ground truth marks ignored rows for TrackEval", Options{MarkIgnored: true},
			"1,1,10,20,30,40,1,1,0.8\n1,2,-5,0,0,0,0,13,1\n2,2,-5,0,0,0,0,9,0\n",
			[]Frame{
				motFrameOf(1, append(tuple(classed(b1, p1, "pedestrian")), tuple(ignoredBox(classed(b2, p2, "crowd")))...)...),
				motFrameOf(2, tuple(ignoredBox(classed(b2, p2, "occluder")))...),
			}},
		// TrackEval reads the flag as an integer: 0.3 is 0, ignored; -1 and 1 are kept.
		{"MOT15 ground truth for TrackEval: the flag as an integer", Options{MarkIgnored: true},
			"1,1,10,20,30,40,1,-1,-1,-1\n1,2,-5,0,0,0,0.3,-1,-1,-1\n2,1,10,20,30,40,-1,-1,-1,-1\n2,2,-5,0,0,0,0,-1,-1,-1\n",
			[]Frame{motFrameOf(1, append([]any{b1, p1}, tuple(ignoredBox(b2, p2))...)...),
				motFrameOf(2, append([]any{b1, p1}, tuple(ignoredBox(b2, p2))...)...)}},
		{"MOT15 ground truth: the 7th field is the consider flag", Options{DropIgnored: true},
			"1,1,10,20,30,40,1,-4.1,-7.3,0\n1,2,-5,0,0,0,0,-1,-1,-1\n2,2,-5,0,0,0,0,-1,-1,-1\n",
			[]Frame{motFrameOf(1, b1, p1)}},
		// Results used as ground truth (trackink's MOT text: -1 or a score there) are scored
		// but where the field is 0; once refused ("-1 is not 0 or 1").
		{"MOT results as ground truth", Options{DropIgnored: true},
			"1,1,10,20,30,40,-1,-1,-1,-1\n2,1,10,20,30,40,0.87,-1,-1,-1\n3,1,10,20,30,40,0,-1,-1,-1\n",
			[]Frame{motFrameOf(1, b1, p1), motFrameOf(2, b1, p1)}},
		{"every class has its name", Options{},
			func() string {
				var s strings.Builder
				for c := 1; c <= 13; c++ {
					fmt.Fprintf(&s, "%d,1,0,0,1,1,1,%d,1\n", c, c)
				}
				return s.String()
			}(),
			func() []Frame {
				names := strings.Fields("pedestrian person_on_vehicle car bicycle motorbike non_motorized_vehicle " +
					"static_person distractor occluder occluder_on_ground occluder_full reflection crowd")
				var fs []Frame
				for i, n := range names {
					b, p := motBox(1, 0, 0, 1, 1)
					fs = append(fs, motFrameOf(i+1, tuple(classed(b, p, n))...))
				}
				return fs
			}()},
		// BoxMOT's results: frame,id,l,t,w,h,1,COCO class + 1,confidence; class names name
		// the 8th field from 1, and the 9th is the score.
		{"9 fields with class names: BoxMOT's class + 1 and score", Options{ClassNames: []string{"person", "bicycle", "car"}},
			"1,1,10,20,30,40,1,1,0.912345\n1,2,-5,0,0,0,1,3,0.5\n",
			[]Frame{motFrameOf(1, append(classScored(b1, p1, "person", 0.912345), classScored(b2, p2, "car", 0.5)...)...)}},
		// -1 is datumaro's box without a label; a 9th field of 1 throughout is CVAT's
		// visibility of boxes in full view, no score.
		{"9 fields with class names: -1 is no class, all 1 no score", Options{ClassNames: []string{"person"}},
			"1,1,10,20,30,40,1,-1,1\n1,2,-5,0,0,0,0,1,1\n",
			[]Frame{motFrameOf(1, append([]any{b1, p1}, tuple(classed(b2, p2, "person"))...)...)}},
		{"9 fields with class names read as ground truth: a visibility", Options{ClassNames: []string{"person", "bicycle"}, DropIgnored: true},
			"1,1,10,20,30,40,1,2,0.5\n1,2,-5,0,0,0,0,1,1\n",
			[]Frame{motFrameOf(1, tuple(classed(b1, p1, "bicycle"))...)}},
		{"limits are inclusive", Options{},
			"10000000,2147483647,-1e7,1e7,1e7,0,0,-1,-1,-1\n",
			func() []Frame {
				b, p := motBox(MaxID, -1e7, 1e7, 1e7, 0)
				return []Frame{motFrameOf(MaxFrame, tuple(scored(b, p, 0))...)}
			}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := readString("t.txt", FormatMOT, tc.opts, tc.input)
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

// ignoredBox marks the box Ignored.
func ignoredBox(b Box, p Point) (Box, Point) {
	b.Ignored = true
	return b, p
}

// tuple turns a (Box, Point) result into arguments for motFrameOf.
func tuple(b Box, p Point) []any { return []any{b, p} }

// otherClasses ends the message of a 9-field file's class number that MOTChallenge's
// classes do not have.
const otherClasses = "a file whose 8th field numbers other classes (CVAT's MOT 1.1, BoxMOT) needs --class-names FILE or a labels.txt beside it"

func TestMOTErrors(t *testing.T) {
	const ok = "1,1,10,20,30,40,1,-1,-1,-1\n"
	const gt = "1,1,10,20,30,40,1,1,1\n"
	testErrors(t, "t.txt", FormatMOT, Options{}, []errorCase{
		{"too few fields", "1,1,10,20,30,40,1,-1\n",
			"t.txt:1: has 8 comma-separated fields; want 10 (frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z), " +
				"9 (MOT17 ground truth: frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility) " +
				"or 6 (frame,id,bb_left,bb_top,bb_width,bb_height)"},
		// After nine fields a last comma could be an empty z: not taken for a trailing one.
		{"a comma after nine fields", "1,1,10,20,30,40,1,1,1,\n", "t.txt:1: field 10 (z): empty value"},
		{"two commas after ten fields", "1,1,10,20,30,40,1,-1,-1,-1,,\n", "t.txt:1: has 12 comma-separated fields; want 10 " +
			"(frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z), 9 (MOT17 ground truth: " +
			"frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility) or 6 (frame,id,bb_left,bb_top,bb_width,bb_height)"},
		{"too few fields separated by spaces", "1 1 10 20 30 40 1 -1\n", "t.txt:1: has 8 space-separated fields; want 10 " +
			"(frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z), 9 (MOT17 ground truth: " +
			"frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility) or 6 (frame,id,bb_left,bb_top,bb_width,bb_height)"},
		{"spaces, then commas", "1 1 10 20 30 40 1 -1 -1 -1\n" + ok, "t.txt:2: has 1 space-separated fields, but line 1 has 10"},
		{"six fields, then ten", "1,1,10,20,30,40\n" + ok, "t.txt:2: has 10 comma-separated fields, but line 1 has 6"},
		{"six fields, bad height", "1,1,10,20,30,-4\n", "t.txt:1: field 6 (bb_height): -4 is negative"},
		{"column count changes", ok + "\n" + gt, "t.txt:3: has 9 comma-separated fields, but line 1 has 10"},
		{"empty field", "1,1,,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 3 (bb_left): empty value"},
		{"not a number", "1,1,10,abc,30,40,1,-1,-1,-1\n", `t.txt:1: field 4 (bb_top): "abc" is not a number`},
		{"NaN", "1,1,10,20,NaN,40,1,-1,-1,-1\n", "t.txt:1: field 5 (bb_width): NaN is not a finite number"},
		{"Inf", "1,1,10,20,30,-inf,1,-1,-1,-1\n", "t.txt:1: field 6 (bb_height): -inf is not a finite number"},
		{"overflow", "1,1,1e39,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 3 (bb_left): 1e39 is out of range"},
		{"hexadecimal", "1,1,0x1p4,20,30,40,1,-1,-1,-1\n", `t.txt:1: field 3 (bb_left): "0x1p4" is not a decimal number`},
		{"underscore", "1,1,1_0,20,30,40,1,-1,-1,-1\n", `t.txt:1: field 3 (bb_left): "1_0" is not a decimal number`},
		{"negative width", "1,1,10,20,-3,40,1,-1,-1,-1\n", "t.txt:1: field 5 (bb_width): -3 is negative"},
		{"negative height", "1,1,10,20,30,-0.5,1,-1,-1,-1\n", "t.txt:1: field 6 (bb_height): -0.5 is negative"},
		{"huge width", "1,1,10,20,2e7,40,1,-1,-1,-1\n", "t.txt:1: field 5 (bb_width): 2e7 is beyond 1e7 px"},
		{"huge coordinate", "1,1,-10000001,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 3 (bb_left): -10000001 is beyond ±1e7 px"},
		// Its point, at the middle of its bottom edge, would be beyond ±1e7 px, where no
		// reader takes a point: the tracks written from it could not be read back.
		{"box reaching past the limit", "1,1,10000000,20,30.5,40,1,-1,-1,-1\n", "t.txt:1: field 5 (bb_width): the box's right edge, 1.00000305e+07, is beyond ±1e7 px"},
		// The height reaches past, so the height's field is named (once the width's).
		{"box reaching past the limit below", "1,1,10,9999990,30,40,1,-1,-1,-1\n", "t.txt:1: field 6 (bb_height): the box's bottom edge, 1.000003e+07, is beyond ±1e7 px"},
		{"fractional frame", "1.5,1,10,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 1 (frame): 1.5 is not an integer"},
		{"frame 0", "0,1,10,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 1 (frame): 0 is less than 1 " +
			"(frames are numbered from 1 here; if the file counts from 0, read it with --frame-base 0)"},
		{"huge frame", "10000001,1,10,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 1 (frame): 10000001 is beyond the frame limit of 10000000"},
		{"enormous frame", "1e300,1,10,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 1 (frame): 1e300 is out of range"},
		{"fractional id", "1,2.5,10,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 2 (id): 2.5 is not an integer"},
		{"detection file", "1,-1,10,20,30,40,0.9,-1,-1,-1\n", "t.txt:1: field 2 (id): -1 is negative " +
			"(track ids are 0 or more; MOTChallenge detection files, with id -1, have no tracks to draw)"},
		{"huge id", "1,2147483648,10,20,30,40,1,-1,-1,-1\n", "t.txt:1: field 2 (id): 2147483648 is beyond the track id limit of 2147483647"},
		{"duplicate id", ok + "2,1,10,20,30,40,1,-1,-1,-1\n" + ok,
			"t.txt:3: field 2 (id): track 1 appears twice in frame 1 (also line 1)"},
		{"duplicate id in a crowded frame", func() string {
			var s strings.Builder
			for id := range 100 {
				fmt.Fprintf(&s, "7,%d,10,20,30,40,1,-1,-1,-1\n", id)
			}
			s.WriteString("7,42,10,20,30,40,1,-1,-1,-1\n")
			return s.String()
		}(), "t.txt:101: field 2 (id): track 42 appears twice in frame 7 (also line 43)"},
		{"score above 1", "1,1,10,20,30,40,1.5,-1,-1,-1\n",
			"t.txt:1: field 7 (conf): 1.5 is outside [0,1] (and is not -1, which means no score)"},
		{"negative score", "1,1,10,20,30,40,-0.5,-1,-1,-1\n",
			"t.txt:1: field 7 (conf): -0.5 is outside [0,1] (and is not -1, which means no score)"},
		{"bad world coordinate", "1,1,10,20,30,40,1,-1,x,-1\n", `t.txt:1: field 9 (y): "x" is not a number`},
		{"bad consider flag", "1,1,10,20,30,40,2,1,1\n", "t.txt:1: field 7 (consider_flag): 2 is not 0 or 1"},
		// Other tools' classes in MOTChallenge's field (CVAT's MOT 1.1, BoxMOT): the way to
		// read them is named.
		{"unknown class", "1,1,10,20,30,40,1,14,1\n", "t.txt:1: field 8 (class): 14 is not a MOTChallenge class (1 to 13); " + otherClasses},
		{"class 0", "1,1,10,20,30,40,1,0,1\n", "t.txt:1: field 8 (class): 0 is not a MOTChallenge class (1 to 13); " + otherClasses},
		{"visibility above 1", "1,1,10,20,30,40,1,1,1.01\n", "t.txt:1: field 9 (visibility): 1.01 is outside [0,1]"},
		{"long garbage is shortened", "1,1," + strings.Repeat("z", 100) + ",20,30,40,1,-1,-1,-1\n",
			`t.txt:1: field 3 (bb_left): "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"… is not a number`},
		{"error after comments and blank lines names the right line", "# header\n\n" + ok + "1,2,10,20,30,-1,1,-1,-1,-1\n",
			"t.txt:4: field 6 (bb_height): -1 is negative"},
		// Lines ending in \r alone (classic Mac OS) are one line: the hint says why.
		{"carriage returns alone", "1,1,10,20,30,40,1,-1,-1,-1\r2,1,10,20,30,40,1,-1,-1,-1\r",
			"t.txt:1: has 19 comma-separated fields; want 10 (frame,id,bb_left,bb_top,bb_width,bb_height,conf,x,y,z), " +
				"9 (MOT17 ground truth: frame,id,bb_left,bb_top,bb_width,bb_height,consider_flag,class,visibility) " +
				`or 6 (frame,id,bb_left,bb_top,bb_width,bb_height); the line holds carriage returns: if the file's lines end in \r alone, convert them to \n (tr '\r' '\n')`},
	})
}

// Ground truth in MOT15's 10 fields (--gt): the 7th field is the consider flag, 0 or 1, or
// a results file's confidence, and x, y, z are checked as a results file's are.
func TestMOTGroundTruth10Errors(t *testing.T) {
	testErrors(t, "gt.txt", FormatMOT, Options{DropIgnored: true}, []errorCase{
		{"consider flag 5", "1,1,10,20,30,40,5,-1,-1,-1\n", "gt.txt:1: field 7 (consider_flag): 5 is neither a consider flag, 0 or 1, nor a confidence, 0 to 1 or -1"},
		{"consider flag -0.5", "1,1,10,20,30,40,-0.5,-1,-1,-1\n", "gt.txt:1: field 7 (consider_flag): -0.5 is neither a consider flag, 0 or 1, nor a confidence, 0 to 1 or -1"},
		{"consider flag not a number", "1,1,10,20,30,40,abc,-1,-1,-1\n", `gt.txt:1: field 7 (consider_flag): "abc" is not a number`},
		{"bad x", "1,1,10,20,30,40,1,abc,-1,-1\n", `gt.txt:1: field 8 (x): "abc" is not a number`},
		{"bad z on a row not scored", "1,1,10,20,30,40,0,-1,-1,z\n", `gt.txt:1: field 10 (z): "z" is not a number`},
	})
}

// With class names (a YAML mapping may skip numbers), a class number is one the names give:
// from 0 in the 10-field layout's x, from 1 in the 9-field layout's class.
func TestMOTClassNumbersErrors(t *testing.T) {
	testErrors(t, "t.txt", FormatMOT, Options{ClassNames: []string{"person", "", "car"}}, []errorCase{
		{"a number the mapping skips", "1,1,10,20,30,40,0.5,1,-1,-1\n", "t.txt:1: field 8 (x): 1 is a class number the class names leave unnamed"},
		{"past the names", "1,1,10,20,30,40,0.5,3,-1,-1\n", "t.txt:1: field 8 (x): 3 is not a class number of the class names (0 to 2, or -1 for none)"},
		{"9 fields: a number the mapping skips", "1,1,10,20,30,40,1,2,0.5\n", "t.txt:1: field 8 (class): 2 is a class number the class names leave unnamed"},
		{"9 fields: past the names", "1,1,10,20,30,40,1,4,0.5\n", "t.txt:1: field 8 (class): 4 is not a class number of the class names (1 to 3, or -1 for none)"},
		// BoxMOT writes COCO's class + 1: a 0 there is not COCO's person.
		{"9 fields: class 0", "1,1,10,20,30,40,1,0,0.5\n", "t.txt:1: field 8 (class): 0 is not a class number of the class names (1 to 3, or -1 for none): this layout numbers them from 1"},
		{"9 fields: score above 1", "1,1,10,20,30,40,1,1,1.5\n", "t.txt:1: field 9 (conf): 1.5 is outside [0,1]"},
	})
}

func TestMOTErrorFields(t *testing.T) {
	var input strings.Builder
	for frame := 1; frame < 1042; frame++ {
		fmt.Fprintf(&input, "%d,1,10,20,30,40,1,-1,-1,-1\n", frame)
	}
	input.WriteString("1042,1,10,20,-3,40,1,-1,-1,-1\n")
	_, err := readString("dir/tracks.txt", FormatMOT, Options{}, input.String())
	want := &ParseError{File: "dir/tracks.txt", Line: 1042, Field: "field 5 (bb_width)", Msg: "-3 is negative"}
	if !reflect.DeepEqual(err, want) {
		t.Fatalf("got %#v, want %#v", err, want)
	}
	if got := err.Error(); got != "dir/tracks.txt:1042: field 5 (bb_width): -3 is negative" {
		t.Errorf("Error() = %q", got)
	}
}

// TestMOTRoundTrip writes random boxes as MOTChallenge rows, in shuffled order, and checks
// that reading them back gives the same boxes, with points where the anchor says.
func TestMOTRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	coord := func() float32 { return float32(rng.NormFloat64() * 1000) }
	size := func() float32 { return float32(rng.ExpFloat64() * 100) }
	for _, anchor := range []Anchor{BottomCenter, Center} {
		var want []Frame
		var rows []string
		for index := 1; index <= 50; index++ {
			if rng.IntN(4) == 0 {
				continue // a frame with nothing tracked
			}
			f := Frame{Index: index}
			for _, id := range rng.Perm(20)[:rng.IntN(20)+1] {
				b := Box{ID: id, X: coord(), Y: coord(), W: size(), H: size(), Score: rng.Float32(), HasScore: true}
				p := Point{ID: id, X: float32(float64(b.X) + float64(b.W)/2), Y: float32(float64(b.Y) + float64(b.H))}
				if anchor == Center {
					p.Y = float32(float64(b.Y) + float64(b.H)/2)
				}
				f.Boxes = append(f.Boxes, b)
				f.Points = append(f.Points, p)
				g := func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }
				rows = append(rows, fmt.Sprintf("%d,%d,%s,%s,%s,%s,%s,-1,-1,-1", index, id, g(b.X), g(b.Y), g(b.W), g(b.H), g(b.Score)))
			}
			want = append(want, f)
		}
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		tr, err := readString("t.txt", FormatMOT, Options{Anchor: anchor}, strings.Join(rows, "\n"))
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, tr)
		got := framesOf(tr)
		if len(got) != len(want) {
			t.Fatalf("anchor %d: %d frames, want %d", anchor, len(got), len(want))
		}
		for i, f := range got {
			w := want[i]
			if f.Index != w.Index || !sameByID(f.Boxes, w.Boxes, func(b Box) int { return b.ID }) ||
				!sameByID(f.Points, w.Points, func(p Point) int { return p.ID }) {
				t.Fatalf("anchor %d: frame %d\ngot  %+v\nwant %+v", anchor, f.Index, f, w)
			}
		}
	}
}

// sameByID reports whether a and b hold the same elements, in any order, keyed by id.
func sameByID[T any](a, b []T, id func(T) int) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[int]T{}
	for _, x := range a {
		m[id(x)] = x
	}
	for _, y := range b {
		if x, ok := m[id(y)]; !ok || !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// CVAT's MOT 1.1 export (datumaro's MOT sequence format) writes gt/gt.txt in the 9-field
// layout with gt/labels.txt beside it: the 8th field's class_id n is the label on line n.
func TestMOTLabelsFile(t *testing.T) {
	const noFile = "\x00" // no labels.txt
	labels20 := func() string {
		var s strings.Builder
		for i := 1; i <= 20; i++ {
			fmt.Fprintf(&s, "label%d\n", i)
		}
		return s.String()
	}()
	const cvat = "1,1,100,100,50,120,1,3,1.0\n2,1,102,100,50,120,1,3,1.0\n3,3,500,300,60,40,1,1,0.0\n"
	tests := []struct {
		name, labels, input string
		opts                Options
		classes             []string // each box's, in frame order
		layout              string   // "DIR" stands for the file's directory
		err                 string
	}{
		{"CVAT's labels", "cat\ndog\nperson", cvat, Options{},
			[]string{"person", "person", "cat"}, "9 fields, CVAT's MOT 1.1: class numbers the lines of DIR/labels.txt", ""},
		{"CRLF, BOM, spaces and a final newline", "\uFEFFcat\r\n dog \r\nperson\r\n", cvat, Options{},
			[]string{"person", "person", "cat"}, "", ""},
		// MOTChallenge has 13 classes; a task may have any number of labels.
		{"more labels than MOTChallenge's classes", labels20, "1,1,1,1,5,5,1,17,1\n2,1,1,1,5,5,1,20,0.5\n", Options{},
			[]string{"label17", "label20"}, "", ""},
		// datumaro writes a box without a label as class_id -1; a task without labels, an
		// empty labels.txt.
		{"-1 is no label", "", "1,1,1,1,5,5,1,-1,1\n", Options{}, []string{""}, "", ""},
		{"the consider flag and visibility as MOT17's", "cat\nperson\n", "1,1,1,1,5,5,0,2,0.3\n2,1,1,1,5,5,1,2,1\n",
			Options{DropIgnored: true}, []string{"person"}, "", ""},
		{"without labels.txt, MOTChallenge's classes", noFile, cvat, Options{},
			[]string{"car", "car", "pedestrian"}, "9 fields, MOT17 ground truth: class is MOTChallenge's", ""},
		{"left unread on request (--class-names none)", "cat\ndog\nperson\n", cvat, Options{NoLabelsFile: true},
			[]string{"car", "car", "pedestrian"}, "", ""},
		{"class names given win", "cat\ndog\nperson\n", cvat, Options{ClassNames: []string{"a", "b", "c"}},
			[]string{"c", "c", "a"}, "9 fields: class numbers the class names from 1, as BoxMOT writes COCO's class + 1; the 9th field is the score", ""},
		{"10 fields: not CVAT's", "cat\n", "1,1,1,1,5,5,-1,-1,-1,-1\n", Options{}, []string{""}, "-", ""},
		{"a class past the labels", "cat\ndog\nperson\n", cvat + "4,1,1,1,5,5,1,4,1\n", Options{}, nil, "",
			"DIR/gt.txt:4: field 8 (class): 4 is not a class number of the labels in DIR/labels.txt (1 to 3, or -1 for none)"},
		{"class 0", "cat\n", "1,1,1,1,5,5,1,0,1\n", Options{}, nil, "",
			"DIR/gt.txt:1: field 8 (class): 0 is not a class number of the labels in DIR/labels.txt (1 to 1, or -1 for none): this layout numbers them from 1"},
		{"no labels", "", "1,1,1,1,5,5,1,1,1\n", Options{}, nil, "",
			"DIR/gt.txt:1: field 8 (class): 1 is not a class number of the labels in DIR/labels.txt, which are none (-1 is no class)"},
		{"a blank label", "cat\n\nperson\n", cvat, Options{}, nil, "",
			"the labels beside DIR/gt.txt (CVAT's MOT 1.1): DIR/labels.txt:2: blank: class 2 needs a name (one name a line, the first is class 1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "gt.txt")
			if err := os.WriteFile(path, []byte(tc.input), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.labels != noFile {
				if err := os.WriteFile(filepath.Join(dir, LabelsFile), []byte(tc.labels), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tr, err := Load(path, tc.opts)
			if tc.err != "" {
				if want := strings.ReplaceAll(tc.err, "DIR", dir); err == nil || err.Error() != want {
					t.Fatalf("got error %v\nwant %s", err, want)
				}
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error %q (%T) is not a *ParseError", err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var classes []string
			for _, f := range framesOf(tr) {
				for _, b := range f.Boxes {
					classes = append(classes, b.Class)
					if b.HasScore && tc.opts.ClassNames == nil {
						t.Errorf("frame %d: box %d has score %g: a visibility is not a score", f.Index, b.ID, b.Score)
					}
				}
			}
			if !reflect.DeepEqual(classes, tc.classes) {
				t.Errorf("classes %q, want %q", classes, tc.classes)
			}
			// What tracks FILE prints says which reading was used.
			sum := tr.Summary()
			switch want := strings.ReplaceAll(tc.layout, "DIR", dir); want {
			case "":
			case "-":
				if sum.Layout != "" {
					t.Errorf("layout %q, want none", sum.Layout)
				}
			default:
				var out strings.Builder
				if err := sum.WriteText(&out); err != nil {
					t.Fatal(err)
				}
				if line, _, _ := strings.Cut(out.String(), "\n"); line != "format     MOTChallenge text ("+want+")" {
					t.Errorf("summary's first line %q, want the layout %q", line, want)
				}
			}
		})
	}
}
