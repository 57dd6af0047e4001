package video

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Options configures Transcode. The zero value of every field but Input and Output is a
// sensible default.
type Options struct {
	Input  string // any file FFmpeg can read
	Output string // container chosen by extension: .mp4, .mkv, .mov (others FFmpeg knows work too)
	// Overwrite allows replacing an existing Output; without it Transcode fails with
	// ErrOutputExists before doing any work.
	Overwrite bool

	// HWAccel is "none" (or ""), "auto" or "cuda". cuda decodes on NVDEC and copies frames to
	// host memory; auto tries cuda and falls back to software with one log line; an explicit
	// cuda that cannot start is an error.
	HWAccel string
	// DeviceFrames says the overlay can draw on frames in GPU memory (the cuda backend, in the
	// same CUDA context: the device's primary one). With HWAccel cuda, each NVDEC frame is then
	// copied within GPU memory into a writable frame of trackink's own, which reaches the
	// overlay as a *composite.DeviceNV12 and is drawn on in place; NVENC takes it from there,
	// and a host encoder gets one copy in host memory, made after the overlay. Without it,
	// CUDA frames are copied to host memory before the overlay.
	DeviceFrames bool
	// Encoder is "auto" (or ""), "libx264", "libx265", "h264_nvenc" or "hevc_nvenc". auto picks
	// h264_nvenc when a CUDA device opened and the card has NVENC, else libx264.
	Encoder string
	// CRF is the constant-quality level (libx264/libx265 crf, NVENC cq); 0 keeps the encoder's
	// default (23 for libx264, 28 for libx265). Ignored when Bitrate is set.
	CRF int
	// Preset is the encoder preset; x264 names (ultrafast … veryslow) are mapped to NVENC's
	// p1 … p7. Empty keeps the encoder's default.
	Preset string
	// Bitrate in bits per second selects average-bitrate mode instead of CRF when > 0.
	Bitrate int64
	// Threads caps encoder threads; 0 lets the encoder choose (all cores).
	Threads int

	// Start and End limit the output to a range of the input (see Position); zero values mean
	// the whole input. The output then starts at timestamp 0.
	Start, End Position
	// FrameOffset shifts the overlay's frame numbers: video frame v (1-based, presentation
	// order) is drawn as track frame v − FrameOffset. To put track frame 1 on video frame N,
	// set FrameOffset = N − 1. Frames that map below 1 are encoded without calling the overlay.
	FrameOffset int

	// Log receives one human-readable line per event (encoder chosen, fallbacks, warnings,
	// FFmpeg errors). Nil discards them.
	Log func(line string)
	// Progress is called about twice a second and once at the end. Nil disables it.
	Progress func(Progress)
}

// Position is a point in the input: a 1-based video frame number, or a time from the start of
// the video stream. Frame ranges are inclusive at both ends; time ranges include Start and
// exclude End, like ffmpeg's -ss/-to. The zero Position means "unset".
type Position struct {
	Frame  int           // 1-based frame number when IsTime is false
	Time   time.Duration // offset from the stream start when IsTime is true
	IsTime bool
}

// IsZero reports whether p is unset.
func (p Position) IsZero() bool { return !p.IsTime && p.Frame == 0 }

func (p Position) String() string {
	switch {
	case p.IsZero():
		return ""
	case p.IsTime:
		return p.Time.String()
	default:
		return "frame " + strconv.Itoa(p.Frame)
	}
}

// ParsePosition reads a frame number ("120") or a time: seconds with an "s" suffix ("1.5s"),
// or [[hh:]mm:]ss[.frac] ("00:00:01.5", "1:02.5"). The empty string is the zero Position.
func ParsePosition(s string) (Position, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Position{}, nil
	case strings.HasSuffix(s, "s"):
		sec, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
		if err != nil || sec < 0 {
			return Position{}, fmt.Errorf("video: position %q: want seconds like 1.5s", s)
		}
		return Position{Time: time.Duration(sec * float64(time.Second)), IsTime: true}, nil
	case strings.Contains(s, ":"):
		return parseClock(s)
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return Position{}, fmt.Errorf("video: position %q: want a frame number ≥ 1, 1.5s or hh:mm:ss.frac", s)
		}
		return Position{Frame: n}, nil
	}
}

func parseClock(s string) (Position, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return Position{}, fmt.Errorf("video: position %q: too many ':' fields", s)
	}
	var total float64
	for i, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		last := i == len(parts)-1
		if err != nil || v < 0 || (!last && (v != float64(int(v)) || (i > 0 && v >= 60))) || (last && len(parts) > 1 && v >= 60) {
			return Position{}, fmt.Errorf("video: position %q: want [[hh:]mm:]ss[.frac]", s)
		}
		total = total*60 + v
	}
	return Position{Time: time.Duration(total * float64(time.Second)), IsTime: true}, nil
}

// Error sentinels callers can test with errors.Is.
var (
	// ErrInputDamaged is returned together with a complete output and Stats when the input was
	// truncated or corrupt: every frame that decoded was rendered; Stats.Warnings says where.
	ErrInputDamaged = errors.New("video: input is damaged")
	// ErrOutputExists means Output exists and Options.Overwrite is false.
	ErrOutputExists = errors.New("video: output file exists (set Overwrite to replace it)")
	// ErrNoVideo means the input has no video stream.
	ErrNoVideo = errors.New("video: input has no video stream")
	// ErrUnsupportedFormat means the video's pixel format cannot be rendered (10-bit and deeper).
	ErrUnsupportedFormat = errors.New("video: unsupported pixel format")
)

// Names accepted in Options.Encoder and Options.HWAccel.
var (
	encoderNames = []string{"auto", "libx264", "libx265", "h264_nvenc", "hevc_nvenc"}
	hwaccelNames = []string{"none", "auto", "cuda"}
)

// normalize fills defaults and rejects bad values before any file is touched.
func (o Options) normalize() (Options, error) {
	if o.Encoder == "" {
		o.Encoder = "auto"
	}
	if o.HWAccel == "" {
		o.HWAccel = "none"
	}
	if !slices.Contains(encoderNames, o.Encoder) {
		return o, fmt.Errorf("video: unknown encoder %q (want one of %s)", o.Encoder, strings.Join(encoderNames, ", "))
	}
	if !slices.Contains(hwaccelNames, o.HWAccel) {
		return o, fmt.Errorf("video: unknown hwaccel %q (want one of %s)", o.HWAccel, strings.Join(hwaccelNames, ", "))
	}
	switch {
	case o.Input == "":
		return o, errors.New("video: no input file given")
	case o.Output == "":
		return o, errors.New("video: no output file given")
	case o.CRF < 0 || o.CRF > 51:
		return o, fmt.Errorf("video: CRF %d is outside 0…51", o.CRF)
	case o.Bitrate < 0 || o.Threads < 0:
		return o, errors.New("video: bitrate and threads must not be negative")
	case endsBeforeStart(o.Start, o.End):
		return o, fmt.Errorf("video: end (%s) is before start (%s)", o.End, o.Start)
	}
	if o.Log == nil {
		o.Log = func(string) {}
	}
	return o, nil
}

// endsBeforeStart catches an empty range when both ends are of the same kind; a frame start
// with a time end (or the reverse) is checked only by what it selects.
func endsBeforeStart(start, end Position) bool {
	switch {
	case start.IsZero() || end.IsZero() || start.IsTime != end.IsTime:
		return false
	case start.IsTime:
		return end.Time <= start.Time
	default:
		return end.Frame < start.Frame
	}
}
