package video

// Segments: one render cut into N contiguous ranges of frames, each rendered by a task of its
// own (a Slurm array task, a Kubernetes indexed pod) into a segment file, then joined without
// re-encoding (join.go). docs/segments.md has the design and the experiments behind it.
//
// A segment is exact: its frames are numbered from the frame table (frametable.go), not by
// counting decoded frames, so it can start decoding at the keyframe before its first frame;
// the caller replays the overlay's state from the render's first frame (SegmentPlan.First);
// a fresh encoder with the same options starts it with an IDR frame; and the file keeps the
// input's timestamps and says what it is (segmentRecord), so that the join can check that
// every segment of one render is there, once, and nothing else.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"trackink/outfile"

	"github.com/asticode/go-astiav"
)

// ErrSegmentCount means a render was to be cut into more segments than it has frames.
var ErrSegmentCount = errors.New("video: more segments than frames")

// ErrUnseekable means a segment's input is a pipe (a shell's <(…), standard input, a FIFO):
// it reads once, and a segment reads its input twice, once for the plan and again from its
// own keyframe.
var ErrUnseekable = errors.New("video: segments need a seekable input")

// SegmentPlan is one segment of a render: the render's frames and the ones this segment
// draws. PlanSegment makes it; Transcode renders it when Options.Segment is set.
type SegmentPlan struct {
	Index, Count int // this is segment Index (from 0) of Count
	// First and Last are the render's frames (1-based, inclusive, presentation order): the
	// whole video, or what Options.Start and End select. A DrawFunc with state replays the
	// frames from First to SegFirst − 1 before drawing SegFirst.
	First, Last int
	// SegFirst and SegLast are this segment's frames: the render's Last − First + 1 frames
	// cut into Count ranges as even as whole frames allow, in order.
	SegFirst, SegLast int
	// Drawing describes what the DrawFunc draws (its options, the tracks), in any words as
	// long as equal drawings give equal words. It goes into the plan every segment of a
	// render shares: Join refuses a segment whose plan differs from the others'.
	Drawing string

	table    *frameTable
	source   string // sourceID of the input
	stream   int    // the rendered video stream, from 1 among the input's video streams
	timeBase astiav.Rational
	// What the render's window (window.go) ends up with: the shift of every output
	// timestamp, where copied streams are cut (NoPtsValue: nowhere) and whether a Start was
	// given. The join applies them as the whole render would.
	shift, cut int64
	hasStart   bool
}

// ReadsOnce reports whether input is a pipe, a socket or a device (a shell's <(…), standard
// input, a FIFO), whose bytes come once: opened again, it goes on from where the first
// reader stopped. A file, a picture sequence or a URL is not one.
func ReadsOnce(input string) bool {
	st, err := os.Stat(input)
	return err == nil && st.Mode()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice) != 0
}

