package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"trackink/knn"
)

// TestBenchKnnOnTheDevice: bench --knn --backend emu times the device's link update in rows
// of its own, marked as emulated, after checking its links against the grid's (a
// disagreement fails the benchmark), and --backend cpu adds no such rows.
func TestBenchKnnOnTheDevice(t *testing.T) {
	code, stdout, stderr := trackink("bench", "--knn", "--backend", "cpu,emu", "--points", "60,400", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct{ Results []knn.BenchResult }
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	links := map[int]int{} // points → the grid's links
	emu := 0
	for _, r := range rep.Results {
		switch r.Backend {
		case knn.BackendGrid:
			links[r.Points] = r.Links
		case "emu":
			emu++
			if r.Links != links[r.Points] || r.Frames == 0 || !strings.Contains(r.Note, "not a GPU figure") {
				t.Errorf("emu row %+v (the grid drew %d links)", r, links[r.Points])
			}
		}
	}
	if emu != 2 {
		t.Errorf("%d emu rows for two sizes: %s", emu, stdout)
	}
	code, stdout, _ = trackink("bench", "--knn", "--points", "60")
	if code != 0 || strings.Contains(stdout, "emu") {
		t.Errorf("bench --knn on the CPU: exit %d, %s", code, stdout)
	}
}

// TestBenchKnnFrames: --frames sets the frames each --knn row times; without it a fast row
// times the benchmark's own 50, not the seed scene's default of 30.
func TestBenchKnnFrames(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"--frames", "7"}, 7},
		{nil, 50},
	} {
		args := append([]string{"bench", "--knn", "--points", "60", "--json"}, tt.args...)
		code, stdout, stderr := trackink(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, stderr)
		}
		var rep struct{ Results []knn.BenchResult }
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", tt.args, err, stdout)
		}
		for _, r := range rep.Results {
			if r.Frames != tt.want {
				t.Errorf("%v: %s timed %d frames, want %d", tt.args, r.Backend, r.Frames, tt.want)
			}
		}
	}
}

// TestBenchKnnPointsChecked: a --points size too small to link, or too large to hold, is a
// usage error naming the flag (exit 2); 1 passed the flag's check and failed in the
// benchmark, exit 1, and two billion ended in the runtime's out-of-memory crash.
func TestBenchKnnPointsChecked(t *testing.T) {
	for _, points := range []string{"0", "1", "60,1", "60,2000000000"} {
		code, stdout, stderr := trackink("bench", "--knn", "--points", points, "--knn-backend", "grid")
		if code != 2 || stdout != "" || !strings.Contains(stderr, ": want 2 (a link joins two) to 10000000") {
			t.Errorf("--points %s: exit %d, stdout %q, stderr %q; want exit 2 naming --points", points, code, stdout, stderr)
		}
	}
}

// TestBenchKnnBackendRows: bench --knn --knn-backend LIST times those search backends alone
// (beside the device's rows), leaving out the others and the other graphs, so that a run on
// a GPU machine's lease times what matters (--knn-backend was refused by --knn); a name
// not built in is a usage error naming the flag, before any row runs.
func TestBenchKnnBackendRows(t *testing.T) {
	for _, tt := range []struct {
		list string
		want []string // the rows at each size; none: refused
		err  string
	}{
		{"grid", []string{knn.BackendGrid, "emu"}, ""},
		{"brute,grid", []string{knn.BackendGrid, knn.BackendBrute, "emu"}, ""},
		{"brute", []string{knn.BackendBrute, "emu"}, ""},
		{"nope", nil, `--knn-backend "nope": want one of grid`},
		{"", nil, `--knn-backend "": want one of grid`},
		{"grid,brt", nil, `--knn-backend "brt": want one of grid`},
	} {
		code, stdout, stderr := trackink("bench", "--knn", "--knn-backend", tt.list, "--backend", "emu", "--points", "60,400", "--frames", "3", "--json")
		if tt.want == nil {
			if code != 2 || stdout != "" || !strings.Contains(stderr, tt.err) {
				t.Errorf("--knn-backend %q: exit %d, stdout %q, stderr %q; want exit 2 saying %q", tt.list, code, stdout, stderr, tt.err)
			}
			continue
		}
		if code != 0 {
			t.Fatalf("--knn-backend %q: exit %d: %s", tt.list, code, stderr)
		}
		var rep struct{ Results []knn.BenchResult }
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, stdout)
		}
		// Row i is backend want[i%len(want)] at the i/len(want)th size.
		if len(rep.Results) != 2*len(tt.want) {
			t.Errorf("--knn-backend %q: %d rows, want %v at each of 2 sizes: %s", tt.list, len(rep.Results), tt.want, stdout)
			continue
		}
		for i, r := range rep.Results {
			if want := tt.want[i%len(tt.want)]; r.Backend != want || r.Points != []int{60, 400}[i/len(tt.want)] {
				t.Errorf("--knn-backend %q: row %d is %s at %d points, want %s", tt.list, i, r.Backend, r.Points, want)
			}
		}
	}
}
