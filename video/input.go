package video

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/asticode/go-astiav"

	"trackink/internal/field"
	"trackink/outfile"
)

// textArtFormats are FFmpeg's demuxers that draw text files as pictures (ANSI art, BIN, XBIN,
// ArtWorx, iCE Draw): a .txt given as a video, a tracks file passed to -i by mistake, would
// be rendered as its characters.
var textArtFormats = []string{"tty", "bin", "xbin", "adf", "idf"}

// textArtError refuses the file at path, which FFmpeg took for text-mode art (demuxer, one
// of textArtFormats), saying what it is: text (a tracks file given as the video), or bytes
// of another kind that only that demuxer takes (random bytes named .bin, which were called
// text).
func textArtError(path, demuxer string) error {
	if looksLikeText(path) {
		return fmt.Errorf("video: %s is text, not a video: FFmpeg would draw its characters as ANSI art (its %s demuxer)", path, demuxer)
	}
	return fmt.Errorf("video: %s is not a video FFmpeg recognises: only its %s demuxer takes it, which would draw its bytes as text-mode art", path, demuxer)
}

// looksLikeText reports whether the local file path starts as text does: valid UTF-8 (ASCII
// included) without control characters but line breaks, tabs, form feeds, ANSI escapes and
// DOS's end-of-file mark. A file it cannot read (a pipe, read already) is not known to be.
func looksLikeText(path string) bool {
	local, ok := outfile.LocalPath(path)
	if !ok {
		return false
	}
	f, err := os.Open(local)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	const head = 4096
	b := make([]byte, head)
	n, _ := io.ReadFull(f, b)
	b = b[:n]
	if n == head {
		// The read may end inside a character.
		for cut := 0; cut < utf8.UTFMax && !utf8.Valid(b); cut++ {
			b = b[:len(b)-1]
		}
	}
	if n == 0 || !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && !strings.ContainsRune("\t\n\v\f\r\x1a\x1b", rune(c)) || c == 0x7f {
			return false
		}
	}
	return true
}

// input is the opened source: the demuxer and the video stream that gets rendered.
type input struct {
	path      string
	fc        *astiav.FormatContext
	vs        *astiav.Stream
	nth       int // vs is the nth video stream (from 1) of videos
	videos    int
	interrupt astiav.IOInterrupter // makes blocking reads return once the job is cancelled
	pipe      *pipeInput           // a pipe or terminal Go reads for FFmpeg (pipe.go); nil for others
	// What the container promises, to notice a truncated file that ends cleanly: the frame
	// count (mp4/mov) and the end time of the video stream (stream tb; NoPtsValue if unknown).
	promisedFrames int64
	promisedEnd    int64
	// indexPos is the byte position of each video packet an AVI's index lists, in order,
	// where the index is whole (aviIndex); nil for other inputs.
	indexPos []int64
}

// openInput opens path and picks its video stream: the videoStream-th (from 1), or with 0
// the one FFmpeg ranks best. A ctx that ends while it waits (a pipe nobody writes to, a
// network input, a slow disk) ends the open with ctx's cause.
func openInput(ctx context.Context, path string, videoStream int) (*input, error) {
	return openInputProbed(ctx, path, videoStream, true)
}

// openInputProbed is openInput; without probe it takes the streams as the container's
// header describes them, without avformat_find_stream_info, which decodes a frame or more
// (a tenth of a second at 4K): enough for a file whose header says all a copy needs (an
// MP4 segment, whose codec parameters are in its header).
func openInputProbed(ctx context.Context, path string, videoStream int, probe bool) (*input, error) {
	// FFmpeg says "No such file or directory" too, but a Go error lets callers use errors.Is
	// with fs.ErrNotExist. URLs (scheme://) are left to FFmpeg; an image sequence's
	// pattern names no file, its first frame's file must exist, and no picture may be
	// missing before others (checkSequenceGap).
	url := path
	var pipe *pipeInput
	switch {
	case IsSequence(path):
		if err := checkSequenceGap(path); err != nil {
			return nil, fmt.Errorf("video: input: %w", err)
		}
	default:
		if local, ok := outfile.LocalPath(path); ok {
			if _, err := os.Stat(local); err != nil {
				return nil, fmt.Errorf("video: input: %w", err)
			}
			url = fileURL(local)
			var err error
			if pipe, _, err = openPipe(ctx, local); err != nil {
				return nil, fmt.Errorf("video: opening input %s: %w", path, err)
			}
		}
	}
	return openInputURL(ctx, path, url, pipe, videoStream, probe)
}

