package cli

import (
	"slices"
	"strings"
	"testing"

	"trackink/job"
	"trackink/kernels/device"
	"trackink/overlay"
)

// TestBenchDeviceFormatRefused: --format device asks for a frame in a GPU backend's memory,
// so on the CPU (named, or auto resolving to it here, where no GPU answers) it is a usage
// error naming --format, before any backend is timed; a format it does not know names the
// three it does.
func TestBenchDeviceFormatRefused(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "device", "--backend", "cpu"}, "--format device: the frame in device memory needs a GPU backend (--backend cuda, or emu to check on the CPU), and --backend cpu draws on the CPU"},
		{[]string{"--format", "nv12,device", "--backend", "emu,cpu"}, "--backend cpu draws on the CPU"},
		{[]string{"--format", "device", "--backend", "auto"}, "--backend auto, here cpu ("},
		{[]string{"--format", "devices"}, `--format "devices": want yuv420p, nv12, device or several`},
	} {
		if p, _ := job.Place("auto", device.Probe); slices.Contains(tt.args, "auto") && p.Backend != "cpu" {
			// A GPU answers here (a cuda build on a GPU, or on the fake driver): auto is not cpu.
			t.Logf("bench %v: --backend auto is %s here, not cpu", tt.args, p.Backend)
			continue
		}
		code, stdout, stderr := trackink(append([]string{"bench", "--scene", "seed"}, tt.args...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("bench %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, stdout, stderr, tt.want)
		}
	}
}

// TestSeedTableNamesTheGraph: on a device backend the seed table ends with the graph pass
// (what a render runs) beside the timed pass, on lines that say which is which; on the CPU,
// which has no graph, with the one total as before. (overlay's TestBenchSeedPasses runs the
// passes on the emulated device.)
func TestSeedTableNamesTheGraph(t *testing.T) {
	graphMS, graphAllocs, same, other := 0.45, 0.0, true, false
	device := overlay.SeedReport{Format: "device", Backend: "cuda", Width: 3840, Height: 2160, TotalMedianMS: 2.1, AllocsPerFrame: 72,
		GraphTotalMedianMS: &graphMS, GraphAllocsPerFrame: &graphAllocs, GraphSamePicture: &same}
	differs := device
	differs.GraphSamePicture = &other
	for _, tt := range []struct {
		name string
		rep  overlay.SeedReport
		want []string
	}{
		{"device", device, []string{"onto NV12 in device memory, cuda backend", "\ntotal            2.10  timed: each kernel launched alone, events between the stages\n",
			"\ngraph            0.45  as a render draws: the captured graph, not timed\n", "allocations per frame: 72 timed, 0 graph\n",
			"the graph drew the timed pass's picture, byte for byte"}},
		{"differs", differs, []string{"the graph drew a picture other than the timed pass's"}},
		{"cpu", overlay.SeedReport{Format: "nv12", Backend: "cpu", TotalMedianMS: 9.5}, []string{"onto NV12, cpu backend", "\ntotal            9.50\n", "allocations per frame: 0\n"}},
	} {
		var b strings.Builder
		b.WriteString(seedHeader(tt.rep) + "\n")
		printSeedTotals(&b, tt.rep)
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s table %q: no %q", tt.name, b.String(), w)
			}
		}
		if tt.name == "cpu" && strings.Contains(b.String(), "graph") {
			t.Errorf("cpu table %q names a graph", b.String())
		}
	}
}
