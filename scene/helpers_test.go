package scene

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// readString reads input as the named file in the given format.
func readString(name string, format Format, opts Options, input string) (*Tracks, error) {
	return Read(strings.NewReader(input), name, format, opts)
}

// checkInvariants fails t unless tr keeps the promises the readers make: frames sorted by
// unique index within [1, MaxFrame], none empty, finite coordinates (within MaxCoord, or
// twice that for a point derived from a MOT box), non-negative sizes, scores within [0,1],
// and track ids unique among a frame's points and among its boxes.
func checkInvariants(t testing.TB, tr *Tracks) {
	t.Helper()
	finite := func(where string, v float32) {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 2*MaxCoord {
			t.Fatalf("%s: coordinate %v", where, v)
		}
	}
	for i, f := range tr.Frames {
		if f.Index < 1 || f.Index > MaxFrame {
			t.Fatalf("frame %d: index %d out of range", i, f.Index)
		}
		if i > 0 && tr.Frames[i-1].Index >= f.Index {
			t.Fatalf("frames %d and %d: indexes %d, %d not ascending", i-1, i, tr.Frames[i-1].Index, f.Index)
		}
		if len(f.Points) == 0 && len(f.Boxes) == 0 {
			t.Fatalf("frame %d is empty", f.Index)
		}
		if got := tr.At(f.Index); got != &tr.Frames[i] {
			t.Fatalf("At(%d) does not find frame %d", f.Index, i)
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
			if b.ID < 0 || b.ID > MaxID || seen[b.ID] {
				t.Fatalf("frame %d: bad or repeated box id %d", f.Index, b.ID)
			}
			seen[b.ID] = true
		}
	}
	if n := len(tr.Frames); n > 0 && tr.LastIndex() != tr.Frames[n-1].Index || n == 0 && tr.LastIndex() != 0 {
		t.Fatalf("LastIndex() = %d", tr.LastIndex())
	}
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
