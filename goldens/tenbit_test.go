package goldens

import (
	"encoding/binary"
	"image"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"trackink/composite"
)

// tenBitGolden is the 10-bit golden picture: the seed scene drawn on a 10-bit BT.2020
// limited-range frame (HDR video's layout), stored as its planes.
const tenBitGolden = "testdata/tenbit/seed-small-bt2020.png"

// TestTenBitGolden draws the seed scene onto a YUV420P10 frame in BT.2020 at limited range
// (a checkerboard of Y' 256 and 320, neutral chroma) and compares its samples with
// tenBitGolden: a 16-bit grey picture of the Y' plane above the Cb and Cr planes side by
// side, each sample at the top of its 16 bits (as P010 holds it) so that the picture can be
// looked at. It passes within 4·Tolerance 10-bit code values, the 8-bit pictures' slack.
// -update rewrites the picture.
func TestTenBitGolden(t *testing.T) {
	i := slices.IndexFunc(Scenes, func(s Scene) bool { return s.Name == "seed-small" })
	s := Scenes[i]
	w, h, cw, ch := s.Width, s.Height, (s.Width+1)/2, (s.Height+1)/2
	f := &composite.YUV420P10{Y: make([]byte, 2*w*h), U: make([]byte, 2*cw*ch), V: make([]byte, 2*cw*ch),
		StrideY: 2 * w, StrideU: 2 * cw, StrideV: 2 * cw, W: w, H: h, Matrix: composite.BT2020}
	for y := range h {
		for x := range w {
			binary.LittleEndian.PutUint16(f.Y[2*(y*w+x):], uint16(256+64*((x/8+y/8)%2)))
		}
	}
	for i := 0; i < cw*ch; i++ {
		binary.LittleEndian.PutUint16(f.U[2*i:], 512)
		binary.LittleEndian.PutUint16(f.V[2*i:], 512)
	}
	if err := DrawOn(s, f, 0, nil); err != nil {
		t.Fatal(err)
	}
	got := image.NewGray16(image.Rect(0, 0, w, h+ch))
	put := func(plane []byte, pw, x0, y0 int) {
		for i := 0; i < len(plane)/2; i++ {
			v := binary.LittleEndian.Uint16(plane[2*i:]) << 6
			binary.BigEndian.PutUint16(got.Pix[(y0+i/pw)*got.Stride+2*(x0+i%pw):], v)
		}
	}
	put(f.Y, w, 0, 0)
	put(f.U, cw, 0, h)
	put(f.V, cw, cw, h)
	if *update {
		if err := writePNG(tenBitGolden, got); err != nil {
			t.Fatal(err)
		}
		return
	}
	file, err := os.Open(tenBitGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	m, _, err := image.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	want, ok := m.(*image.Gray16)
	if !ok || want.Bounds() != got.Bounds() {
		t.Fatalf("%s is a %T of %v, want a 16-bit grey picture of %v", tenBitGolden, m, m.Bounds(), got.Bounds())
	}
	worst, over := 0, 0
	for y := range got.Bounds().Dy() {
		for x := range got.Bounds().Dx() {
			d := absInt(int(got.Gray16At(x, y).Y>>6) - int(want.Gray16At(x, y).Y>>6))
			worst = max(worst, d)
			if d > 4*Tolerance {
				over++
			}
		}
	}
	if over > 0 {
		out := filepath.Join(t.TempDir(), filepath.Base(tenBitGolden))
		if err := writePNG(out, got); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%d samples differ from %s by more than %d 10-bit code values (largest %d); see %s", over, tenBitGolden, 4*Tolerance, worst, out)
	}
}
