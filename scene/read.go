package scene

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Format selects the reader that Read uses.
type Format int

const (
	// FormatAuto picks the reader from the name's extension and the content, as described
	// at Load.
	FormatAuto Format = iota
	// FormatMOT is MOTChallenge text: tracker results (10 fields a line) or MOT17-style
	// ground truth (9 fields a line).
	FormatMOT
	// FormatJSONL is trackink's JSON Lines format: one JSON object per frame.
	FormatJSONL
	// FormatSupervision is the CSV that Roboflow supervision's CSVSink writes, with a frame
	// column the user added (Options.FrameColumn).
	FormatSupervision
	// FormatKITTI is KITTI tracking labels or results: 17 or 18 space-separated fields.
	FormatKITTI
	// FormatCVAT is CVAT for video 1.1 XML.
	FormatCVAT
	// FormatYOLO is Ultralytics YOLO track results: a directory of NAME_<frame>.txt files
	// with normalised boxes (Load), or one such file (Read).
	FormatYOLO
)

var formatNames = [...]struct{ short, long string }{
	FormatAuto:        {"auto", "chosen by name and content"},
	FormatMOT:         {"mot", "MOTChallenge text"},
	FormatJSONL:       {"jsonl", "trackink JSON Lines"},
	FormatSupervision: {"supervision", "supervision CSVSink CSV"},
	FormatKITTI:       {"kitti", "KITTI tracking labels"},
	FormatCVAT:        {"cvat", "CVAT for video 1.1 XML"},
	FormatYOLO:        {"yolo", "Ultralytics YOLO track results"},
}

// String names the format for people: "MOTChallenge text".
func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f].long
}

// Name returns the format's short name: "mot", "jsonl".
func (f Format) Name() string {
	if f < 0 || int(f) >= len(formatNames) {
		return f.String()
	}
	return formatNames[f].short
}

// base returns the number the format gives the first frame of a video.
func (f Format) base() int {
	switch f {
	case FormatSupervision, FormatKITTI, FormatCVAT:
		return 0
	}
	return 1
}

// Anchor says where on a box the box's tracked point sits.
type Anchor int

const (
	// BottomCenter puts the point in the middle of the box's bottom edge, where a pedestrian
	// meets the ground: a trail through it follows the feet instead of jumping whenever the
	// detector's estimate of the height changes.
	BottomCenter Anchor = iota
	// Center puts the point at the centre of the box, which suits objects seen from above.
	Center
)

// FrameBase says which number a file gives the first frame of its video.
type FrameBase int

const (
	// FormatBase is the format's own convention: 1 for MOTChallenge, JSON Lines and YOLO; 0
	// for KITTI, CVAT and supervision CSV.
	FormatBase FrameBase = iota
	// ZeroBased files number the first frame 0.
	ZeroBased
	// OneBased files number the first frame 1.
	OneBased
)

// Of returns the number a file of format f read with frame base b gives the video's first
// frame, trackink's frame 1: 0 or 1.
func (b FrameBase) Of(f Format) int { return (&Options{FrameBase: b}).base(f) }

// ParseFrameBase reads a frame base as a command line gives it: "auto" (or "") for
// FormatBase, "0" or "1".
func ParseFrameBase(s string) (FrameBase, error) {
	switch s {
	case "", "auto":
		return FormatBase, nil
	case "0":
		return ZeroBased, nil
	case "1":
		return OneBased, nil
	}
	return 0, fmt.Errorf("frame base %q: want 0, 1 or auto", s)
}

// UntrackedPolicy says what to do with a detection that has no track id.
type UntrackedPolicy int

const (
	// SkipUntracked leaves untracked detections out, counting them in a warning.
	SkipUntracked UntrackedPolicy = iota
	// DrawUntracked keeps them as boxes with ID NoID: drawn, but with no tracked point, so
	// no links and no trail.
	DrawUntracked
	// RefuseUntracked makes an untracked detection an error naming its line: what
	// evaluation reads, since a box without an identity cannot be scored as a track.
	RefuseUntracked
)

