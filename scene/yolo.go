package scene

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
)

// yoloFileName matches the label files Ultralytics writes for the frames of a video:
// NAME_<frame>.txt, frames counted from 1.
var yoloFileName = regexp.MustCompile(`^(.*)_([0-9]+)\.txt$`)

// Column names of YOLO lines of five, six and seven fields. A six-field line holds a
// confidence (save_conf, untracked) or a track id (tracked, no save_conf); a yoloReader
// decides which once for all the files.
var (
	yoloFields     = []string{"cls", "cx", "cy", "w", "h", "conf", "id"}
	yoloFieldsToID = []string{"cls", "cx", "cy", "w", "h", "id"}
)

// yoloReader reads Ultralytics YOLO results, one file a frame.
type yoloReader struct {
	b    *builder
	opts Options
	row  row
	// sixthIsID says what a six-field line's last field holds; why says which line showed it.
	sixthIsID, decided bool
	why                string
	ids                map[int]int // track id → line, within the file being read
	classes            map[int]uint32
	untracked          int
}

// ErrNeedsSize is the error of reading YOLO results without the video's size: their
// coordinates are fractions of the picture.
var ErrNeedsSize = errors.New("YOLO coordinates are fractions of the picture, so the video's size is needed")

func newYOLOReader(name string, opts Options) (*yoloReader, error) {
	if opts.Width <= 0 || opts.Height <= 0 || opts.Width > MaxCoord || opts.Height > MaxCoord {
		return nil, fmt.Errorf("scene: reading %s: %w (Options.Width and Height, 1 to 1e7 px; got %dx%d)", name, ErrNeedsSize, opts.Width, opts.Height)
	}
	return &yoloReader{b: opts.builder(name, "", opts.base(FormatYOLO)), opts: opts, ids: make(map[int]int),
		classes: make(map[int]uint32)}, nil
}

// yoloFile is one label file: its path, its frame number as the name gives it, and, once
// read, its lines.
type yoloFile struct {
	path  string
	frame string
	lines []string
}

// read reads the file's lines from r, which starts after the byte order mark if any.
func (f *yoloFile) read(r io.Reader) error {
	f.lines = f.lines[:0]
	return readLines(r, f.path, func(_ int, line string) error {
		f.lines = append(f.lines, line)
		return nil
	})
}

// readYOLOFile reads one label file, whose name gives its frame.
func readYOLOFile(r io.Reader, name string, opts Options) (*Tracks, error) {
	m := yoloFileName.FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return nil, fmt.Errorf("%s: looks like Ultralytics YOLO results, but the name does not give the frame "+
			"(NAME_<frame>.txt); pass the directory of the video's label files", name)
	}
	y, err := newYOLOReader(name, opts)
	if err != nil {
		return nil, err
	}
	f := yoloFile{path: name, frame: m[2]}
	if err := f.read(r); err != nil {
		return nil, err
	}
	y.decide(&f)
	if err := y.parseFile(&f); err != nil {
		return nil, err
	}
	return y.finish()
}

// loadYOLODir reads the label files of one video from dir.
func loadYOLODir(dir string, opts Options) (*Tracks, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []yoloFile
	var videos []string
	for _, e := range entries {
		m := yoloFileName.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		files = append(files, yoloFile{path: filepath.Join(dir, e.Name()), frame: m[2]})
		if !slices.Contains(videos, m[1]) {
			videos = append(videos, m[1])
		}
	}
	switch {
	case len(files) == 0:
		return nil, fmt.Errorf("%s: a directory, but no Ultralytics label files (NAME_<frame>.txt) in it", dir)
	case len(videos) > 1:
		return nil, fmt.Errorf("%s: holds the label files of %d videos (%s_*.txt, %s_*.txt…); give a directory with one",
			dir, len(videos), videos[0], videos[1])
	}
	y, err := newYOLOReader(dir, opts)
	if err != nil {
		return nil, err
	}
	for i := range files {
		v, msg := parseInt(files[i].frame)
		if msg == "" {
			msg = checkFrame(v, files[i].frame, y.b.base)
		}
		if msg != "" {
			return nil, fmt.Errorf("%s: the frame number in the name: %s", files[i].path, msg)
		}
	}
	slices.SortStableFunc(files, func(a, b yoloFile) int { return cmp.Compare(frameNumber(a.frame), frameNumber(b.frame)) })
	for i := 1; i < len(files); i++ {
		if frameNumber(files[i].frame) == frameNumber(files[i-1].frame) {
			return nil, fmt.Errorf("%s: frame %s already has %s", files[i].path, files[i].frame, files[i-1].path)
		}
	}
	// A first pass finds what six-field lines hold, reading only as far as it takes: usually
	// the first file with a line in it.
	for i := 0; i < len(files) && !y.decided; i++ {
		if err := readFile(&files[i]); err != nil {
			return nil, err
		}
		y.decide(&files[i])
		files[i].lines = nil
	}
	var f yoloFile
	for i := range files {
		f.path, f.frame = files[i].path, files[i].frame
		if err := readFile(&f); err != nil {
			return nil, err
		}
		if err := y.parseFile(&f); err != nil {
			return nil, err
		}
	}
	return y.finish()
}

// frameNumber returns the value of a frame number that parseInt has accepted.
func frameNumber(s string) int {
	v, _ := parseInt(s)
	return v
}

