package video

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asticode/go-astiav"

	"trackink/internal/field"
	"trackink/outfile"
)

// Options configures Transcode. The zero value of every field but Input and Output is a
// sensible default.
type Options struct {
	Input string // any file FFmpeg can read
	// Source, from Open, is the input opened already: Transcode and Frames read it instead of
	// opening Input again (Input may then be left empty; if given it must be the path Source
	// was opened from). VideoStream must be the one Source was opened with. The caller closes
	// it afterwards. A segment opens the input at its keyframe: Segment takes no Source.
	Source *Source
	Output string // container chosen by extension: .mp4, .mkv, .mov (others FFmpeg knows work too)
	// Overwrite allows replacing an existing Output; without it Transcode fails with
	// outfile.ErrExists before doing any work.
	Overwrite bool
	// Partners, when set, is called once the video is complete and before it is moved into
	// place, with the render's statistics (all but the time the move takes). The partial
	// files it returns, the run's other outputs (the tracks drawn, the statistics), are moved
	// into place together with the video (outfile.CommitAll) and belong to Transcode from then on.
	// An error from it fails the render: nothing is moved into place.
	Partners func(Stats) ([]*outfile.PartialFile, error)

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
	// h264_nvenc when a CUDA device opened and the card has NVENC, else libx264; for 10-bit
	// video hevc_nvenc, else libx265 (Main10; libx264 High 10 where libx265 is 8-bit only).
	Encoder string
	// CRF is the constant-quality level (libx264/libx265 crf, NVENC cq); 0 keeps the encoder's
	// default (23 for libx264, 28 for libx265). Ignored when Bitrate is set.
	CRF int
	// Profile is the profile of an editors' intra codec (prores_ks: proxy, lt, standard, hq,
	// 4444, 4444xq; dnxhd: dnxhr_lb, dnxhr_sq, dnxhr_hq, dnxhr_hqx, dnxhr_444); empty is hq or
	// dnxhr_hq. It sets the quality and the pixel format coded (4:2:2, or 4:4:4; 10-bit but
	// for DNxHR's LB, SQ and HQ).
	Profile string
	// Preset is the encoder preset; x264 names (ultrafast … veryslow) are mapped to NVENC's
	// p1 … p7. Empty keeps the encoder's default.
	Preset string
	// Bitrate in bits per second selects average-bitrate mode instead of CRF when > 0.
	Bitrate int64
	// Threads caps encoder threads; 0 lets the encoder choose (all cores).
	Threads int
	// Lossless codes every frame exactly as drawn: x264 at qp 0, x265 lossless (auto means
	// libx264, libx265 for 10-bit video; NVENC is not offered). Large files, for checking and further editing.
	Lossless bool

	// Start and End limit the output to a range of the input (see Position); zero values mean
	// the whole input. The output then starts at timestamp 0. Copied streams (audio) are cut
	// at packet boundaries to the same times: with a frame-number End, at the pts of the
	// frame after it, so that they end within a packet of the video.
	Start, End Position
	// FrameOffset shifts the overlay's frame numbers: video frame v (1-based, presentation
	// order) is drawn as track frame v − FrameOffset. To put track frame 1 on video frame N,
	// set FrameOffset = N − 1. Frames that map below 1 are encoded without calling the overlay.
	FrameOffset int

	// VideoStream picks the video stream that is drawn on when the input has several: N ≥ 1
	// is the N-th video stream in the file's order (ffmpeg's -map 0:v:N−1); 0 takes the one
	// FFmpeg ranks best (av_find_best_stream). The other video streams are copied.
	VideoStream int
	// Segment, from PlanSegment, renders one segment of the render the other options
	// describe, into Output (an .mp4; Overwrite is implied, so that a task run again
	// replaces what an earlier attempt wrote: the caller checks that what Output holds is
	// one, CheckSegmentReplace): video only, its frames numbered from the
	// frame table, decoded from the keyframe before its first frame, its first frame an IDR,
	// the input's timestamps kept, and the segment's record in the file for Join. auto
	// means libx264 here (libx265 for 10-bit video): every segment of a render must be
	// coded alike, whatever node renders it. Nil renders the whole range.
	Segment *SegmentPlan
	// Orientation is the orientation the DrawFunc draws in when the video carries a rotation
	// (a display matrix): Displayed (the zero value) hands it each frame as players show it,
	// Stored as it is coded. See Orientation.
	Orientation Orientation
	// OddSize says what becomes of a width or height that 4:2:0 video cannot code (odd):
	// OddPad (the zero value), OddCrop or Odd444. See OddSize.
	OddSize OddSize

	// Ahead, when set, is handed each frame the DrawFunc will draw, in order, as soon as it
	// is decoded, up to AheadFrames frames before the DrawFunc gets it: a drawer can start
	// work on it that takes a while (the built-in tracker's detections). It must not write to
	// the frame, nor read it after it returns; n and dst are as the DrawFunc's. Frames in GPU
	// memory are held in order with the others but not handed to Ahead; layers (Layer) go
	// to the DrawFunc as they come, with no Ahead.
	Ahead       DrawFunc
	AheadFrames int // 0..maxAheadFrames

	// Layer writes the overlay alone, with straight alpha, instead of the video with the
	// overlay burnt in: frame for frame with the source (its timestamps, its display
	// orientation), into ProRes 4444 (.mov), VP9 (.webm), QuickTime Animation (Encoder
	// qtrle) or a numbered PNG sequence (name_%05d.png), in BT.709 limited range where it
	// is Y'CbCr (layer.go). The DrawFunc then gets a transparent *composite.RGBA: what it
	// draws must not read the picture (box effects, blending other than over), which is not
	// there. No audio or other stream is copied; Segment is refused.
	Layer bool

	// Log receives one human-readable line per event (fallbacks, conversions, warnings).
	// Nil discards them.
	Log func(line string)
	// FFmpegLog receives FFmpeg's own log lines (error level) as they come. Nil keeps them
	// out of the way: the last few are then folded into the error they explain.
	FFmpegLog func(line string)
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
		if err != nil || !(sec >= 0) { // NaN too
			return Position{}, fmt.Errorf("video: position %q: want seconds like 1.5s", s)
		}
		return timePosition(s, sec)
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
		if err != nil || !(v >= 0) || (!last && (v != float64(int(v)) || (i > 0 && v >= 60))) || (last && len(parts) > 1 && v >= 60) {
			return Position{}, fmt.Errorf("video: position %q: want [[hh:]mm:]ss[.frac]", s)
		}
		total = total*60 + v
	}
	return timePosition(s, total)
}

