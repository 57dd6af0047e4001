package options

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"trackink/detect"
)

// Networks: a single-thread network a CPU up to 8, the CPUs shared out beyond.
func TestNetworks(t *testing.T) {
	for _, tc := range []struct{ cpus, networks, threads int }{
		{0, 1, 1}, {1, 1, 1}, {2, 2, 1}, {8, 8, 1}, {12, 8, 1}, {16, 8, 2}, {64, 8, 8},
	} {
		if n, th := Networks(tc.cpus); n != tc.networks || th != tc.threads {
			t.Errorf("%d CPUs: %d networks of %d threads, want %d of %d", tc.cpus, n, th, tc.networks, tc.threads)
		}
	}
}

// TestPeopleRefusesOtherClasses: --detect people finds people; --classes naming another
// class with it is a usage error (exit 2) naming both flags and pointing to --detect objects,
// before any model is looked for. It tracked cars only, without a word, under the preset
// that says it finds people. --classes person changes nothing and is taken, and objects
// takes any class.
func TestPeopleRefusesOtherClasses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string // in the error; none: taken
	}{
		{[]string{"--detect", "people", "--classes", "car"},
			[]string{"--classes car with --detect people", "people finds person only, not car", "use --detect objects --classes car"}},
		{[]string{"--detect", "people", "--classes", "person,car,dog"},
			[]string{"--classes person,car,dog with --detect people", "not car, dog", "--detect objects --classes person,car,dog"}},
		{[]string{"--detect", "people", "--classes", "motorbike"},
			[]string{"not motorcycle", "--detect objects --classes motorbike"}},
		{[]string{"--detect", "people", "--classes", "person"}, nil},
		{[]string{"--detect", "people", "--classes", " person, person"}, nil},
		{[]string{"--detect", "objects", "--classes", "car"}, nil},
		{[]string{"--detect", "people"}, nil},
	} {
		fs := pflag.NewFlagSet("", pflag.ContinueOnError)
		var d Detect
		d.Register(fs, "")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		// No model here: the classes are taken where the error is the missing model's.
		t.Setenv(detect.ModelEnv, filepath.Join(t.TempDir(), "none.onnx"))
		t.Setenv("XDG_DATA_HOME", t.TempDir())
		_, closeNets, err := d.Options(fs)
		if err == nil {
			closeNets() // a model found after all
		}
		if tc.want == nil {
			if errors.As(err, new(UsageError)) {
				t.Errorf("%v: %v, want it taken", tc.args, err)
			}
			continue
		}
		if !errors.As(err, new(UsageError)) {
			t.Errorf("%v: %v, want a usage error", tc.args, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q, want %q in it", tc.args, err, w)
			}
		}
	}
}
