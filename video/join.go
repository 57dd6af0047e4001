package video

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"trackink/internal/prose"
	"trackink/outfile"

	"github.com/asticode/go-astiav"
)

// JoinOptions configures Join.
type JoinOptions struct {
	Source   string   // the video the segments were rendered from
	Segments []string // the segment files, in any order
	Output   string   // container chosen by extension, as in Options.Output
	// Overwrite allows replacing an existing Output (never the source or a segment:
	// outfile.ErrIsInput, ErrOutputIsSegment).
	Overwrite bool
	// Log, FFmpegLog and Progress are as in Options.
	Log       func(line string)
	FFmpegLog func(line string)
	Progress  func(Progress)
}

// JoinStats is what a Join did.
type JoinStats struct {
	Segments, Frames int
	Bytes            int64 // the output's size
	Wall             time.Duration
	Warnings         []string
}

// CheckJoinContainer checks that output's name picks a container that can hold a join's
// video (the segments' H.264 or HEVC), as Validate checks a render's Output: a
// *field.Error for video.Options.Output.
func CheckJoinContainer(output string) error { return checkMuxer(output, astiav.CodecIDH264) }

// Join concatenates the segments of one render (Options.Segment) into the output the whole
// render would have written, without re-encoding: the segments' video packets in order,
// each with its own timestamps, shifted as the whole render shifts them (Start); the
// source's other streams copied once through the same window and output code as a render
// (audio, subtitles, metadata, the display matrix). It checks first that the segments are
// one render's and all of it (their records: the same build of trackink, the same plan and
// source, each index once, none missing, contiguous frames; the same codec parameters byte
// for byte) and that each segment's packets match the checksum in its record (a
// *DamagedSegmentError names one that does not, or that cannot be read), then as it goes
// that each starts with a keyframe after the previous one's last frame and holds the frames
// its record says. Each segment file is opened once, and its record, checksum and packets
// are all read from that open file: a segment replaced meanwhile (its render run again, as
// a requeued cluster task does) is joined as it was when opened, or, where the open file
// cannot be opened again (no /proc), the join stops with ErrSegmentChanged. The output is
// written like a render's: a partial file moved into place.
func Join(ctx context.Context, o JoinOptions) (JoinStats, error) {
	started := time.Now()
	sink, detach := attachFFmpegLog(o.FFmpegLog)
	defer detach()
	if o.Log == nil {
		o.Log = func(string) {}
	}
	rep := &report{log: o.Log}
	var c closer
	defer c.close()
	stats := JoinStats{Segments: len(o.Segments)}
	finish := func(err error) (JoinStats, error) {
		stats.Wall, stats.Warnings = time.Since(started), rep.warnings
		if err != nil && !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("%w%s", err, because(sink.unshown()))
		}
		return stats, err
	}

	if err := CheckJoinContainer(o.Output); err != nil {
		return finish(err)
	}
	if _, err := CheckJoinOutput(o.Source, o.Segments, o.Output, o.Overwrite); err != nil {
		return finish(err)
	}
	segs, err := openSegments(ctx, o.Source, o.Segments)
	if err != nil {
		return finish(err)
	}
	for _, s := range segs {
		c.add(s.close)
	}
	if testHookSegmentsOpened != nil {
		testHookSegmentsOpened()
	}
	rec := segs[0].rec
	src, err := openInput(ctx, o.Source, rec.VideoStream)
	if err != nil {
		return finish(err)
	}
	c.add(src.close)
	stopInterrupt := src.cancelOn(ctx)
	c.add(func() { stopInterrupt() })
	if sourceID(src) != rec.Source || src.vs.TimeBase().String() != rec.TimeBase {
		return finish(fmt.Errorf("video: the segments (%s…) were not rendered from %s: their record names another source", segs[0].path, o.Source))
	}
	// Last of the checks before the output exists: it reads every segment.
	t0 := time.Now()
	verified, err := verifySegments(ctx, segs)
	if err != nil {
		return finish(err)
	}
	o.Log(fmt.Sprintf("join: the packets of the %d segments match their checksums (%.1f MB read in %.2f s)",
		len(segs), float64(verified)/1e6, time.Since(t0).Seconds()))

	out, err := createOutput(src, o.Source, o.Output, o.Overwrite, true, rep.warn)
	if err != nil {
		return finish(err)
	}
	c.add(out.close)
	if err := out.addSegmentVideo(src, segs[0].in.vs.CodecParameters(), rep.warn); err != nil {
		return finish(err)
	}
	if err := out.shiftTimecodes(src.vs, rec.Render[0]-1, rep.warn); err != nil {
		return finish(err)
	}
	if err := out.writeHeader(false); err != nil {
		return finish(err)
	}
	// The source's video comes from the segments: the demuxer skips it (and any stream not
	// copied), so the join reads little more of the source than its audio.
	for _, s := range src.fc.Streams() {
		if _, copied := out.copied[s.Index()]; !copied {
			discardStream(s)
		}
	}
	cut := int64(astiav.NoPtsValue)
	if rec.Cut != nil {
		cut = *rec.Cut
	}
	copier := &decodeStage{in: src, win: newResolvedWindow(rec.Shift, cut, rec.HasStart, len(out.copied)), copied: out.copied, rep: rep}
	reader := &segmentReader{segs: segs, out: out.video, tb: src.vs.TimeBase(), shift: rec.Shift}
	total := rec.Render[1] - rec.Render[0] + 1
	mux := &muxStage{out: out, progress: newProgress(o.Progress, total, started)}
	err = runStages(ctx, mux, reader.run, copier.copyAll)
	stats.Frames = mux.frames
	if err == nil && mux.frames != total {
		err = fmt.Errorf("video: joined %d frames, the render has %d (frames %d to %d)", mux.frames, total, rec.Render[0], rec.Render[1])
	}
	if err == nil {
		err = out.commit(ctx, o.Overwrite)
	}
	if err == nil {
		if st, serr := os.Stat(o.Output); serr == nil {
			stats.Bytes = st.Size()
		}
		mux.progress.report(stats.Frames, true)
	}
	return finish(err)
}

