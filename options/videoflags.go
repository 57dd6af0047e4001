package options

import (
	"fmt"
	"trackink/kernels/device"
	"trackink/scene"
	"trackink/video"

	"github.com/spf13/pflag"
)

// Video are render's video options.
type Video struct {
	encoder, preset, hwaccel string
	profile                  string
	crf, threads             int
	bitrate                  int64
	start, end               string
	FrameOffset              int // --frame-offset
	videoStream              int
	orientation, oddSize     string
	Quiet, Verbose           bool   // --quiet, --verbose
	StatsJSON                string // --stats-json
	StatsTarget              string // the file --stats-json writes (set by the render command)
	lossless                 bool
	Layer                    bool // --layer-only
	// Segment is --segment as given; SegIndex and SegCount what it says, once parsed
	// (by the render command): SegCount 0 for a whole render.
	Segment            string
	SegIndex, SegCount int
}

// CheckFrameOffset refuses, as a mistake on the command line, a --frame-offset (render's,
// eval's) past the frames it lines up: tracks frames count from 1 to scene.MaxFrame, so an
// offset larger than that either way puts every tracks frame off every frame it could
// meet. Near the int limits the arithmetic on frames wrapped round ("tracks frame 1 …
// on video frame -9223372036854775808").
func CheckFrameOffset(n int) error {
	if n < -scene.MaxFrame || n > scene.MaxFrame {
		return UsageError{fmt.Errorf("--frame-offset %d: is outside -%d..%d: tracks frames count from 1 to %d", n, scene.MaxFrame, scene.MaxFrame, scene.MaxFrame)}
	}
	return nil
}

// Register adds the video flags to fs.
func (v *Video) Register(fs *pflag.FlagSet) {
	fs.StringVar(&v.encoder, "encoder", "auto", "video encoder: auto, libx264, libx265, h264_nvenc, hevc_nvenc, and for editors prores_ks (ProRes) and dnxhd (DNxHR) (auto: NVENC when it opens, else libx264)")
	fs.StringVar(&v.profile, "profile", "", "with --encoder prores_ks: proxy, lt, standard, hq, 4444, 4444xq; with dnxhd: dnxhr_lb, dnxhr_sq, dnxhr_hq, dnxhr_hqx, dnxhr_444 (default hq; dnxhr_hq, or dnxhr_hqx for a 10-bit source)")
	fs.IntVar(&v.crf, "crf", 0, "constant quality 0..51, lower is better (x264/x265 crf, NVENC cq; a VP9 layer 1..63); 0 is lossless, as in x264 (--lossless)")
	fs.Lookup("crf").DefValue = "the encoder's own: 23 for libx264, 28 for libx265"
	fs.StringVar(&v.preset, "preset", "", "encoder preset, x264 names (ultrafast … veryslow; placebo for x264/x265); NVENC maps them to p1 … p7 and takes p1 … p7 too")
	fs.Int64Var(&v.bitrate, "bitrate", 0, "average bitrate in bits/s, 1000..4294967295 (1 kbit/s to 4.3 Gbit/s), instead of constant quality (0 = off)")
	fs.StringVar(&v.hwaccel, "hwaccel", "", "decoding: none, auto (CUDA when present, else software), cuda (default: none; auto with the cuda backend)")
	fs.StringVar(&v.start, "start", "", "first frame: a 1-based frame number (120) or a time (1.5s, 00:00:01.5)")
	fs.StringVar(&v.end, "end", "", "last frame (a frame number, inclusive) or a time (exclusive)")
	fs.IntVar(&v.FrameOffset, "frame-offset", 0, "video frame N+1 shows tracks frame 1 (tracks frame n on video frame n+N), -10000000..10000000")
	fs.IntVar(&v.videoStream, "video-stream", 0, "with several video streams, draw on the N-th (from 1; the others are copied)")
	fs.Lookup("video-stream").DefValue = "the one FFmpeg ranks best"
	fs.StringVar(&v.orientation, "orientation", "display", "a rotated video's track coordinates: display (as players show it and trackers read it) or stored (the frame as coded)")
	fs.StringVar(&v.oddSize, "odd-size", "pad", "an odd width or height, which 4:2:0 H.264/HEVC cannot code: pad (repeat the last column/row), crop (drop it), 444 (keep the size in 4:4:4, which browsers and phones do not play)")
	fs.BoolVar(&v.lossless, "lossless", false, "code every frame exactly as drawn (x264 qp 0, x265 lossless): large files, for checking and editing")
	fs.BoolVar(&v.Layer, "layer-only", false, "write the overlay alone with straight alpha, frame for frame with the video, for an editor: -o .mov (ProRes 4444), .webm (VP9), name_%05d.png (PNG sequence), NAME.png with --frame N (that frame's); --encoder qtrle or prores_aw (faster ProRes) into .mov")
	fs.IntVar(&v.threads, "threads", 0, "encoder threads, at most (0 = automatic): an encoder takes up to its own limit (libx265 16, ProRes and DNxHR 64, libx264 128)")
	fs.StringVar(&v.Segment, "segment", "", "render segment i of N (i from 0) of the render into the directory -o names, for trackink join; auto/N takes i from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX")
	fs.BoolVar(&v.Quiet, "quiet", false, "no progress line and no informational messages (warnings still print)")
	fs.BoolVar(&v.Verbose, "verbose", false, "print FFmpeg's own log lines as they come (without it they explain errors only)")
	fs.StringVar(&v.StatsJSON, "stats-json", "", "write frames, wall time, fps and per-stage times to this JSON file; with --segment, {segment} in the path is the segment's number (seg-{segment}.json: seg-0002-of-0008.json), one file per segment")
}

