// Package testdir checks what a directory holds after a test's run: that a failed or
// stopped write left nothing behind.
package testdir

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// Holds fails t unless dir holds exactly the files named want.
func Holds(t testing.TB, dir string, want ...string) {
	t.Helper()
	want = slices.Sorted(slices.Values(want))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, want)
	}
}
