package cli

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"trackink/overlay"
)

// TestBenchEffectsRows: bench --effects --json gives one row per effect, each with the
// issue's layout (20 boxes over a tenth of a 4K frame) and a stage time and CPU time per
// frame that were measured (not left at zero).
func TestBenchEffectsRows(t *testing.T) {
	code, stdout, stderr := trackink("bench", "--effects", "--frames", "2", "--workers", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var r effectsBenchReport
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, line)
		}
		got = append(got, r.Effect)
		if r.Width != 3840 || r.Height != 2160 || r.Boxes != 20 || math.Abs(r.Coverage-0.1) > 0.01 || r.Workers != 2 {
			t.Errorf("%s: layout %+v, want 20 boxes over 10 %% of 3840x2160 on 2 workers", r.Effect, r)
		}
		if r.EffectsMS <= 0 || r.CPUMS <= 0 {
			t.Errorf("%s: effects %g ms, CPU %g ms a frame: not measured", r.Effect, r.EffectsMS, r.CPUMS)
		}
	}
	if want := overlay.EffectNames(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("rows %v, want one per effect %v", got, want)
	}
}