// untrackedMsg says why a detection without an id is refused.
const untrackedMsg = "has no track id: a box without one cannot be scored as a track (give every box an id, or leave the untracked ones out)"

// Options tune the readers. The zero value is the default.
type Options struct {
	// Anchor places the point that each box yields (every format but JSON Lines, whose
	// points are explicit; there it says where MOTChallenge text written from the tracks,
	// read back with the same options, makes its points: Write counts a point at its
	// box's anchor as kept).
	Anchor Anchor
	// DropIgnored reads MOTChallenge text as ground truth and drops the rows whose
	// consider flag is 0 (crowds, occluders, reflections and the like, which evaluation
	// ignores): the 7th field of the 9-field layout (MOT17) and of the 10-field one (MOT15,
	// where a tracker's output has its confidence there instead). By default MOT17 rows are
	// kept, labelled with their class, so that the picture shows everything the file holds,
	// and a 10-field file's 7th field is a confidence.
	DropIgnored bool
	// MarkIgnored reads ground truth as TrackEval does, keeping what its ignore rules need
	// with Box.Ignored set instead of dropping it: MOTChallenge rows as DropIgnored reads
	// them, but those whose consider flag is 0 read as an integer (as TrackEval reads it:
	// 0.3 is 0) kept and marked; KITTI's DontCare regions kept as boxes of class DontCare
	// without an id (NoID), and objects truncated (truncated > 0) or occluded beyond 2
	// marked, each level read as an integer. It wins over DropIgnored.
	MarkIgnored bool
	// FrameBase is the number the file gives the video's first frame; trackink's frame
	// index is the file's frame number - base + 1. The default is the format's own.
	FrameBase FrameBase
	// Untracked says what becomes of detections without a track id (supervision CSV with an
	// empty tracker_id, YOLO lines without an id).
	Untracked UntrackedPolicy
	// FrameColumn is the supervision CSV column that holds the frame number: CSVSink has
	// none of its own, so it is the custom_data key the user added. Default "frame_index".
	FrameColumn string
	// Width and Height are the video's size in pixels, by which YOLO's normalised
	// coordinates are scaled. Required for YOLO, ignored otherwise.
	Width, Height int
	// ClassNames names class numbers: ClassNames[i] is class i's name, "" for none (see
	// ReadClassNames). supervision's class_id and YOLO's cls use it; a class without a name
	// shows as its number. supervision's class_name column, when present, wins. In
	// MOTChallenge text they name the class numbers of the 10-field layout's x, from 0, and
	// of the 9-field layout's 8th field, from 1 (as BoxMOT writes COCO's class + 1, and CVAT
	// numbers the lines of its labels.txt), whose 9th field is then the box's score.
	ClassNames []string
	// NoLabelsFile leaves unread the labels.txt (LabelsFile) beside a 9-field MOTChallenge
	// file that Load reads, reading its class numbers as MOTChallenge's.
	NoLabelsFile bool
	// File and Files, Files above 1, say the file is the File-th (from 0) of Files drawn
	// together (Merge): a track id past MaxFileID(File, Files) could not be made distinct
	// from the other files' and is an error naming its line.
	File, Files int

	// path is the file on disk that name is, set by Load: a 9-field MOTChallenge file's
	// labels.txt is looked for beside it.
	path string
}

// validate checks the options that do not depend on the input.
func (o *Options) validate(name string) error {
	switch {
	case o.Anchor != BottomCenter && o.Anchor != Center:
		return fmt.Errorf("scene: reading %s: unknown anchor %d", name, o.Anchor)
	case o.FrameBase < FormatBase || o.FrameBase > OneBased:
		return fmt.Errorf("scene: reading %s: unknown frame base %d", name, o.FrameBase)
	case o.Untracked != SkipUntracked && o.Untracked != DrawUntracked && o.Untracked != RefuseUntracked:
		return fmt.Errorf("scene: reading %s: unknown untracked policy %d", name, o.Untracked)
	case o.Width < 0 || o.Height < 0:
		return fmt.Errorf("scene: reading %s: negative size %dx%d", name, o.Width, o.Height)
	case o.Files < 0 || o.Files > MaxSources || o.File < 0 || o.File >= max(o.Files, 1):
		return fmt.Errorf("scene: reading %s: file %d of %d drawn together", name, o.File, o.Files)
	}
	for i, c := range o.ClassNames {
		if msg := checkLabel(c); msg != "" {
			return fmt.Errorf("scene: reading %s: class %d: %s", name, i, msg)
		}
	}
	return nil
}

