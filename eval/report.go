package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// SequenceName names a sequence after its ground-truth file: MOTChallenge's SEQ/gt/gt.txt
// is SEQ, bright.gt.txt is bright, anything else its file name without the extension.
func SequenceName(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	for _, s := range []string{".gt", "_gt", "-gt"} {
		name = strings.TrimSuffix(name, s)
	}
	dir := filepath.Dir(path)
	for (name == "gt" || name == "") && dir != "." && dir != "/" {
		name, dir = filepath.Base(dir), filepath.Dir(dir)
	}
	return name
}

// SequenceNames names the rows of ground truth files gts scored against tracks files tracks
// (pairs, by index): each its ground truth's SequenceName, and where rows would share a name,
// that name followed by the end of a path that tells them apart: the ground truth's
// ("MOT17-02 (train/MOT17-02/gt/gt.txt)"), or where one ground truth file is scored against
// several tracks files, the tracks' ("S2L1 (mine.txt)").
func SequenceNames(gts, tracks []string) []string {
	names := make([]string, len(gts))
	groups := map[string][]int{}
	for i, g := range gts {
		names[i] = SequenceName(g)
		groups[names[i]] = append(groups[names[i]], i)
	}
	for name, group := range groups {
		if len(group) < 2 {
			continue
		}
		apart := make([]string, len(group))
		for k, i := range group {
			apart[k] = gts[i]
			for _, j := range group {
				if j != i && gts[j] == gts[i] {
					apart[k] = tracks[i]
				}
			}
		}
		ends := pathEnds(apart)
		for k, i := range group {
			names[i] = fmt.Sprintf("%s (%s)", name, ends[k])
		}
	}
	return names
}

// pathEnds gives each path its last n elements, n the fewest that tell the paths apart
// (all of each where none do).
func pathEnds(paths []string) []string {
	ends := make([]string, len(paths))
	for n := 1; ; n++ {
		seen, whole := map[string]bool{}, true
		for k, p := range paths {
			parts := strings.Split(filepath.ToSlash(p), "/")
			ends[k] = filepath.FromSlash(strings.Join(parts[max(0, len(parts)-n):], "/"))
			whole = whole && n >= len(parts)
			seen[ends[k]] = true
		}
		if len(seen) == len(paths) || whole {
			return ends
		}
	}
}

// Named is a result with the name of its sequence, a row of a report.
type Named struct {
	Name string
	// Class is the class of a result that the rules score apart (ClassResult), "" for
	// none; ClassIndex its place among the sequence's classes, whose rows follow one
	// another: a row of ClassIndex above 0 is the same sequence as the row before it.
	Class      string
	ClassIndex int
	Result
	// GTFrames and TrackFrames are the frames the ground truth and the tracks span, as each
	// file numbers them; the zero range where a file holds none, or for OVERALL.
	GTFrames, TrackFrames FileRange
	// Rules are the rules the sequence was scored by.
	Rules Rules
}

// FrameRange is a span of frames, First to Last inclusive; zero when there are none.
type FrameRange struct{ First, Last int }

// Empty reports whether the range holds no frame.
func (f FrameRange) Empty() bool { return f.First == 0 }

// Overlaps reports whether the ranges share a frame.
func (f FrameRange) Overlaps(g FrameRange) bool {
	return !f.Empty() && !g.Empty() && f.First <= g.Last && g.First <= f.Last
}

func (f FrameRange) String() string {
	if f.Empty() {
		return "none"
	}
	return fmt.Sprintf("%d-%d", f.First, f.Last)
}

// FileRange is a FrameRange of trackink's frame indexes (from 1) as a file numbers the frames:
// Shift added to each, the file's frame base − 1 (−1 for a file that numbers the video's
// first frame 0: KITTI's, or any read with --frame-base 0). The report shows frames so,
// as one reads them in the file (it showed a 0-based file's frames 0-2 as 1-3).
type FileRange struct {
	FrameRange
	Shift int
}

// Numbered returns the range r of a file whose first frame of the video is base (0 or 1).
func Numbered(r FrameRange, base int) FileRange { return FileRange{r, base - 1} }