// PlanSegment reads the input's frame table (a pass over its packets, no decoding) and
// returns segment index (from 0) of count of the render o describes. Errors: ErrUnsegmentable
// for a video whose frames its packets do not number, ErrNothingToRender for a Start and
// End that select no frame, ErrSegmentCount for more segments than frames, ErrUnseekable for
// a pipe.
func PlanSegment(ctx context.Context, o Options, index, count int) (*SegmentPlan, error) {
	if count < 1 || index < 0 || index >= count {
		return nil, fmt.Errorf("video: segment %d of %d: want 0 ≤ index < count", index, count)
	}
	// Said before the pipe is read: read again, it failed as "Invalid data found".
	if ReadsOnce(o.Input) {
		return nil, fmt.Errorf("%w: %s is a pipe or a device, which can be read only once; write the video to a file first (ffmpeg -i … -c copy FILE) or render it whole", ErrUnseekable, o.Input)
	}
	sink, detach := attachFFmpegLog(nil)
	defer detach()
	in, err := openInput(ctx, o.Input, o.VideoStream)
	if err != nil {
		return nil, fmt.Errorf("%w%s", err, because(sink.unshown()))
	}
	defer in.close()
	stop := in.cancelOn(ctx)
	defer stop()
	if err := in.info().CheckStart(o.Start); err != nil {
		return nil, err
	}
	t, err := readFrameTable(in)
	if err != nil && ctx.Err() != nil {
		// Stopped: the interrupted read's last packet is cut short, and FFmpeg marks it
		// corrupt, which is not the video's fault.
		return nil, fmt.Errorf("video: reading the packets of %s: %w", in.path, context.Cause(ctx))
	}
	if err != nil {
		return nil, err
	}
	p := &SegmentPlan{Index: index, Count: count, table: t, source: sourceID(in), stream: in.nth, timeBase: in.vs.TimeBase()}
	// The frames a whole render admits, by its own rule, as it would meet them.
	w := newWindow(o.Start, o.End, in, 0)
	for v := 1; v <= t.frames() && !w.ended; v++ {
		if w.admit(v, t.pts[v-1]) {
			if p.First == 0 {
				p.First = v
			}
			p.Last = v
		}
	}
	if p.First == 0 {
		return nil, fmt.Errorf("%w: nothing lies %s; the video has %d frames", ErrNothingToRender, describeRange(o.Start, o.End), t.frames())
	}
	n := p.Last - p.First + 1
	if count > n {
		return nil, fmt.Errorf("%w: %d segments of a render of %d frames (frames %d to %d)", ErrSegmentCount, count, n, p.First, p.Last)
	}
	p.SegFirst = p.First + index*n/count
	p.SegLast = p.First + (index+1)*n/count - 1
	p.shift, p.cut, p.hasStart = w.shift, w.cut, w.hasStart
	return p, nil
}

// Frames is the number of frames the segment draws.
func (p *SegmentPlan) Frames() int { return p.SegLast - p.SegFirst + 1 }

// openInput opens the input positioned at the last keyframe at or before the segment's first
// frame, so that decoding starts there rather than at the start of the file; streams other
// than the video are discarded. A demuxer may land after that frame (one without an index,
// like MPEG-TS, seeks by estimate): then the input is opened again and decoded from the
// start, which is slower and as exact.
func (p *SegmentPlan) openInput(ctx context.Context, path string, logf func(string)) (*input, error) {
	in, err := p.openDiscarding(ctx, path)
	if err != nil {
		return nil, err
	}
	key, ok := p.table.keyframeFor(p.SegFirst)
	if !ok || key == p.table.keys[0] {
		return in, nil // from the start: nothing to skip
	}
	first := p.table.pts[p.SegFirst-1]
	landed, err := in.seekKeyframe(key)
	if err == nil && landed <= first {
		return in, nil
	}
	why := fmt.Sprintf("it landed at pts %d, after the segment's first frame (pts %d)", landed, first)
	if err != nil {
		why = err.Error()
	}
	logf(fmt.Sprintf("segment: seeking to the keyframe before frame %d failed (%s); decoding from the start", p.SegFirst, why))
	in.close()
	return p.openDiscarding(ctx, path)
}

// openDiscarding opens the input with every stream but the rendered video discarded.
func (p *SegmentPlan) openDiscarding(ctx context.Context, path string) (*input, error) {
	in, err := openInput(ctx, path, p.stream)
	if err != nil {
		return nil, err
	}
	for _, s := range in.fc.Streams() {
		if s.Index() != in.vs.Index() {
			discardStream(s)
		}
	}
	return in, nil
}

// seekKeyframe moves in to the keyframe at pts (AVSEEK_FLAG_BACKWARD: the demuxer's last
// keyframe at or before it) and returns the pts of the keyframe it landed on, read from the
// packets that follow. Seek by a keyframe's pts, not its dts: the MP4 demuxer compares
// presentation times (docs/segments.md §2).
func (in *input) seekKeyframe(pts int64) (int64, error) {
	flags := astiav.NewSeekFlags(astiav.SeekFlagBackward)
	if err := in.fc.SeekFrame(in.vs.Index(), pts, flags); err != nil {
		return 0, fmt.Errorf("seeking: %w", err)
	}
	pkt := astiav.AllocPacket()
	defer pkt.Free()
	for {
		if err := in.fc.ReadFrame(pkt); err != nil {
			return 0, fmt.Errorf("reading after the seek: %w", err)
		}
		key := pkt.StreamIndex() == in.vs.Index() && pkt.Flags().Has(astiav.PacketFlagKey)
		landed := pkt.Pts()
		pkt.Unref()
		if key {
			// Back again: the packets read to find the keyframe are gone.
			if err := in.fc.SeekFrame(in.vs.Index(), pts, flags); err != nil {
				return 0, fmt.Errorf("seeking: %w", err)
			}
			return landed, nil
		}
	}
}

