package scene

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"trackink/internal/prose"
)

// Summary describes Tracks for a person checking what trackink understood of a file: what
// `trackink tracks FILE` prints.
type Summary struct {
	Format Format
	// Layout says how the file was read where its format can be read several ways (the
	// 9-field MOTChallenge layout's class numbers: MOTChallenge's, a labels.txt's or the
	// class names'); "" otherwise.
	Layout      string
	Frames      int // frames with something tracked
	First, Last int // the lowest and highest of their indexes, 1-based; 0 when none
	Boxes       int
	Points      int // the points that boxes yield included
	Tracks      int // distinct track ids among boxes and points
	Untracked   int // boxes without a track id
	// Classes counts the boxes of each class, most boxes first (then by name); boxes with
	// no class are not counted.
	Classes []ClassCount
	// Extent is the smallest rectangle that holds every box and point, in pixels; zero when
	// there are none.
	Extent   Extent
	Warnings []string // the reader's, then what the summary noticed
}

// ClassCount is the number of boxes of one class.
type ClassCount struct {
	Name  string
	Boxes int
}

// Extent is a rectangle in pixels.
type Extent struct{ MinX, MinY, MaxX, MaxY float32 }

// Summary returns t's summary.
func (t *Tracks) Summary() Summary {
	s := Summary{Format: t.format, Layout: t.layout, Frames: t.Len(), First: t.FirstIndex(), Last: t.LastIndex(),
		Warnings: slices.Clone(t.warnings)}
	ext := Extent{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	grow := func(x0, y0, x1, y1 float32) {
		ext = Extent{min(ext.MinX, x0), min(ext.MinY, y0), max(ext.MaxX, x1), max(ext.MaxY, y1)}
	}
	frames := make(map[int32]int) // track id → frames it appears in
	perClass := make([]int, len(t.classes))
	empty := 0
	var ids []int32 // the track ids of one frame
	for i := range t.frames {
		box0, box1, point0, point1 := t.span(i)
		ids = ids[:0]
		for k := point0; k < point1; k++ {
			r := t.points.at(k)
			grow(r.x, r.y, r.x, r.y)
			ids = append(ids, r.id)
			s.Points++
		}
		for k := box0; k < box1; k++ {
			r := t.boxes.at(k)
			grow(r.x, r.y, r.x+r.w, r.y+r.h)
			perClass[r.class]++
			s.Boxes++
			if r.w == 0 || r.h == 0 {
				empty++
			}
			if r.flags&yieldPoint != 0 {
				s.Points++
			}
			if r.id == NoID {
				s.Untracked++
			} else {
				ids = append(ids, r.id)
			}
		}
		// A box and a point with one id are one appearance of the track.
		slices.Sort(ids)
		for _, id := range slices.Compact(ids) {
			frames[id]++
		}
	}
	if s.Boxes+s.Points > 0 {
		s.Extent = ext
	}
	s.Tracks = len(frames)
	for c, n := range perClass {
		if c > 0 && n > 0 {
			s.Classes = append(s.Classes, ClassCount{t.classes[c], n})
		}
	}
	slices.SortFunc(s.Classes, func(a, b ClassCount) int {
		return cmp.Or(cmp.Compare(b.Boxes, a.Boxes), strings.Compare(a.Name, b.Name))
	})
	if empty > 0 {
		verb := "have"
		if empty == 1 {
			verb = "has"
		}
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s %s no width or no height", prose.Plural(empty, "box"), verb))
	}
	once := 0
	for _, n := range frames {
		if n == 1 {
			once++
		}
	}
	// Detections numbered anew in every frame look like tracks that live one frame each.
	if s.Tracks >= 10 && once*2 > s.Tracks {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%d of the %d tracks appear in one frame only: are the ids "+
			"detection numbers rather than track ids?", once, s.Tracks))
	}
	return s
}

// WriteText writes the summary for people, one item a line:
//
//	format     MOTChallenge text
//	frames     750, from 1 to 750
//	…
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	line := func(key, format string, a ...any) { fmt.Fprintf(&b, "%-10s %s\n", key, fmt.Sprintf(format, a...)) }
	if s.Layout != "" {
		line("format", "%s (%s)", s.Format, s.Layout)
	} else {
		line("format", "%s", s.Format)
	}
	if s.Frames == 0 {
		line("frames", "none: nothing is tracked")
	} else {
		line("frames", "%d, from %d to %d", s.Frames, s.First, s.Last)
	}
	line("boxes", "%d (%d untracked)", s.Boxes, s.Untracked)
	line("points", "%d", s.Points)
	line("tracks", "%d", s.Tracks)
	var classes []string
	for _, c := range s.Classes {
		classes = append(classes, fmt.Sprintf("%s %d", c.Name, c.Boxes))
	}
	if len(classes) == 0 {
		classes = append(classes, "none")
	}
	line("classes", "%s", strings.Join(classes, ", "))
	if s.Boxes+s.Points > 0 {
		e := s.Extent
		line("extent", "x %.1f to %.1f, y %.1f to %.1f px", e.MinX, e.MaxX, e.MinY, e.MaxY)
	}
	for _, warning := range s.Warnings {
		line("warning", "%s", warning)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
