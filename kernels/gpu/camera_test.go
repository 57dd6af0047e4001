package gpu

import (
	"testing"

	"trackink/overlay"
)

// TestCameraEmuMatchCPU runs the camera look on the emulated device and the CPU
// (matchFrameChanges), each part alone and all together.
func TestCameraEmuMatchCPU(t *testing.T) {
	passes := map[string]overlay.CameraPass{
		"scanlines":  {Scanlines: 0.4},
		"vignette":   {Vignette: 0.8},
		"aberration": {Aberration: 5},
		"grain":      {Grain: 0.3, Seed: 7, Frame: 12},
		"all":        {Scanlines: 0.25, Vignette: 0.5, Aberration: 3, Grain: 0.06, Seed: 1, Frame: 3},
	}
	names := []string{"scanlines", "vignette", "aberration", "grain", "all"}
	matchFrameChanges(t, names, func(name string) overlay.Primitives {
		return overlay.Primitives{Camera: passes[name]}
	})
}
