package gpu

import (
	"iter"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fatbinPath is where kernels/build.sh writes the fatbin.
const fatbinPath = "../kernels.fatbin"

// fatbinArchs are the GPU architectures build.sh compiles cubins for.
var fatbinArchs = []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}

// TestFatbinEntryPoints checks the nvcc output against what the host code launches: every
// kernel the captured graph names must be an entry point, under that plain name, in the cubin
// of every architecture and in the PTX, and take exactly one 8-byte parameter (the parameter
// block's address, as device.CUDA's Launch passes it). On a GPU a mismatch would only show as
// "named symbol not found" at the first launch. It needs kernels.fatbin (kernels/build.sh)
// and cuobjdump; without them it skips, unless TRACKINK_REQUIRE_FATBIN is set, as make test
// sets it after building the fatbin. It also checks each kernel's register use against the
// block size it is launched with.
func TestFatbinEntryPoints(t *testing.T) {
	cuobjdump, err := exec.LookPath("cuobjdump")
	if _, serr := os.Stat(fatbinPath); err != nil || serr != nil {
		if os.Getenv("TRACKINK_REQUIRE_FATBIN") != "" {
			t.Fatalf("TRACKINK_REQUIRE_FATBIN is set but kernels.fatbin (%v) or cuobjdump (%v) is missing", serr, err)
		}
		t.Skip("needs kernels.fatbin (bash kernels/build.sh) and cuobjdump (scripts/setup.sh --cuda)")
	}
	g, rec := newRecordedGPU(t, false)
	rng := rand.New(rand.NewSource(1))
	drawBoth(t, rng, g, randomScene(rng, 64, 48, testFont(t, 12)), 64, 48)
	threads := map[string]int{} // kernel → largest block it is launched with
	for _, l := range append(rec.graphs[g.graph], linkedGraph(t)...) {
		threads[l.kernel] = max(threads[l.kernel], int(l.block.X*l.block.Y*l.block.Z))
	}
	launched := slices.Sorted(maps.Keys(threads))

	entries := map[string][]string{} // arch → entry points
	for arch, f := range byArch(cuobjdumpOutput(t, cuobjdump, "-symbols")) {
		if len(f) == 4 && f[2] == "STO_ENTRY" {
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

	ptx := cuobjdumpOutput(t, cuobjdump, "-ptx")
	if !strings.Contains(ptx, "arch = sm_90") {
		t.Error("no compute_90 PTX in the fatbin")
	}
	entry := regexp.MustCompile(`\.entry\s+(\w+)\(([^)]*)\)`)
	params := map[string]string{}
	for _, m := range entry.FindAllStringSubmatch(ptx, -1) {
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
	checkRegisters(t, cuobjdump, threads)
}

// cuobjdumpOutput runs cuobjdump with flag on the fatbin.
func cuobjdumpOutput(t *testing.T, cuobjdump, flag string) string {
	t.Helper()
	out, err := exec.Command(cuobjdump, flag, fatbinPath).Output()
	if err != nil {
		t.Fatalf("cuobjdump %s: %v", flag, err)
	}
	return string(out)
}

// byArch yields the fields of each line of cuobjdump's output with the architecture of the
// section ("arch = sm_80") the line is in.
func byArch(out string) iter.Seq2[string, []string] {
	return func(yield func(string, []string) bool) {
		arch := ""
		for line := range strings.Lines(out) {
			f := strings.Fields(line)
			if len(f) == 3 && f[0] == "arch" && f[1] == "=" {
				arch = f[2]
			} else if !yield(arch, f) {
				return
			}
		}
	}
}

// checkRegisters checks that each kernel's block fits the register file at every
// architecture: a block needing more than 64K registers (all of sm_75 … sm_90 have that many
// per block) fails to launch on a GPU with "too many resources requested for launch", which
// no emulation shows. Registers are allocated per warp in units of 256.
func checkRegisters(t *testing.T, cuobjdump string, threads map[string]int) {
	fn := ""
	checked := 0
	for arch, f := range byArch(cuobjdumpOutput(t, cuobjdump, "-res-usage")) {
		switch {
		case len(f) == 2 && f[0] == "Function":
			fn = strings.TrimSuffix(f[1], ":")
		case len(f) > 0 && strings.HasPrefix(f[0], "REG:") && threads[fn] > 0:
			regs, _ := strconv.Atoi(strings.TrimPrefix(f[0], "REG:"))
			warps := (threads[fn] + 31) / 32
			perWarp := (regs*32 + 255) / 256 * 256
			if regs > 255 || warps*perWarp > 65536 {
				t.Errorf("%s %s: %d registers × %d threads need %d of 65536 registers per block", arch, fn, regs, threads[fn], warps*perWarp)
			}
			checked++
		}
	}
	if checked != len(threads)*len(fatbinArchs) {
		t.Errorf("register use found for %d kernel builds, want %d", checked, len(threads)*len(fatbinArchs))
	}
}
