package gpu

import (
	"testing"

	"trackink/overlay"
)

// TestCameraEmuMatchCPU runs the camera look on the emulated device and the CPU
// (matchFrameChanges), each part alone and all together, scanlines of 3 rows a band, the tint alone, half mixed and
// with the aberration reading tinted chroma, and colour grain alone and with the rest.
func TestCameraEmuMatchCPU(t *testing.T) {
	passes := map[string]overlay.CameraPass{
		"scanlines":   {Scanlines: 0.4},
		"vignette":    {Vignette: 0.8},
		"aberration":  {Aberration: 5},
		"grain":       {Grain: 0.3, Seed: 7, Frame: 12},
		"grain-color": {GrainColor: 0.3, Seed: 7, Frame: 12},
		"grains-all": {Scanlines: 0.25, Vignette: 0.5, Aberration: 3, Grain: 0.06, GrainColor: 0.05, Seed: 1, Frame: 3,
			Tint: [3]float32{0.2, 1, 0.3}, TintStrength: 0.9},
		"all":       {Scanlines: 0.25, Vignette: 0.5, Aberration: 3, Grain: 0.06, Seed: 1, Frame: 3},
		"period 3":  {Scanlines: 0.4, ScanlinePeriod: 3},
		"tint":      {Tint: [3]float32{0, 1, 0.8}, TintStrength: 1},
		"tint-half": {Tint: [3]float32{1, 0.6, 0.1}, TintStrength: 0.5},
		"tint-all": {Scanlines: 0.25, Vignette: 0.5, Aberration: 7, Grain: 0.06, Seed: 1, Frame: 3,
			Tint: [3]float32{0.2, 1, 0.3}, TintStrength: 0.9},
	}
	names := []string{"scanlines", "vignette", "aberration", "grain", "grain-color", "grains-all", "all", "period 3", "tint", "tint-half", "tint-all"}
	matchFrameChanges(t, names, func(name string) overlay.Primitives {
		return overlay.Primitives{Camera: passes[name]}
	})
}
