package scene

import (
	"fmt"
	"math"
)

// kittiFields are the columns of KITTI tracking labels, as the devkit's readme_tracking.txt
// names them (its "dimensions" and "location" spelt out); score is only in results.
var kittiFields = []string{"frame", "track_id", "type", "truncated", "occluded", "alpha",
	"left", "top", "right", "bottom", "height", "width", "length", "x", "y", "z", "rotation_y", "score"}

var checkKITTIID = idCheck("only DontCare rows have -1")

// kittiReader reads KITTI tracking labels and results.
type kittiReader struct {
	b     *builder
	opts  Options
	base  int
	row   row
	first int // line of the first row, which fixes the number of fields

	dontCare int // DontCare rows skipped
	// badScore is the first score outside [0,1] and its line: KITTI scores are "higher is
	// better", not probabilities, and then none is shown.
	badScore     string
	badScoreLine int
}

func newKITTIReader(file string, opts Options) *kittiReader {
	base := opts.base(FormatKITTI)
	k := &kittiReader{b: opts.builder(file, "field 2 (track_id)", base), opts: opts, base: base}
	k.row.file = file
	return k
}

func (k *kittiReader) parseLine(n int, line string) error {
	r := &k.row
	r.line = n
	if r.f = splitSpaces(line, r.f); len(r.f) == 0 {
		return nil
	}
	switch {
	case k.first == 0 && len(r.f) != len(kittiFields)-1 && len(r.f) != len(kittiFields):
		return &ParseError{File: r.file, Line: n, Msg: fmt.Sprintf("has %d space-separated fields; want 17 (frame track_id "+
			"type truncated occluded alpha left top right bottom height width length x y z rotation_y) or 18 (and score)", len(r.f))}
	case k.first == 0:
		k.first, r.names = n, kittiFields[:len(r.f)]
	case len(r.f) != len(r.names):
		return &ParseError{File: r.file, Line: n, Msg: fmt.Sprintf("has %d space-separated fields, but line %d has %d",
			len(r.f), k.first, len(r.names))}
	}

	frame, err := r.frame(0, k.base)
	if err != nil {
		return err
	}
	typ := r.f[2]
	id := NoID
	if typ != "DontCare" {
		if id, err = r.integer(1, checkKITTIID); err != nil {
			return err
		}
	}
	if err := r.check(2, checkLabel(typ)); err != nil {
		return err
	}
	// truncated, occluded, alpha and the 3D box are checked to be numbers, so that a shifted
	// column shows, and otherwise not drawn.
	var level [2]float64 // truncated, occluded
	for _, col := range []int{3, 4, 5, 10, 11, 12, 13, 14, 15, 16} {
		v, err := r.number(col, 64, nil)
		if err != nil {
			return err
		}
		if col < 5 {
			level[col-3] = v
		}
	}
	b, err := r.box(6, true)
	if err != nil {
		return err
	}
	b.id, b.class, b.flags = int32(id), k.b.class(typ), yieldPoint
	if k.opts.MarkIgnored {
		// TrackEval's KITTI reader: a DontCare region is no object (no id, no point), and
		// an object truncated (level above 0) or occluded beyond "largely" (2) is not scored,
		// each level read as an integer.
		switch {
		case id == NoID:
			b.flags = ignored
		case math.Trunc(level[0]) > 0 || math.Trunc(level[1]) > 2:
			b.flags |= ignored
		}
	}
	if len(r.f) == len(kittiFields) {
		score, err := r.number(17, 32, nil)
		if err != nil {
			return err
		}
		if (score < 0 || score > 1) && k.badScore == "" {
			k.badScore, k.badScoreLine = r.f[17], n
		}
		b.score, b.flags = float32(score), b.flags|hasScore
	}
	// A DontCare row is checked as the others are (a broken one is a broken file whatever the
	// rules read), and otherwise a region left unlabelled, id -1: nothing to draw.
	if typ == "DontCare" && !k.opts.MarkIgnored {
		k.dontCare++
		return nil
	}
	k.b.addBox(frame, n, b)
	return nil
}

func (k *kittiReader) finish() (*Tracks, error) {
	if k.dontCare > 0 {
		k.b.warn("%d DontCare rows (regions left unlabelled) skipped", k.dontCare)
	}
	if k.badScore != "" {
		k.b.clearScores()
		k.b.warn("scores are not shown: %s on line %d is outside [0,1] (KITTI results' scores are "+
			"\"higher is better\", not probabilities)", k.badScore, k.badScoreLine)
	}
	return k.b.finish(FormatKITTI, k.opts.Anchor)
}