// readFile reads the lines of the label file at f.path.
func readFile(f *yoloFile) error {
	r, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer r.Close()
	return f.read(utf8Text(bufio.NewReader(r)))
}

// decide looks for a line of f that shows what six-field lines hold: a seven-field line
// (conf and id: save_conf was on), a fraction (a confidence) or an integer above 1 (an id).
// A file set that never shows it has six-field lines of 0s and 1s only, which are ids: a run
// whose confidences are all exactly 0 or 1 does not happen.
func (y *yoloReader) decide(f *yoloFile) {
	var fields []string
	for n, line := range f.lines {
		fields = splitSpaces(line, fields)
		where := fmt.Sprintf("%s:%d", f.path, n+1)
		switch len(fields) {
		case 7:
			y.sixthIsID, y.decided, y.why = false, true, where+" has seven fields, conf and id"
		case 6:
			v, msg := parseNumber(fields[5], 64)
			switch {
			case msg != "":
				continue
			case v != float64(int64(v)):
				y.sixthIsID, y.decided, y.why = false, true, where+" has the confidence "+fields[5]
			case v > 1:
				y.sixthIsID, y.decided, y.why = true, true, where+" has the id "+fields[5]
			}
		}
		if y.decided {
			return
		}
	}
	y.sixthIsID, y.why = true, "no line shows a confidence"
}

// parseFile reads one frame's file.
func (y *yoloReader) parseFile(f *yoloFile) error {
	v, msg := parseInt(f.frame)
	if msg == "" {
		msg = checkFrame(v, f.frame, y.b.base)
	}
	if msg != "" {
		return fmt.Errorf("%s: the frame number in the name: %s", f.path, msg)
	}
	frame := v - y.b.base + 1
	r := &y.row
	r.file = f.path
	clear(y.ids)
	W, H := float64(y.opts.Width), float64(y.opts.Height)
	for n, line := range f.lines {
		r.line = n + 1
		if r.f = splitSpaces(line, r.f); len(r.f) == 0 {
			continue
		}
		switch len(r.f) {
		case 5, 7:
			r.names = yoloFields[:len(r.f)]
		case 6:
			r.names = yoloFields[:6]
			if y.sixthIsID {
				r.names = yoloFieldsToID
			}
		default:
			return &ParseError{File: r.file, Line: r.line, Msg: fmt.Sprintf("has %d space-separated fields; want 5 to 7 "+
				"(cls cx cy w h [conf] [id]); segmentation, pose and oriented-box results are not supported", len(r.f))}
		}
		cls, err := r.integer(0, checkClass)
		if err != nil {
			return err
		}
		var v [4]float64 // cx, cy, w, h
		for i := range v {
			if v[i], err = r.number(1+i, 64, checkFraction); err != nil {
				return err
			}
		}
		b := boxRecord{id: NoID, x: float32((v[0] - v[2]/2) * W), y: float32((v[1] - v[3]/2) * H),
			w: float32(v[2] * W), h: float32(v[3] * H), class: y.class(cls)}
		for col := 5; col < len(r.f); col++ {
			if r.names[col] == "conf" {
				score, msg := parseNumber(r.f[col], 32)
				if msg == "" {
					msg = checkUnit(score, r.f[col])
				}
				if msg != "" {
					return r.fail(col, y.explain(msg, false))
				}
				b.score, b.flags = float32(score), b.flags|hasScore
				continue
			}
			id, msg := parseInt(r.f[col])
			if msg == "" {
				msg = checkID(id, r.f[col])
			}
			if msg != "" {
				return r.fail(col, y.explain(msg, true))
			}
			if prev, ok := y.ids[id]; ok {
				return r.fail(col, fmt.Sprintf("track %d appears twice in frame %s (also line %d)", id, f.frame, prev))
			}
			y.ids[id] = r.line
			b.id, b.flags = int32(id), b.flags|yieldPoint
		}
		if b.id == NoID && y.opts.Untracked == RefuseUntracked {
			return &ParseError{File: r.file, Line: r.line, Msg: "the box " + untrackedMsg}
		}
		if b.id == NoID && y.opts.Untracked == SkipUntracked {
			y.untracked++
			continue
		}
		y.b.addBox(frame, r.line, b)
	}
	return nil
}

// explain adds to msg, about the sixth of six fields, what the reader took that field for and
// why; msg is returned unchanged when empty or about a line of another length.
func (y *yoloReader) explain(msg string, asID bool) string {
	if msg == "" || len(y.row.f) != 6 {
		return msg
	}
	what := "confidences"
	if asID {
		what = "track ids"
	}
	return msg + " (six-field lines hold " + what + " in these results: " + y.why + ")"
}

// checkFraction checks a normalised YOLO coordinate.
func checkFraction(v float64, s string) string {
	if v < 0 || v > 1 {
		return s + " is outside [0,1] (YOLO coordinates are fractions of the picture's width and height)"
	}
	return ""
}

// class returns the class index of class number c.
func (y *yoloReader) class(c int) uint32 {
	if i, ok := y.classes[c]; ok {
		return i
	}
	i := y.b.class(classText(&y.opts, c))
	y.classes[c] = i
	return i
}

func (y *yoloReader) finish() (*Tracks, error) {
	if y.untracked > 0 {
		y.b.warn("%d untracked detections (lines without an id) skipped; --untracked draw shows them", y.untracked)
	}
	return y.b.finish(FormatYOLO, y.opts.Anchor)
}