func (f FileRange) String() string {
	if f.Empty() {
		return "none"
	}
	return fmt.Sprintf("%d-%d", f.First+f.Shift, f.Last+f.Shift)
}

// MarshalJSON writes the range as the file numbers it, [first, last], or null when it is
// empty.
func (f FileRange) MarshalJSON() ([]byte, error) {
	if f.Empty() {
		return []byte("null"), nil
	}
	return json.Marshal([2]int{f.First + f.Shift, f.Last + f.Shift})
}

// MarshalJSON writes the result as one object of measures and counts, with the keys the
// README documents ("mota", "idf1", "id_switches", …); an undefined measure is null.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(r.fields())
}

// MarshalJSON writes the named result as Result does, with "sequence" first and the frame
// ranges and rules last.
func (n Named) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Sequence string `json:"sequence"`
		Class    string `json:"class,omitempty"`
		fields
		GTFrames    FileRange `json:"gt_frames"`
		TrackFrames FileRange `json:"track_frames"`
		Rules       string    `json:"rules"`
	}{n.Name, n.Class, n.fields(), n.GTFrames, n.TrackFrames, n.Rules.String()})
}

// RulesOf names the rules the rows were scored by: their rules' name when all agree,
// "mixed" when not.
func RulesOf(rows []Named) string {
	if len(rows) == 0 {
		return PyMotmetrics.String()
	}
	for _, r := range rows[1:] {
		if r.Rules != rows[0].Rules {
			return "mixed"
		}
	}
	return rows[0].Rules.String()
}

// fields is a result as JSON shows it.
type fields struct {
	MOTA             *float64 `json:"mota"`
	MOTP             *float64 `json:"motp"`
	IDF1             *float64 `json:"idf1"`
	IDP              *float64 `json:"idp"`
	IDR              *float64 `json:"idr"`
	HOTA             *float64 `json:"hota"`
	DetA             *float64 `json:"deta"`
	AssA             *float64 `json:"assa"`
	DetRe            *float64 `json:"detre"`
	DetPr            *float64 `json:"detpr"`
	AssRe            *float64 `json:"assre"`
	AssPr            *float64 `json:"asspr"`
	LocA             *float64 `json:"loca"`
	HOTA0            *float64 `json:"hota_0"`
	LocA0            *float64 `json:"loca_0"`
	Recall           *float64 `json:"recall"`
	Precision        *float64 `json:"precision"`
	IDSwitches       int      `json:"id_switches"`
	FalsePositives   int      `json:"false_positives"`
	Misses           int      `json:"misses"`
	Matches          int      `json:"matches"`
	Fragmentations   int      `json:"fragmentations"`
	MostlyTracked    int      `json:"mostly_tracked"`
	PartiallyTracked int      `json:"partially_tracked"`
	MostlyLost       int      `json:"mostly_lost"`
	GTIDs            int      `json:"gt_ids"`
	TrackIDs         int      `json:"track_ids"`
	GTBoxes          int      `json:"gt_boxes"`
	TrackBoxes       int      `json:"track_boxes"`
	Frames           int      `json:"frames"`
	IDTP             int      `json:"idtp"`
	IDFP             int      `json:"idfp"`
	IDFN             int      `json:"idfn"`
}

func (r Result) fields() fields {
	num := func(v float64) *float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	h, h0 := r.HOTA.Mean(), r.HOTA.At(0)
	return fields{num(r.MOTA()), num(r.MOTP()), num(r.IDF1()), num(r.IDP()), num(r.IDR()),
		num(h.HOTA), num(h.DetA), num(h.AssA), num(h.DetRe), num(h.DetPr), num(h.AssRe), num(h.AssPr), num(h.LocA),
		num(h0.HOTA), num(h0.LocA), num(r.Recall()), num(r.Precision()), r.IDSwitches, r.FalsePositives, r.Misses, r.Matches,
		r.Fragmentations, r.MostlyTracked, r.PartiallyTracked, r.MostlyLost, r.GTIDs, r.TrackIDs,
		r.GTBoxes, r.TrackBoxes, r.Frames, r.IDTP, r.IDFP, r.IDFN}
}

