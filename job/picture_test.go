package job

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// A .png still is tagged sRGB (with the gAMA chunk that goes with it) right after its
// header, as FFmpeg tags a layer's PNG sequence, and holds the very pixels given: Go's
// encoder alone wrote an untagged picture.
func TestPNGStillTaggedSRGB(t *testing.T) {
	enc, err := PictureEncoder("still.PNG")
	if err != nil {
		t.Fatal(err)
	}
	m := image.NewNRGBA(image.Rect(0, 0, 5, 3))
	for i := range m.Pix {
		m.Pix[i] = byte(i * 7)
	}
	m.SetNRGBA(0, 0, color.NRGBA{200, 100, 50, 128})
	var b bytes.Buffer
	if err := enc(&b, m); err != nil {
		t.Fatal(err)
	}
	want := append([]byte("\x00\x00\x00\x01sRGB\x00"), 0xae, 0xce, 0x1c, 0xe9)
	want = append(want, []byte("\x00\x00\x00\x04gAMA\x00\x00\xb1\x8f\x0b\xfc\x61\x05")...)
	if got := b.Bytes()[33:]; !bytes.HasPrefix(got, want) {
		t.Errorf("after the header: % x\nwant % x", got[:min(len(got), len(want))], want)
	}
	back, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	n, ok := back.(*image.NRGBA)
	if !ok || !bytes.Equal(n.Pix, m.Pix) {
		t.Errorf("the pixels read back differ")
	}
}
