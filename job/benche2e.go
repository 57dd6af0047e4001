package job

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"trackink/overlay"
	"trackink/scene"
	"trackink/video"
)

// E2EReport is a whole-render benchmark's figures (BenchE2E), in seconds and MiB, as JSON
// names them.
type E2EReport struct {
	Input        string  `json:"input"`
	Scene        string  `json:"scene"`
	Backend      string  `json:"backend"`
	HWAccel      string  `json:"hwaccel"`
	Preset       string  `json:"preset"`
	CRF          int     `json:"crf"`
	Frames       int     `json:"frames"`
	OursS        float64 `json:"ours_s"`
	OursCPUS     float64 `json:"ours_cpu_s"`
	OursFPS      float64 `json:"ours_fps"`
	OursPeakMiB  int64   `json:"ours_peak_rss_mib"`
	PlainS       float64 `json:"ffmpeg_s"`
	PlainCPUS    float64 `json:"ffmpeg_cpu_s"`
	PlainPeakMiB int64   `json:"ffmpeg_peak_rss_mib"`
	Ratio        float64 `json:"ratio"`
	CPURatio     float64 `json:"cpu_ratio"`
	OwnS         float64 `json:"ffmpeg_own_output_s"`
	OwnCPUS      float64 `json:"ffmpeg_own_output_cpu_s"`
	OwnPeakMiB   int64   `json:"ffmpeg_own_output_peak_rss_mib"`
	OwnRatio     float64 `json:"own_output_ratio"`
	OwnCPURatio  float64 `json:"own_output_cpu_ratio"`
	// The render with nothing drawn: the pipeline's own cost against ffmpeg, same input.
	BareS        float64 `json:"nothing_drawn_s"`
	BareCPUS     float64 `json:"nothing_drawn_cpu_s"`
	BareFPS      float64 `json:"nothing_drawn_fps"`
	BarePeakMiB  int64   `json:"nothing_drawn_peak_rss_mib"`
	BareRatio    float64 `json:"nothing_drawn_ratio"`
	BareCPURatio float64 `json:"nothing_drawn_cpu_ratio"`
	BareSame     bool    `json:"nothing_drawn_same_packets"`
	// ffmpeg transcoding its own transcode's output: what the "our output" peer costs with
	// nothing drawn, against the same input (video.Bench.Again).
	AgainS        float64 `json:"ffmpeg_again_s"`
	AgainCPUS     float64 `json:"ffmpeg_again_cpu_s"`
	AgainPeakMiB  int64   `json:"ffmpeg_again_peak_rss_mib"`
	AgainCPURatio float64 `json:"ffmpeg_again_cpu_ratio"`
	// ffmpeg decoding the same input and coding the render's own frames afresh, from a
	// lossless copy: the render's twin but for the drawing (video.Bench.Twin); absent with
	// --no-twin.
	TwinS        float64 `json:"ffmpeg_twin_s,omitempty"`
	TwinCPUS     float64 `json:"ffmpeg_twin_cpu_s,omitempty"`
	TwinPeakMiB  int64   `json:"ffmpeg_twin_peak_rss_mib,omitempty"`
	TwinRatio    float64 `json:"twin_ratio,omitempty"`
	TwinCPURatio float64 `json:"twin_cpu_ratio,omitempty"`
	TwinSame     *bool   `json:"twin_same_packets,omitempty"`
}

// The synthesised clips: the seed scene's 3 s at 4K, and a MOT17-like 5 s at 1080p.
const (
	e2eFPS        = 30
	seedSynthSecs = 3
	motWidth      = 1920
	motHeight     = 1080
	motSynthSecs  = 5
)

// E2EOptions are a whole-render benchmark's (BenchE2E).
type E2EOptions struct {
	Input   string // the clip, or "synth": one synthesised with audio at the scene's size
	Scene   string // seed, or mot17 (a street scene like MOT17's)
	Preset  string // the x264 preset of all runs
	CRF     int    // the x264 CRF of all runs
	NoTwin  bool   // leave out the twin (ffmpeg coding the render's frames afresh)
	Overlay overlay.Options
	Place   Placement
	Log     io.Writer // where it says what it synthesises
}