// timePosition is the position sec seconds (not NaN, not negative) from the start, written
// s. A time.Duration holds 292 years: past that (1e10s, Inf), the conversion gave the
// smallest Duration, which meant "from the start", and a render of the whole video.
func timePosition(s string, sec float64) (Position, error) {
	if sec*float64(time.Second) >= math.MaxInt64 {
		return Position{}, fmt.Errorf("video: position %q: is past the longest time a position holds, %ds (292 years)", s, math.MaxInt64/int64(time.Second))
	}
	return Position{Time: time.Duration(sec * float64(time.Second)), IsTime: true}, nil
}

// Error sentinels callers can test with errors.Is.
var (
	// ErrInputDamaged is returned together with a complete output and Stats when the input was
	// truncated or corrupt: every frame that decoded was rendered; Stats.Warnings says where.
	ErrInputDamaged = errors.New("video: input is damaged")
	// ErrOutputIsSegment means a join's Output is one of the segments it joins.
	ErrOutputIsSegment = errors.New("video: the output is one of the segments")
	// ErrNothingToRender means the range Start..End holds no frame of the video: the error
	// says how long the video is.
	ErrNothingToRender = errors.New("video: no frame in the range")
	// ErrNoFrames means the whole video holds no frame: a fault of the input, not of the
	// range asked for.
	ErrNoFrames = errors.New("video: the video has no frame")
	// ErrNoVideo means the input has no video stream.
	ErrNoVideo = errors.New("video: input has no video stream")
	// ErrUnsupportedFormat means the video's pixel format cannot be rendered: one FFmpeg's
	// swscale cannot convert, or deeper than 8 bits for an encoder that codes 8-bit only.
	ErrUnsupportedFormat = errors.New("video: unsupported pixel format")
	// ErrNoPicture means the video stream gives no picture format: no frame of it decodes,
	// as in a file cut before its first frame, or in a form this FFmpeg cannot decode. It is
	// an ErrUnsupportedFormat too.
	ErrNoPicture error = noPicture{}
)