// ErrSegmentChanged means a segment file was replaced while the join read it (a segment's
// render run again, as a requeued cluster task does, renames its new file over the old),
// where the join could not read the file it had opened (no /proc): running the join again
// reads the new one throughout.
var ErrSegmentChanged = errors.New("changed during the join")

// testHookSegmentsOpened, when set (by tests), runs once Join has opened the segments and
// read their records, before it checks and copies their packets.
var testHookSegmentsOpened func()

// procFD is where Linux names a process's open files: opening procFD + "7" opens the file
// descriptor 7 is open on (a new open of the same inode, with an offset of its own), whatever
// its path names by then. A variable for the tests, which take it away.
var procFD = "/proc/self/fd/"

// segmentFile is a segment, its record and the demuxer the join copies its packets from.
//
// The file is opened once (file), and FFmpeg reads it through url, which names that open
// file, not path: the record, the checksum and the packets copied are all one file's, though
// a segment's render run again (a requeued cluster task) may rename its new segment over
// path during the join. Without /proc, url is path itself, and every open checks that path
// still names file (ErrSegmentChanged).
type segmentFile struct {
	path      string
	file      *os.File // nil for a URL, which FFmpeg opens as any input
	url       string
	checkPath bool
	in        *input
	rec       segmentRecord
}

// openSegmentFile opens the segment path names: its file once, then a demuxer on it.
func openSegmentFile(ctx context.Context, path string) (*segmentFile, error) {
	s := &segmentFile{path: path, url: path}
	if local, ok := outfile.LocalPath(path); ok {
		f, err := os.Open(local)
		if err != nil {
			return nil, fmt.Errorf("video: input: %w", err)
		}
		s.file = f
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("video: input: %w", err)
		}
		fd := procFD + strconv.Itoa(int(f.Fd()))
		if pst, err := os.Stat(fd); err == nil && os.SameFile(st, pst) {
			s.url = fileURL(fd)
		} else {
			s.url, s.checkPath = fileURL(local), true
		}
	}
	var err error
	if s.in, err = s.open(ctx); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// open opens a demuxer on the segment's file, as its header describes it (the codec
