package device

import (
	"strings"
	"testing"
)

// TestInitProblem: cuInit's results are said in words, with no CUDA code for the common
// "no device" case.
func TestInitProblem(t *testing.T) {
	for _, tc := range []struct {
		result int
		says   string
	}{
		{100, "no NVIDIA driver or GPU"},
		{35, "driver is too old"},
		{999, "failed to start"},
		{4, "failed to start (CUDA error 4)"},
	} {
		p := initProblem(tc.result)
		if !strings.Contains(p, tc.says) || tc.result == 100 && strings.ContainsAny(p, "0123456789") {
			t.Errorf("initProblem(%d) = %q, want it to say %q", tc.result, p, tc.says)
		}
	}
}
