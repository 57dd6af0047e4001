package goldens

import (
	"flag"
	"image"
	"image/draw"
	"path/filepath"
	"strings"
	"testing"

	"trackink/composite"
	"trackink/kernels/gpu"
	"trackink/knn"
	"trackink/overlay"
	"trackink/render"
	"trackink/scene"
)

// The effects' footage goldens draw on a frame of real video (Footage, as the footage
// scenes do): frame 301, six people walking, drawn on in the frame's own Y'CbCr (limited
// BT.601), then shown as RGB. The boxes were placed by eye on that frame.

var docsDir = flag.String("docs", "", "also write the footage pictures of docs/looks.md's effects into this directory (docs/img)")

// footageFrame is the frame of Footage the goldens draw on (1-based).
const footageFrame = 301

// footageBoxes are the people of frame 300 (and the van), placed by eye.
var footageBoxes = []scene.Box{
	{ID: 1, X: 183, Y: 154, W: 40, H: 84}, {ID: 2, X: 238, Y: 155, W: 36, H: 68}, {ID: 3, X: 294, Y: 155, W: 34, H: 78},
	{ID: 4, X: 310, Y: 206, W: 38, H: 94}, {ID: 5, X: 578, Y: 155, W: 36, H: 84}, {ID: 6, X: 614, Y: 156, W: 34, H: 82},
	{ID: 7, X: 649, Y: 41, W: 76, H: 61},
}

// footageCrop is the part of the frame the per-effect goldens keep: the six people;
// footageLeft their twins' (feathered, mixed, …): the four at the left.
var footageCrop, footageLeft = image.Rect(160, 136, 672, 312), image.Rect(160, 136, 368, 312)

