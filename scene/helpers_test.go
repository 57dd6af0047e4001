package scene

import (
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// readString reads input as the named file in the given format.
func readString(name string, format Format, opts Options, input string) (*Tracks, error) {
	return Read(strings.NewReader(input), name, format, opts)
}

// framesOf returns all the frames of tr, each with its own slices (nil when empty), for
// comparing with reflect.DeepEqual.
func framesOf(tr *Tracks) []Frame {
	var fs []Frame
	for f := range tr.All() {
		fs = append(fs, copyFrame(f))
	}
	return fs
}

// copyFrame returns a copy of f with slices of its own, nil when empty.
func copyFrame(f *Frame) Frame {
	c := Frame{Index: f.Index}
	if len(f.Points) > 0 {
		c.Points = slices.Clone(f.Points)
	}
	if len(f.Boxes) > 0 {
		c.Boxes = slices.Clone(f.Boxes)
	}
	return c
}

// countBoxes counts the boxes of tr.
func countBoxes(tr *Tracks) int {
	n := 0
	for f := range tr.All() {
		n += len(f.Boxes)
	}
	return n
}

// checkInvariants fails t unless tr keeps the promises the readers make: frames sorted by
// unique index within [1, MaxFrame], none empty, finite coordinates (within MaxCoord, or
// twice that for a point derived from a box), non-negative sizes, scores within [0,1],
// track ids unique among a frame's points and among its boxes (NoID, for untracked boxes,
// aside), class names that a label may hold; and that Frame finds every frame that All
// yields, and nothing in between.
func checkInvariants(t testing.TB, tr *Tracks) {
	t.Helper()
	finite := func(where string, v float32) {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 2*MaxCoord {
			t.Fatalf("%s: coordinate %v", where, v)
		}
	}
	fs := framesOf(tr)
	var got Frame
	for i, f := range fs {
		if f.Index < 1 || f.Index > MaxFrame {
			t.Fatalf("frame %d: index %d out of range", i, f.Index)
		}
		if i > 0 && fs[i-1].Index >= f.Index {
			t.Fatalf("frames %d and %d: indexes %d, %d not ascending", i-1, i, fs[i-1].Index, f.Index)
		}
		if i > 0 && fs[i-1].Index+1 < f.Index && tr.Frame(f.Index-1, &got) != nil {
			t.Fatalf("Frame(%d) finds a frame that All does not yield", f.Index-1)
		}
		if len(f.Points) == 0 && len(f.Boxes) == 0 {
			t.Fatalf("frame %d is empty", f.Index)
		}
		if tr.Frame(f.Index, &got) != &got || !reflect.DeepEqual(copyFrame(&got), f) {
			t.Fatalf("Frame(%d) does not give what All yields", f.Index)
		}
		seen := map[int]bool{}
		for _, p := range f.Points {
			finite("point", p.X)
			finite("point", p.Y)
			if p.ID < 0 || p.ID > MaxID || seen[p.ID] {
				t.Fatalf("frame %d: bad or repeated point id %d", f.Index, p.ID)
			}
			seen[p.ID] = true
		}
		clear(seen)
		for _, b := range f.Boxes {
			for _, v := range []float32{b.X, b.Y, b.W, b.H} {
				finite("box", v)
			}
			if b.W < 0 || b.H < 0 {
				t.Fatalf("frame %d: box %d has negative size %v×%v", f.Index, b.ID, b.W, b.H)
			}
			if b.HasScore && (b.Score < 0 || b.Score > 1) {
				t.Fatalf("frame %d: box %d has score %v", f.Index, b.ID, b.Score)
			}
			if !b.HasScore && b.Score != 0 {
				t.Fatalf("frame %d: box %d has a score %v but HasScore unset", f.Index, b.ID, b.Score)
			}
			if msg := checkLabel(b.Class); msg != "" {
				t.Fatalf("frame %d: box %d: class %s", f.Index, b.ID, msg)
			}
			if b.ID != NoID && (b.ID < 0 || b.ID > MaxID || seen[b.ID]) {
				t.Fatalf("frame %d: bad or repeated box id %d", f.Index, b.ID)
			}
			seen[b.ID] = true
		}
	}
	n := len(fs)
	if n != tr.Len() || n > 0 && (tr.FirstIndex() != fs[0].Index || tr.LastIndex() != fs[n-1].Index) ||
		n == 0 && (tr.FirstIndex() != 0 || tr.LastIndex() != 0) {
		t.Fatalf("Len, FirstIndex, LastIndex = %d, %d, %d for %d frames", tr.Len(), tr.FirstIndex(), tr.LastIndex(), n)
	}
	if tr.Frame(0, &got) != nil || tr.Frame(tr.LastIndex()+1, &got) != nil || got.Index != tr.LastIndex()+1 ||
		len(got.Points)+len(got.Boxes) != 0 {
		t.Fatalf("Frame outside the tracks does not give an empty frame and nil")
	}
}

// asRead is data as the readers read it: text that a UTF-16 byte order mark begins,
// decoded.
func asRead(data string) string {
	if strings.HasPrefix(data, "\xff\xfe") || strings.HasPrefix(data, "\xfe\xff") {
		s, _, _ := transform.String(unicode.BOMOverride(transform.Nop), data)
		return s
	}
	return data
}

// checkParseError fails t unless err is a *ParseError on a line of input (or just after it,
// for a line too long to read).
func checkParseError(t testing.TB, err error, input string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %q (%T) is not a *ParseError", err, err)
	}
	if lines := strings.Count(input, "\n") + 1; pe.Line < 1 || pe.Line > lines {
		t.Fatalf("error %q: line %d outside 1..%d", err, pe.Line, lines)
	}
	if pe.Msg == "" {
		t.Fatalf("error %q has no message", err)
	}
}

