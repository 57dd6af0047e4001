package job

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"

	"trackink/video"
)

// LoadCanvas decodes the picture at path (PNG or JPEG) into RGBA to draw a still onto, or,
// with no path, makes a mid-grey canvas of w × h.
//
// A picture is refused before it is decoded when its size, read from its header, is more
// than the memory available can render (video.CheckMemory, as a video is): a PNG of a few
// kilobytes may declare 50000 × 50000 pixels, which the decoder would allocate at once, and
// a Go program that runs out of memory dies at once.
func LoadCanvas(path string, w, h int) (*image.RGBA, error) {
	if path == "" {
		if w < 1 || h < 1 || w > 16384 || h > 16384 {
			return nil, badOption(fmt.Errorf("canvas %dx%d: --width and --height must be 1..16384", w, h))
		}
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(img, img.Bounds(), image.NewUniform(color.Gray{Y: 96}), image.Point{}, draw.Src)
		return img, nil
	}
	in, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	// The header is read through head and then read again by the decoder, so that a picture
	// from a pipe, which cannot be read twice, is read once.
	var head bytes.Buffer
	cfg, _, err := image.DecodeConfig(io.TeeReader(in, &head))
	if err != nil {
		return nil, fmt.Errorf("input %s: not a PNG or JPEG picture (%w)", path, err)
	}
	if err := video.CheckMemory(cfg.Width, cfg.Height); err != nil {
		return nil, fmt.Errorf("input %s: %w", path, err)
	}
	src, _, err := image.Decode(io.MultiReader(&head, in))
	if err != nil {
		return nil, fmt.Errorf("input %s: not a PNG or JPEG picture (%w)", path, err)
	}
	img := image.NewRGBA(image.Rect(0, 0, src.Bounds().Dx(), src.Bounds().Dy()))
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	return img, nil
}

// PictureEncoder picks the picture encoder for a still from its output's extension: .png
// (tagged sRGB, as FFmpeg tags a layer's PNG sequence) or .jpg (quality 92).
func PictureEncoder(path string) (func(io.Writer, image.Image) error, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return encodeSRGBPNG, nil
	case ".jpg", ".jpeg":
		return func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, &jpeg.Options{Quality: 92}) }, nil
	}
	return nil, badOption(fmt.Errorf("output %s: want a .png or .jpg picture", path))
}

// encodeSRGBPNG writes m as PNG with an sRGB chunk (perceptual intent) and, for readers that
// do not know it, the gAMA chunk the PNG specification pairs with it (1/2.2), after the
// header: Go's encoder writes neither, and an untagged picture is left to each reader's guess.
func encodeSRGBPNG(w io.Writer, m image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		return err
	}
	const headerEnd = 8 + 4 + 4 + 13 + 4 // the signature, then IHDR: length, type, data, CRC
	out := b.Bytes()
	if _, err := w.Write(out[:headerEnd]); err != nil {
		return err
	}
	for _, c := range []struct {
		kind string
		data []byte
	}{{"sRGB", []byte{0}}, {"gAMA", binary.BigEndian.AppendUint32(nil, 45455)}} {
		chunk := binary.BigEndian.AppendUint32(nil, uint32(len(c.data)))
		chunk = append(append(chunk, c.kind...), c.data...)
		chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
		if _, err := w.Write(chunk); err != nil {
			return err
		}
	}
	_, err := w.Write(out[headerEnd:])
	return err
}
