package gpu

import (
	"path/filepath"
	"testing"

	"trackink/goldens"
	"trackink/kernels/device"
	"trackink/overlay"
)

// TestLayerGoldensOnEmu draws the layer goldens' scenes alone onto a transparent frame on
// the emulated device, as a layer-only render with the cuda backend does, and compares them
// with the CPU's pictures (goldens/testdata/layer), alpha and premultiplied colour within
// EmuTolerance.
func TestLayerGoldensOnEmu(t *testing.T) {
	emu := func(o overlay.BackendOptions) (overlay.Backend, error) {
		return New(device.NewEmu(device.EmuOptions{Workers: 2, Poison: true}), o)
	}
	for _, name := range goldens.LayerScenes {
		t.Run(name, func(t *testing.T) {
			s, err := goldens.SceneNamed(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := goldens.RenderLayer(s, 0, emu)
			if err != nil {
				t.Fatal(err)
			}
			worst, over, err := goldens.CheckLayer(filepath.Join("..", "..", "goldens", "testdata"), name, got, EmuTolerance, false)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: largest difference %d code values, %d pixels over %d", name, worst, over, EmuTolerance)
			if over > 0 {
				t.Errorf("%d pixels differ from the CPU's layer by more than %d (largest %d)", over, EmuTolerance, worst)
			}
		})
	}
}