// openInputURL is openInputProbed opening url, which FFmpeg reads (through pipe where it is
// not nil), for the input path names in errors.
func openInputURL(ctx context.Context, path, url string, pipe *pipeInput, videoStream int, probe bool) (*input, error) {
	in := &input{path: path, fc: astiav.AllocFormatContext(), pipe: pipe}
	if in.fc == nil {
		if pipe != nil {
			pipe.close()
		}
		return nil, errors.New("video: allocating the input format context failed")
	}
	in.interrupt = in.fc.SetInterruptCallback()
	if pipe != nil {
		in.fc.SetPb(pipe.io) // FFmpeg reads it through Go; the URL names the format only
	}
	stop := context.AfterFunc(ctx, in.cancel)
	defer stop()
	if err := in.fc.OpenInput(url, nil, nil); err != nil {
		in.fc.Free()
		if pipe != nil {
			pipe.close()
		}
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		}
		return nil, fmt.Errorf("video: opening input %s: %w", path, err)
	}
	// Past the open, a failure while ctx has ended is the end's doing: an interrupted
	// probe gives up half-way, and leaves streams without a picture size (checkPicture)
	// where the file has one.
	fail := func(err error) (*input, error) {
		in.close()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("video: opening input %s: %w", path, context.Cause(ctx))
		}
		return nil, err
	}
	if err := checkLayout(in.fc); err != nil {
		return fail(err)
	}
	if f := in.fc.InputFormat(); f != nil && slices.Contains(textArtFormats, f.Name()) {
		return fail(textArtError(path, f.Name()))
	}
	if probe {
		if err := in.fc.FindStreamInfo(nil); err != nil {
			return fail(fmt.Errorf("video: reading stream info of %s: %w", path, err))
		}
	}
	if err := in.pickVideo(videoStream); err != nil {
		return fail(err)
	}
	if probe {
		if err := in.checkPicture(); err != nil {
			return fail(err)
		}
	}
	if ctx.Err() != nil {
		return fail(nil)
	}
	in.promisedFrames = in.vs.NbFrames()
	in.promisedEnd = promisedEnd(in.vs)
	in.indexPos = aviIndex(in)
	return in, nil
}

// aviIndex returns the byte position of every video packet an AVI's index (idx1, or
// OpenDML's indx) lists, in order, where the index is whole: its last entry is the last
// frame the header counts. Such an index is the one trustworthy count of an AVI's frames.
// The header's count is not: it counts the empty chunks that repeat the frame before (a
// variable rate: OpenCV's tree.avi counts 444, of which 68 hold a frame), so a file must
// only last as long as it says, and four frames lost mid-file passed that test unseen,
// while the demuxer numbered every later frame four early. Its index lists the 68. The
// demuxer reads the index with the header; an index missing (a file cut short) leaves
// only the entries of the packets read while probing, which do not reach the header's
// last frame. Other containers: MP4 and MOV count their samples exactly (NbFrames);
// Matroska's index lists keyframes only, MPEG-TS has none.
func aviIndex(in *input) []int64 {
	if f := in.fc.InputFormat(); f == nil || f.Name() != "avi" {
		return nil
	}
	n := indexEntries(in.vs)
	if n == 0 {
		return nil
	}
	if last, _ := indexEntry(in.vs, n-1); last+1 != in.vs.NbFrames() {
		return nil
	}
	pos := make([]int64, n)
	for i := range pos {
		_, pos[i] = indexEntry(in.vs, i)
	}
	return pos
}

// cancelOn makes the input's blocking reads return, and every read after them fail, once
// ctx ends: FFmpeg's interrupt callback, which its protocols and demuxers ask between
// reads, and for a pipe the end of Go's wait. The function returned stops watching ctx.
func (in *input) cancelOn(ctx context.Context) (stop func() bool) {
	return context.AfterFunc(ctx, in.cancel)
}

// cancel interrupts the input's reads (cancelOn).
func (in *input) cancel() {
	in.interrupt.Interrupt()
	if in.pipe != nil {
		in.pipe.cancel()
	}
}

