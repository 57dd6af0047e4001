package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"trackink/goldens"
	"trackink/internal/suggest"
	"trackink/options"
	"trackink/overlay"

	"github.com/spf13/pflag"
)

const goldenExamples = `Examples:
  # Compare every golden scene (run from the repository root):
  trackink golden

  # After a deliberate change, rewrite the pictures, then look at each one:
  trackink golden --update

  # One scene, failures written to /tmp/golden:
  trackink golden --only curves --out /tmp/golden

  # Check the CUDA kernels against the same pictures (a GPU machine, a -tags cuda build):
  trackink golden --backend cuda`

func goldenCommand(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	var o goldens.Options
	fs := options.NewFlagSet("golden", "[flags]", goldenExamples, stderr)
	fs.StringVar(&o.Dir, "dir", filepath.Join("goldens", "testdata"), "directory of the expected pictures")
	fs.StringVar(&o.OutDir, "out", "golden-failures", "directory for the actual and diff pictures of failures")
	fs.BoolVar(&o.Update, "update", false, "rewrite the expected pictures instead of comparing")
	fs.StringSliceVar(&o.Only, "only", nil, "run only these scenes (comma-separated)")
	fs.IntVar(&o.Workers, "workers", 0, "render threads, at most "+strconv.Itoa(overlay.MaxWorkers)+" (default: one per CPU)")
	backend := fs.String("backend", "cpu", "renderer to check against the pictures: cpu, cuda, emu, auto (the pictures are the CPU's; --update only with cpu)")
	list := fs.Bool("list", false, "list the scenes and what each exercises")
	return fs, func(args []string, stdout io.Writer) error {
		if err := options.Parse(fs, args); err != nil {
			return err
		}
		if *list {
			for _, s := range goldens.Scenes {
				fmt.Fprintf(stdout, "%-18s %4dx%-4d %s\n", s.Name, s.Width, s.Height, s.About)
			}
			return nil
		}
		var names []string
		for _, s := range goldens.Scenes {
			names = append(names, s.Name)
		}
		for _, name := range o.Only {
			if !slices.Contains(names, name) {
				return options.UsageError{Err: fmt.Errorf("--only %q: no such golden scene%s (golden --list lists them)", name, suggest.DidYouMean(name, names))}
			}
		}
		if err := (overlay.BackendOptions{Workers: o.Workers}).Validate(); err != nil {
			return options.FlagError(fs, err)
		}
		var err error
		if o.NewBackend, err = options.BackendFor(*backend); err != nil {
			return err
		}
		if o.Update && *backend != "cpu" {
			return options.UsageError{Err: fmt.Errorf("--update with --backend %s: the golden pictures are the CPU renderer's", *backend)}
		}
		if st, err := os.Stat(o.Dir); err != nil || !st.IsDir() {
			// A directory that is not there is a mistake on the command line (exit 2), the
			// default's included: it is relative to the repository root.
			if !fs.Changed("dir") {
				return options.UsageError{Err: fmt.Errorf("no golden pictures at %s (--dir's default, in the repository): run from the repository root, or give --dir", o.Dir)}
			}
			return options.UsageError{Err: fmt.Errorf("--dir %s: no such directory of golden pictures", o.Dir)}
		}
		if !o.Update { // --update writes no failures' pictures
			if err := checkOutDir(o.OutDir); err != nil {
				return err
			}
		}
		results, err := goldens.Run(o)
		failed, skipped := 0, 0
		for _, r := range results {
			switch {
			case r.Status == goldens.Skipped:
				skipped++
				fmt.Fprintf(stdout, "skip %-18s %s\n", r.Scene, r.Reason)
			case r.Status == goldens.Failed && r.Reason != "":
				failed++
				fmt.Fprintf(stdout, "FAIL %-18s %s; drawn: %s\n", r.Scene, r.Reason, r.Actual)
			case r.Status == goldens.Failed:
				failed++
				fmt.Fprintf(stdout, "FAIL %-18s %d pixels differ by more than %d (largest %d): %s, %s\n",
					r.Scene, r.Over, goldens.Tolerance, r.MaxDiff, r.Actual, r.Diff)
			case r.Status == goldens.Updated:
				fmt.Fprintf(stdout, "updated %s\n", filepath.Join(o.Dir, r.Scene+".png"))
			default:
				fmt.Fprintf(stdout, "ok   %-18s (largest difference %d)\n", r.Scene, r.MaxDiff)
			}
		}
		if err != nil {
			return err
		}
		if failed > 0 {
			return fmt.Errorf("%d of %d golden scenes failed (tolerance %d codes per channel)", failed, len(results), goldens.Tolerance)
		}
		switch {
		case o.Update:
		case skipped > 0:
			fmt.Fprintf(stdout, "%d golden scenes passed, %d skipped (no footage here)\n", len(results)-skipped, skipped)
		default:
			fmt.Fprintf(stdout, "%d golden scenes passed\n", len(results))
		}
		return nil
	}
}

// checkOutDir refuses, before any scene is drawn, a --out that is a file or whose parent
// directory does not exist (the failures' pictures go into it, made where it is missing).
func checkOutDir(dir string) error {
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return options.UsageError{Err: fmt.Errorf("--out %s: is a file; give a directory for the failures' pictures", dir)}
		}
		return nil
	}
	if st, err := os.Stat(filepath.Dir(dir)); err != nil || !st.IsDir() {
		return options.UsageError{Err: fmt.Errorf("--out %s: no directory %s to make it in", dir, filepath.Dir(dir))}
	}
	return nil
}
