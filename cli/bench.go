package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"trackink/internal/field"
	"trackink/internal/prose"
	"trackink/job"
	"trackink/kernels/device"
	"trackink/knn"
	"trackink/options"
	"trackink/overlay"

	"github.com/spf13/pflag"
)

const benchExamples = `Examples:
  # Per-stage medians of the seed scene (3840×2160, 100 points, k = 5, 100 boxes) over 50 frames:
  trackink bench --scene seed --frames 50

  # The same as one JSON object, for scripts and CI history:
  trackink bench --scene seed --json

  # Onto YUV420P and onto NV12 frames, one after the other:
  trackink bench --scene seed --format yuv420p,nv12

  # Several backends, one after the other (with --json, one object per line):
  trackink bench --scene seed --backend cpu,emu --frames 5

  # On a GPU (a CUDA build) with the frame in GPU memory, as a render with NVDEC draws:
  # stage times from a timed pass, and the whole frame as the captured graph draws it:
  trackink bench --scene seed --backend cuda --format device,nv12 --frames 200

  # Each box effect at 4K (20 boxes over 10 % of the frame), on two workers:
  trackink bench --effects --workers 2

  # Link-graph construction for 100 to 100 000 points, every search backend and graph, each
  # row printed as soon as it is measured (up to 50 frames a row, within about a second):
  trackink bench --knn

  # 5 000 and 100 000 points, up to 200 frames a row (a steadier median than the default's;
  # a row still stops after about a second, so a slow one takes a few frames):
  trackink bench --knn --points 5000,100000 --frames 200

  # The same with the device's link update beside them: on the GPU (a CUDA build), or
  # emulated on the CPU (CPU time, for checking, not a GPU figure):
  trackink bench --knn --backend cuda
  trackink bench --knn --backend emu --points 1000,5000

  # The device's rows beside the grid's alone (the default search; no brute force, no other
  # graphs): a few seconds, for a short lease of a GPU machine:
  trackink bench --knn --backend cuda --knn-backend grid --points 5000,100000 --frames 200

  # A whole render (decode, seed overlay, libx264 encode, audio, if any, copied) against ffmpeg with
  # the same settings: transcoding the same clip, transcoding the render's output, and
  # decoding the clip while coding the render's frames afresh (its twin: the same packets);
  # "synth" makes a 3 s 4K clip:
  trackink bench --e2e clip.mp4 --preset veryfast
  trackink bench --e2e synth --preset ultrafast

  # The same with a street scene like MOT17's (20 pedestrians, trails, links, the default
  # look) on a synthesised 5 s 1080p clip, at x264's default preset:
  trackink bench --e2e synth --scene mot17

  # The built-in tracker alone at 1080p, each mode beside OpenCV's equivalent (where
  # python3-opencv is installed), 100 frames a mode; without the detector's model the
  # objects mode is left out, and said so:
  trackink bench --detect all --frames 100`

// The most frames and points bench times: each frame's figures and each size's points are
// held in memory (2 000 000 000 frames ended in the runtime's out-of-memory crash); a
// million frames of the 4K seed scene take hours on a GPU, and 10 million points are 100
// times the docs' largest graph.
const (
	maxBenchFrames = 1_000_000
	maxBenchPoints = 10_000_000
)

func benchCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	var style options.Style
	fs := options.NewFlagSet("bench", "[--knn | --effects | --e2e VIDEO | --detect all|MODES] [flags]  (none of them: the seed scene)", benchExamples, stderr)
	sceneName := fs.String("scene", "seed", "the scene to render: seed; with --e2e also mot17 (a street scene like MOT17's)")
	formats := fs.String("format", "yuv420p", "the frames drawn onto: yuv420p, nv12 (in host memory), device (NV12 in GPU memory, as NVDEC decodes: cuda and emu), or several (yuv420p,nv12,device)")
	frames := fs.Int("frames", 30, "frames to time: the seed scene's, after 10 warm-up frames; with --knn, the most each row times, which stops sooner after about a second (and 3 frames; default there: up to 50)")
	jsonOut := fs.Bool("json", false, "print one JSON object instead of a table")
	fs.Bool("knn", false, "benchmark link-graph construction instead of rendering")
	fs.Bool("effects", false, "benchmark each --box-effect instead: 20 boxes over 10 % of a 4K frame")
	points := fs.IntSlice("points", knn.DefaultBenchSizes, "with --knn: point counts")
	e2e := fs.String("e2e", "", "time a whole render of this video (or \"synth\": a 3 s 4K clip) against plain ffmpeg")
	preset := fs.String("preset", "ultrafast", "with --e2e: the x264 preset of all runs")
	fs.Lookup("preset").DefValue = "ultrafast; with --scene mot17 x264's default, medium"
	crf := fs.Int("crf", 23, "with --e2e: the x264 CRF of all runs")
	noTwin := fs.Bool("no-twin", false, "with --e2e: leave out the twin (ffmpeg coding the render's frames afresh), which renders the clip once more, losslessly")
	detectModes := fs.String("detect", "", "time the built-in tracker alone at 1080p, beside OpenCV's equivalent: all, or modes (bright,motion,points…)")
	style.Register(fs, "knn-backend", "seed")
	fs.Lookup("knn-backend").Usage += "; with --knn, a list: the search backends timed, leaving out the others and the other graphs (default there: every one, and every graph)"
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		if style.ListLooks {
			style.PrintLooks(stdout)
			return nil
		}
		mode, err := benchModeOf(fs)
		if err != nil {
			return err
		}
		if *frames < 1 || *frames > maxBenchFrames {
			return options.UsageError{Err: fmt.Errorf("--frames %d: want 1 to %d", *frames, maxBenchFrames)}
		}
		switch mode {
		case modeDetect:
			return benchDetect(*detectModes, *frames, *jsonOut, stdout, stderr)
		case modeKnn:
			knnFrames := 0 // RunBenchmark's own choice
			if fs.Changed("frames") {
				knnFrames = *frames
			}
			for _, n := range *points {
				if n < 2 || n > maxBenchPoints {
					return options.UsageError{Err: fmt.Errorf("--points %d: want 2 (a link joins two) to %d", n, maxBenchPoints)}
				}
			}
			if err := (knn.Options{K: style.Links.K}).Validate(); err != nil {
				return options.FlagError(fs, err)
			}
			searches, err := knnSearches(fs, style.Links.Backend)
			if err != nil {
				return err
			}
			backends := strings.Split(style.Backend, ",")
			for _, b := range backends {
				if _, err := options.BackendFor(b); err != nil {
					return err
				}
			}
			extra, err := job.DeviceLinkers(backends)
			if err != nil {
				return err
			}
			return knn.RunBenchmark(stdout, knn.BenchSpec{Sizes: *points, K: style.Links.K, Frames: knnFrames,
				Searches: searches, JSON: *jsonOut, Extra: extra})
		case modeE2E:
			if *sceneName != "seed" && *sceneName != "mot17" {
				return options.UsageError{Err: fmt.Errorf("--scene %q: with --e2e, seed or mot17", *sceneName)}
			}
			if *sceneName == "mot17" {
				mot17Defaults(fs)
			}
			return benchE2E(fs, *e2e, *sceneName, *preset, *crf, *noTwin, &style, *jsonOut, stdout, stderr)
		}
		if *sceneName != "seed" {
			return options.UsageError{Err: fmt.Errorf("--scene %q: the benchmark scene is seed (mot17 is for --e2e)", *sceneName)}
		}
		backends := strings.Split(style.Backend, ",")
		for _, b := range backends {
			if _, err := options.BackendFor(b); err != nil {
				return err
			}
		}
		if mode == modeEffects {
			return benchEffects(fs, &style, backends, *frames, *jsonOut, stdout)
		}
		frameFormats := strings.Split(*formats, ",")
		for _, f := range frameFormats {
			if f != "yuv420p" && f != "nv12" && f != overlay.FormatDevice {
				return options.UsageError{Err: fmt.Errorf("--format %q: want yuv420p, nv12, device or several (yuv420p,nv12,device)", f)}
			}
		}
		// Refused before any backend is timed; auto as it resolves on this machine.
		for _, b := range backends {
			if p, _ := job.Place(b, device.Probe); p.Backend == "cpu" && slices.Contains(frameFormats, overlay.FormatDevice) {
				if p.Resolved != "" {
					b += ", here " + p.Resolved + ","
				}
				return options.UsageError{Err: fmt.Errorf("--format device: the frame in device memory needs a GPU backend (--backend cuda, or emu to check on the CPU), and --backend %s draws on the CPU", b)}
			}
		}
		first := true
		for _, b := range backends {
			style.Backend = b
			opts, err := style.Options(fs, true)
			if err != nil {
				return err
			}
			if err := style.CheckTuners(fs, &opts.Style); err != nil {
				return err
			}
			for _, f := range frameFormats {
				seed, err := overlay.BenchSeed(opts, f, *frames)
				if err != nil {
					return fmt.Errorf("backend %s: %w", b, err)
				}
				rep := seed.Report(options.BackendName(b), f)
				if *jsonOut {
					if err := json.NewEncoder(stdout).Encode(rep); err != nil {
						return err
					}
					continue
				}
				if !first {
					fmt.Fprintln(stdout)
				}
				first = false
				fmt.Fprintln(stdout, seedHeader(rep))
				fmt.Fprintf(stdout, "%-10s %10s\n", "stage", "median ms")
				for _, st := range overlay.Stages() {
					fmt.Fprintf(stdout, "%-10s %10.2f\n", st, rep.StagesMS[st.String()])
				}
				printSeedTotals(stdout, rep)
			}
		}
		return nil
	}
}