// Options turns the flags into video options and validates them; mistakes are usage errors
// naming the flag of fs.
func (v *Video) Options(fs *pflag.FlagSet, in, out string, overwrite bool) (video.Options, error) {
	o := video.Options{Input: in, Output: out, Overwrite: overwrite, HWAccel: v.hwaccel, Encoder: v.encoder,
		CRF: v.crf, Preset: v.preset, Profile: v.profile, Bitrate: v.bitrate, Threads: v.threads, FrameOffset: v.FrameOffset,
		VideoStream: v.videoStream, Lossless: v.lossless, Layer: v.Layer}
	if err := v.crfZero(fs, &o); err != nil {
		return o, err
	}
	if err := CheckFrameOffset(v.FrameOffset); err != nil {
		return o, err
	}
	var err error
	if o.Start, err = video.ParsePosition(v.start); err != nil {
		return o, UsageError{fmt.Errorf("--start: %w", err)}
	}
	if o.End, err = video.ParsePosition(v.end); err != nil {
		return o, UsageError{fmt.Errorf("--end: %w", err)}
	}
	if o.Orientation, err = video.ParseOrientation(v.orientation); err != nil {
		return o, UsageError{fmt.Errorf("--orientation %w", err)}
	}
	if o.OddSize, err = video.ParseOddSize(v.oddSize); err != nil {
		return o, UsageError{fmt.Errorf("--odd-size %w", err)}
	}
	if v.SegCount > 0 {
		if err := video.CheckSegmentEncoder(o.Encoder); err != nil {
			return o, FlagError(fs, err)
		}
	}
	return o, FlagError(fs, o.Validate())
}

// CheckDevices refuses, before any work, a GPU the options name that this machine does not
// have: --hwaccel cuda without a CUDA device, an NVENC encoder the GPU or driver lacks.
func CheckDevices(fs *pflag.FlagSet, o video.Options) error {
	if o.HWAccel == "cuda" {
		if r := device.Probe(); len(r.Devices) == 0 {
			return UsageError{fmt.Errorf("--hwaccel cuda: no CUDA device here (%s)", r.Problem)}
		}
	}
	if o.Encoder == "h264_nvenc" || o.Encoder == "hevc_nvenc" {
		return FlagError(fs, video.CheckEncoder(o.Encoder))
	}
	return nil
}