// pickVideo sets vs to the n-th video stream (from 1; cover art does not count), or with
// n = 0 to the one av_find_best_stream ranks best.
func (in *input) pickVideo(n int) error {
	var videos []*astiav.Stream
	for _, s := range in.fc.Streams() {
		if s.CodecParameters().MediaType() == astiav.MediaTypeVideo && !isAttachedPic(s) {
			videos = append(videos, s)
		}
	}
	in.videos = len(videos)
	switch {
	case len(videos) == 0:
		return fmt.Errorf("%w: %s", ErrNoVideo, in.path)
	case n > len(videos) && len(videos) == 1:
		return field.Errorf("video.Options.VideoStream", n, "%s has one video stream", in.path)
	case n > len(videos):
		return field.Errorf("video.Options.VideoStream", n, "%s has %d video streams", in.path, len(videos))
	case n > 0:
		in.vs, in.nth = videos[n-1], n
		return nil
	}
	best, err := bestVideoStream(in.fc)
	in.vs, in.nth = videos[0], 1
	for i, s := range videos {
		if err == nil && s.Index() == best {
			in.vs, in.nth = s, i+1
		}
	}
	return nil
}

// checkPicture refuses, naming the file, a video stream whose frames cannot be drawn on:
// one without a picture format or size (a file cut before its first frame, or a form of
// video this FFmpeg cannot decode, such as animated WebP), one in a pixel format swscale
// cannot convert, or in BT.2020 constant luminance (chooseWorkFormat's refusals of the
// source, for an encoder that takes any format). It needs the probed stream.
func (in *input) checkPicture() error {
	par := in.vs.CodecParameters()
	err := ErrNoPicture
	if par.Width() > 0 && par.Height() > 0 {
		_, _, err = chooseWorkFormat(par, par.PixelFormat(), func(astiav.PixelFormat) bool { return true })
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in.path, err)
	}
	return nil
}

// Info describes a video's picture, read without decoding it.
type Info struct {
	Width, Height int // as stored
	// DisplayWidth and DisplayHeight are the picture as players show it: Width and Height
	// swapped when the display matrix turns it by 90° or 270°.
	DisplayWidth, DisplayHeight int
	Rotation                    int    // the display matrix's clockwise turn in degrees: 0, 90, 180, 270
	RotationProblem             string // a turn trackink does not undo (not a multiple of 90°); "" if none
	// Frames is what the container promises, or duration × frame rate; 0 when unknown.
	Frames int
	// PromisedFrames is the container's own frame count (MP4, MOV); 0 when it has none.
	PromisedFrames int
	// Duration is how long the video stream lasts by the container; 0 when unknown.
	Duration time.Duration
	// FrameRate is the stream's average frame rate (its base rate where the container
	// gives no average), frames a second; 0 when unknown.
	FrameRate   float64
	PixelFormat string
	Codec       string
	// VideoStream is the video stream rendered, counted from 1 among VideoStreams video
	// streams; StreamIndex is its index among all the input's streams (ffmpeg's #0:N).
	VideoStream, VideoStreams, StreamIndex int
}

func (in *input) info() Info {
	par := in.vs.CodecParameters()
	i := Info{Width: par.Width(), Height: par.Height(), DisplayWidth: par.Width(), DisplayHeight: par.Height(),
		Frames: in.expectedFrames(), PromisedFrames: int(max(in.promisedFrames, 0)),
		PixelFormat: par.PixelFormat().String(), Codec: par.CodecID().Name(),
		VideoStream: in.nth, VideoStreams: in.videos, StreamIndex: in.vs.Index()}
	if r := in.frameRate(); r.Num() > 0 && r.Den() > 0 {
		i.FrameRate = r.Float64()
	}
	if in.promisedEnd != astiav.NoPtsValue {
		start := in.vs.StartTime()
		if start == astiav.NoPtsValue {
			start = 0
		}
		i.Duration = time.Duration(float64(in.promisedEnd-start) * in.vs.TimeBase().Float64() * float64(time.Second))
	}
	t, err := streamTurn(in.vs)
	if err != nil {
		i.RotationProblem = err.Error()
	}
	i.Rotation = t.degrees
	if t.swaps {
		i.DisplayWidth, i.DisplayHeight = i.Height, i.Width
	}
	return i
}

// Length says how long the video is, in frames and seconds where known.
func (i Info) Length() string {
	switch {
	case i.PromisedFrames > 0 && i.Duration > 0:
		return fmt.Sprintf("%d frames, %.2f s", i.PromisedFrames, i.Duration.Seconds())
	case i.Duration > 0:
		return fmt.Sprintf("%.2f s", i.Duration.Seconds())
	case i.PromisedFrames > 0:
		return fmt.Sprintf("%d frames", i.PromisedFrames)
	}
	return "of unknown length"
}

