// Package needs lets a test stop for what a developer's machine may lack (the model and data
// kept in ../shared beside the repository, a clip or tool scripts/setup.sh --test installs):
// skipped there, failed under CI ($CI set), whose machine has them all, so that no check
// passes in CI by being skipped.
package needs

import (
	"fmt"
	"os"
	"testing"
)

// Met stops t when err is not nil: skipped, or failed under CI.
func Met(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal(err)
	}
	t.Skip(err)
}

// File stops t when path is absent (Met), saying where the file comes from.
func File(t testing.TB, path, from string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		Met(t, fmt.Errorf("%w (%s)", err, from))
	}
}
