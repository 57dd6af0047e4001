package cli

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// A link between points near the ±1e7 px limit is drawn as the same smooth line as the
// stretch of it that crosses the frame, by both backends (it once came out as
// scattered dots, the rasterisers' float32 holding about a pixel at 1e7).
func TestFarLinksDrawnWhole(t *testing.T) {
	dir := t.TempDir()
	// Boxes whose bottom-centre points are a and b, and the link between them alone.
	ax, ay, bx, by := -9999980.0, -9999970.0, 9999970.0, 9999920.0
	at := func(x float64) (float64, float64) { return x, ay + (x-ax)*(by-ay)/(bx-ax) }
	write := func(name string, x0, y0, x1, y1 float64) string {
		path := filepath.Join(dir, name)
		body := fmt.Sprintf("1,1,%.6f,%.6f,20,20,1,-1,-1,-1\n1,2,%.6f,%.6f,20,20,1,-1,-1,-1\n", x0-10, y0-20, x1-10, y1-20)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	far := write("far.txt", ax, ay, bx, by)
	nx0, ny0 := at(-40)
	nx1, ny1 := at(680)
	near := write("near.txt", nx0, ny0, nx1, ny1)
	for _, backend := range []string{"cpu", "emu"} {
		pics := map[string]*image.RGBA{}
		for name, tracks := range map[string]string{"far": far, "near": near} {
			out := filepath.Join(dir, backend+"-"+name+".png")
			code, _, stderr := trackink("render", "--width", "640", "--height", "480", "--tracks", tracks, "-o", out,
				"--no-labels", "--line-width", "4", "--k", "1", "--point-radius", "0", "--box-stroke", "0",
				"--fill-opacity", "0", "--link-opacity", "1", "--link-reach", "0", "--backend", backend)
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", backend, name, code, stderr)
			}
			pics[name] = readRGBA(t, out)
		}
		worst, drawn := 0, 0
		for i, v := range pics["far"].Pix {
			d := int(v) - int(pics["near"].Pix[i])
			worst = max(worst, d, -d)
			if pics["near"].Pix[i] != 96 && i%4 == 0 {
				drawn++
			}
		}
		if worst > 2 || drawn < 1000 {
			t.Errorf("%s: the far link differs from the near one by up to %d levels (%d pixels drawn)", backend, worst, drawn)
		}
	}
}

// readRGBA decodes a PNG into RGBA.
func readRGBA(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(m.Bounds())
	for y := range m.Bounds().Dy() {
		for x := range m.Bounds().Dx() {
			rgba.Set(x, y, m.At(x, y))
		}
	}
	return rgba
}
