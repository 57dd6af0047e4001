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

	"trackink/scene"
	"trackink/video"
)

// e2eReport is the JSON form of an end-to-end benchmark.
type e2eReport struct {
	Input        string  `json:"input"`
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
}

// benchE2E renders a clip with the seed scene and transcodes it with plain ffmpeg, in one run.
func benchE2E(fs *pflag.FlagSet, in, preset string, crf int, style *styleFlags, jsonOut bool, stdout, stderr io.Writer) error {
	ovOpts, err := style.options(fs, false)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "trackink-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if in != "synth" {
		if _, err := os.Stat(in); err != nil {
			return err
		}
	}
	if in == "synth" {
		in = filepath.Join(dir, "synth-4k.mp4")
		fmt.Fprintln(stderr, "synthesising a 3 s 3840x2160 clip with audio")
		if err := video.Synthesize(in, scene.SeedWidth, scene.SeedHeight, 90, 30); err != nil {
			return err
		}
	}
	opts := video.Options{Input: in, Output: filepath.Join(dir, "ours.mp4"), Encoder: "libx264", Preset: preset, CRF: crf}
	backend := backendName(style.backend)
	framesOnGPU(backend, &opts)
	td := &trackDrawer{opts: ovOpts, src: &trackSource{}}
	defer td.close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := video.BenchE2E(ctx, opts, td.draw)
	if err != nil {
		return err
	}
	rep := e2eReport{Input: in, Backend: backend, HWAccel: b.Ours.HWAccel, Preset: preset, CRF: crf, Frames: b.Ours.Frames,
		OursS: b.Ours.Wall.Seconds(), OursCPUS: b.OursCPU.Seconds(), OursFPS: b.Ours.FPS, OursPeakMiB: b.Ours.PeakRSS >> 20,
		PlainS: b.Plain.Seconds(), PlainCPUS: b.PlainCPU.Seconds(), PlainPeakMiB: b.PlainPeakRSS >> 20,
		Ratio: b.Ratio, CPURatio: b.CPURatio}
	if jsonOut {
		return json.NewEncoder(stdout).Encode(rep)
	}
	fmt.Fprintf(stdout, "%s, %d frames, libx264 -preset %s -crf %d, audio copied\n", in, rep.Frames, preset, crf)
	fmt.Fprintf(stdout, "backend %s, decoding %s\n", rep.Backend, rep.HWAccel)
	fmt.Fprintf(stdout, "trackink (seed overlay)  %7.2f s wall  %7.2f s CPU  %5.1f fps  peak RSS %d MiB\n", rep.OursS, rep.OursCPUS, rep.OursFPS, rep.OursPeakMiB)
	fmt.Fprintf(stdout, "plain ffmpeg transcode   %7.2f s wall  %7.2f s CPU             peak RSS %d MiB\n", rep.PlainS, rep.PlainCPUS, rep.PlainPeakMiB)
	fmt.Fprintf(stdout, "ratio (ours / ffmpeg)    %7.3f wall    %7.3f CPU\n", rep.Ratio, rep.CPURatio)
	return nil
}