type noPicture struct{}

func (noPicture) Error() string {
	return "the video stream gives no picture, so no frame decodes (is the file cut before its first frame, or in a form this FFmpeg cannot decode, such as animated WebP?)"
}

func (noPicture) Is(target error) bool { return target == ErrUnsupportedFormat }

// Names accepted in Options.Encoder and Options.HWAccel.
var (
	encoderNames = []string{"auto", "libx264", "libx265", "h264_nvenc", "hevc_nvenc", "prores_ks", "dnxhd"}
	hwaccelNames = []string{"none", "auto", "cuda"}
)

// x264Presets are x264's preset names, fastest first. Every encoder takes them: x265 has the
// same names, and NVENC's p1 … p7 are mapped from them (nvencPreset).
var x264Presets = []string{"ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"}

// maxCRF is the top of the quality scale of every encoder trackink drives: x264's and x265's
// crf and NVENC's cq all run from 0 to 51.
const maxCRF = 51

// maxAheadFrames bounds Options.AheadFrames: at 4K each frame held is 12 MB.
const maxAheadFrames = 32

// The bitrates (bits/s) every encoder that takes one codes as asked. x264, x265 and libvpx
// take whole kbit/s (FFmpeg divides by 1000), so below 1000 they get 0, "no bitrate":
// libx264 then fails to open and libx265 codes at a rate of its own. NVENC takes bits/s in
// 32 bits and keeps the low ones of a larger number; libx264 refuses more than 2^31-1 kbit/s
// (libx265 wraps it). 2^32-1 bits/s (4.3 Gbit/s) is past the highest H.264 and HEVC
// levels' rates, so no encoder's own limit is needed beside it.
const (
	minBitrate = 1000
	maxBitrate = 1<<32 - 1
)