// drawFootage draws the boxes of frame 300 in look st onto a fresh decode of the frame with
// the backend newBackend starts.
func drawFootage(t *testing.T, st overlay.Style, newBackend overlay.NewBackend) *composite.YUV420P {
	t.Helper()
	fr, err := FootageFrame(footageFrame)
	if err != nil {
		t.Fatal(err)
	}
	d, err := overlay.New(overlay.Options{Style: st, Links: knn.Options{K: 2, MaxDist: 300}, NewBackend: newBackend,
		Backend: overlay.BackendOptions{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f := scene.Frame{Index: footageFrame, Boxes: footageBoxes}
	for _, b := range footageBoxes {
		f.Points = append(f.Points, scene.Point{ID: b.ID, X: b.X + b.W/2, Y: b.Y + b.H/2})
	}
	if err := d.Draw(fr, &f); err != nil {
		t.Fatal(err)
	}
	return fr
}

// footageCase is a footage golden: its name, its look and the part of the frame it keeps.
type footageCase struct {
	name  string
	style overlay.Style
	crop  image.Rectangle
}

// footageCases are the footage goldens: each effect alone (white outlines, no labels or
// links; sort also along columns; blur also feathered over 10 px, the soft privacy blur,
// pixelate also at half opacity, sort also descending, keyed by saturation over 0.06..1,
// and over 0.1..0.9 with runs under 24 px left, on the four people at the left), the blob
// look, the cctv look (the camera look over the whole frame) and the cctv look toned
// surveillance green (--camera-tint #00ffcc at 0.85: the pack's colour, mostly monochrome).
func footageCases() []footageCase {
	var cases []footageCase
	for _, name := range overlay.EffectNames() {
		e, _ := overlay.ParseEffect(name)
		st := overlay.DefaultStyle()
		st.BoxEffects = []overlay.Effect{e}
		st.Labels, st.LineWidth, st.PointRadius, st.FillOpacity, st.BoxStroke = false, 0, 0, 0, 1
		st.Roundness = 0.3
		if e == overlay.EffectPixelate {
			st.EffectStrengths = []float32{8}
		}
		cases = append(cases, footageCase{"footage-" + name, st, footageCrop})
		mst, mixed := st, "" // a twin: feathered, mixed with the picture, sorted descending
		switch e {
		case overlay.EffectBlur:
			mst.EffectFeather, mixed = 10, "footage-blur-feather"
		case overlay.EffectPixelate:
			mst.EffectOpacity, mixed = 0.5, "footage-pixelate-opacity"
		case overlay.EffectSort:
			mst.SortOrder, mixed = "descending", "footage-sort-descending"
		}
		if mixed != "" {
			cases = append(cases, footageCase{mixed, mst, footageLeft})
		}
		if e == overlay.EffectSort { // along columns, over a wider range; by saturation; min run
			hue, long := st, st
			hue.SortKey, hue.SortRange = "saturation", [2]float32{0.06, 1}
			long.SortMinRun, long.SortRange = 24, [2]float32{0.1, 0.9}
			st.SortColumns, st.SortRange = true, [2]float32{0.1, 0.9}
			cases = append(cases, footageCase{"footage-sort-columns", st, footageCrop},
				footageCase{"footage-sort-saturation", hue, footageLeft}, footageCase{"footage-sort-min-run", long, footageLeft})
		}
	}
	blob, _ := overlay.Preset("blob")
	cctv, _ := overlay.Preset("cctv")
	green := cctv
	green.Camera.Tint = overlay.OptionalColor{C: scene.Color{G: 255, B: 204, A: 255}, Set: true}
	green.Camera.TintStrength = 0.85
	whole := image.Rect(0, 0, 768, 576)
	return append(cases, footageCase{"footage-blob", blob, whole}, footageCase{"footage-cctv", cctv, whole},
		footageCase{"footage-cctv-tint", green, whole})
}

// TestFootageGoldens draws each effect, and the blob look, on a frame of real footage and
// compares the pictures with testdata/effects/footage-*.png (go test ./goldens -run Footage -update
// rewrites them; look at each). The emulated device must draw the same within FootageTolerance,
// and each effect must change the picture inside its boxes.
func TestFootageGoldens(t *testing.T) {
	frame, err := FootageFrame(footageFrame)
	if err != nil {
		t.Fatal(err)
	}
	plain := rgbOf(t, frame)
	var sheet []*image.RGBA
	for _, c := range footageCases() {
		t.Run(c.name, func(t *testing.T) {
			st := c.style.ForHeight(576)
			cpu := rgbOf(t, drawFootage(t, st, render.NewBackend)).SubImage(c.crop).(*image.RGBA)
			got := image.NewRGBA(image.Rect(0, 0, c.crop.Dx(), c.crop.Dy()))
			draw.Draw(got, got.Bounds(), cpu, c.crop.Min, draw.Src)
			emu := rgbOf(t, drawFootage(t, st, gpu.NewEmu)).SubImage(c.crop).(*image.RGBA)
			checkFootage(t, filepath.Join("testdata", "effects", c.name+".png"), got, cpu, emu)
			// Inside box 4 (away from its outline) the effect shows.
			in := image.Rect(320, 220, 338, 290)
			if r := compare(c.name, plain.SubImage(in).(*image.RGBA), cpu.SubImage(in).(*image.RGBA), FootageTolerance); r.Status != Failed {
				t.Errorf("the picture inside a box is unchanged (largest difference %d)", r.MaxDiff)
			}
			if c.crop == footageCrop {
				sheet = append(sheet, got)
			} else if *docsDir != "" {
				if err := writePNG(filepath.Join(*docsDir, strings.TrimPrefix(c.name, "footage-")+".png"), got); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if *docsDir != "" && len(sheet) > 0 {
		// The effects, two a row, in EffectNames' order.
		w, h := sheet[0].Bounds().Dx(), sheet[0].Bounds().Dy()
		img := image.NewRGBA(image.Rect(0, 0, 2*w, (len(sheet)+1)/2*h))
		for i, s := range sheet {
			draw.Draw(img, image.Rect(i%2*w, i/2*h, i%2*w+w, i/2*h+h), s, image.Point{}, draw.Src)
		}
		if err := writePNG(filepath.Join(*docsDir, "effects.png"), img); err != nil {
			t.Fatal(err)
		}
	}
}

// checkFootage compares got with the golden at path (-update writes it there instead), and
// the emulated device's picture emu with the CPU's, cpu, both within FootageTolerance.
func checkFootage(t *testing.T, path string, got, cpu, emu *image.RGBA) {
	t.Helper()
	if *update {
		if err := writePNG(path, got); err != nil {
			t.Fatal(err)
		}
	} else {
		want, err := ReadPNG(path)
		if err != nil {
			t.Fatal(err)
		}
		if r := compare(path, want, got, FootageTolerance); r.Status == Failed {
			t.Errorf("%d pixels differ from %s by more than %d (largest %d)", r.Over, path, FootageTolerance, r.MaxDiff)
		}
	}
	if r := compare(path, cpu, emu, FootageTolerance); r.Status == Failed {
		t.Errorf("emulated device: %d pixels differ by more than %d (largest %d)", r.Over, FootageTolerance, r.MaxDiff)
	}
}

// rgbOf is frame f as a picture (yuvToRGBA).
func rgbOf(t *testing.T, f *composite.YUV420P) *image.RGBA {
	t.Helper()
	img, err := yuvToRGBA(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
