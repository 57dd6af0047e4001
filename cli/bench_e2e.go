package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"trackink/internal/prose"
	"trackink/job"
	"trackink/options"
	"trackink/video"
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
// output with plain ffmpeg, in one run (job.BenchE2E), and prints the figures.
func benchE2E(fs *pflag.FlagSet, in, sceneName, preset string, crf int, noTwin bool, style *options.Style, jsonOut bool, stdout, stderr io.Writer) error {
	if err := checkE2E(fs, in, preset, crf); err != nil {
		return err
	}
	ovOpts, err := style.Options(fs, false)
	if err != nil {
		return err
	}
	if err := style.CheckTuners(fs, &ovOpts.Style); err != nil {
		return err
	}
	// SIGINT, SIGTERM and SIGHUP stop the run as they stop a render (signals.go): the ffmpeg
	// runs and the render end, the temporary files are removed, and the exit status is 128 +
	// the signal's number.
	ctx, stop := signalContext()
	defer stop()
	rep, err := job.BenchE2E(ctx, job.E2EOptions{Input: in, Scene: sceneName, Preset: preset, CRF: crf, NoTwin: noTwin,
		Overlay: ovOpts, Place: style.Place, Log: stderr})
	if err != nil && ctx.Err() != nil {
		return interrupted(ctx)
	}
	if err != nil {
		return err
	}
	if jsonOut {
		return json.NewEncoder(stdout).Encode(rep)
	}
	fmt.Fprintln(stdout, e2eHeader(in, rep.Frames, sceneName, preset, crf))
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
		fmt.Fprintf(stdout, "ratio to ffmpeg, our frames    %7.3f wall    %7.3f CPU   (%s)\n", rep.TwinRatio, rep.TwinCPURatio, samePacketsNote(*rep.TwinSame, "the render's"))
	}
	fmt.Fprintf(stdout, "nothing drawn to ffmpeg        %7.3f wall    %7.3f CPU   (%s)\n", rep.BareRatio, rep.BareCPURatio, samePacketsNote(rep.BareSame, "ffmpeg's"))
	fmt.Fprintf(stdout, "re-encoding, nothing drawn                   %7.3f CPU   (ffmpeg, its own output / the same input)\n", rep.AgainCPURatio)
	return nil
}

// checkE2E checks, before any work, what the runs are given, as render checks its own
// (options.CheckInput, video.Options.Validate), mistakes naming the flag (exit 2): they were
// found only minutes in, after the clip was synthesised or a run made, naming the library's
// fields (video.Options.CRF 99), or left to the ffmpeg run's x264 to refuse.
func checkE2E(fs *pflag.FlagSet, in, preset string, crf int) error {
	if in == "" {
		return options.UsageError{Err: errors.New("--e2e: give the video to render, or synth")}
	}
	if crf == 0 {
		// video.Options.CRF 0 is the encoder's default (23), for the render and the ffmpeg
		// runs alike: the header's "-crf 0" would say lossless and mean 23.
		return options.UsageError{Err: errors.New("--crf 0: bench times lossy renders, 1..51 (render's --crf 0 is lossless)")}
	}
	if in != "synth" {
		if err := options.CheckInput("--e2e", in, false); err != nil {
			return err
		}
	}
	// The encoder settings of every run: job.BenchE2E's render codes with libx264, and the
	// ffmpeg runs take the same preset and CRF.
	runs := video.Options{Input: in, Output: "bench.mp4", Encoder: "libx264", Preset: preset, CRF: crf}
	return options.FlagError(fs, runs.Validate())
}

// e2eHeader is the line above a whole render's figures. Every run copies the clip's other
// streams; the synthesised clip has audio, a clip given may have none.
func e2eHeader(in string, frames int, sceneName, preset string, crf int) string {
	audio := "audio, if any, copied"
	if in == "synth" {
		audio = "audio copied"
	}
	return fmt.Sprintf("%s, %s, %s scene, libx264 -preset %s -crf %d, %s", in, prose.Plural(frames, "frame"), sceneName, preset, crf, audio)
}

// samePacketsNote says whether a run wrote the same packets as whose.
func samePacketsNote(same bool, whose string) string {
	if same {
		return "the same packets as " + whose
	}
	return "NOT the same packets as " + whose
}