// Validate reports the first option that cannot work, as a *field.Error naming it
// ("video.Options.Preset"), without opening any file: an unknown encoder or hwaccel, a
// preset the encoder does not have, a CRF outside the encoder's scale, a bitrate outside
// what the encoders take, negative threads, an End before Start, an output name no muxer takes or whose muxer cannot hold
// the encoder's codec. Transcode calls it first.
func (o Options) Validate() error {
	if o.Bitrate > 0 && (o.Bitrate < minBitrate || o.Bitrate > maxBitrate) {
		return field.Errorf("video.Options.Bitrate", o.Bitrate, "is outside %d..%d bits/s (1 kbit/s to 4.3 Gbit/s), the rates every encoder codes as asked", minBitrate, maxBitrate)
	}
	if o.Layer {
		if err := o.validateLayer(); err != nil {
			return err
		}
		// What follows checks what every render shares; the encoder's options are checked.
		o.Encoder, o.Profile, o.CRF, o.Bitrate = "", "", 0, 0
	}
	enc := cmp.Or(o.Encoder, "auto")
	switch {
	case !slices.Contains(encoderNames, enc):
		return field.Errorf("video.Options.Encoder", o.Encoder, "want one of %s", strings.Join(encoderNames, ", "))
	case !slices.Contains(hwaccelNames, cmp.Or(o.HWAccel, "none")):
		return field.Errorf("video.Options.HWAccel", o.HWAccel, "want one of %s", strings.Join(hwaccelNames, ", "))
	case o.Preset != "" && isIntraEditor(enc):
		return field.Errorf("video.Options.Preset", o.Preset, "%s has no presets: it codes at its profile's quality (%s)", enc, strings.Join(profilesOf(enc), ", "))
	case o.Preset != "" && !slices.Contains(presetsOf(enc), o.Preset):
		return field.Errorf("video.Options.Preset", o.Preset, "%s takes %s", encoderWords(enc), strings.Join(presetsOf(enc), ", "))
	case o.CRF < 0 || o.CRF > maxCRF:
		return field.Errorf("video.Options.CRF", o.CRF, "is outside 0..%d, the quality scale of %s", maxCRF, encoderWords(enc))
	case o.Profile != "" && !slices.Contains(profilesOf(enc), o.Profile):
		if len(profilesOf(enc)) == 0 {
			return field.Errorf("video.Options.Profile", o.Profile, "is for prores_ks and dnxhd, not %s", encoderWords(enc))
		}
		return field.Errorf("video.Options.Profile", o.Profile, "%s takes %s", enc, strings.Join(profilesOf(enc), ", "))
	case isIntraEditor(enc) && o.CRF > 0:
		return field.Errorf("video.Options.CRF", o.CRF, "%s codes at its profile's quality: choose a profile instead", enc)
	case isIntraEditor(enc) && o.Bitrate > 0:
		return field.Errorf("video.Options.Bitrate", o.Bitrate, "%s codes at its profile's quality: choose a profile instead", enc)
	case isIntraEditor(enc) && o.Lossless:
		return field.Errorf("video.Options.Lossless", o.Lossless, "is for libx264 and libx265, not %s", enc)
	case o.Lossless && isNVENC(enc):
		return field.Errorf("video.Options.Lossless", o.Lossless, "is for libx264 and libx265, not %s", enc)
	case o.Lossless && (o.CRF > 0 || o.Bitrate > 0):
		return field.Errorf("video.Options.Lossless", o.Lossless, "codes exactly, so it takes no CRF or bitrate")
	case o.Bitrate < 0:
		return field.Errorf("video.Options.Bitrate", o.Bitrate, "must not be negative")
	case o.Threads < 0:
		return field.Errorf("video.Options.Threads", o.Threads, "must not be negative")
	case o.VideoStream < 0:
		return field.Errorf("video.Options.VideoStream", o.VideoStream, "video streams are numbered from 1")
	case o.AheadFrames < 0 || o.AheadFrames > maxAheadFrames:
		return field.Errorf("video.Options.AheadFrames", o.AheadFrames, "must be 0..%d (each frame held is a decoded frame in memory)", maxAheadFrames)
	case endsBeforeStart(o.Start, o.End):
		return endBeforeStartError(o.Start, o.End)
	case o.Orientation != Displayed && o.Orientation != Stored:
		return field.Errorf("video.Options.Orientation", o.Orientation, "want Displayed or Stored")
	case o.OddSize != OddPad && o.OddSize != OddCrop && o.OddSize != Odd444:
		return field.Errorf("video.Options.OddSize", o.OddSize, "want OddPad, OddCrop or Odd444")
	case o.Input == "" && o.Source == nil:
		return field.Errorf("video.Options.Input", o.Input, "no input file given")
	}
	if err := o.checkSource(); err != nil {
		return err
	}
	if o.Layer {
		return nil // validateLayer checked the output
	}
	if o.Segment != nil {
		if err := CheckSegmentEncoder(enc); err != nil {
			return err
		}
	}
	return checkMuxer(o.Output, codecOf(enc))
}

// CheckSegmentEncoder refuses, as a *field.Error of Options.Encoder, an encoder whose codec
// MP4, the segments' container (SegmentName), cannot hold: the editors' codecs.
func CheckSegmentEncoder(encoder string) error {
	if isIntraEditor(encoder) {
		return field.Errorf("video.Options.Encoder", encoder, "segments are MP4, which cannot hold %s video: segment with libx264 or libx265 and convert the joined file, or render it whole", codecWords(codecOf(encoder)))
	}
	return nil
}

// checkSource refuses a Source that disagrees with the other options: another input, another
// video stream, or a segment.
func (o Options) checkSource() error {
	s := o.Source
	switch {
	case s == nil:
		return nil
	case o.Segment != nil:
		return field.Errorf("video.Options.Source", s.Path(), "a segment opens the input at its keyframe itself: leave Source nil")
	case o.Input != "" && o.Input != s.Path():
		return field.Errorf("video.Options.Source", s.Path(), "was opened from another input than %s", o.Input)
	case o.VideoStream != 0 && o.VideoStream != s.Info().VideoStream:
		return field.Errorf("video.Options.Source", s.Path(), "was opened with video stream %d, not %d", s.Info().VideoStream, o.VideoStream)
	}
	return nil
}

