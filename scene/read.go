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
	"strconv"
	"strings"
)

// Format selects the reader that Read uses.
type Format int

const (
	// FormatAuto picks the reader from the name's extension and, failing that, from the
	// first non-blank line, as described at Load.
	FormatAuto Format = iota
	// FormatMOT is MOTChallenge text: tracker results (10 fields a line) or MOT17-style
	// ground truth (9 fields a line).
	FormatMOT
	// FormatJSONL is trackink's JSON Lines format: one JSON object per frame.
	FormatJSONL
)

// base returns the number the format gives the first frame of a video.
func (f Format) base() int { return 1 }

// Anchor says where on a MOTChallenge box the box's tracked point sits.
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
	// FormatBase is the format's own convention: 1 for MOTChallenge and JSON Lines.
	FormatBase FrameBase = iota
	// ZeroBased files number the first frame 0.
	ZeroBased
	// OneBased files number the first frame 1.
	OneBased
)

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
	return 0, fmt.Errorf("--frame-base %q: want 0, 1 or auto", s)
}

// Options tune the readers. The zero value is the default.
type Options struct {
	// Anchor places the point that each MOTChallenge box yields. JSON Lines points are
	// explicit and ignore it.
	Anchor Anchor
	// DropIgnored drops MOTChallenge ground-truth rows whose consider_flag is 0 (crowds,
	// occluders, reflections and the like, which evaluation ignores). By default they are
	// kept, labelled with their class, so that the picture shows everything the file holds.
	DropIgnored bool
	// FrameBase is the number the file gives the video's first frame; trackink's frame
	// index is the file's frame number - base + 1. The default is the format's own.
	FrameBase FrameBase
}

// validate checks the options that do not depend on the input.
func (o *Options) validate(name string) error {
	switch {
	case o.Anchor != BottomCenter && o.Anchor != Center:
		return fmt.Errorf("scene: reading %s: unknown anchor %d", name, o.Anchor)
	case o.FrameBase < FormatBase || o.FrameBase > OneBased:
		return fmt.Errorf("scene: reading %s: unknown frame base %d", name, o.FrameBase)
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
	// MOTChallenge text, a path such as "boxes[2].w" in JSON Lines. It is empty when the
	// error concerns the line as a whole.
	Field string
	Msg   string // what is wrong with the value
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
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Load reads the tracking file at path. The extension picks the reader: .jsonl and .ndjson
// are JSON Lines, .txt and .csv are MOTChallenge text (case does not matter). Any other
// name is read as MOTChallenge if its first non-blank line starts with a digit or '#', as
// JSON Lines if it starts with '{', and is rejected otherwise. An empty file holds no frames.
func Load(path string, opts Options) (*Tracks, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, FormatAuto, opts)
}

// Read reads tracks from r in the given format; FormatAuto chooses as Load does, using name
// for the extension. name is also the file name in errors. The input is streamed line by
// line, so its size is limited by the memory the result needs, not by the input's.
func Read(r io.Reader, name string, format Format, opts Options) (*Tracks, error) {
	if err := opts.validate(name); err != nil {
		return nil, err
	}
	var p lineParser
	switch format {
	case FormatAuto:
		p = parserFor(formatOf(name), name, opts) // nil until the content decides
	case FormatMOT, FormatJSONL:
		p = parserFor(format, name, opts)
	default:
		return nil, fmt.Errorf("scene: reading %s: unknown format %d", name, format)
	}

	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if n == 1 {
			// Windows tools, Excel above all, start UTF-8 text with a byte order mark.
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		if p == nil {
			f, err := sniff(name, n, line)
			if err != nil {
				return nil, err
			}
			if f == FormatAuto {
				continue // blank line: still undecided
			}
			p = parserFor(f, name, opts)
		}
		if err := p.parseLine(n, string(line)); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{File: name, Line: n + 1,
				Msg: fmt.Sprintf("line is longer than %d MiB", MaxLineBytes>>20)}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if p == nil {
		return &Tracks{}, nil
	}
	return p.finish()
}

// lineParser is one format's reader, fed one line at a time.
type lineParser interface {
	// parseLine parses line number n, without its line terminator.
	parseLine(n int, line string) error
	// finish returns what the lines described, once all have parsed.
	finish() (*Tracks, error)
}

// parserFor returns a reader for f, or nil for FormatAuto.
func parserFor(f Format, name string, opts Options) lineParser {
	switch f {
	case FormatMOT:
		return newMOTReader(name, opts)
	case FormatJSONL:
		return newJSONLReader(name, opts)
	}
	return nil
}

// formatOf returns the format that name's extension implies, or FormatAuto.
func formatOf(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL
	case ".txt", ".csv":
		return FormatMOT
	}
	return FormatAuto
}

// sniff decides the format from line n, the first that is not blank; it returns FormatAuto
// for a blank line.
func sniff(name string, n int, line []byte) (Format, error) {
	line = bytes.TrimLeft(line, " \t\r")
	switch {
	case len(line) == 0:
		return FormatAuto, nil
	case line[0] >= '0' && line[0] <= '9', line[0] == '#':
		return FormatMOT, nil
	case line[0] == '{':
		return FormatJSONL, nil
	}
	return FormatAuto, &ParseError{File: name, Line: n, Msg: "cannot tell the format: the line starts " +
		"with neither a digit (MOTChallenge) nor '{' (JSON Lines); name the file .txt, .csv, .jsonl or .ndjson"}
}