// window admits the segment's frames, numbered from the frame table, and keeps their
// timestamps: the join shifts them as the whole render would.
func (p *SegmentPlan) window() *window {
	return &window{startFrame: p.SegFirst, endFrame: p.SegLast, startPts: astiav.NoPtsValue, endPts: astiav.NoPtsValue,
		cut: astiav.NoPtsValue, shown: astiav.NoPtsValue, past: map[int]bool{}, keepTimestamps: true}
}

// frameDuration is the duration frame v goes to the encoder with: its own (dur, from its
// packet, as in a whole render), except for the segment's last frame when the render goes on
// after it: the gap to the next frame, so that the segment's MP4 edit list does not cut it.
func (p *SegmentPlan) frameDuration(v int, dur int64) int64 {
	if v == p.SegLast && v < p.Last {
		return p.table.gap(v)
	}
	return dur
}

// firstPts is the pts of the segment's first frame.
func (p *SegmentPlan) firstPts() int64 { return p.table.pts[p.SegFirst-1] }

// segmentTag is the container metadata key of a segment's record.
const segmentTag = "trackink_segment"

// segmentRecord is what a segment file says about itself, as JSON in its container's
// trackink_segment tag (an MP4 mdta key): what the join checks, and what it needs to do as
// the whole render would. Timestamps are in the source video stream's time base.
type segmentRecord struct {
	Version int `json:"version"`
	// Plan is a SHA-256 of everything the segments of one render share: the source's frame
	// table, the count, the render's frames, the encoder and its options, the options that
	// change pixels and what the caller draws (SegmentPlan.Drawing).
	Plan   string `json:"plan"`
	Source string `json:"source"` // sourceID of the source
	Index  int    `json:"index"`
	Count  int    `json:"count"`
	Render [2]int `json:"render"` // the render's first and last frame
	Frames [2]int `json:"frames"` // this segment's
	// VideoStream is the rendered stream, from 1 among the source's video streams.
	VideoStream int    `json:"video_stream"`
	TimeBase    string `json:"time_base"`
	FirstPts    int64  `json:"first_pts"`
	LastPts     int64  `json:"last_pts"`
	// LastDuration is the duration of the segment's last frame: the join gives it to the
	// render's final frame (an MP4 segment that starts after 0 reads back without it).
	LastDuration int64 `json:"last_duration"`
	// Shift, Cut and HasStart are the whole render's window (SegmentPlan.shift…); Cut is
	// absent where nothing is cut.
	Shift    int64  `json:"shift"`
	Cut      *int64 `json:"cut,omitempty"`
	HasStart bool   `json:"has_start"`
	Encoder  string `json:"encoder"`
	// Build is the build of trackink that rendered the segment (buildIdentity): the join
	// refuses segments of two builds, whose pictures may differ. Not in Plan, so that the
	// join can say which segments each build made.
	Build string `json:"build"`
	// Packets is the hex SHA-256 of the segment's packets as the join reads them
	// (packetDigest), filled in once the file is finished (seal): the join refuses a segment
	// whose packets do not match it.
	Packets string `json:"packets"`
}

// segmentRecordVersion is the record's layout; a join refuses other versions. Version 2
// added Packets, version 3 Build.
const segmentRecordVersion = 3