// WriteTable writes rows as an aligned table in MOTChallenge's order and names (HOTA, DetA and
// AssA first, as its leaderboards rank by HOTA), measures in per cent; an undefined measure
// shows as "-". See OverallRows for the benchmarks' last rows.
func WriteTable(w io.Writer, rows []Named) error {
	// tabwriter aligns every column right; names read better left-aligned, so they are
	// padded to one width first.
	width := len("sequence")
	for _, r := range rows {
		width = max(width, len(r.label()))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join([]string{fmt.Sprintf("%-*s", width, "sequence"), "frames", "HOTA", "DetA", "AssA", "IDF1", "IDP",
		"IDR", "Rcll", "Prcn", "GT", "MT", "PT", "ML", "FP", "FN", "IDs", "FM", "MOTA", "MOTP", ""}, "\t"))
	pct := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	for _, r := range rows {
		h := r.HOTA.Mean()
		fmt.Fprintf(tw, "%-*s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n",
			width, r.label(), r.Frames, pct(h.HOTA), pct(h.DetA), pct(h.AssA), pct(r.IDF1()), pct(r.IDP()), pct(r.IDR()), pct(r.Recall()), pct(r.Precision()),
			r.GTIDs, r.MostlyTracked, r.PartiallyTracked, r.MostlyLost, r.FalsePositives, r.Misses,
			r.IDSwitches, r.Fragmentations, pct(r.MOTA()), pct(r.MOTP()))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		if r.ClassIndex > 0 {
			continue // another class of the sequence above
		}
		if !r.GTFrames.Empty() || !r.TrackFrames.Empty() {
			fmt.Fprintf(w, "%s: ground truth frames %s, tracks frames %s\n", r.Name, r.GTFrames, r.TrackFrames)
		}
	}
	return nil
}

// label is the row's name in a table: the sequence's, and its class after it.
func (n Named) label() string {
	if n.Class == "" {
		return n.Name
	}
	return n.Name + " " + n.Class
}

// Overall returns the sequences' overall result, named OVERALL: every count added (Sum), but
// a sequence's frames once however many of its classes follow one another in rows.
func Overall(rows []Named) Named {
	all := make([]Result, len(rows))
	for i, r := range rows {
		all[i] = r.Result
		if i > 0 && r.ClassIndex > 0 && rows[i-1].ClassIndex == r.ClassIndex-1 {
			all[i].Frames = 0 // the sequence's frames, counted in the row before
		}
	}
	return Named{Name: "OVERALL", Result: Sum(all...)}
}

// OverallRows returns the overall rows that follow a report's rows: where the rows are of
// classes scored apart (TrackEval's KITTI car and pedestrian) and of several sequences, one
// for each class over the sequences, in the order the classes first appear, as TrackEval
// reports each class's combined sequences; then, wherever there is more than one row,
// Overall's of every row, named OVERALL, which is what WriteJSON gives at its top level. (A
// sequence scored as one class, MOTChallenge's, among KITTI's has no class row of its own:
// it counts in OVERALL, which once was its own sum and left the KITTI sequences out.)
func OverallRows(rows []Named) []Named {
	if len(rows) < 2 {
		return nil
	}
	var classes []string
	byClass := map[string][]Named{}
	sequences := 0
	for _, r := range rows {
		if r.ClassIndex == 0 {
			sequences++
		}
		if _, ok := byClass[r.Class]; !ok {
			classes = append(classes, r.Class)
		}
		byClass[r.Class] = append(byClass[r.Class], r)
	}
	var out []Named
	for _, c := range classes {
		if c != "" && sequences > 1 {
			o := Overall(byClass[c])
			o.Class = c
			out = append(out, o)
		}
	}
	return append(out, Overall(rows))
}

// WriteJSON writes rows as one JSON object: the overall measures (Overall) at the top level,
// the IoU threshold as "iou", the rules (RulesOf) as "rules", and each sequence's under
// "sequences".
func WriteJSON(w io.Writer, rows []Named, minIoU float64) error {
	out := struct {
		IoU   float64 `json:"iou"`
		Rules string  `json:"rules"`
		fields
		Sequences []Named `json:"sequences"`
	}{minIoU, RulesOf(rows), Overall(rows).fields(), rows}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
