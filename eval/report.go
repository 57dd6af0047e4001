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

// Named is a result with the name of its sequence, a row of a report.
type Named struct {
	Name string
	Result
	// GTFrames and TrackFrames are the frames the ground truth and the tracks span; the
	// zero range where a file holds none, or for OVERALL.
	GTFrames, TrackFrames FrameRange
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

// MarshalJSON writes the range as [first, last], or null when it is empty.
func (f FrameRange) MarshalJSON() ([]byte, error) {
	if f.Empty() {
		return []byte("null"), nil
	}
	return json.Marshal([2]int{f.First, f.Last})
}

// MarshalJSON writes the result as one object of measures and counts, with the keys the
// README documents ("mota", "idf1", "id_switches", …); an undefined measure is null.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(r.fields())
}

// MarshalJSON writes the named result as Result does, with "sequence" first and the frame
// ranges last.
func (n Named) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Sequence string `json:"sequence"`
		fields
		GTFrames    FrameRange `json:"gt_frames"`
		TrackFrames FrameRange `json:"track_frames"`
	}{n.Name, n.fields(), n.GTFrames, n.TrackFrames})
}

// fields is a result as JSON shows it.
type fields struct {
	MOTA             *float64 `json:"mota"`
	MOTP             *float64 `json:"motp"`
	IDF1             *float64 `json:"idf1"`
	IDP              *float64 `json:"idp"`
	IDR              *float64 `json:"idr"`
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
	return fields{num(r.MOTA()), num(r.MOTP()), num(r.IDF1()), num(r.IDP()), num(r.IDR()),
		num(r.Recall()), num(r.Precision()), r.IDSwitches, r.FalsePositives, r.Misses, r.Matches,
		r.Fragmentations, r.MostlyTracked, r.PartiallyTracked, r.MostlyLost, r.GTIDs, r.TrackIDs,
		r.GTBoxes, r.TrackBoxes, r.Frames, r.IDTP, r.IDFP, r.IDFN}
}

// WriteTable writes rows as an aligned table in MOTChallenge's order and names, measures in
// per cent; an undefined measure shows as "-". See Overall for the benchmarks' last row.
func WriteTable(w io.Writer, rows []Named) error {
	// tabwriter aligns every column right; names read better left-aligned, so they are
	// padded to one width first.
	width := len("sequence")
	for _, r := range rows {
		width = max(width, len(r.Name))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join([]string{fmt.Sprintf("%-*s", width, "sequence"), "frames", "IDF1", "IDP",
		"IDR", "Rcll", "Prcn", "GT", "MT", "PT", "ML", "FP", "FN", "IDs", "FM", "MOTA", "MOTP", ""}, "\t"))
	pct := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%-*s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n",
			width, r.Name, r.Frames, pct(r.IDF1()), pct(r.IDP()), pct(r.IDR()), pct(r.Recall()), pct(r.Precision()),
			r.GTIDs, r.MostlyTracked, r.PartiallyTracked, r.MostlyLost, r.FalsePositives, r.Misses,
			r.IDSwitches, r.Fragmentations, pct(r.MOTA()), pct(r.MOTP()))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		if !r.GTFrames.Empty() || !r.TrackFrames.Empty() {
			fmt.Fprintf(w, "%s: ground truth frames %s, tracks frames %s\n", r.Name, r.GTFrames, r.TrackFrames)
		}
	}
	return nil
}

// Overall returns the sequences' overall result, named OVERALL: every count added (Sum).
func Overall(rows []Named) Named {
	all := make([]Result, len(rows))
	for i, r := range rows {
		all[i] = r.Result
	}
	return Named{Name: "OVERALL", Result: Sum(all...)}
}

// WriteJSON writes rows as one JSON object: the overall measures (Overall) at the top level,
// the IoU threshold as "iou", and each sequence's under "sequences".
func WriteJSON(w io.Writer, rows []Named, minIoU float64) error {
	out := struct {
		IoU float64 `json:"iou"`
		fields
		Sequences []Named `json:"sequences"`
	}{minIoU, Overall(rows).fields(), rows}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
