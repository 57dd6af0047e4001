package device

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trackink/internal/needs"
)

// cuda_compat.h's binary16 conversions are the same everywhere the kernels are built for
// the host: _Float16 (gcc 12 on x86-64), the conversions written out on the bits
// (TK_HALF_BITS; gcc 10, and gcc 12 on aarch64, whose C++ has no _Float16), and those
// built for aarch64 and run under qemu-user. testdata/halfsum.cc prints a checksum of every
// half's float and of float to half where rounding decides; all must print one line.
func TestHalfConversions(t *testing.T) {
	dir := t.TempDir()
	run := func(name string, cmd ...string) string {
		t.Helper()
		out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v: %s", name, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	build := func(name, compiler string, flags ...string) string {
		bin := filepath.Join(dir, name)
		run(name, append([]string{compiler, "-O2", "-std=c++17", "-o", bin, "testdata/halfsum.cc"}, flags...)...)
		return bin
	}
	float16 := run("_Float16", build("float16", "g++"))
	if bits := run("TK_HALF_BITS", build("bits", "g++", "-DTK_HALF_BITS")); bits != float16 {
		t.Errorf("on the bits: %s; _Float16: %s", bits, float16)
	}
	t.Logf("x86-64: %s", float16)
	cross, errC := exec.LookPath("aarch64-linux-gnu-g++")
	qemu, errQ := exec.LookPath("qemu-aarch64")
	if err := errors.Join(errC, errQ); err != nil {
		needs.Met(t, fmt.Errorf("aarch64 not checked: no cross compiler or qemu-user (scripts/setup.sh --test installs g++-aarch64-linux-gnu and qemu-user): %w", err))
	}
	if arm := run("aarch64", qemu, build("arm64", cross, "-static")); arm != float16 {
		t.Errorf("aarch64 under qemu: %s; x86-64: %s", arm, float16)
	}
}
