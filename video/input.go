package video

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/asticode/go-astiav"
)

// input is the opened source: the demuxer and the video stream that gets rendered.
type input struct {
	fc        *astiav.FormatContext
	vs        *astiav.Stream
	interrupt astiav.IOInterrupter // makes blocking reads return once the job is cancelled
	// What the container promises, to notice a truncated file that ends cleanly: the frame
	// count (mp4/mov) and the end time of the video stream (stream tb; NoPtsValue if unknown).
	promisedFrames int64
	promisedEnd    int64
}

func openInput(path string) (*input, error) {
	// FFmpeg says "No such file or directory" too, but a Go error lets callers use errors.Is
	// with fs.ErrNotExist. URLs (scheme://) are left to FFmpeg.
	if !strings.Contains(path, "://") {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("video: input: %w", err)
		}
	}
	in := &input{fc: astiav.AllocFormatContext()}
	if in.fc == nil {
		return nil, errors.New("video: allocating the input format context failed")
	}
	in.interrupt = in.fc.SetInterruptCallback()
	if err := in.fc.OpenInput(path, nil, nil); err != nil {
		in.fc.Free()
		return nil, fmt.Errorf("video: opening input %s: %w", path, err)
	}
	if err := checkLayout(in.fc); err != nil {
		in.close()
		return nil, err
	}
	if err := in.fc.FindStreamInfo(nil); err != nil {
		in.close()
		return nil, fmt.Errorf("video: reading stream info of %s: %w", path, err)
	}
	idx, err := bestVideoStream(in.fc)
	if err != nil || isAttachedPic(in.fc.Streams()[idx]) {
		in.close()
		return nil, fmt.Errorf("%w: %s", ErrNoVideo, path)
	}
	in.vs = in.fc.Streams()[idx]
	in.promisedFrames = in.vs.NbFrames()
	in.promisedEnd = promisedEnd(in.vs)
	return in, nil
}

// Info describes a video's picture, read without decoding it.
type Info struct {
	Width, Height int
	// Frames is what the container promises, or duration × frame rate; 0 when unknown.
	Frames      int
	PixelFormat string
}

// Probe opens the video at path and reads what Info holds, the way Transcode opens it.
func Probe(path string) (Info, error) {
	_, detach := attachFFmpegLog(func(string) {})
	defer detach()
	in, err := openInput(path)
	if err != nil {
		return Info{}, err
	}
	defer in.close()
	par := in.vs.CodecParameters()
	return Info{Width: par.Width(), Height: par.Height(), Frames: in.expectedFrames(), PixelFormat: par.PixelFormat().String()}, nil
}

func (in *input) close() {
	in.fc.CloseInput()
	in.fc.Free()
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
// matroska's per-stream DURATION tag, in the stream's time base.
func promisedEnd(s *astiav.Stream) int64 {
	start := s.StartTime()
	if start == astiav.NoPtsValue {
		start = 0
	}
	if d := s.Duration(); d > 0 && d != astiav.NoPtsValue {
		return start + d
	}
	if d, ok := parseClockTag(streamDurationTag(s)); ok {
		return start + astiav.RescaleQ(int64(d/time.Microsecond), astiav.NewRational(1, 1000000), s.TimeBase())
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
