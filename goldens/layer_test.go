package goldens

import "testing"

// TestLayerGoldens draws each of LayerScenes alone onto a transparent frame and compares
// it with testdata/layer/NAME.png, its alpha and premultiplied colours within Tolerance.
// -update rewrites the pictures.
func TestLayerGoldens(t *testing.T) {
	for _, name := range LayerScenes {
		t.Run(name, func(t *testing.T) {
			s, err := SceneNamed(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := RenderLayer(s, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			worst, over, err := CheckLayer("testdata", name, got, Tolerance, *update)
			if err != nil {
				t.Fatal(err)
			}
			if over > 0 {
				t.Errorf("%d pixels differ from the layer golden by more than %d (largest %d)", over, Tolerance, worst)
			}
		})
	}
}