// base returns the frame base that applies to format f.
func (o *Options) base(f Format) int {
	switch o.FrameBase {
	case ZeroBased:
		return 0
	case OneBased:
		return 1
	}
	return f.base()
}

// className returns the name of class number c.
func (o *Options) className(c int) (string, bool) {
	if c >= 0 && c < len(o.ClassNames) && o.ClassNames[c] != "" {
		return o.ClassNames[c], true
	}
	return "", false
}

// Limits beyond which a value is taken for corrupt input rather than drawn.
const (
	// MaxCoord bounds the magnitude of every coordinate and size, in pixels: ten thousand
	// times a 1080p frame, so anything larger is a unit or parsing mistake upstream.
	MaxCoord = 1e7
	// MaxFrame is the highest frame index accepted: almost four days of video at 30 fps.
	// Larger indexes are usually timestamps written where frame numbers belong.
	MaxFrame = 10_000_000
	// MaxID is the highest track id accepted, the int32 limit that MOTChallenge tools share.
	MaxID = math.MaxInt32
	// MaxLabelBytes bounds the length of a class name or label: it is drawn on one line next
	// to its box.
	MaxLabelBytes = 256
	// MaxLineBytes bounds the length of one input line. A JSON Lines frame with ten thousand
	// boxes takes about 1 MiB; the limit only stops a file without newlines from being read
	// whole into memory.
	MaxLineBytes = 64 << 20
)

// ParseError reports input that a reader rejects. Its message has the form
//
//	tracks.txt:1042: field 5 (bb_width): -3 is negative
type ParseError struct {
	File string // the name given to Read, or the path given to Load
	Line int    // 1-based line number
	// Field locates the offending value within the line: "field 5 (bb_width)" in
	// MOTChallenge text, a path such as "boxes[2].w" in JSON Lines, an element and
	// attribute such as "box.xtl" in CVAT XML. It is empty when the error concerns the line
	// as a whole.
	Field string
	Msg   string // what is wrong with the value
}

// maxMessage bounds a parse error's message: one that quotes a value of 100 000 digits is
// cut in its middle, where the value is, keeping what the message says around it.
const maxMessage = 1024

// shortened is msg cut to about maxMessage bytes in its middle, at rune boundaries.
func shortened(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	head, tail := msg[:maxMessage*5/8], msg[len(msg)-maxMessage/4:]
	return strings.ToValidUTF8(head, "") + fmt.Sprintf("… (%d bytes left out) …", len(msg)-len(head)-len(tail)) + strings.ToValidUTF8(tail, "")
}

// Error formats the error as "file:line: field: message", leaving out an empty field.
func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	} else {
		b.WriteString("line ")
	}
	fmt.Fprint(&b, e.Line)
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(shortened(e.Msg))
	return b.String()
}

// Load reads the tracking file at path, or the directory of YOLO results at path. The
// extension picks the reader where it can: .jsonl and .ndjson are JSON Lines, .xml is CVAT
// XML (case does not matter). For .txt the content decides between MOTChallenge, KITTI and a
// single YOLO file; for .csv between MOTChallenge and supervision CSV; for any other name
// between all of them (see docs/formats.md). An empty file holds no frames.
// MOTChallenge text in the 9-field layout with a labels.txt beside it (LabelsFile) and no
// Options.ClassNames is CVAT's MOT 1.1 export: its class numbers name the file's lines.
func Load(path string, opts Options) (*Tracks, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return loadYOLODir(path, opts)
	}
	opts.path = path
	return Read(f, path, FormatAuto, opts)
}

