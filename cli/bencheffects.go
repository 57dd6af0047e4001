package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"trackink/composite"
	"trackink/overlay"
)

// effectsBenchReport is one row of bench --effects: an effect's stage time at 4K (the
// camera look's row: the camera stage's, over the whole frame).
type effectsBenchReport struct {
	Effect         string  `json:"effect"`
	Strength       float32 `json:"strength"`
	Backend        string  `json:"backend"`
	Width          int     `json:"width"`
	Height         int     `json:"height"`
	Boxes          int     `json:"boxes"`
	Coverage       float64 `json:"coverage"` // the fraction of the frame under the boxes
	Frames         int     `json:"frames"`
	Workers        int     `json:"workers"`
	EffectsMS      float64 `json:"effects_median_ms"` // the effects stage
	TotalMS        float64 `json:"total_median_ms"`   // the whole Draw
	CPUMS          float64 `json:"cpu_ms_per_frame"`  // user+system time of all threads, per frame
	AllocsPerFrame float64 `json:"allocs_per_frame"`
}

// benchEffects times each box effect on a 3840×2160 YUV420P frame: overlay.EffectBenchBoxes'
// 20 boxes over a tenth of the frame, nothing else drawn, and the camera look of --look
// cctv over the whole frame, on each backend of the style's --backend list.
func benchEffects(fs *pflag.FlagSet, style *styleFlags, backends []string, frames int, jsonOut bool, stdout io.Writer) error {
	const w, h = 3840, 2160
	fr := overlay.EffectBenchFrame(w, h)
	for _, b := range backends {
		style.backend = b
		opts, err := style.options(fs, true)
		if err != nil {
			return err
		}
		if !jsonOut {
			fmt.Fprintf(stdout, "box effects, 20 boxes over 10 %% of %dx%d YUV420P, %s backend, %d frames\n", w, h, backendName(b), frames)
			fmt.Fprintf(stdout, "%-10s %8s %8s %10s %10s %8s %7s\n", "effect", "strength", "workers", "effects ms", "total ms", "cpu ms", "allocs")
		}
		for _, name := range overlay.EffectNames() {
			kind, _ := overlay.ParseEffect(name)
			fx := overlay.EffectBenchBoxes(w, h, kind, 0)
			rep, err := benchEffect(opts, fr, &overlay.Primitives{Effects: fx}, overlay.StageEffects, frames)
			if err != nil {
				return fmt.Errorf("backend %s: %w", b, err)
			}
			rep.Effect, rep.Strength, rep.Backend = name, fx[0].Strength, backendName(b)
			rep.Width, rep.Height, rep.Boxes = w, h, len(fx)
			for _, e := range fx {
				rep.Coverage += float64(e.W*e.H) / (w * h)
			}
			rep.Coverage = overlay.Round3(rep.Coverage)
			if jsonOut {
				if err := json.NewEncoder(stdout).Encode(rep); err != nil {
					return err
				}
				continue
			}
			fmt.Fprintf(stdout, "%-10s %8g %8d %10.2f %10.2f %8.2f %7g\n", name, rep.Strength, rep.Workers, rep.EffectsMS, rep.TotalMS, rep.CPUMS, rep.AllocsPerFrame)
		}
		// The camera look over the whole frame, as --look cctv sets it (its stage, not the
		// stamp's label).
		cctv, _ := overlay.Preset("cctv")
		pass := cctv.ForHeight(h).Camera
		p := &overlay.Primitives{Camera: overlay.CameraPass{Scanlines: pass.Scanlines, Vignette: pass.Vignette,
			Aberration: pass.Aberration, Grain: pass.Grain, Seed: pass.Seed, Frame: 1}}
		rep, err := benchEffect(opts, fr, p, overlay.StageCamera, frames)
		if err != nil {
			return fmt.Errorf("backend %s: %w", b, err)
		}
		rep.Effect, rep.Backend, rep.Width, rep.Height, rep.Coverage = "camera", backendName(b), w, h, 1
		if jsonOut {
			if err := json.NewEncoder(stdout).Encode(rep); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(stdout, "%-10s %8s %8d %10.2f %10.2f %8.2f %7g\n", "camera", "cctv", rep.Workers, rep.EffectsMS, rep.TotalMS, rep.CPUMS, rep.AllocsPerFrame)
	}
	return nil
}

// benchEffect times p drawn onto fr (overlay.BenchBackend), stage being the effects' or
// the camera's, for a row of the report.
func benchEffect(opts overlay.Options, fr composite.Surface, p *overlay.Primitives, stage overlay.Stage, frames int) (*effectsBenchReport, error) {
	b, err := overlay.BenchBackend(opts, fr, p, stage, frames)
	if err != nil {
		return nil, err
	}
	return &effectsBenchReport{Frames: b.Frames, Workers: b.Workers, EffectsMS: b.StageMS, TotalMS: b.TotalMS,
		CPUMS: b.CPUMS, AllocsPerFrame: b.AllocsPerFrame}, nil
}
