package kernels

import (
	"math/rand"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fatbinArchs are the GPU architectures build.sh compiles cubins for.
var fatbinArchs = []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}

// TestFatbinEntryPoints checks the nvcc output against what the host code launches: every
// kernel the captured graph names must be an entry point, under that plain name, in the cubin
// of every architecture and in the PTX, and take exactly one 8-byte parameter (the parameter
// block's address, as CUDADevice.Launch passes it). On a GPU a mismatch would only show as
// "named symbol not found" at the first launch. It needs kernels.fatbin (kernels/build.sh)
// and cuobjdump; without them it skips, unless TRACKINK_REQUIRE_FATBIN is set, as make test
// sets it after building the fatbin.
func TestFatbinEntryPoints(t *testing.T) {
	cuobjdump, err := exec.LookPath("cuobjdump")
	if _, serr := os.Stat("kernels.fatbin"); err != nil || serr != nil {
		if os.Getenv("TRACKINK_REQUIRE_FATBIN") != "" {
			t.Fatalf("TRACKINK_REQUIRE_FATBIN is set but kernels.fatbin (%v) or cuobjdump (%v) is missing", serr, err)
		}
		t.Skip("needs kernels.fatbin (bash kernels/build.sh) and cuobjdump (scripts/setup.sh --cuda)")
	}
	g := newTestGPU(t, 12, false)
	rng := rand.New(rand.NewSource(1))
	drawBoth(t, rng, g, randomScene(rng, 64, 48, g.Font()), 64, 48)
	launched := g.dev.(*EmuDevice).GraphKernels(g.graph)
	slices.Sort(launched)
	launched = slices.Compact(launched)

	symbols, err := exec.Command(cuobjdump, "-symbols", "kernels.fatbin").Output()
	if err != nil {
		t.Fatalf("cuobjdump -symbols: %v", err)
	}
	entries := map[string][]string{} // arch → entry points
	arch := ""
	for line := range strings.Lines(string(symbols)) {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "arch" && f[1] == "=":
			arch = f[2]
		case len(f) == 4 && f[2] == "STO_ENTRY":
			entries[arch] = append(entries[arch], f[3])
		}
	}
	var archs []string
	for a, names := range entries {
		archs = append(archs, a)
		var missing []string
		for _, k := range launched {
			if !slices.Contains(names, k) {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			t.Errorf("%s: no entry points %v; it has %v", a, missing, names)
		}
	}
	slices.Sort(archs)
	if !slices.Equal(archs, fatbinArchs) {
		t.Errorf("cubins for %v, want %v", archs, fatbinArchs)
	}

	ptx, err := exec.Command(cuobjdump, "-ptx", "kernels.fatbin").Output()
	if err != nil {
		t.Fatalf("cuobjdump -ptx: %v", err)
	}
	if !strings.Contains(string(ptx), "arch = sm_90") {
		t.Error("no compute_90 PTX in the fatbin")
	}
	entry := regexp.MustCompile(`\.entry\s+(\w+)\(([^)]*)\)`)
	params := map[string]string{}
	for _, m := range entry.FindAllStringSubmatch(string(ptx), -1) {
		params[m[1]] = strings.TrimSpace(m[2])
	}
	oneU64 := regexp.MustCompile(`^\.param \.u64 \w+$`)
	for _, k := range launched {
		p, ok := params[k]
		switch {
		case !ok:
			t.Errorf("PTX: no entry %q", k)
		case !oneU64.MatchString(p):
			t.Errorf("PTX: %s takes (%s), want one .u64 parameter", k, p)
		}
	}
	t.Logf("%d kernels in %d cubins and the PTX: %v", len(launched), len(archs), launched)
}