// parameter bytes included, which is what sameVideo compares), without probing.
func (s *segmentFile) open(ctx context.Context) (*input, error) {
	in, err := openInputURL(ctx, s.path, s.url, nil, 1, false)
	if err != nil {
		return nil, err
	}
	if s.checkPath {
		local, _ := outfile.LocalPath(s.path)
		st, err := s.file.Stat()
		pst, perr := os.Stat(local)
		if err != nil || perr != nil || !os.SameFile(st, pst) {
			in.close()
			return nil, fmt.Errorf("video: segment %s %w (replaced: its render run again?): run the join again", s.path, ErrSegmentChanged)
		}
	}
	return in, nil
}

// close closes the segment's demuxer and file.
func (s *segmentFile) close() {
	if s.in != nil {
		s.in.close()
		s.in = nil
	}
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}

// openSegments opens the segment files, reads their records and checks that they are every
// segment of one render, once: the same count, build of trackink (sameBuild) and plan
// (source, options, tracks), each index once, none missing, their frames contiguous, and
// the same codec, size, pixel format and codec parameter bytes (extradata) as the first. It
// returns them in index order.
func openSegments(ctx context.Context, source string, paths []string) ([]*segmentFile, error) {
	if len(paths) == 0 {
		return nil, errors.New("video: no segments to join")
	}
	var segs []*segmentFile
	fail := func(err error) ([]*segmentFile, error) {
		for _, s := range segs {
			s.close()
		}
		return nil, err
	}
	for _, p := range paths {
		// As their headers describe them; the first in order is probed below.
		s, err := openSegmentFile(ctx, p)
		switch {
		case errors.Is(err, ErrSegmentChanged), err != nil && ctx.Err() != nil:
			// An open a stop signal ended is no damaged segment: the join was stopped.
			return fail(err)
		case err != nil:
			return fail(unreadableSegment(p, err))
		}
		segs = append(segs, s)
		if s.rec, err = readSegmentRecord(s.in.fc, p); err != nil {
			return fail(err)
		}
	}
	slices.SortStableFunc(segs, func(a, b *segmentFile) int { return a.rec.Index - b.rec.Index })
	first := segs[0]
	count := first.rec.Count
	for _, s := range segs {
		if s.rec.Count != count {
			return fail(fmt.Errorf("video: %s is a segment of %d, %s of %d: segments of two renders cut differently (remove the older ones)",
				s.path, s.rec.Count, first.path, count))
		}
	}
	if err := sameBuild(segs); err != nil {
		return fail(err)
	}
	for i, s := range segs {
		switch {
		case s.rec.Plan != first.rec.Plan:
			return fail(fmt.Errorf("video: foreign segment: %s and %s are segments of different renders (another source, other options or other tracks)",
				s.path, first.path))
		case i > 0 && s.rec.Index == segs[i-1].rec.Index:
			return fail(fmt.Errorf("video: duplicate segment %d of %d: %s and %s", s.rec.Index, count, segs[i-1].path, s.path))
		}
		if err := sameVideo(first, s); err != nil {
			return fail(err)
		}
	}
	for i := range count {
		if i >= len(segs) || segs[i].rec.Index != i {
			return fail(fmt.Errorf("video: segment %d of %d is missing (%s)", i, count, SegmentName(source, i, count)))
		}
	}
	for i, s := range segs {
		want := first.rec.Render[0]
		if i > 0 {
			want = segs[i-1].rec.Frames[1] + 1
		}
		if s.rec.Frames[0] != want || s.rec.Frames[1] < s.rec.Frames[0] || s.rec.Render != first.rec.Render {
			return fail(fmt.Errorf("video: segment %s holds frames %d to %d, want them from %d in a render of frames %d to %d",
				s.path, s.rec.Frames[0], s.rec.Frames[1], want, first.rec.Render[0], first.rec.Render[1]))
		}
	}
	if last := segs[len(segs)-1].rec; last.Frames[1] != last.Render[1] {
		return fail(fmt.Errorf("video: the last segment ends at frame %d, the render at %d", last.Frames[1], last.Render[1]))
	}
	// Its parameters become the output's: all of them, the pixel format among them, which
	// only decoding tells.
	if err := first.in.fc.FindStreamInfo(nil); err != nil {
		return fail(fmt.Errorf("video: reading stream info of %s: %w", first.path, err))
	}
	return segs, nil
}

