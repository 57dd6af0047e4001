package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trackink/detect"
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

// TestDoctorDetector: doctor says where the detector's runtime and model are, as --detect
// people finds them, whether the model is the export trackink is tested with, and whether
// --detect people can run; where one is missing, where it looked.
func TestDoctorDetector(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other.onnx")
	must(t, os.WriteFile(other, []byte("not YOLOX"), 0o644))
	for _, tc := range []struct {
		model string
		says  []string
	}{
		{filepath.Join(t.TempDir(), "absent.onnx"), []string{"Detector model: none: model ", "(from $" + detect.ModelEnv + ")", "--detect people, objects: no"}},
		{other, []string{"Detector model: " + other + " (sha256 ", "not the YOLOX-Nano export"}},
	} {
		t.Setenv(detect.ModelEnv, tc.model)
		code, out, _ := trackink("doctor")
		for _, s := range tc.says {
			if code != 0 || !strings.Contains(out, s) {
				t.Errorf("model %s: exit %d, want %q in:\n%s", tc.model, code, s, out)
			}
		}
	}
	if _, err := os.Stat(sharedModel); err != nil {
		t.Skipf("the model is not beside the repository (%v): its line unchecked", err)
	}
	t.Setenv(detect.ModelEnv, sharedModel)
	code, out, _ := trackink("doctor")
	if code != 0 || !strings.Contains(out, "(YOLOX-Nano, the export trackink is tested with)") {
		t.Errorf("the shared model: exit %d:\n%s", code, out)
	}
	if _, err := detect.LocateRuntime(""); err == nil && !strings.Contains(out, "--detect people, objects: yes") {
		t.Errorf("runtime and model here, but doctor says otherwise:\n%s", out)
	}
}
