package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"trackink/overlay"
)

// TestBenchEffectsRows: bench --effects --json gives one row per effect, each with the
// issue's layout (20 boxes over a tenth of a 4K frame), then the camera look's over the
// whole 4K frame, without and with a tint, each with a stage time and CPU time per frame that were measured (not
// left at zero).
func TestBenchEffectsRows(t *testing.T) {
	var got []string
	for _, r := range benchEffectsRows(t, "--frames", "2") {
		got = append(got, r.Effect)
		boxes, coverage := 20, 0.1
		if strings.HasPrefix(r.Effect, "camera") {
			boxes, coverage = 0, 1
		}
		if r.Width != 3840 || r.Height != 2160 || r.Boxes != boxes || math.Abs(r.Coverage-coverage) > 0.01 || r.Workers != 2 {
			t.Errorf("%s: layout %+v, want %d boxes over %g of 3840x2160 on 2 workers", r.Effect, r, boxes, coverage)
		}
		if r.EffectsMS <= 0 || r.CPUMS <= 0 {
			t.Errorf("%s: effects %g ms, CPU %g ms a frame: not measured", r.Effect, r.EffectsMS, r.CPUMS)
		}
	}
	if want := append(overlay.EffectNames(), "camera", "camera-tint"); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("rows %v, want one per effect and the camera's two %v", got, want)
	}
}

// TestBenchEffectsFeathered: bench --effects --effect-feather F --effect-opacity A times each
// effect also feathered and mixed so, its row right after the plain one's (the same run, side
// by side); --sort-order, --sort-key and --sort-min-run twin sort's row alone, the only
// effect that reads them.
func TestBenchEffectsFeathered(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		// twin is the twin row of each effect but sort ("" none), sortTwin sort's.
		twin, sortTwin string
	}{
		{"feather, opacity and sort options: every effect twinned, sort's options on sort's alone",
			[]string{"--effect-feather", "16", "--effect-opacity", "0.5", "--sort-order", "descending", "--sort-key", "hue", "--sort-min-run", "8"},
			"/16/0.5///0", "/16/0.5/descending/hue/8"},
		{"sort options alone: sort's row twinned, no other", []string{"--sort-key", "hue", "--sort-min-run", "8"}, "", "/0/1//hue/8"},
		{"opacity alone: every effect twinned", []string{"--effect-opacity", "0.5"}, "/0/0.5///0", "/0/0.5///0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range benchEffectsRows(t, append([]string{"--frames", "1"}, tc.args...)...) {
				if strings.HasPrefix(r.Effect, "camera") {
					r.Opacity = 1 // the camera's rows have none
				}
				got = append(got, fmt.Sprintf("%s/%g/%g/%s/%s/%d", r.Effect, r.Feather, r.Opacity, r.SortOrder, r.SortKey, r.SortMinRun))
			}
			var want []string
			for _, name := range overlay.EffectNames() {
				want = append(want, name+"/0/1///0")
				switch {
				case name == "sort":
					want = append(want, name+tc.sortTwin)
				case tc.twin != "":
					want = append(want, name+tc.twin)
				}
			}
			want = append(want, "camera/0/1///0", "camera-tint/0/1///0")
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("rows %v, want %v", got, want)
			}
		})
	}
}

// benchEffectsRows runs bench --effects --workers 2 --json with args and returns its rows.
func benchEffectsRows(t *testing.T, args ...string) []overlay.EffectsBench {
	t.Helper()
	code, stdout, stderr := trackink(append([]string{"bench", "--effects", "--workers", "2", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []overlay.EffectsBench
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var r overlay.EffectsBench
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, line)
		}
		rows = append(rows, r)
	}
	return rows
}
