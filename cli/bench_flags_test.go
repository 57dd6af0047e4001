package cli

import (
	"io"
	"strings"
	"testing"
)

// TestBenchRefusesFlagsItDoesNotRead: two benchmarks at once, or a flag the chosen
// benchmark does not read, is a usage error (exit 2) naming the flags, before any work;
// they were ignored without a word (bench --knn --e2e synth ran --knn only). The flags each
// benchmark does read are taken.
func TestBenchRefusesFlagsItDoesNotRead(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string // in the message; none: the flags are taken
	}{
		{[]string{"--knn", "--e2e", "synth"}, []string{"--knn and --e2e each choose a benchmark"}},
		{[]string{"--effects", "--knn"}, []string{"--knn and --effects each choose a benchmark"}},
		{[]string{"--effects", "--e2e", "synth"}, []string{"--effects and --e2e each choose a benchmark"}},
		{[]string{"--detect", "bright", "--knn"}, []string{"--knn and --detect each choose a benchmark"}},
		{[]string{"--knn", "--effects", "--detect", "all"}, []string{"--knn, --effects and --detect each choose"}},
		{[]string{"--scene", "seed", "--points", "5", "--preset", "slow", "--no-twin", "--crf", "40"},
			[]string{"bench (the seed scene) does not use", "--points (for --knn)", "--preset (for --e2e)", "--no-twin (for --e2e)", "--crf (for --e2e)", "leave them out"}},
		{[]string{"--knn", "--look", "hud"}, []string{"bench --knn does not use --look (for the seed scene and --e2e): leave it out"}},
		{[]string{"--knn", "--workers", "2"}, []string{"bench --knn does not use --workers"}},
		{[]string{"--e2e", "synth", "--frames", "3"}, []string{"bench --e2e does not use --frames"}},
		{[]string{"--e2e", "synth", "--format", "nv12"}, []string{"bench --e2e does not use --format (for the seed scene)"}},
		{[]string{"--effects", "--scene", "seed"}, []string{"bench --effects does not use --scene"}},
		{[]string{"--effects", "--box-effect", "blur"}, []string{"bench --effects does not use --box-effect"}},
		{[]string{"--detect", "all", "--backend", "emu"}, []string{"bench --detect does not use --backend"}},
		{[]string{"--detect", "all", "--points", "60"}, []string{"bench --detect does not use --points (for --knn)"}},
		{[]string{"--effects", "--knn-backend", "grid"}, []string{"bench --effects does not use --knn-backend (for the seed scene, --knn and --e2e)"}},
		{[]string{"--detect", "all", "--knn-backend", "grid"}, []string{"bench --detect does not use --knn-backend"}},
		// What each benchmark reads.
		{[]string{"--scene", "seed", "--format", "nv12", "--frames", "2", "--json", "--look", "hud", "--k", "3", "--backend", "cpu", "--workers", "1"}, nil},
		{[]string{"--knn", "--points", "60", "--frames", "2", "--k", "3", "--backend", "cpu", "--json"}, nil},
		{[]string{"--knn", "--knn-backend", "grid", "--backend", "emu", "--points", "60", "--frames", "2"}, nil},
		{[]string{"--scene", "seed", "--knn-backend", "brute"}, nil},
		{[]string{"--e2e", "synth", "--knn-backend", "brute"}, nil},
		{[]string{"--knn=false", "--frames", "2"}, nil},
		{[]string{"--effects", "--frames", "2", "--backend", "cpu", "--workers", "2", "--json"}, nil},
		{[]string{"--effects", "--effect-feather", "16", "--effect-opacity", "0.5", "--sort-order", "descending"}, nil},
		{[]string{"--e2e", "synth", "--scene", "mot17", "--preset", "fast", "--crf", "20", "--no-twin", "--look", "hud", "--trail", "5", "--k", "3", "--workers", "1", "--json"}, nil},
		{[]string{"--detect", "bright", "--frames", "2", "--json"}, nil},
	} {
		fs, _ := benchCommand(io.Discard)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		_, err := benchModeOf(fs)
		switch {
		case tt.want == nil && err != nil:
			t.Errorf("%v: %v, want the flags taken", tt.args, err)
		case tt.want == nil:
		case err == nil:
			t.Errorf("%v: taken, want refused", tt.args)
		default:
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v: %q, want it to say %q", tt.args, err, w)
				}
			}
			// The command itself: exit 2, before any work.
			if code, stdout, stderr := trackink(append([]string{"bench"}, tt.args...)...); code != 2 || stdout != "" || !strings.Contains(stderr, tt.want[0]) {
				t.Errorf("bench %v: exit %d, stdout %q, stderr %q; want exit 2 and the message", tt.args, code, stdout, stderr)
			}
		}
	}
}

// TestBenchBounds: --frames out of range is refused naming the flag, exit 2, before any
// work: two billion frames ended in the runtime's out-of-memory crash (--points:
// TestBenchKnnPointsChecked).
func TestBenchBounds(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--frames", "0"}, "--frames 0: want 1 to 1000000"},
		{[]string{"--frames", "2000000000"}, "--frames 2000000000: want 1 to 1000000"},
		{[]string{"--effects", "--frames", "99999999999"}, "--frames 99999999999: want 1 to 1000000"},
	} {
		if code, stdout, stderr := trackink(append([]string{"bench"}, tt.args...)...); code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("bench %v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", tt.args, code, stdout, stderr, tt.want)
		}
	}
}
