package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"trackink/video"
)

// TestInterruptLeavesNoOutput runs the real binary, interrupts a render with SIGINT, and
// checks the promise the README makes: exit 130, no output and no temporary file.
func TestInterruptLeavesNoOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "trackink")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	in, out := filepath.Join(dir, "in.mp4"), filepath.Join(dir, "out.mp4")
	if err := video.Synthesize(in, 640, 360, 900, 30); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "render", "-i", in, "--scene", "seed", "-o", out, "--preset", "slow")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the render has started writing, then interrupt it.
	deadline := time.Now().Add(20 * time.Second)
	for {
		if m, _ := filepath.Glob(filepath.Join(dir, ".out.*")); len(m) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no temporary output appeared; stderr: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d; stderr: %s", err, exitInterrupted, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an interrupted render left its output")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
