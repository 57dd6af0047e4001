package cli

import (
	"encoding/json"
	"testing"

	"trackink/internal/baseline"
	"trackink/tracker"
)

// TestBenchDetectRows: bench --detect --json gives each mode asked for its frames a second
// and CPU time a frame, and OpenCV's beside them where python3-opencv is installed.
func TestBenchDetectRows(t *testing.T) {
	code, stdout, stderr := trackink("bench", "--detect", "bright,points", "--frames", "4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct{ Detect []tracker.ModeBench }
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	_, pyErr := baseline.Python()
	if len(rep.Detect) != 2 || rep.Detect[0].Mode != "bright" || rep.Detect[1].Mode != "points" {
		t.Fatalf("rows %+v, want bright and points", rep.Detect)
	}
	for _, r := range rep.Detect {
		if !(r.FPS > 0 && r.CPUms > 0) {
			t.Errorf("%s: fps %g, CPU %g ms a frame, want both above 0", r.Mode, r.FPS, r.CPUms)
		}
		if pyErr == nil && !(r.OpenCVFPS > 0 && r.OpenCVCPUms > 0) {
			t.Errorf("%s: OpenCV fps %g, CPU %g ms a frame, want both above 0", r.Mode, r.OpenCVFPS, r.OpenCVCPUms)
		}
	}
}
