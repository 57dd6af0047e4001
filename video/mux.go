package video

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/internal/field"
	"trackink/outfile"
)

// output is the muxer writing to a partial file beside the target (outfile.go); commit moves
// it into place, close removes it if commit did not, so a failed or cancelled run leaves
// nothing half-written.
type output struct {
	fc      *astiav.FormatContext
	pb      *astiav.IOContext
	partial *outfile.PartialFile
	final   string
	video   *astiav.Stream
	copied  map[int]*astiav.Stream // input stream index → output stream
	// seal, when set, is run on the finished file before it is moved into place: a
	// segment's record gets the checksum of its packets (segmentsum.go).
	seal func(*outfile.PartialFile) error
}

// createOutput checks the target (outfile.CheckOutput), creates the partial file and the muxer, and
// maps the video stream and, with copyOthers, every other stream the container can hold. The
// container is guessed from the name's extension.
func createOutput(in *input, inPath, path string, overwrite, copyOthers bool, warn func(string)) (*output, error) {
	target, err := outfile.CheckOutput(inPath, path, overwrite)
	if err != nil {
		return nil, err
	}
	fc, err := astiav.AllocOutputFormatContext(nil, "", path)
	if err != nil || fc == nil {
		return nil, fmt.Errorf("video: no container format for output %s (use .mp4, .mkv or .mov): %v", path, err)
	}
	o := &output{fc: fc, final: path, copied: map[int]*astiav.Stream{}}
	if o.partial, err = outfile.CreatePartial(target); err != nil {
		fc.Free()
		return nil, err
	}
	if o.pb, err = astiav.OpenIOContext(fileURL(o.partial.Name()), astiav.NewIOContextFlags(astiav.IOContextFlagWrite)); err != nil {
		o.close()
		return nil, fmt.Errorf("video: opening %s for writing: %w", o.partial.Name(), err)
	}
	fc.SetPb(o.pb)
	if err := copyContainerMeta(fc, in.fc); err != nil {
		o.close()
		return nil, err
	}
	if err := o.mapStreams(in, copyOthers, warn); err != nil {
		o.close()
		return nil, err
	}
	return o, nil
}

// mapStreams adds output streams in the input's order: the rendered video (filled in by
// addVideo once the encoder is open, or by addSegmentVideo) and, with copyOthers, every
// other stream, to be copied packet for packet. Streams the container cannot hold (SRT
// subtitles in MP4, timecode data…) are dropped with a warning rather than failing the
// render; but audio is the video's own, which a render keeps: audio the container cannot
// hold (a camera's PCM in MP4) is refused, naming containers that hold it.
func (o *output) mapStreams(in *input, copyOthers bool, warn func(string)) error {
	for _, s := range in.fc.Streams() {
		par := s.CodecParameters()
		if s.Index() == in.vs.Index() {
			if o.video = o.fc.NewStream(nil); o.video == nil {
				return errors.New("video: adding the output video stream failed")
			}
			continue
		}
		if !copyOthers {
			continue
		}
		what := fmt.Sprintf("stream #%d (%s %s)", s.Index(), par.MediaType(), par.CodecID())
		if isTimecodeTrack(s) && hasTimecode(in.vs) {
			// A QuickTime timecode track: the muxer writes one anew from the video stream's
			// timecode tag, which copyStreamMeta carries.
			continue
		}
		if par.MediaType() == astiav.MediaTypeAudio && !muxerAccepts(o.fc, par.CodecID()) {
			return field.Errorf("video.Options.Output", o.final, "the %s container cannot hold the video's %s: write .mov or .mkv, which keep it",
				strings.TrimPrefix(filepath.Ext(o.final), "."), what)
		}
		if par.MediaType() == astiav.MediaTypeAttachment || !muxerAccepts(o.fc, par.CodecID()) {
			warn(fmt.Sprintf("%s dropped: %s cannot hold it", what, filepath.Ext(o.final)))
			continue
		}
		ost := o.fc.NewStream(nil)
		if ost == nil {
			return fmt.Errorf("video: adding output for %s failed", what)
		}
		if err := par.Copy(ost.CodecParameters()); err != nil {
			return fmt.Errorf("video: copying parameters of %s: %w", what, err)
		}
		// The source container's codec tag may mean nothing in the target; 0 lets the muxer pick.
		ost.CodecParameters().SetCodecTag(0)
		ost.SetTimeBase(s.TimeBase())
		if err := copyStreamMeta(ost, s); err != nil {
			return err
		}
		o.copied[s.Index()] = ost
	}
	return nil
}

