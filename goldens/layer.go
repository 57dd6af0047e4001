package goldens

import (
	"errors"
	"fmt"
	"image"
	"io/fs"
	"path/filepath"

	"trackink/composite"
	"trackink/overlay"
)

// Layer goldens: scenes drawn alone onto a transparent frame, as a layer-only render draws
// them (composite/layer.go), stored as straight-alpha RGBA PNGs in testdata/layer: what a
// layer's PNG sequence holds. Each backend must draw the same layer: the CPU renderer within
// Tolerance, the GPU backend's emulated device within its own tolerance (kernels/gpu).

// LayerScenes are the scenes with a layer golden: fills overlapping in both orders, every
// box style, labels at the frame's edges, the default look and the glow (blended with over
// and without box effects, as a layer must be).
var LayerScenes = []string{"overlapping-fills", "boxes-styles", "labels-edges", "look-default", "glow"}

// LayerDir is where the layer goldens are, beside the scenes' own pictures.
const LayerDir = "layer"

// RenderLayer draws scene s alone onto a transparent frame with the backend newBackend
// starts (nil: the CPU renderer) and returns it with straight alpha.
func RenderLayer(s Scene, workers int, newBackend overlay.NewBackend) (*image.NRGBA, error) {
	layer := &composite.RGBA{Pix: make([]byte, 4*s.Width*s.Height), Stride: 4 * s.Width, W: s.Width, H: s.Height}
	if err := DrawOn(s, layer, workers, newBackend); err != nil {
		return nil, err
	}
	img := image.NewNRGBA(image.Rect(0, 0, s.Width, s.Height))
	layer.StraightRGBA(img.Pix, img.Stride)
	return img, nil
}

// SceneNamed returns the scene called name.
func SceneNamed(name string) (Scene, error) {
	s, err := selected([]string{name})
	if err != nil {
		return Scene{}, err
	}
	return s[0], nil
}

// CheckLayer compares the layer drawn for the scene called name with its golden in dir's
// LayerDir (with update, stores it instead): alpha, and each colour premultiplied by it,
// within tol code values. It returns the largest difference and the pixels beyond tol.
func CheckLayer(dir, name string, got *image.NRGBA, tol int, update bool) (worst, over int, err error) {
	path := filepath.Join(dir, LayerDir, name+".png")
	if update {
		return 0, 0, writePNG(path, got)
	}
	want, err := readNRGBA(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, fmt.Errorf("no layer golden %s (go test ./goldens -update creates it; look at it)", path)
	}
	if err != nil {
		return 0, 0, err
	}
	if want.Bounds() != got.Bounds() {
		return 255, got.Bounds().Dx() * got.Bounds().Dy(), nil
	}
	for i := 0; i < len(got.Pix); i += 4 {
		aw, ag := int(want.Pix[i+3]), int(got.Pix[i+3])
		d := absInt(aw - ag)
		for c := range 3 {
			// Premultiplied: a colour under little alpha weighs little, as it shows.
			d = max(d, absInt((int(want.Pix[i+c])*aw-int(got.Pix[i+c])*ag+127)/255))
		}
		worst = max(worst, d)
		if d > tol {
			over++
		}
	}
	return worst, over, nil
}

// readNRGBA reads a PNG picture as straight-alpha RGBA (the layer goldens are stored so).
func readNRGBA(path string) (*image.NRGBA, error) {
	m, err := decodePNG(path)
	if err != nil {
		return nil, err
	}
	img, ok := m.(*image.NRGBA)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, not a straight-alpha RGBA picture", path, m)
	}
	return img, nil
}
