// Package goldens holds trackink's golden-image regression tests: scenes aimed at what breaks
// renderers (see Scenes), each with its expected picture in testdata/, and the runner that
// renders them and compares, used by `trackink golden` and by `go test`.
//
// Each scene is composited onto an opaque checkerboard, so the PNG stores every channel
// exactly and translucency shows when a person looks at it, or onto a frame of real footage
// (footage.go). A scene passes when no channel of any pixel differs from the stored picture
// by more than Tolerance code values (FootageTolerance on footage). A failure writes the
// actual picture and a diff picture (differing pixels red, the rest dimmed) to the output
// directory.
package goldens

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"trackink/composite"
	"trackink/overlay"
	"trackink/render"
)

// Tolerance is the largest difference, in 8-bit code values, allowed in any channel. Renders
// are deterministic on one machine; the slack absorbs float rounding that differs between
// CPU architectures (arm64 fuses multiply-adds) and compiler versions.
const Tolerance = 2

// Options configure Run.
type Options struct {
	Dir     string   // the expected pictures (goldens/testdata)
	OutDir  string   // where failures write NAME.actual.png and NAME.diff.png
	Update  bool     // rewrite the expected pictures instead of comparing
	Only    []string // scene names to run; empty for all
	Workers int      // render workers; 0 for one per CPU
	// NewBackend starts the renderer; nil is the CPU renderer. The goldens are the CPU's
	// pictures, so this checks another backend (the CUDA device) against them.
	NewBackend overlay.NewBackend
}

// Result is the outcome for one scene.
type Result struct {
	Scene   string
	Status  Status
	MaxDiff int // largest channel difference found
	Over    int // pixels differing by more than Tolerance
	Actual  string
	Diff    string // "" where the golden is missing, unreadable or of another size
	Reason  string // why a scene was skipped, or failed other than by its pixels
}

// Status of one scene.
type Status string

// Statuses.
const (
	Passed  Status = "ok"
	Failed  Status = "FAIL"
	Updated Status = "updated"
	// Skipped: a scene on footage where the clip is not installed (a GPU machine, the
	// portable build's bare test root). Where the goldens are made it always is.
	Skipped Status = "skip"
)

// Run renders the scenes and compares (or, with Update, stores) them; a scene on footage
// whose clip is not installed is Skipped. A scene whose golden is missing, unreadable or of
// another size Failed, with the Reason, as a mismatch does, and the others are still
// compared. It returns an error for what stops the run: an unknown scene name, a scene that
// cannot be drawn, a file that cannot be written.
func Run(o Options) ([]Result, error) {
	scenes, err := selected(o.Only)
	if err != nil {
		return nil, err
	}
	var results []Result
	for _, s := range scenes {
		if s.Footage > 0 && !o.Update {
			if _, err := os.Stat(Footage); err != nil {
				results = append(results, Result{Scene: s.Name, Status: Skipped,
					Reason: fmt.Sprintf("it draws on %s (Debian's opencv-doc), not installed here", Footage)})
				continue
			}
		}
		got, err := Render(s, o.Workers, o.NewBackend)
		if err != nil {
			return results, fmt.Errorf("scene %s: %w", s.Name, err)
		}
		path := filepath.Join(o.Dir, s.Name+".png")
		if o.Update {
			if err := writePNG(path, got); err != nil {
				return results, err
			}
			results = append(results, Result{Scene: s.Name, Status: Updated})
			continue
		}
		// Updating this scene alone makes its golden without rewriting the others, whose
		// failures would then pass unseen.
		update := fmt.Sprintf("`trackink golden --dir %s --update --only %s` makes it (then look at it)", o.Dir, s.Name)
		want, err := ReadPNG(path)
		var r Result
		switch {
		case errors.Is(err, fs.ErrNotExist):
			r = Result{Scene: s.Name, Status: Failed, Reason: fmt.Sprintf("no golden %s: %s", path, update)}
		case err != nil:
			r = Result{Scene: s.Name, Status: Failed, Reason: fmt.Sprintf("%v: %s anew", err, update)}
		default:
			r = compare(s.Name, want, got, s.tolerance())
		}
		if r.Status == Failed {
			if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
				return results, err
			}
			r.Actual = filepath.Join(o.OutDir, s.Name+".actual.png")
			if err := writePNG(r.Actual, got); err != nil {
				return results, err
			}
			if r.Reason == "" {
				r.Diff = filepath.Join(o.OutDir, s.Name+".diff.png")
				if err := writePNG(r.Diff, diffImage(want, got)); err != nil {
					return results, err
				}
			}
		}
		results = append(results, r)
	}
	return results, nil
}