// addVideo describes the encoded video stream, with the source stream's metadata and display
// matrix.
func (o *output) addVideo(in *input, enc *encoder, warn func(string)) error {
	if err := o.video.CodecParameters().FromCodecContext(enc.cc); err != nil {
		return fmt.Errorf("video: setting output video parameters: %w", err)
	}
	return o.describeVideo(in, enc.cc.TimeBase(), warn)
}

// addSegmentVideo describes a join's video stream: the segments' codec parameters (par)
// where a render has its encoder's, the rest as addVideo.
func (o *output) addSegmentVideo(in *input, par *astiav.CodecParameters, warn func(string)) error {
	if err := par.Copy(o.video.CodecParameters()); err != nil {
		return fmt.Errorf("video: setting output video parameters: %w", err)
	}
	o.video.CodecParameters().SetCodecTag(0) // the segments' MP4 tag; the target's muxer picks its own
	return o.describeVideo(in, in.vs.TimeBase(), warn)
}

// describeVideo gives the output video stream, its codec parameters set, the time base tb
// and the source stream's frame rates, metadata and display matrix.
func (o *output) describeVideo(in *input, tb astiav.Rational, warn func(string)) error {
	s := o.video
	s.SetTimeBase(tb)
	s.SetAvgFrameRate(in.vs.AvgFrameRate())
	s.SetRFrameRate(in.vs.RFrameRate())
	s.SetSampleAspectRatio(s.CodecParameters().SampleAspectRatio())
	if m, err := astiav.NewDisplayMatrixFromBytes(in.vs.SideData(astiav.PacketSideDataTypeDisplaymatrix)); err == nil &&
		m.Rotation() != 0 && !o.holdsTurn() {
		warn(fmt.Sprintf("the video's rotation (display matrix) is lost: FFmpeg 5.1 cannot store it in %s; use .mp4 or .mov", o.fc.OutputFormat().LongName()))
	}
	return copyStreamMeta(s, in.vs)
}

// writeHeader writes the container's header. A segment's (an MP4) gets the video track's
// timescale as the movie's too, so that its start offset, an edit list in the movie
// timescale, is exact: with the default, 1/1000 s, a segment that starts at pts 150000 of
// 1/90000 reads back at 149940 (docs/segments.md §5); and its tags are written as mdta
// keys, which carry its record. Whole renders and joins keep the muxer's defaults, so a
// join is written exactly as the whole render.
func (o *output) writeHeader(segment bool) error {
	d := astiav.NewDictionary()
	defer d.Free()
	if segment {
		ts := strconv.Itoa(movTimescale(o.video.TimeBase()))
		_ = d.Set("movie_timescale", ts, 0) // av_dict_set fails only on allocation
		_ = d.Set("video_track_timescale", ts, 0)
		_ = d.Set("movflags", "use_metadata_tags", 0)
	}
	if err := o.fc.WriteHeader(d); err != nil {
		return fmt.Errorf("video: writing the %s header: %w", filepath.Ext(o.final), err)
	}
	return nil
}

// movTimescale is the timescale the MP4 muxer gives a video track of time base tb: its
// denominator, doubled until it is at least 10000 (movenc.c, mov_init).
func movTimescale(tb astiav.Rational) int {
	ts := max(tb.Den(), 1)
	for ts < 10000 {
		ts *= 2
	}
	return ts
}