// record is the segment's record once rendered: enc the encoder it used, last the pts and
// duration of its last frame.
func (p *SegmentPlan) record(o Options, enc *encoder, lastPts, lastDur int64) segmentRecord {
	h := sha256.New()
	fmt.Fprintf(h, "frames %s\ncount %d\nrender %d %d\nstream %d\n", p.table.fingerprint, p.Count, p.First, p.Last, p.stream)
	fmt.Fprintf(h, "encoder %s crf %d preset %q bitrate %d lossless %t work %s\n", enc.name, o.CRF, o.Preset, o.Bitrate, o.Lossless, enc.work)
	fmt.Fprintf(h, "frame-offset %d start %q end %q orientation %d odd-size %d\n", o.FrameOffset, o.Start, o.End, o.Orientation, o.OddSize)
	fmt.Fprintf(h, "drawing %s\n", p.Drawing)
	r := segmentRecord{Version: segmentRecordVersion, Plan: hex.EncodeToString(h.Sum(nil)), Source: p.source,
		Index: p.Index, Count: p.Count, Render: [2]int{p.First, p.Last}, Frames: [2]int{p.SegFirst, p.SegLast},
		VideoStream: p.stream, TimeBase: p.timeBase.String(), FirstPts: p.firstPts(), LastPts: lastPts, LastDuration: lastDur,
		Shift: p.shift, HasStart: p.hasStart, Encoder: enc.name, Build: buildIdentity()}
	if p.cut != astiav.NoPtsValue {
		r.Cut = &p.cut
	}
	return r
}

// write stores the record in the output's container metadata (before its trailer: the MP4
// muxer writes metadata with the movie header, at the end), its Packets a placeholder that
// the output's seal replaces with their checksum once the file is finished.
func (r segmentRecord) write(out *output) error {
	r.Packets = unsealed
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("video: encoding the segment record: %w", err)
	}
	out.seal = func(f *outfile.PartialFile) error { return r.seal(f, b) }
	return setFormatMetadata(out.fc, segmentTag, string(b))
}

// readSegmentRecord reads the record of the segment open in fc (path names it in errors):
// one this trackink joins.
func readSegmentRecord(fc *astiav.FormatContext, path string) (segmentRecord, error) {
	r, err := anySegmentRecord(fc, path)
	if err != nil {
		return r, err
	}
	switch {
	case r.Version == 1:
		return r, fmt.Errorf("segment %s: written by an older trackink, whose segments carry no checksum of their packets, so damage to it would go unseen: render the segments again with this trackink (render --segment i/N for each i) and join them",
			path)
	case r.Version == 2:
		return r, fmt.Errorf("segment %s: written by an older trackink, whose segments do not say which build of trackink rendered them, so segments of two builds (whose pictures may differ) would join unseen: render the segments again with this trackink (render --segment i/N for each i) and join them",
			path)
	case r.Version != segmentRecordVersion:
		return r, fmt.Errorf("segment %s: record version %d; this trackink reads version %d (render the segments and join them with the same trackink)",
			path, r.Version, segmentRecordVersion)
	}
	return r, nil
}

// anySegmentRecord reads the record of the segment open in fc, of whichever version.
func anySegmentRecord(fc *astiav.FormatContext, path string) (segmentRecord, error) {
	var r segmentRecord
	var e *astiav.DictionaryEntry
	if md := fc.Metadata(); md != nil {
		e = md.Get(segmentTag, nil, 0)
	}
	if e == nil {
		return r, fmt.Errorf("segment %s: not a trackink segment (it has no %s tag)", path, segmentTag)
	}
	if err := json.Unmarshal([]byte(e.Value()), &r); err != nil {
		return r, fmt.Errorf("segment %s: its %s tag is not a segment record: %w", path, segmentTag, err)
	}
	return r, nil
}

