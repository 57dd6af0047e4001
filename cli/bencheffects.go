package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"trackink/internal/prose"
	"trackink/options"
	"trackink/overlay"

	"github.com/spf13/pflag"
)

// benchEffects times each box effect and the camera look at 4K (overlay.BenchEffects) on
// each backend of the style's --backend list, and prints the rows.
func benchEffects(fs *pflag.FlagSet, style *options.Style, backends []string, frames int, jsonOut bool, stdout io.Writer) error {
	for _, b := range backends {
		style.Backend = b
		opts, err := style.Options(fs, true)
		if err != nil {
			return err
		}
		rows, err := overlay.BenchEffects(opts, frames)
		if err != nil {
			return fmt.Errorf("backend %s: %w", b, err)
		}
		if !jsonOut {
			fmt.Fprintln(stdout, effectsHeader(options.BackendName(b), frames))
			fmt.Fprintf(stdout, "%-11s %9s %8s %10s %10s %8s %7s\n", "effect", "strength", "workers", "effects ms", "total ms", "cpu ms", "allocs")
		}
		for _, r := range rows {
			r.Backend = options.BackendName(b)
			if jsonOut {
				if err := json.NewEncoder(stdout).Encode(r); err != nil {
					return err
				}
				continue
			}
			strength := fmt.Sprint(r.Strength)
			if r.Feather > 0 {
				strength += fmt.Sprintf(" f%g", r.Feather)
			}
			if r.Opacity != 1 && r.Effect != "camera" && r.Effect != "camera-tint" {
				strength += fmt.Sprintf(" a%g", r.Opacity)
			}
			if r.SortOrder == "descending" {
				strength += " desc"
			}
			if r.SortKey != "" {
				strength += " " + r.SortKey[:3]
			}
			if r.SortMinRun > 0 {
				strength += fmt.Sprintf(" run%d", r.SortMinRun)
			}
			switch r.Effect {
			case "camera":
				strength = "cctv"
			case "camera-tint":
				strength = "cctv+lime"
			}
			fmt.Fprintf(stdout, "%-11s %9s %8d %10.2f %10.2f %8.2f %7g\n", r.Effect, strength, r.Workers, r.EffectsMS, r.TotalMS, r.CPUMS, r.AllocsPerFrame)
		}
	}
	return nil
}

// effectsHeader is the line above the box effects' table.
func effectsHeader(backend string, frames int) string {
	return fmt.Sprintf("box effects, 20 boxes over 10 %% of %dx%d YUV420P, %s backend, %s",
		overlay.EffectsBenchWidth, overlay.EffectsBenchHeight, backend, prose.Plural(frames, "frame"))
}
