package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trackink/video"
)

// memoryLimited makes a control group of its own with a memory limit (cgroup v2, or v1's
// memory hierarchy) and returns the file a process writes its pid to, to join it. It skips
// the test where no group can be made (not root, no writable cgroup file system).
func memoryLimited(t *testing.T, limit int64) string {
	t.Helper()
	for _, c := range []struct{ dir, limitFile string }{
		{"/sys/fs/cgroup", "memory.max"},
		{"/sys/fs/cgroup/memory", "memory.limit_in_bytes"},
	} {
		if _, err := os.Stat(filepath.Join(c.dir, c.limitFile)); err != nil && c.limitFile == "memory.max" {
			continue // no v2 memory controller here
		}
		dir := filepath.Join(c.dir, fmt.Sprintf("trackink-test-%d", os.Getpid()))
		if err := os.Mkdir(dir, 0o755); err != nil {
			continue
		}
		t.Cleanup(func() { os.Remove(dir) })
		if err := os.WriteFile(filepath.Join(dir, c.limitFile), []byte(fmt.Sprint(limit)), 0o644); err != nil {
			continue
		}
		return filepath.Join(dir, "cgroup.procs")
	}
	t.Skip("no control group with a memory limit can be made here (it needs root and a writable cgroup file system)")
	return ""
}

// A render that cannot fit in the memory it may take is refused before any work, exit 1,
// saying how much it needs and what is available: it used to start, and be killed by the
// kernel (exit 137) or die of Go's out-of-memory (exit 2), leaving its partial output.
func TestRenderRefusesWhatCannotFit(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "4k.mp4"), filepath.Join(dir, "out.mp4")
	if err := video.Synthesize(in, 3840, 2160, 2, 30); err != nil {
		t.Fatal(err)
	}
	procs := memoryLimited(t, 200<<20) // a 4K render takes at least 313 MB
	cmd := exec.Command("sh", "-c", `echo $$ > "$0" && exec "$@"`, procs, bin, "render", "-i", in, "--scene", "seed", "-o", out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	code := exitCode(t, cmd.Run())
	if code != exitFailure || !strings.Contains(stderr.String(), "3840x2160 render takes at least 0.3 GB") || !strings.Contains(stderr.String(), "control group") {
		t.Errorf("exit %d, %q; want 1 and the memory it takes", code, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the output was written")
	}
	noHiddenFiles(t, dir)
}
