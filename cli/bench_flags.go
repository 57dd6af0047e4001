package cli

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"trackink/internal/prose"
	"trackink/options"
)

// benchMode is one of bench's benchmarks, chosen by its flag; the seed scene's by none.
type benchMode string

const (
	modeSeed    benchMode = ""
	modeKnn     benchMode = "knn"
	modeEffects benchMode = "effects"
	modeE2E     benchMode = "e2e"
	modeDetect  benchMode = "detect"
)

// benchModeFlags are the flags that choose a benchmark, in the order help lists them.
var benchModeFlags = []benchMode{modeKnn, modeEffects, modeE2E, modeDetect}

// String names the benchmark in messages.
func (m benchMode) String() string {
	if m == modeSeed {
		return "the seed scene"
	}
	return "--" + string(m)
}

// benchReads lists, for each of bench's flags that not every benchmark reads, the
// benchmarks that read it. The look's flags not listed (options.Style's: --look, --trail…)
// are the drawer's, read by the seed scene and --e2e only: --effects draws
// its own boxes (feathered, mixed, sorted otherwise too with --effect-feather, --effect-opacity, --sort-order,
// --sort-key, --sort-min-run), --knn links points it makes up, --detect draws nothing.
var benchReads = map[string][]benchMode{
	"scene":   {modeSeed, modeE2E},
	"format":  {modeSeed},
	"frames":  {modeSeed, modeKnn, modeEffects, modeDetect},
	"points":  {modeKnn},
	"preset":  {modeE2E},
	"crf":     {modeE2E},
	"no-twin": {modeE2E},
	"k":       {modeSeed, modeKnn, modeE2E},
	"backend": {modeSeed, modeKnn, modeEffects, modeE2E},
	"workers": {modeSeed, modeEffects, modeE2E},
	// The drawer's search, and --knn's: the search backends it times (all of them without it).
	"knn-backend": {modeSeed, modeKnn, modeE2E},
	"json":        {modeSeed, modeKnn, modeEffects, modeE2E, modeDetect},
	// --effects times each effect also feathered, mixed or sorted otherwise, beside the plain row.
	"effect-feather": {modeSeed, modeEffects, modeE2E},
	"effect-opacity": {modeSeed, modeEffects, modeE2E},
	"sort-order":     {modeSeed, modeEffects, modeE2E},
	"sort-key":       {modeSeed, modeEffects, modeE2E},
	"sort-min-run":   {modeSeed, modeEffects, modeE2E},
}

// benchDrawer is who reads the look's flags that benchReads does not list.
var benchDrawer = []benchMode{modeSeed, modeE2E}

// benchModeOf returns the benchmark the command line chose, refusing, as track does, two
// benchmarks at once and any flag the chosen one does not read: each was ignored without a
// word (bench --knn --e2e synth ran --knn only; bench --points 5 --crf 40 timed the seed
// scene).
func benchModeOf(fs *pflag.FlagSet) (benchMode, error) {
	var chosen []benchMode
	for _, m := range benchModeFlags {
		f := fs.Lookup(string(m))
		if fs.Changed(f.Name) && (f.Value.Type() != "bool" || f.Value.String() == "true") {
			chosen = append(chosen, m)
		}
	}
	if len(chosen) > 1 {
		names := make([]string, len(chosen))
		for i, m := range chosen {
			names[i] = m.String()
		}
		return "", options.UsageError{Err: fmt.Errorf("%s each choose a benchmark: give one", prose.List(names, " and "))}
	}
	mode := modeSeed
	if len(chosen) == 1 {
		mode = chosen[0]
	}
	var unread []string
	fs.Visit(func(f *pflag.Flag) {
		if slices.Contains(benchModeFlags, benchMode(f.Name)) || f.Name == "list-looks" {
			return
		}
		readers, ok := benchReads[f.Name]
		if !ok {
			readers = benchDrawer
		}
		if !slices.Contains(readers, mode) {
			names := make([]string, len(readers))
			for i, m := range readers {
				names[i] = m.String()
			}
			unread = append(unread, fmt.Sprintf("--%s (for %s)", f.Name, prose.List(names, " and ")))
		}
	})
	if len(unread) > 0 {
		return mode, options.UsageError{Err: fmt.Errorf("bench %s does not use %s: leave %s out",
			benchCommandOf(mode), prose.List(unread, " or "), pronoun(len(unread)))}
	}
	return mode, nil
}

// benchCommandOf is how a benchmark is asked for, for messages: "bench --knn", and for the
// seed scene, its default, "bench (the seed scene)".
func benchCommandOf(m benchMode) string {
	if m == modeSeed {
		return "(the seed scene)"
	}
	return m.String()
}

// pronoun is "it" for one thing, "them" for more.
func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
