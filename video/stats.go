package video

import "time"

// Stats describes a finished (or failed) Transcode; JSON gives the form --stats-json writes.
type Stats struct {
	Input, Output string
	Frames        int           // frames encoded
	Overlaid      int           // frames the overlay was called on
	Decoded       int           // frames decoded, those outside the range included (a segment's from a keyframe before it)
	Preroll       int           // of them, those before the range's first frame (a segment's from the keyframe before it, a whole render's from the start)
	Wall          time.Duration // from opening the input to renaming the output
	FPS           float64       // Frames / Wall
	// Busy time of each stage. They run concurrently, so they add up to more than Wall; the
	// largest one is the bottleneck.
	Decode, Overlay, Encode, Mux time.Duration
	Encoder                      string   // encoder actually used, e.g. "libx264"
	HWAccel                      string   // "cuda" or "none"
	DeviceOverlay                int      // frames the overlay drew in GPU memory (Options.DeviceFrames)
	NVDECFrames                  int      // frames decoded on NVDEC (HWAccel cuda; the rest fell back to software)
	Width, Height                int      // of the video
	PixelFormat                  string   // decoded format, before any conversion
	Color                        string   // matrix/range the overlay was composited with
	Warnings                     []string // damage, dropped streams, conversions
	PeakRSS                      int64    // bytes, the process's high-water mark at the end
}

// Progress is a snapshot passed to Options.Progress.
type Progress struct {
	Frames  int           // frames encoded so far
	Total   int           // expected frames, 0 when the input doesn't say
	Elapsed time.Duration //
	FPS     float64       // average since the start
	ETA     time.Duration // 0 when Total is unknown
}

// StatsJSON is Stats as --stats-json writes it: durations in seconds, snake_case keys.
type StatsJSON struct {
	Input       string     `json:"input"`
	Output      string     `json:"output"`
	Frames      int        `json:"frames"`
	Overlaid    int        `json:"overlaid_frames"`
	Decoded     int        `json:"decoded_frames"`
	Preroll     int        `json:"preroll_frames"`
	Wall        float64    `json:"wall_s"`
	FPS         float64    `json:"fps"`
	Stages      StageTimes `json:"stages"`
	Encoder     string     `json:"encoder"`
	HWAccel     string     `json:"hwaccel"`
	OnDevice    int        `json:"device_overlay_frames"`
	NVDEC       int        `json:"nvdec_frames"`
	Width       int        `json:"width"`
	Height      int        `json:"height"`
	PixelFormat string     `json:"pixel_format"`
	Color       string     `json:"colour"`
	Warnings    []string   `json:"warnings"`
	PeakRSS     int64      `json:"peak_rss_bytes"`
}

// StageTimes are the pipeline stages' busy times in seconds.
type StageTimes struct {
	Decode  float64 `json:"decode_s"`
	Overlay float64 `json:"overlay_s"`
	Encode  float64 `json:"encode_s"`
	Mux     float64 `json:"mux_s"`
}

// JSON returns s in its JSON form.
func (s Stats) JSON() StatsJSON {
	warnings := s.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	return StatsJSON{
		s.Input, s.Output, s.Frames, s.Overlaid, s.Decoded, s.Preroll, s.Wall.Seconds(), s.FPS,
		StageTimes{s.Decode.Seconds(), s.Overlay.Seconds(), s.Encode.Seconds(), s.Mux.Seconds()},
		s.Encoder, s.HWAccel, s.DeviceOverlay, s.NVDECFrames, s.Width, s.Height, s.PixelFormat, s.Color, warnings, s.PeakRSS,
	}
}