// commit finishes the file and moves it into place with its partners (outfile.CommitAll),
// unless ctx has ended: a stop that comes while the trailer is written (an MP4's index, its
// faststart rewrite) or the file sealed leaves nothing, as one that comes earlier does.
func (o *output) commit(ctx context.Context, overwrite bool, partners ...*outfile.PartialFile) error {
	if ctx.Err() != nil {
		return cancelled(ctx)
	}
	if err := o.fc.WriteTrailer(); err != nil {
		return fmt.Errorf("video: finishing %s: %w", o.partial.Name(), err)
	}
	err := o.pb.Close()
	o.pb = nil
	if err != nil {
		return fmt.Errorf("video: closing %s: %w", o.partial.Name(), err)
	}
	if o.seal != nil {
		if err := o.seal(o.partial); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return cancelled(ctx)
	}
	return outfile.CommitAll(overwrite, append([]*outfile.PartialFile{o.partial}, partners...)...)
}

// writingTo names what the muxer writes, for messages: the partial file, or a picture
// sequence's pattern.
func (o *output) writingTo() string {
	if o.partial == nil {
		return o.final
	}
	return o.partial.Name()
}

// close releases the muxer; unless commit moved the file into place, it also deletes the
// partial file.
func (o *output) close() {
	if o.pb != nil {
		o.pb.Close()
	}
	o.fc.Free()
	o.partial.Discard()
}

// muxStage writes packets from both producers (encoder and demuxer) in the order FFmpeg's
// interleaver needs, counts the frames written and reports progress. It is the only
// goroutine that touches the muxer.
type muxStage struct {
	timer
	out      *output
	progress *progress
	frames   int // video frames written
	packets  *spares[*astiav.Packet]
}

func (m *muxStage) run(ctx context.Context, in <-chan *astiav.Packet) error {
	for p := range in {
		if err := ctx.Err(); err != nil {
			p.Free()
			return err
		}
		if err := m.write(p); err != nil {
			return err
		}
	}
	return nil
}

// write writes packet p (and frees it, or keeps it empty for reuse), counts the video frames and reports progress.
func (m *muxStage) write(p *astiav.Packet) error {
	t0 := time.Now()
	video := p.StreamIndex() == m.out.video.Index()
	err := m.out.fc.WriteInterleavedFrame(p)
	m.packets.put(p)
	m.since(t0)
	if err != nil {
		return fmt.Errorf("video: writing %s: %w", m.out.writingTo(), err)
	}
	if video {
		m.frames++
		m.progress.report(m.frames, false)
	}
	return nil
}

// progress calls Options.Progress at most twice a second, and always when final.
type progress struct {
	f        func(Progress)
	total    int // expected frames, 0 when unknown
	started  time.Time
	lastTick time.Time
}

func newProgress(f func(Progress), total int, started time.Time) *progress {
	return &progress{f: f, total: total, started: started}
}

func (p *progress) report(frames int, final bool) {
	if p.f == nil {
		return
	}
	now := time.Now()
	if !final && now.Sub(p.lastTick) < 500*time.Millisecond {
		return
	}
	p.lastTick = now
	pr := Progress{Frames: frames, Total: p.total, Elapsed: now.Sub(p.started)}
	if s := pr.Elapsed.Seconds(); s > 0 {
		pr.FPS = float64(pr.Frames) / s
	}
	if pr.Total > pr.Frames && pr.FPS > 0 {
		pr.ETA = time.Duration(float64(pr.Total-pr.Frames) / pr.FPS * float64(time.Second))
	}
	p.f(pr)
}

// isTimecodeTrack reports whether s is a data stream that carries a timecode (QuickTime's
// tmcd track, as FFmpeg's demuxer exposes it).
func isTimecodeTrack(s *astiav.Stream) bool {
	return s.CodecParameters().MediaType() == astiav.MediaTypeData && hasTimecode(s)
}

// hasTimecode reports whether s has a "timecode" metadata tag.
func hasTimecode(s *astiav.Stream) bool {
	md := s.Metadata()
	return md != nil && md.Get("timecode", nil, 0) != nil
}