// presetsOf lists the presets encoder name takes. auto may become NVENC or libx264, so it
// takes the names both have.
func presetsOf(name string) []string {
	switch {
	case name == "libx264" || name == "libx265":
		return append(slices.Clip(x264Presets), "placebo")
	case isNVENC(name):
		return append(slices.Clip(x264Presets), "p1", "p2", "p3", "p4", "p5", "p6", "p7")
	}
	return x264Presets
}

// encoderWords names an encoder in messages, auto with what it may become.
func encoderWords(name string) string {
	if name == "auto" {
		return "encoder auto (libx264 or h264_nvenc)"
	}
	return name
}

// codecOf is the codec an encoder writes.
func codecOf(encoder string) astiav.CodecID {
	switch encoder {
	case "libx265", "hevc_nvenc":
		return astiav.CodecIDHevc
	case "prores_ks":
		return astiav.CodecIDProres
	case "dnxhd":
		return astiav.CodecIDDnxhd
	}
	return astiav.CodecIDH264
}

// The editors' intra codecs: ProRes (prores_ks) and DNxHR (dnxhd), which editors cut and
// grade without decoding a group of pictures, coded at a profile's quality. Their profiles,
// the default first, and the pixel format each codes (the overlay's 4:2:0 frames are
// converted to it after the overlay: chroma resampled, 8-bit samples widened to 10).
var editorProfiles = map[string][]struct {
	name  string
	coded astiav.PixelFormat
}{
	"prores_ks": {{"hq", astiav.PixelFormatYuv422P10Le}, {"proxy", astiav.PixelFormatYuv422P10Le},
		{"lt", astiav.PixelFormatYuv422P10Le}, {"standard", astiav.PixelFormatYuv422P10Le},
		{"4444", astiav.PixelFormatYuv444P10Le}, {"4444xq", astiav.PixelFormatYuv444P10Le}},
	"dnxhd": {{"dnxhr_hq", astiav.PixelFormatYuv422P}, {"dnxhr_lb", astiav.PixelFormatYuv422P},
		{"dnxhr_sq", astiav.PixelFormatYuv422P}, {"dnxhr_hqx", astiav.PixelFormatYuv422P10Le},
		{"dnxhr_444", astiav.PixelFormatYuv444P10Le}},
}

// isIntraEditor reports whether encoder is one of the editors' intra codecs.
func isIntraEditor(encoder string) bool { return editorProfiles[encoder] != nil }

// profilesOf lists the profiles encoder takes, the default first; none for the others.
func profilesOf(encoder string) []string {
	var names []string
	for _, p := range editorProfiles[encoder] {
		names = append(names, p.name)
	}
	return names
}

// editorProfile returns the profile an editor's codec codes with (profile, or its default)
// and the pixel format it codes. The default codes a 10-bit source (tenBit) in 10 bits:
// for DNxHR that is dnxhr_hqx, whose quality is dnxhr_hq's, rather than the 8-bit dnxhr_hq.
func editorProfile(encoder, profile string, tenBit bool) (string, astiav.PixelFormat) {
	if profile == "" && encoder == "dnxhd" && tenBit {
		profile = "dnxhr_hqx"
	}
	ps := editorProfiles[encoder]
	for _, p := range ps {
		if p.name == profile {
			return p.name, p.coded
		}
	}
	return ps[0].name, ps[0].coded
}

// normalize fills defaults and rejects bad values before any file is touched.
func (o Options) normalize() (Options, error) {
	if err := o.Validate(); err != nil {
		return o, err
	}
	o.Encoder = cmp.Or(o.Encoder, "auto")
	if o.Source != nil {
		o.Input = o.Source.Path()
	}
	if o.Segment != nil {
		o.Overwrite = true
	}
	o.HWAccel = cmp.Or(o.HWAccel, "none")
	if o.Log == nil {
		o.Log = func(string) {}
	}
	return o, nil
}

// endBeforeStartError says that end (endsBeforeStart) leaves no frame after start: a time
// ends the range before it (so the start's own time leaves none), a frame is the last in it.
func endBeforeStartError(start, end Position) error {
	if end.IsTime && end.Time == start.Time {
		return field.Errorf("video.Options.End", end, "is the start, %s: the range ends where it begins and holds no frame", start)
	}
	return field.Errorf("video.Options.End", end, "is before the start, %s", start)
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