// FormatOf is the format Load reads the file at path in, told as Load tells it (the name's
// extension, else its first line), without reading further: a directory is YOLO's. The
// error is Load's when the format cannot be told, and ErrNotRegular for what is read once
// (a pipe, a FIFO), which FormatOf would consume or wait on.
func FormatOf(path string) (Format, error) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return 0, err
	case info.IsDir():
		return FormatYOLO, nil
	case !info.Mode().IsRegular():
		return 0, ErrNotRegular
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return sniff(utf8Text(bufio.NewReaderSize(f, 64<<10)), path)
}

// ErrNotRegular is FormatOf's error for a path that is neither a regular file nor a directory.
var ErrNotRegular = errors.New("scene: not a regular file: read once, by Load")

// Read reads tracks from r in the given format; FormatAuto chooses as Load does, using name
// for the extension. name is also the file name in errors. The input is streamed, so its
// size is limited by the memory the result needs, not by the input's.
func Read(r io.Reader, name string, format Format, opts Options) (*Tracks, error) {
	if err := opts.validate(name); err != nil {
		return nil, err
	}
	if format < FormatAuto || format > FormatYOLO {
		return nil, fmt.Errorf("scene: reading %s: unknown format %d", name, format)
	}
	br := utf8Text(bufio.NewReaderSize(r, 64<<10))
	if format == FormatAuto {
		var err error
		if format, err = sniff(br, name); err != nil {
			return nil, err
		}
	}
	var p lineParser
	switch format {
	case FormatCVAT:
		return readCVAT(br, name, opts)
	case FormatYOLO:
		return readYOLOFile(br, name, opts)
	case FormatMOT:
		p = newMOTReader(name, opts)
	case FormatJSONL:
		p = newJSONLReader(name, opts)
	case FormatSupervision:
		p = newSupervisionReader(name, opts)
	case FormatKITTI:
		p = newKITTIReader(name, opts)
	}
	if err := readLines(br, name, p.parseLine); err != nil {
		return nil, err
	}
	return p.finish()
}

// readLines calls parseLine with each line of r and its 1-based number, without the line
// terminator.
func readLines(r io.Reader, name string, parseLine func(n int, line string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	n := 0
	for sc.Scan() {
		n++
		line := string(sc.Bytes())
		if err := parseLine(n, line); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) && strings.Contains(strings.TrimRight(line, "\r"), "\r") {
				// Lines that end in a carriage return alone (classic Mac OS) read as one.
				pe.Msg += `; the line holds carriage returns: if the file's lines end in \r alone, convert them to \n (tr '\r' '\n')`
			}
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &ParseError{File: name, Line: n + 1, Msg: fmt.Sprintf("line is longer than %d MiB", MaxLineBytes>>20)}
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// lineParser is one line-based format's reader, fed one line at a time.
type lineParser interface {
	// parseLine parses line number n, without its line terminator.
	parseLine(n int, line string) error
	// finish returns what the lines described, once all have parsed.
	finish() (*Tracks, error)
}

// sniff decides the format of the input that br holds, from its name's extension and its
// first line that is neither blank nor a MOTChallenge comment, looking no further than the
// reader's buffer.
func sniff(br *bufio.Reader, name string) (Format, error) {
	candidates := namedFormats(name)
	if len(candidates) == 1 {
		return candidates[0], nil
	}
	buf, err := br.Peek(br.Size())
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	n, comments := 0, false
	var line []byte
	for len(line) == 0 && len(buf) > 0 {
		n++
		line, buf, _ = bytes.Cut(buf, []byte("\n"))
		line = bytes.TrimLeft(line, " \t\r")
		if len(line) > 0 && line[0] == '#' {
			line, comments = nil, true
		}
	}
	f := formatOfLine(line)
	switch {
	case len(line) == 0:
		return FormatMOT, nil // nothing but blank lines and comments: an empty MOT file
	case candidates != nil && f != FormatAuto && !slices.Contains(candidates, f):
		return 0, &ParseError{File: name, Line: n, Msg: misnamed(f, name, candidates)}
	case f == FormatAuto && nearMiss(line) != "":
		return 0, &ParseError{File: name, Line: n, Msg: nearMiss(line)}
	case f == FormatAuto && (candidates != nil || comments):
		return FormatMOT, nil // its reader says what is wrong
	case f == FormatAuto:
		return 0, &ParseError{File: name, Line: n, Msg: "cannot tell the format: the line is none of MOTChallenge " +
			"(numbers and commas), KITTI (17 or 18 fields, the third a type), JSON Lines ('{'), CVAT XML ('<') or " +
			"supervision CSV (a header x_min,y_min,…); name the file .txt, .csv, .jsonl, .ndjson or .xml"}
	}
	return f, nil
}

// namedFormats are the formats a file's name allows by its extension; nil: any.
func namedFormats(name string) []Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return []Format{FormatJSONL}
	case ".xml":
		return []Format{FormatCVAT}
	case ".txt":
		return []Format{FormatMOT, FormatKITTI, FormatYOLO}
	case ".csv":
		return []Format{FormatMOT, FormatSupervision}
	}
	return nil
}