// sameBuild refuses segments (in index order) that two builds of trackink rendered, whose
// pictures may differ (a node with an older binary), naming each build and the segments it
// rendered.
func sameBuild(segs []*segmentFile) error {
	var builds []string
	made := map[string][]*segmentFile{}
	for _, s := range segs {
		if made[s.rec.Build] == nil {
			builds = append(builds, s.rec.Build)
		}
		made[s.rec.Build] = append(made[s.rec.Build], s)
	}
	if len(builds) == 1 {
		return nil
	}
	var by []string
	for _, b := range builds {
		var indexes, paths []string
		for _, s := range made[b] {
			indexes, paths = append(indexes, strconv.Itoa(s.rec.Index)), append(paths, s.path)
		}
		what := "segment " + indexes[0]
		if len(indexes) > 1 {
			what = "segments " + prose.List(indexes, " and ")
		}
		by = append(by, fmt.Sprintf("%s (%s) by trackink %s", what, strings.Join(paths, ", "), b))
	}
	return fmt.Errorf("video: segments rendered by %d builds of trackink, whose pictures may differ: %s; install one build on every node, render again the segments another build rendered, and join them",
		len(builds), strings.Join(by, "; "))
}

// sameVideo checks that segment s's one stream is video coded as segment ref's: the same
// codec and size and the same codec parameter bytes (the SPS and PPS of H.264 and HEVC:
// the pixel format, the profile and the encoder's settings are in them; x264's PPS carries
// its initial QP).
//
// The MP4 muxer adds a timecode track to a segment of a source with a timecode (its first
// frame's, shiftTimecodes): that is the one other stream it may have.
func sameVideo(ref, s *segmentFile) error {
	n := 0
	for _, st := range s.in.fc.Streams() {
		if !isTimecodeTrack(st) {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("video: segment %s has %d streams; a segment has its video only", s.path, n)
	}
	a, b := ref.in.vs.CodecParameters(), s.in.vs.CodecParameters()
	describe := func(p *astiav.CodecParameters) string {
		return fmt.Sprintf("%s %dx%d, %d bytes of codec parameters", p.CodecID().Name(), p.Width(), p.Height(), len(p.ExtraData()))
	}
	if a.CodecID() != b.CodecID() || a.Width() != b.Width() || a.Height() != b.Height() || !bytes.Equal(a.ExtraData(), b.ExtraData()) {
		return fmt.Errorf("video: foreign segment: %s is coded otherwise than %s (%s; %s)", s.path, ref.path, describe(b), describe(a))
	}
	return nil
}

// CheckJoinOutput checks before any work that output can be written for a join of segments
// of source: outfile.CheckOutput's checks (not the source, not existing without overwrite…), and
// not one of the segments either (ErrOutputIsSegment). It returns the path to write.
func CheckJoinOutput(source string, segments []string, output string, overwrite bool) (string, error) {
	target, err := outfile.CheckOutput(source, output, overwrite)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(target)
	if err != nil {
		return target, nil // not there yet
	}
	for _, s := range segments {
		if ss, err := os.Stat(s); err == nil && os.SameFile(st, ss) {
			return "", fmt.Errorf("%w: %s is %s", ErrOutputIsSegment, output, s)
		}
	}
	return target, nil
}

// segmentReader sends the segments' video packets to the muxer in order, each with its own
// timestamps, never re-based on durations (docs/segments.md §6), checking as it goes what
// the records promise.
type segmentReader struct {
	segs  []*segmentFile
	out   *astiav.Stream  // the output's video stream
	tb    astiav.Rational // the source video's time base, the records'
	shift int64           // the whole render's shift (Start), in tb
}

func (r *segmentReader) run(ctx context.Context, mux packetSink) error {
	lastDts, maxPts := int64(astiav.NoPtsValue), int64(astiav.NoPtsValue)
	final := r.segs[len(r.segs)-1]
	for _, s := range r.segs {
		n := 0
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			p := astiav.AllocPacket()
			err := s.in.fc.ReadFrame(p)
			if errors.Is(err, astiav.ErrEof) {
				p.Free()
				break
			}
			if err == nil && p.StreamIndex() != s.in.vs.Index() {
				p.Free() // its timecode track (sameVideo)
				continue
			}
			if err == nil {
				p.RescaleTs(s.in.vs.TimeBase(), r.tb)
				err = r.check(s, p, n, maxPts)
			}
			if err != nil {
				p.Free()
				return fmt.Errorf("video: segment %s: %w", s.path, err)
			}
			n++
			maxPts = max(maxPts, p.Pts())
			// The render's final frame (the last in presentation order, not the last packet:
			// B-frames) ends when the whole render's did; the MP4 muxer ends the edit list
			// there (an MP4 segment that starts after 0 reads back without this duration).
			if s == final && p.Pts() == s.rec.LastPts && s.rec.LastDuration > 0 {
				p.SetDuration(s.rec.LastDuration)
			}
			p.SetPts(p.Pts() - r.shift)
			if p.Dts() != astiav.NoPtsValue {
				p.SetDts(p.Dts() - r.shift)
			}
			// Each segment's first dts is its first pts less its encoder's delay, which
			// differs where the frame rate changes: keep dts increasing across a cut. Decoders
			// do not read dts; the muxer needs them increasing, and below pts they stay, as
			// every frame of the previous segment precedes this one's.
			if lastDts != astiav.NoPtsValue && p.Dts() <= lastDts {
				if lastDts+1 > p.Pts() {
					p.Free()
					return fmt.Errorf("video: segment %s: its dts cannot increase past %d below its pts %d", s.path, lastDts, p.Pts())
				}
				p.SetDts(lastDts + 1)
			}
			lastDts = p.Dts()
			p.SetStreamIndex(r.out.Index())
			p.RescaleTs(r.tb, r.out.TimeBase())
			p.SetPos(-1)
			if err := mux(p); err != nil {
				return err
			}
		}
		if want := s.rec.Frames[1] - s.rec.Frames[0] + 1; n != want {
			return fmt.Errorf("video: segment %s holds %d frames, its record %d (frames %d to %d)", s.path, n, want, s.rec.Frames[0], s.rec.Frames[1])
		}
	}
	return nil
}

// check checks packet p, the n-th (from 0) of segment s, against its record and the
// segments before it (maxPts: the latest frame so far).
func (r *segmentReader) check(s *segmentFile, p *astiav.Packet, n int, maxPts int64) error {
	pts := p.Pts()
	switch {
	case n == 0 && !p.Flags().Has(astiav.PacketFlagKey):
		return errors.New("it does not start with a keyframe")
	case n == 0 && maxPts != astiav.NoPtsValue && pts <= maxPts:
		return fmt.Errorf("it starts at pts %d, not after the previous segment's last frame (pts %d)", pts, maxPts)
	case n == 0 && pts != s.rec.FirstPts:
		return fmt.Errorf("it starts at pts %d, its record at %d", pts, s.rec.FirstPts)
	case pts < s.rec.FirstPts || pts > s.rec.LastPts:
		return fmt.Errorf("a frame at pts %d lies outside its record's %d to %d", pts, s.rec.FirstPts, s.rec.LastPts)
	}
	return nil
}