func selected(only []string) ([]Scene, error) {
	if len(only) == 0 {
		return Scenes, nil
	}
	var out []Scene
	for _, name := range only {
		i := slices.IndexFunc(Scenes, func(s Scene) bool { return s.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("no golden scene %q (have: %s)", name, names())
		}
		out = append(out, Scenes[i])
	}
	return out, nil
}

func names() string {
	var s string
	for i, sc := range Scenes {
		if i > 0 {
			s += ", "
		}
		s += sc.Name
	}
	return s
}

// Render draws a scene onto its checkerboard (or its footage frame) with the backend newBackend starts (nil: the CPU
// renderer).
func Render(s Scene, workers int, newBackend overlay.NewBackend) (*image.RGBA, error) {
	if s.Footage > 0 {
		return renderOnFootage(s, workers, newBackend)
	}
	img := Checkerboard(s.Width, s.Height)
	if err := DrawOn(s, &composite.RGBA{Pix: img.Pix, Stride: img.Stride, W: s.Width, H: s.Height}, workers, newBackend); err != nil {
		return nil, err
	}
	return img, nil
}

// DrawOn draws a scene onto dst, of the scene's size, with the backend newBackend starts
// (nil: the CPU renderer).
func DrawOn(s Scene, dst composite.Surface, workers int, newBackend overlay.NewBackend) error {
	if newBackend == nil {
		newBackend = render.NewBackend
	}
	font, err := s.NewFont()
	if err != nil {
		return err
	}
	r, err := newBackend(overlay.BackendOptions{Workers: workers})
	if err != nil {
		return err
	}
	defer r.Close()
	p := overlay.Primitives{Font: font}
	if err := s.Draw(&p, font, s.Width, s.Height); err != nil {
		return err
	}
	return r.Draw(dst, &p)
}

// Checkerboard returns an opaque dark checkerboard of 8-pixel squares.
func Checkerboard(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := uint8(40)
			if (x/8+y/8)%2 == 1 {
				v = 56
			}
			img.SetRGBA(x, y, color.RGBA{v, v, v, 255})
		}
	}
	return img
}

// compare holds got to want within tol code values in every channel.
func compare(name string, want, got *image.RGBA, tol int) Result {
	r := Result{Scene: name, Status: Passed}
	if want.Bounds() != got.Bounds() {
		r.Status, r.MaxDiff, r.Over = Failed, 255, got.Bounds().Dx()*got.Bounds().Dy()
		r.Reason = fmt.Sprintf("the golden is %d×%d, the scene draws %d×%d", want.Bounds().Dx(), want.Bounds().Dy(), got.Bounds().Dx(), got.Bounds().Dy())
		return r
	}
	for i := 0; i < len(got.Pix); i += 4 {
		worst := 0
		for c := 0; c < 4; c++ {
			worst = max(worst, absInt(int(got.Pix[i+c])-int(want.Pix[i+c])))
		}
		r.MaxDiff = max(r.MaxDiff, worst)
		if worst > tol {
			r.Over++
		}
	}
	if r.Over > 0 {
		r.Status = Failed
	}
	return r
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// diffImage marks pixels beyond Tolerance in red over a dimmed copy of the expected picture,
// of the same size.
func diffImage(want, got *image.RGBA) *image.RGBA {
	d := image.NewRGBA(got.Bounds())
	for i := 0; i < len(got.Pix); i += 4 {
		worst := 0
		for c := 0; c < 4; c++ {
			worst = max(worst, absInt(int(got.Pix[i+c])-int(want.Pix[i+c])))
		}
		if worst > Tolerance {
			copy(d.Pix[i:], []byte{255, 0, 0, 255})
		} else {
			for c := 0; c < 3; c++ {
				d.Pix[i+c] = want.Pix[i+c] / 3
			}
			d.Pix[i+3] = 255
		}
	}
	return d
}

// ReadPNG reads a PNG picture as RGBA (pictures in another colour model are converted).
func ReadPNG(path string) (*image.RGBA, error) {
	m, err := decodePNG(path)
	if err != nil {
		return nil, err
	}
	if rgba, ok := m.(*image.RGBA); ok {
		return rgba, nil
	}
	rgba := image.NewRGBA(m.Bounds())
	for y := m.Bounds().Min.Y; y < m.Bounds().Max.Y; y++ {
		for x := m.Bounds().Min.X; x < m.Bounds().Max.X; x++ {
			rgba.Set(x, y, m.At(x, y))
		}
	}
	return rgba, nil
}

// decodePNG reads the PNG picture at path.
func decodePNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// writePNG writes atomically: a temporary file renamed into place.
func writePNG(path string, img image.Image) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".golden-*.png")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := png.Encode(tmp, img); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// CreateTemp makes the file private; pictures are for everyone to read.
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
