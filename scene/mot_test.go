package scene

import (
	"fmt"
	"math/rand/v2"
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
		{"unknown class", "1,1,10,20,30,40,1,14,1\n", "t.txt:1: field 8 (class): 14 is not a MOTChallenge class (1 to 13)"},
		{"class 0", "1,1,10,20,30,40,1,0,1\n", "t.txt:1: field 8 (class): 0 is not a MOTChallenge class (1 to 13)"},
		{"visibility above 1", "1,1,10,20,30,40,1,1,1.01\n", "t.txt:1: field 9 (visibility): 1.01 is outside [0,1]"},
		{"long garbage is shortened", "1,1," + strings.Repeat("z", 100) + ",20,30,40,1,-1,-1,-1\n",
			`t.txt:1: field 3 (bb_left): "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"… is not a number`},
		{"error after comments and blank lines names the right line", "# header\n\n" + ok + "1,2,10,20,30,-1,1,-1,-1,-1\n",
			"t.txt:4: field 6 (bb_height): -1 is negative"},
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

// With class names (a YAML mapping may skip numbers), a class number is one the names give.
func TestMOTClassNumbersErrors(t *testing.T) {
	testErrors(t, "t.txt", FormatMOT, Options{ClassNames: []string{"person", "", "car"}}, []errorCase{
		{"a number the mapping skips", "1,1,10,20,30,40,0.5,1,-1,-1\n", "t.txt:1: field 8 (x): 1 is a class number the class names leave unnamed"},
		{"past the names", "1,1,10,20,30,40,0.5,3,-1,-1\n", "t.txt:1: field 8 (x): 3 is not a class number of the class names (0 to 2, or -1 for none)"},
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