// CheckSegmentReplace checks before any work that the render of segment index of count may
// replace what is at path without being told to overwrite: nothing, or an earlier attempt's
// segment, a file whose record says it is segment index of count. A cluster task run again
// replaces its own segment so, whatever plan rendered it (docs/segments.md: "What a
// segment replaces"), of whichever version; anything else (a file that is no MP4, an MP4
// without a record, another segment renamed, a file that is not a regular one) is refused:
// the error says why, for the caller to refuse as any existing output without -y.
func CheckSegmentReplace(path string, index, count int) error {
	if there, err := replaceable(path); !there || err != nil {
		return err
	}
	_, detach := attachFFmpegLog(nil) // what FFmpeg says of a file that is no MP4 is the error's
	defer detach()
	fc := astiav.AllocFormatContext()
	if fc == nil {
		return errors.New("video: allocating a format context failed")
	}
	// As MP4, what a segment is: a file of another kind fails here, unprobed (a text file
	// is no ANSI art to us).
	if err := fc.OpenInput(fileURL(path), astiav.FindInputFormat("mp4"), nil); err != nil {
		fc.Free()
		return fmt.Errorf("it is not a trackink segment (FFmpeg cannot read it as MP4: %w)", err)
	}
	defer func() { fc.CloseInput(); fc.Free() }()
	r, err := anySegmentRecord(fc, path)
	switch {
	case err != nil:
		return fmt.Errorf("it is not a trackink segment (an MP4 without a %s tag)", segmentTag)
	case r.Index != index || r.Count != count:
		return fmt.Errorf("it is segment %d of %d by its record, not %d of %d (renamed?)", r.Index, r.Count, index, count)
	}
	return nil
}

// replaceable says whether there is a file at path, an error when there is but it is not a
// regular file: a FIFO would block the read that checks what it is.
func replaceable(path string) (there bool, err error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return true, err
	case !st.Mode().IsRegular():
		return true, errors.New("it is not a regular file")
	}
	return true, nil
}

// CheckStatsReplace is CheckSegmentReplace for the --stats-json file of the segment named
// segment (SegmentName): what is at path may be replaced without being told to overwrite
// when it is nothing or an earlier attempt's statistics of that segment, JSON whose output
// is that segment's file; the error says why anything else is not.
func CheckStatsReplace(path, segment string) error {
	if there, err := replaceable(path); !there || err != nil {
		return err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var stats struct {
		Output *string `json:"output"`
	}
	if json.Unmarshal(b, &stats) != nil || stats.Output == nil {
		return errors.New("it is not trackink's statistics (no JSON with an output)")
	}
	if got := filepath.Base(*stats.Output); got != segment {
		return fmt.Errorf("it is the statistics of %s, not of %s", got, segment)
	}
	return nil
}

// sourceID identifies a source from its header alone, no packets read: its container, its
// streams' codecs, parameters, time bases, durations and frame counts. The join compares it
// with the segments' to refuse segments of another source without reading its video.
func sourceID(in *input) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s %d\n", in.fc.InputFormat().Name(), in.fc.Duration())
	for _, s := range in.fc.Streams() {
		par := s.CodecParameters()
		fmt.Fprintf(h, "%d %s %s %dx%d %d %d %s %d %d %x\n", s.Index(), par.MediaType(), par.CodecID(), par.Width(), par.Height(),
			par.SampleRate(), par.Channels(), s.TimeBase(), s.Duration(), s.NbFrames(), par.ExtraData())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SegmentName is the file name of segment index (from 0) of count of a render of input: the
// input's name without its extension, then .seg-0002-of-0004.mp4 (numbers wider past 9999
// segments). Segments are MP4 whatever the final output is: MP4 keeps the input's
// timestamps exactly and carries the record.
func SegmentName(input string, index, count int) string {
	stem := strings.TrimSuffix(filepath.Base(input), filepath.Ext(input))
	return stem + ".seg-" + SegmentNumber(index, count) + ".mp4"
}

// SegmentNumber is how SegmentName numbers segment index of count: 0002-of-0004, so that
// other files of a segment (its --stats-json) sort and read as its video does.
func SegmentNumber(index, count int) string {
	w := max(4, len(strconv.Itoa(count)))
	return fmt.Sprintf("%0*d-of-%0*d", w, index, w, count)
}

// SegmentFiles lists the files in dir named as SegmentName names the segments of renders of
// source, in name order (index order for one count); none is an error. Partial files of
// renders still running or killed are hidden and never listed.
func SegmentFiles(dir, source string) ([]string, error) {
	stem := strings.TrimSuffix(filepath.Base(source), filepath.Ext(source))
	re := regexp.MustCompile(`^` + regexp.QuoteMeta(stem) + `\.seg-[0-9]+-of-[0-9]+\.mp4$`)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && re.MatchString(e.Name()) {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no segments of %s there (none named %s.seg-*-of-*.mp4)", source, stem)
	}
	return files, nil
}