// ReadBackAs reports whether a file called name that holds format f is read as f (Load
// tells a file's format by its name's extension first): MOT text in out.xml is not.
func ReadBackAs(name string, f Format) bool {
	formats := namedFormats(name)
	return formats == nil || slices.Contains(formats, f)
}

// isNumber reports whether s is a number as the readers take numbers.
func isNumber(s string) bool {
	_, msg := parseNumber(s, 64)
	return msg == ""
}

// formatOfLine tells the format by the look of a first data line, or returns FormatAuto.
func formatOfLine(line []byte) Format {
	switch {
	case len(line) == 0:
		return FormatAuto
	case line[0] == '{':
		return FormatJSONL
	case line[0] == '<':
		return FormatCVAT
	case bytes.HasPrefix(line, []byte("x_min,")):
		return FormatSupervision
	case bytes.IndexByte(line, ',') >= 0:
		if c := line[0]; c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' {
			return FormatMOT
		}
		return FormatAuto
	}
	f := splitSpaces(string(line), nil)
	switch n := len(f); {
	case (n == len(kittiFields)-1 || n == len(kittiFields)) && !isNumber(f[2]):
		return FormatKITTI
	case (n == len(motResultFields) || n == len(motTruthFields)) && spacedMOT(f) && allNumbers(f):
		return FormatMOT // separated by spaces
	case n >= 5 && n <= 7 && allNumbers(f):
		return FormatYOLO
	}
	return FormatAuto
}

// allNumbers reports whether every one of fields is a number.
func allNumbers(fields []string) bool {
	for _, s := range fields {
		if !isNumber(s) {
			return false
		}
	}
	return true
}

// isWhole reports whether s is a whole number (1, 1.0, 1e0), as frames and ids are.
func isWhole(s string) bool {
	v, msg := parseNumber(s, 64)
	return msg == "" && v == math.Trunc(v)
}

// utf8Text returns br's text as UTF-8: past the byte order mark with which Windows tools,
// Excel above all, start UTF-8 text, or decoded where a UTF-16 byte order mark begins it
// (Windows PowerShell 5's > writes a tracker's output as UTF-16).
func utf8Text(br *bufio.Reader) *bufio.Reader {
	b, _ := br.Peek(3)
	switch {
	case bytes.Equal(b, []byte("\uFEFF")):
		br.Discard(3)
	case isUTF16(b):
		return bufio.NewReaderSize(transform.NewReader(br, fromUTF16()), br.Size())
	}
	return br
}

// isUTF16 reports whether text that begins with b is UTF-16: a byte order mark either way.
func isUTF16(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff})
}

// fromUTF16 decodes UTF-16 text that begins with its byte order mark into UTF-8.
func fromUTF16() transform.Transformer { return unicode.BOMOverride(transform.Nop) }
