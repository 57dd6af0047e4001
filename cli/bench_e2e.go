package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/pflag"

	"trackink/job"
	"trackink/scene"
	"trackink/video"
)

// e2eReport is the JSON form of an end-to-end benchmark.
type e2eReport struct {
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

// mot17Defaults makes the MOT17-like scene's own defaults those of the flags the command
// line left alone: x264's default preset, the default look, 30-frame trails.
func mot17Defaults(fs *pflag.FlagSet) {
	for name, v := range map[string]string{"preset": "medium", "look": "default", "trail": "30"} {
		if !fs.Changed(name) {
			fs.Set(name, v)
		}
	}
}

// benchE2E renders a clip with the scene's tracks, and transcodes the clip and the render's
// output with plain ffmpeg, in one run.
func benchE2E(fs *pflag.FlagSet, in, sceneName, preset string, crf int, noTwin bool, style *styleFlags, jsonOut bool, stdout, stderr io.Writer) error {
	ovOpts, err := style.options(fs, false)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "trackink-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if in == "synth" {
		w, h, secs := scene.SeedWidth, scene.SeedHeight, seedSynthSecs
		if sceneName == "mot17" {
			w, h, secs = motWidth, motHeight, motSynthSecs
		}
		in = filepath.Join(dir, fmt.Sprintf("synth-%dp.mp4", h))
		fmt.Fprintf(stderr, "synthesising a %d s %dx%d clip with audio\n", secs, w, h)
		if err := video.Synthesize(in, w, h, secs*e2eFPS, e2eFPS); err != nil {
			return err
		}
	} else if _, err := os.Stat(in); err != nil {
		return err
	}
	info, err := video.Probe(in, 0)
	if err != nil {
		return err
	}
	// Each drawer reads a source of its own: a source hands out a frame it reuses.
	source := func() job.Source { return job.NewSeed(info.DisplayWidth, info.DisplayHeight) }
	if sceneName == "mot17" {
		frames := info.Frames
		if frames <= 0 {
			frames = 10 * e2eFPS
		}
		tracks, err := scene.NewTracks(scene.Street(info.DisplayWidth, info.DisplayHeight, frames))
		if err != nil {
			return err
		}
		source = func() job.Source { return &job.Stored{Tracks: tracks} }
	}
	opts := video.Options{Input: in, Output: filepath.Join(dir, "ours.mp4"), Encoder: "libx264", Preset: preset, CRF: crf}
	style.place.Frames(&opts, false)
	backend := style.place.Name()
	td := job.NewDrawer(ovOpts, source())
	defer td.Close()
	var twinDraw video.DrawFunc
	if !noTwin {
		// The twin's lossless copy needs a drawer of its own: a drawer keeps state (trails,
		// the links' hysteresis) from frame to frame.
		twin := job.NewDrawer(ovOpts, source())
		defer twin.Close()
		twinDraw = twin.Draw
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := video.BenchE2E(ctx, opts, td.Draw, twinDraw)
	if err != nil {
		return err
	}
	rep := e2eReport{Input: in, Scene: sceneName, Backend: backend, HWAccel: b.Ours.HWAccel, Preset: preset, CRF: crf, Frames: b.Ours.Frames,
		OursS: b.Ours.Wall.Seconds(), OursCPUS: b.OursCPU.Seconds(), OursFPS: b.Ours.FPS, OursPeakMiB: b.Ours.PeakRSS >> 20,
		PlainS: b.Plain.Seconds(), PlainCPUS: b.PlainCPU.Seconds(), PlainPeakMiB: b.PlainPeakRSS >> 20,
		Ratio: b.Ratio, CPURatio: b.CPURatio,
		OwnS: b.Own.Seconds(), OwnCPUS: b.OwnCPU.Seconds(), OwnPeakMiB: b.OwnPeakRSS >> 20,
		OwnRatio: b.OwnRatio, OwnCPURatio: b.OwnCPURatio,
		BareS: b.Bare.Wall.Seconds(), BareCPUS: b.BareCPU.Seconds(), BareFPS: b.Bare.FPS, BarePeakMiB: b.Bare.PeakRSS >> 20,
		BareRatio: b.BareRatio, BareCPURatio: b.BareCPURatio, BareSame: b.BareSame,
		AgainS: b.Again.Seconds(), AgainCPUS: b.AgainCPU.Seconds(), AgainPeakMiB: b.AgainPeakRSS >> 20, AgainCPURatio: b.AgainCPURatio}
	if !noTwin {
		rep.TwinS, rep.TwinCPUS, rep.TwinPeakMiB = b.Twin.Seconds(), b.TwinCPU.Seconds(), b.TwinPeakRSS>>20
		rep.TwinRatio, rep.TwinCPURatio, rep.TwinSame = b.TwinRatio, b.TwinCPURatio, &b.TwinSame
	}
	if jsonOut {
		return json.NewEncoder(stdout).Encode(rep)
	}
	fmt.Fprintf(stdout, "%s, %d frames, %s scene, libx264 -preset %s -crf %d, audio copied\n", in, rep.Frames, sceneName, preset, crf)
	fmt.Fprintf(stdout, "backend %s, decoding %s\n", rep.Backend, rep.HWAccel)
	fmt.Fprintf(stdout, "trackink (overlay)             %7.2f s wall  %7.2f s CPU  %5.1f fps  peak RSS %d MiB\n", rep.OursS, rep.OursCPUS, rep.OursFPS, rep.OursPeakMiB)
	fmt.Fprintf(stdout, "trackink, nothing drawn        %7.2f s wall  %7.2f s CPU  %5.1f fps  peak RSS %d MiB\n", rep.BareS, rep.BareCPUS, rep.BareFPS, rep.BarePeakMiB)
	fmt.Fprintf(stdout, "ffmpeg, the same input         %7.2f s wall  %7.2f s CPU             peak RSS %d MiB\n", rep.PlainS, rep.PlainCPUS, rep.PlainPeakMiB)
	fmt.Fprintf(stdout, "ffmpeg, trackink's output      %7.2f s wall  %7.2f s CPU             peak RSS %d MiB\n", rep.OwnS, rep.OwnCPUS, rep.OwnPeakMiB)
	fmt.Fprintf(stdout, "ffmpeg, its own output         %7.2f s wall  %7.2f s CPU             peak RSS %d MiB\n", rep.AgainS, rep.AgainCPUS, rep.AgainPeakMiB)
	if !noTwin {
		fmt.Fprintf(stdout, "ffmpeg, our frames afresh      %7.2f s wall  %7.2f s CPU             peak RSS %d MiB\n", rep.TwinS, rep.TwinCPUS, rep.TwinPeakMiB)
	}
	fmt.Fprintf(stdout, "ratio to ffmpeg, same input    %7.3f wall    %7.3f CPU\n", rep.Ratio, rep.CPURatio)
	fmt.Fprintf(stdout, "ratio to ffmpeg, our output    %7.3f wall    %7.3f CPU\n", rep.OwnRatio, rep.OwnCPURatio)
	if !noTwin {
		fmt.Fprintf(stdout, "ratio to ffmpeg, our frames    %7.3f wall    %7.3f CPU   (%s)\n", rep.TwinRatio, rep.TwinCPURatio, samePacketsNote(b.TwinSame, "the render's"))
	}
	fmt.Fprintf(stdout, "nothing drawn to ffmpeg        %7.3f wall    %7.3f CPU   (%s)\n", rep.BareRatio, rep.BareCPURatio, samePacketsNote(rep.BareSame, "ffmpeg's"))
	fmt.Fprintf(stdout, "re-encoding, nothing drawn                   %7.3f CPU   (ffmpeg, its own output / the same input)\n", rep.AgainCPURatio)
	return nil
}

// samePacketsNote says whether a run wrote the same packets as whose.
func samePacketsNote(same bool, whose string) string {
	if same {
		return "the same packets as " + whose
	}
	return "NOT the same packets as " + whose
}