// errorCase is an input a reader must reject, and the error it must give.
type errorCase struct{ name, input, want string }

// testErrors reads each case's input as file in the given format and checks the error.
func testErrors(t *testing.T, file string, format Format, opts Options, tests []errorCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readString(file, format, opts, tc.input)
			if err == nil {
				t.Fatal("no error")
			}
			checkParseError(t, err, tc.input)
			if err.Error() != tc.want {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
		})
	}
}

// acceptCase is an input a reader must accept, and the frames it must give.
type acceptCase struct {
	name  string
	opts  Options
	input string
	want  []Frame
}

// testAccepted reads each case's input as file in the given format and checks the frames,
// exactly.
func testAccepted(t *testing.T, file string, format Format, tests []acceptCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := readString(file, format, tc.opts, tc.input)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, tr)
			if got := framesOf(tr); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// checkNear fails t unless got and want hold the same frames, items and attributes, with
// coordinates equal to within 1e-3 px: for fixtures whose expected values were worked out by
// hand in decimal.
func checkNear(t *testing.T, got, want []Frame) {
	t.Helper()
	near := func(a, b float32) bool { return math.Abs(float64(a)-float64(b)) <= 1e-3 }
	if len(got) != len(want) {
		t.Fatalf("%d frames, want %d:\ngot  %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i := range got {
		g, w := got[i], want[i]
		ok := g.Index == w.Index && len(g.Points) == len(w.Points) && len(g.Boxes) == len(w.Boxes)
		for j := 0; ok && j < len(g.Points); j++ {
			p, q := g.Points[j], w.Points[j]
			ok = p.ID == q.ID && near(p.X, q.X) && near(p.Y, q.Y) && p.Color == q.Color && p.HasColor == q.HasColor
		}
		for j := 0; ok && j < len(g.Boxes); j++ {
			b, c := g.Boxes[j], w.Boxes[j]
			ok = b.ID == c.ID && near(b.X, c.X) && near(b.Y, c.Y) && near(b.W, c.W) && near(b.H, c.H) &&
				b.Class == c.Class && near(b.Score, c.Score) && b.HasScore == c.HasScore && b.Color == c.Color && b.HasColor == c.HasColor &&
				b.Ignored == c.Ignored
		}
		if !ok {
			t.Fatalf("frame %d:\ngot  %+v\nwant %+v", w.Index, g, w)
		}
	}
}

// box returns a box; a negative score stands for none.
func box(id int, x, y, w, h float32, class string, score float32) Box {
	b := Box{ID: id, X: x, Y: y, W: w, H: h, Class: class}
	if score >= 0 {
		b.Score, b.HasScore = score, true
	}
	return b
}

// withPoints returns a frame of boxes and, after them as Tracks.Frame gives them, the points
// that the tracked ones yield at the middle of their bottom edges.
func withPoints(index int, boxes ...Box) Frame {
	f := Frame{Index: index, Boxes: boxes}
	for _, b := range boxes {
		if b.ID != NoID {
			f.Points = append(f.Points, Point{ID: b.ID, X: b.X + b.W/2, Y: b.Y + b.H})
		}
	}
	return f
}

// testFixture loads a file or directory of testdata/formats and checks the format it was read
// as, its frames (to within 1e-3 px) and the reader's warnings.
func testFixture(t *testing.T, name string, opts Options, format Format, want []Frame, warnings []string) {
	t.Helper()
	tr, err := Load(filepath.Join("testdata", "formats", name), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, tr)
	if tr.Format() != format {
		t.Errorf("read as %s, want %s", tr.Format(), format)
	}
	checkNear(t, framesOf(tr), want)
	if !reflect.DeepEqual(tr.Warnings(), warnings) {
		t.Errorf("warnings\n%q\nwant\n%q", tr.Warnings(), warnings)
	}
}

// fuzzRead reads data as fuzz targets do: it returns the tracks, or nil after checking that
// the error is a ParseError on a line of data.
func fuzzRead(t *testing.T, name string, format Format, opts Options, data string) *Tracks {
	t.Helper()
	tr, err := readString(name, format, opts, data)
	if err != nil {
		checkParseError(t, err, data)
		return nil
	}
	checkInvariants(t, tr)
	return tr
}