// BenchE2E renders a clip with the scene's tracks, and transcodes the clip and the render's
// output with plain ffmpeg, in one run (video.BenchE2E). When ctx ends, every step ends with
// it, the ffmpeg programs killed (the synthesis of "synth" too), and the temporary
// directory that held the clip and the outputs is removed before it returns.
func BenchE2E(ctx context.Context, o E2EOptions) (E2EReport, error) {
	in := o.Input
	dir, err := os.MkdirTemp("", "trackink-bench-")
	if err != nil {
		return E2EReport{}, err
	}
	defer os.RemoveAll(dir)
	if in == "synth" {
		w, h, secs := scene.SeedWidth, scene.SeedHeight, seedSynthSecs
		if o.Scene == "mot17" {
			w, h, secs = motWidth, motHeight, motSynthSecs
		}
		in = filepath.Join(dir, fmt.Sprintf("synth-%dp.mp4", h))
		fmt.Fprintf(o.Log, "synthesising a %d s %dx%d clip with audio\n", secs, w, h)
		if err := video.SynthesizeContext(ctx, in, w, h, secs*e2eFPS, e2eFPS); err != nil {
			return E2EReport{}, err
		}
	} else if _, err := os.Stat(in); err != nil {
		return E2EReport{}, err
	}
	info, err := video.Probe(ctx, in, 0)
	if err != nil {
		return E2EReport{}, err
	}
	// Each drawer reads a source of its own: a source hands out a frame it reuses.
	source := func() Source { return NewSeed(info.DisplayWidth, info.DisplayHeight) }
	if o.Scene == "mot17" {
		frames := info.Frames
		if frames <= 0 {
			frames = 10 * e2eFPS
		}
		tracks, err := scene.NewTracks(scene.Street(info.DisplayWidth, info.DisplayHeight, frames))
		if err != nil {
			return E2EReport{}, err
		}
		source = func() Source { return &Stored{Tracks: tracks} }
	}
	opts := video.Options{Input: in, Output: filepath.Join(dir, "ours.mp4"), Encoder: "libx264", Preset: o.Preset, CRF: o.CRF}
	o.Place.Frames(&opts, false)
	backend := o.Place.Name()
	td := NewDrawer(o.Overlay, source())
	defer td.Close()
	var twinDraw video.DrawFunc
	if !o.NoTwin {
		// The twin's lossless copy needs a drawer of its own: a drawer keeps state (trails,
		// the links' hysteresis) from frame to frame.
		twin := NewDrawer(o.Overlay, source())
		defer twin.Close()
		twinDraw = twin.Draw
	}
	b, err := video.BenchE2E(ctx, opts, td.Draw, twinDraw)
	if err != nil {
		return E2EReport{}, err
	}
	rep := E2EReport{Input: in, Scene: o.Scene, Backend: backend, HWAccel: b.Ours.HWAccel, Preset: o.Preset, CRF: o.CRF, Frames: b.Ours.Frames,
		OursS: b.Ours.Wall.Seconds(), OursCPUS: b.OursCPU.Seconds(), OursFPS: b.Ours.FPS, OursPeakMiB: b.Ours.PeakRSS >> 20,
		PlainS: b.Plain.Seconds(), PlainCPUS: b.PlainCPU.Seconds(), PlainPeakMiB: b.PlainPeakRSS >> 20,
		Ratio: b.Ratio, CPURatio: b.CPURatio,
		OwnS: b.Own.Seconds(), OwnCPUS: b.OwnCPU.Seconds(), OwnPeakMiB: b.OwnPeakRSS >> 20,
		OwnRatio: b.OwnRatio, OwnCPURatio: b.OwnCPURatio,
		BareS: b.Bare.Wall.Seconds(), BareCPUS: b.BareCPU.Seconds(), BareFPS: b.Bare.FPS, BarePeakMiB: b.Bare.PeakRSS >> 20,
		BareRatio: b.BareRatio, BareCPURatio: b.BareCPURatio, BareSame: b.BareSame,
		AgainS: b.Again.Seconds(), AgainCPUS: b.AgainCPU.Seconds(), AgainPeakMiB: b.AgainPeakRSS >> 20, AgainCPURatio: b.AgainCPURatio}
	if !o.NoTwin {
		rep.TwinS, rep.TwinCPUS, rep.TwinPeakMiB = b.Twin.Seconds(), b.TwinCPU.Seconds(), b.TwinPeakRSS>>20
		rep.TwinRatio, rep.TwinCPURatio, rep.TwinSame = b.TwinRatio, b.TwinCPURatio, &b.TwinSame
	}
	return rep, nil
}
