package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"trackink/composite"
	"trackink/knn"
	"trackink/overlay"
	"trackink/scene"
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

  # Each box effect at 4K (20 boxes over 10 % of the frame), on two workers:
  trackink bench --effects --workers 2

  # Link-graph construction for 100 to 100 000 points, every search backend:
  trackink bench --knn
  trackink bench --detect all --frames 100

  # 5 000 and 100 000 points, 200 frames a row (a steadier median than the default's):
  trackink bench --knn --points 5000,100000 --frames 200

  # The same with the device's link update beside them: on the GPU (a CUDA build), or
  # emulated on the CPU (CPU time, for checking, not a GPU figure):
  trackink bench --knn --backend cuda
  trackink bench --knn --backend emu --points 1000,5000

  # A whole render (decode, seed overlay, libx264 encode, audio copied) against ffmpeg with
  # the same settings: transcoding the same clip, transcoding the render's output, and
  # decoding the clip while coding the render's frames afresh (its twin: the same packets);
  # "synth" makes a 3 s 4K clip:
  trackink bench --e2e clip.mp4 --preset veryfast
  trackink bench --e2e synth --preset ultrafast

  # The same with a street scene like MOT17's (20 pedestrians, trails, links, the default
  # look) on a synthesised 5 s 1080p clip, at x264's default preset:
  trackink bench --e2e synth --scene mot17`

// benchReport is the JSON form of a scene benchmark.
type benchReport struct {
	Scene          string             `json:"scene"`
	Backend        string             `json:"backend"`
	Format         string             `json:"format"`
	Width          int                `json:"width"`
	Height         int                `json:"height"`
	Frames         int                `json:"frames"`
	Workers        int                `json:"workers"`
	Links          int                `json:"links_per_frame"`
	StagesMS       map[string]float64 `json:"stages_ms"`
	TotalMedianMS  float64            `json:"total_median_ms"`
	AllocsPerFrame float64            `json:"allocs_per_frame"`
}

func runBench(args []string, stdout, stderr io.Writer) error {
	var style styleFlags
	fs := newFlagSet("bench", "--scene seed [flags] | --knn [--points N,...]", benchExamples, stderr)
	sceneName := fs.String("scene", "seed", "the scene to render: seed; with --e2e also mot17 (a street scene like MOT17's)")
	formats := fs.String("format", "yuv420p", "the frames drawn onto: yuv420p, nv12, or both (yuv420p,nv12)")
	frames := fs.Int("frames", 30, "frames to time: the seed scene's, after 10 warm-up frames; with --knn, each row's (default there: up to 50, within about a second)")
	jsonOut := fs.Bool("json", false, "print one JSON object instead of a table")
	knnMode := fs.Bool("knn", false, "benchmark link-graph construction instead of rendering")
	fxMode := fs.Bool("effects", false, "benchmark each --box-effect instead: 20 boxes over 10 % of a 4K frame")
	points := fs.IntSlice("points", knn.DefaultBenchSizes, "with --knn: point counts")
	e2e := fs.String("e2e", "", "time a whole render of this video (or \"synth\": a 3 s 4K clip) against plain ffmpeg")
	preset := fs.String("preset", "ultrafast", "with --e2e: the x264 preset of all runs")
	fs.Lookup("preset").DefValue = "ultrafast; with --scene mot17 x264's default, medium"
	crf := fs.Int("crf", 23, "with --e2e: the x264 CRF of all runs")
	noTwin := fs.Bool("no-twin", false, "with --e2e: leave out the twin (ffmpeg coding the render's frames afresh), which renders the clip once more, losslessly")
	detectModes := fs.String("detect", "", "time the built-in tracker alone at 1080p, beside OpenCV's equivalent: all, or modes (bright,motion,points…)")
	style.register(fs, "knn-backend", "seed")
	if err := parse(fs, args); err != nil {
		return err
	}
	if style.listLooks {
		printLooks(stdout)
		return nil
	}
	if *frames < 1 {
		return usageError{errors.New("--frames must be at least 1")}
	}
	if *detectModes != "" {
		return benchDetect(*detectModes, *frames, *jsonOut, stdout, stderr)
	}
	if *knnMode {
		knnFrames := 0 // RunBenchmark's own choice
		if fs.Changed("frames") {
			knnFrames = *frames
		}
		for _, n := range *points {
			if n < 1 {
				return usageError{fmt.Errorf("--points %d: need at least 1", n)}
			}
		}
		if err := (knn.Options{K: style.links.K}).Validate(); err != nil {
			return flagError(fs, err)
		}
		extra, err := deviceLinkers(strings.Split(style.backend, ","))
		if err != nil {
			return err
		}
		return knn.RunBenchmark(stdout, *points, style.links.K, knnFrames, *jsonOut, extra...)
	}
	if *e2e != "" {
		if *sceneName != "seed" && *sceneName != "mot17" {
			return usageError{fmt.Errorf("--scene %q: with --e2e, seed or mot17", *sceneName)}
		}
		if *sceneName == "mot17" {
			mot17Defaults(fs)
		}
		return benchE2E(fs, *e2e, *sceneName, *preset, *crf, *noTwin, &style, *jsonOut, stdout, stderr)
	}
	if *sceneName != "seed" {
		return usageError{fmt.Errorf("--scene %q: the benchmark scene is seed (mot17 is for --e2e)", *sceneName)}
	}
	backends := strings.Split(style.backend, ",")
	for _, b := range backends {
		if _, err := backendFor(b); err != nil {
			return err
		}
	}
	if *fxMode {
		return benchEffects(fs, &style, backends, *frames, *jsonOut, stdout)
	}
	frameFormats := strings.Split(*formats, ",")
	for _, f := range frameFormats {
		if f != "yuv420p" && f != "nv12" {
			return usageError{fmt.Errorf("--format %q: want yuv420p, nv12 or both (yuv420p,nv12)", f)}
		}
	}
	first := true
	for _, b := range backends {
		style.backend = b
		opts, err := style.options(fs, true)
		if err != nil {
			return err
		}
		for _, f := range frameFormats {
			rep, err := benchSeed(opts, f, *frames)
			if err != nil {
				return fmt.Errorf("backend %s: %w", b, err)
			}
			rep.Backend = backendName(b)
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
			workers := "workers"
			if rep.Workers == 1 {
				workers = "worker"
			}
			fmt.Fprintf(stdout, "seed scene %dx%d onto %s, %s backend, %d %s, %d frames, %d links a frame\n",
				rep.Width, rep.Height, strings.ToUpper(rep.Format), rep.Backend, rep.Workers, workers, rep.Frames, rep.Links)
			fmt.Fprintf(stdout, "%-10s %10s\n", "stage", "median ms")
			for _, st := range overlay.Stages() {
				fmt.Fprintf(stdout, "%-10s %10.2f\n", st, rep.StagesMS[st.String()])
			}
			fmt.Fprintf(stdout, "%-10s %10.2f\n", "total", rep.TotalMedianMS)
			fmt.Fprintf(stdout, "allocations per frame: %g\n", rep.AllocsPerFrame)
		}
	}
	return nil
}

// warmup frames let every buffer reach its steady size before timing starts.
const warmup = 10

// benchSeed times frames frames of the seed scene drawn onto a mid-grey frame of the given
// format (yuv420p or nv12).
func benchSeed(opts overlay.Options, format string, frames int) (*benchReport, error) {
	w, h := scene.SeedWidth, scene.SeedHeight
	d, err := overlay.New(opts)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	tracks := scene.Seed(w, h, warmup+frames)
	y, uv := make([]byte, w*h), make([]byte, w*h/2)
	for i := range y {
		y[i] = 110
	}
	for i := range uv {
		uv[i] = 128
	}
	var f composite.Surface = &composite.YUV420P{Y: y, U: uv[:w*h/4], V: uv[w*h/4:], StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h}
	if format == "nv12" {
		f = &composite.NV12{Y: y, UV: uv, StrideY: w, StrideUV: w, W: w, H: h}
	}
	// Preallocated, so that the measurement allocates nothing of its own.
	var stages [overlay.NumStages][]float64
	for st := range stages {
		stages[st] = make([]float64, 0, frames)
	}
	totals := make([]float64, 0, frames)
	var before, after runtime.MemStats
	links := 0
	for i := range warmup + frames {
		if i == warmup {
			runtime.ReadMemStats(&before)
		}
		t0 := time.Now()
		if err := d.Draw(f, &tracks[i]); err != nil {
			return nil, err
		}
		total := time.Since(t0)
		if i < warmup {
			continue
		}
		if links, err = d.Links(); err != nil {
			return nil, err
		}
		totals = append(totals, ms(total))
		tm := d.Timings()
		for st := range stages {
			stages[st] = append(stages[st], ms(tm[st]))
		}
	}
	runtime.ReadMemStats(&after)
	rep := &benchReport{Scene: "seed", Format: format, Width: w, Height: h, Frames: frames,
		Workers: d.Backend().Workers(), Links: links, StagesMS: map[string]float64{},
		TotalMedianMS:  round3(median(totals)),
		AllocsPerFrame: round3(float64(after.Mallocs-before.Mallocs) / float64(frames))}
	for st, v := range stages {
		rep.StagesMS[overlay.Stage(st).String()] = round3(median(v))
	}
	return rep, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// round3 keeps three decimals, so that JSON shows 2.528, not 2.5279999999999996.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
