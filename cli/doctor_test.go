package cli

import (
	"strings"
	"testing"
)

// TestDoctorWords: doctor says what the machine has in words; FFmpeg's configure line and
// CUDA's result codes come only with -v.
func TestDoctorWords(t *testing.T) {
	code, plain, _ := trackink("doctor")
	if code != 0 {
		t.Fatalf("doctor: exit %d", code)
	}
	for _, not := range []string{"FFmpeg configuration", "cuInit", "CUresult"} {
		if strings.Contains(plain, not) {
			t.Errorf("doctor says %q without -v:\n%s", not, plain)
		}
	}
	if !strings.Contains(plain, "\nCUDA driver: ") {
		t.Errorf("doctor does not say which CUDA driver:\n%s", plain)
	}
	code, verbose, _ := trackink("doctor", "-v")
	if code != 0 || !strings.Contains(verbose, "\nFFmpeg configuration: ") {
		t.Errorf("doctor -v: exit %d, no FFmpeg configuration:\n%s", code, verbose)
	}
}