// knnSearches are the search backends bench --knn times: those --knn-backend lists, or
// none (every one, and the other graphs) without it. A name not built in is a usage error
// naming the flag, before any row runs.
func knnSearches(fs *pflag.FlagSet, list string) ([]string, error) {
	if !fs.Changed("knn-backend") {
		return nil, nil
	}
	var searches []string
	for _, b := range strings.Split(list, ",") {
		if !slices.Contains(knn.Backends(), b) {
			// Validate says why (unknown, or not built in), but takes "" as the default.
			msg := "want one of " + strings.Join(knn.Backends(), ", ")
			var fe *field.Error
			if errors.As((knn.Options{K: 1, Backend: b}).Validate(), &fe) {
				msg = fe.Msg
			}
			return nil, options.UsageError{Err: fmt.Errorf("--knn-backend %q: %s%s", b, msg, options.ValueHint("knn-backend", b))}
		}
		if !slices.Contains(searches, b) {
			searches = append(searches, b)
		}
	}
	return searches, nil
}

// seedHeader is the line above a seed scene's table.
func seedHeader(rep overlay.SeedReport) string {
	format := strings.ToUpper(rep.Format)
	if rep.Format == overlay.FormatDevice {
		format = "NV12 in device memory"
	}
	return fmt.Sprintf("seed scene %dx%d onto %s, %s backend, %s, %s, %s a frame",
		rep.Width, rep.Height, format, rep.Backend, prose.Plural(rep.Workers, "worker"), prose.Plural(rep.Frames, "frame"), prose.Plural(rep.Links, "link"))
}

// printSeedTotals ends a seed scene's table: the frame's median and its allocations, and on
// a device backend the graph pass's beside the timed pass's, each line saying which it is
// (the stage times are the timed pass's: CUDA cannot time inside a graph).
func printSeedTotals(w io.Writer, rep overlay.SeedReport) {
	if rep.GraphTotalMedianMS == nil {
		fmt.Fprintf(w, "%-10s %10.2f\n", "total", rep.TotalMedianMS)
		fmt.Fprintf(w, "allocations per frame: %g\n", rep.AllocsPerFrame)
		return
	}
	fmt.Fprintf(w, "%-10s %10.2f  timed: each kernel launched alone, events between the stages\n", "total", rep.TotalMedianMS)
	fmt.Fprintf(w, "%-10s %10.2f  as a render draws: the captured graph, not timed\n", "graph", *rep.GraphTotalMedianMS)
	fmt.Fprintf(w, "allocations per frame: %g timed, %g graph\n", rep.AllocsPerFrame, *rep.GraphAllocsPerFrame)
	if *rep.GraphSamePicture {
		fmt.Fprintln(w, "the graph drew the timed pass's picture, byte for byte")
	} else {
		fmt.Fprintln(w, "the graph drew a picture other than the timed pass's")
	}
}