// CheckOddSize refuses, as a *field.Error of Options.OddSize, an o.OddSize that would leave
// no picture (OddCrop of a video 1 pixel wide or high), or Odd444 where o's encoder codes a
// 4:2:2 profile of the editors' codecs, which cannot be 4:4:4.
func (i Info) CheckOddSize(o Options) error {
	fit := fitSize(o.OddSize, i.Width, i.Height)
	if fit.codedW < 1 || fit.codedH < 1 {
		return field.Errorf("video.Options.OddSize", o.OddSize, "the video is %dx%d: cropping its odd column and row would leave %dx%d (use pad)", i.Width, i.Height, fit.codedW, fit.codedH)
	}
	if fit.yuv444 && isIntraEditor(o.Encoder) {
		if profile, coded := editorProfile(o.Encoder, o.Profile, false); coded != astiav.PixelFormatYuv444P10Le {
			full := map[string]string{"prores_ks": "4444", "dnxhd": "dnxhr_444"}[o.Encoder]
			return field.Errorf("video.Options.OddSize", o.OddSize, "the video is %dx%d: 444 keeps its size by coding 4:4:4, and %s profile %s codes 4:2:2 (use --profile %s, or pad or crop)",
				i.Width, i.Height, o.Encoder, profile, full)
		}
	}
	return nil
}

// CheckStart refuses, with ErrNothingToRender, a start that lies past the end of the video
// as the container states it (a frame count, or the stream's duration). Where the container
// says neither, Transcode finds out at the end.
func (i Info) CheckStart(start Position) error {
	past := (start.IsTime && i.Duration > 0 && start.Time >= i.Duration) ||
		(!start.IsTime && i.PromisedFrames > 0 && start.Frame > i.PromisedFrames)
	if past {
		return fmt.Errorf("%w: the start, %s, is past the end of the video (%s)", ErrNothingToRender, start, i.Length())
	}
	return nil
}

func (in *input) close() {
	in.fc.CloseInput()
	in.fc.Free()
	if in.pipe != nil {
		in.pipe.close() // after FFmpeg's close, which leaves a caller's own AVIOContext alone
	}
}

// frameRate is the stream's average rate, or its base rate when the container has no average.
func (in *input) frameRate() astiav.Rational {
	if r := in.vs.AvgFrameRate(); r.Num() > 0 && r.Den() > 0 {
		return r
	}
	return in.vs.RFrameRate()
}

// expectedFrames estimates the frame count for progress: the header's count, else duration ×
// rate; 0 if neither is known.
func (in *input) expectedFrames() int {
	if in.promisedFrames > 0 {
		return int(in.promisedFrames)
	}
	r := in.frameRate()
	if d := in.fc.Duration(); d > 0 && r.Num() > 0 {
		return int(float64(d) / float64(astiav.TimeBase) * r.Float64())
	}
	return 0
}

// promisedEnd is where the video stream should end: start + duration from the stream (mp4), or
// matroska's per-stream DURATION tag, in the stream's time base. FFmpeg writes that tag as
// the time the stream ends (its last packet's end), other muxers as its length: past the
// start it is taken for the end, the earlier of the two, so that a whole file whose clock
// starts late is not called truncated; one that ends before the tag still is.
func promisedEnd(s *astiav.Stream) int64 {
	start := s.StartTime()
	if start == astiav.NoPtsValue {
		start = 0
	}
	if d := s.Duration(); d > 0 && d != astiav.NoPtsValue {
		return start + d
	}
	if d, ok := parseClockTag(streamDurationTag(s)); ok {
		tag := astiav.RescaleQ(int64(d/time.Microsecond), astiav.NewRational(1, 1000000), s.TimeBase())
		if tag > start {
			return tag
		}
		return start + tag
	}
	return astiav.NoPtsValue
}

func streamDurationTag(s *astiav.Stream) string {
	if md := s.Metadata(); md != nil {
		if e := md.Get("DURATION", nil, 0); e != nil {
			return e.Value()
		}
	}
	return ""
}

// parseClockTag reads matroska's "HH:MM:SS.nnnnnnnnn".
func parseClockTag(v string) (time.Duration, bool) {
	parts := strings.Split(v, ":")
	if len(parts) != 3 {
		return 0, false
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	s, err3 := strconv.ParseFloat(parts[2], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, false
	}
	return time.Duration((float64(h)*3600 + float64(m)*60 + s) * float64(time.Second)), true
}

// fileURL is the FFmpeg URL of the local file path: FFmpeg takes the part of a name before
// its first colon for a protocol when it could be one's name, so that
// 2024-01-01T12:30:00.mp4 would be a file of the protocol "2024-01-01T12".
func fileURL(path string) string { return "file:" + path }
