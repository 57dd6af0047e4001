package composite

import (
	"encoding/binary"
	"math/rand"
	"testing"
)

// layerOf is a w × h layer holding the premultiplied pixels px, row by row.
func layerOf(w, h int, px ...[4]byte) *RGBA {
	f := &RGBA{Pix: make([]byte, 4*w*h), Stride: 4 * w, W: w, H: h}
	for i, p := range px {
		copy(f.Pix[4*i:], p[:])
	}
	return f
}

func isTransparent(f *RGBA) bool {
	for _, b := range f.Pix {
		if b != 0 {
			return false
		}
	}
	return true
}

// Each conversion writes a pixel's straight colour, in the format's order or matrix, and
// leaves the layer transparent.
func TestLayerPixels(t *testing.T) {
	for _, tc := range []struct {
		name string
		px   [4]byte // premultiplied R'G'B'A
		rgba [4]byte // straight
		yuva [4]uint16
	}{
		{"transparent", [4]byte{}, [4]byte{}, [4]uint16{64, 512, 512, 0}},
		{"white", [4]byte{255, 255, 255, 255}, [4]byte{255, 255, 255, 255}, [4]uint16{940, 512, 512, 1023}},
		{"black", [4]byte{0, 0, 0, 255}, [4]byte{0, 0, 0, 255}, [4]uint16{64, 512, 512, 1023}},
		// BT.709 red: Y' 64 + 876·0.2126, Cb 512 − 448·0.2126/0.9278, Cr 512 + 448.
		{"red", [4]byte{255, 0, 0, 255}, [4]byte{255, 0, 0, 255}, [4]uint16{250, 409, 960, 1023}},
		{"half red", [4]byte{128, 0, 0, 128}, [4]byte{255, 0, 0, 128}, [4]uint16{250, 409, 960, 514}},
		{"faint grey", [4]byte{1, 1, 1, 3}, [4]byte{85, 85, 85, 3}, [4]uint16{356, 512, 512, 12}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := layerOf(1, 1, tc.px)
			out := make([]byte, 4)
			f.StraightRGBA(out, 4)
			if [4]byte(out) != tc.rgba || !isTransparent(f) {
				t.Errorf("RGBA %v, want %v (layer left %v)", out, tc.rgba, f.Pix)
			}
			f = layerOf(1, 1, tc.px)
			f.StraightARGB(out, 4)
			if want := [4]byte{tc.rgba[3], tc.rgba[0], tc.rgba[1], tc.rgba[2]}; [4]byte(out) != want || !isTransparent(f) {
				t.Errorf("ARGB %v, want %v", out, want)
			}
			f = layerOf(1, 1, tc.px)
			var planes [4][]byte
			for i := range planes {
				planes[i] = make([]byte, 2)
			}
			f.YUVA444P10(planes[0], planes[1], planes[2], planes[3], [4]int{2, 2, 2, 2})
			var got [4]uint16
			for i := range got {
				got[i] = binary.LittleEndian.Uint16(planes[i])
			}
			if got != tc.yuva || !isTransparent(f) {
				t.Errorf("YUVA 10-bit %v, want %v", got, tc.yuva)
			}
		})
	}
}

// A 4:2:0 chroma sample is the alpha-weighted mean of its block's straight colours: a block
// half opaque red, half transparent, has red's chroma, not a darker one; luma and alpha are
// per pixel; odd edges take the pixels they have.
func TestLayerYUVA420P(t *testing.T) {
	red, half := [4]byte{255, 0, 0, 255}, [4]byte{0, 0, 128, 128}
	f := layerOf(3, 3, red, [4]byte{}, red, red, [4]byte{}, [4]byte{}, half, [4]byte{}, [4]byte{})
	y, a := make([]byte, 9), make([]byte, 9)
	u, v := make([]byte, 4), make([]byte, 4)
	f.YUVA420P(y, u, v, a, [4]int{3, 2, 2, 3})
	// BT.709 8-bit red: Y' 16 + 219·0.2126, Cb 128 − 112·0.2126/0.9278, Cr 240; blue: Y'
	// 16 + 219·0.0722, Cb 240, Cr 128 − 112·0.0722/0.7874.
	for _, tc := range []struct {
		name      string
		got, want []byte
	}{
		{"Y'", y, []byte{63, 16, 63, 63, 16, 16, 32, 16, 16}},
		{"A", a, []byte{255, 0, 255, 255, 0, 0, 128, 0, 0}},
		{"Cb", u, []byte{102, 102, 240, 128}},
		{"Cr", v, []byte{240, 240, 118, 128}},
	} {
		if string(tc.got) != string(tc.want) {
			t.Errorf("%s %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if !isTransparent(f) {
		t.Errorf("the layer is left %v, want transparent", f.Pix)
	}
}

// Straight alpha carries the premultiplied layer: re-multiplied, every valid premultiplied
// pixel (colour ≤ alpha) comes back within one code value.
func TestLayerStraightRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const w, h = 64, 64
	f := layerOf(w, h)
	for i := 0; i < len(f.Pix); i += 4 {
		a := byte(rng.Intn(256))
		for c := range 3 {
			f.Pix[i+c] = byte(rng.Intn(int(a) + 1))
		}
		f.Pix[i+3] = a
	}
	want := append([]byte(nil), f.Pix...)
	out := make([]byte, len(f.Pix))
	f.StraightRGBA(out, 4*w)
	for i := 0; i < len(out); i += 4 {
		a := int(out[i+3])
		for c := range 3 {
			if p := (int(out[i+c])*a + 127) / 255; p-int(want[i+c]) > 1 || int(want[i+c])-p > 1 {
				t.Fatalf("pixel %d: straight %v re-multiplied to %d, want %d", i/4, out[i:i+4], p, want[i+c])
			}
		}
	}
}

// BenchmarkLayerConvert converts a 1080p layer into each format: sparse (a tenth of the
// rows touched over a fifth of their width, as a few tracks draw) and dense (every pixel
// translucent).
func BenchmarkLayerConvert(b *testing.B) {
	const w, h = 1920, 1080
	sparse, dense := layerOf(w, h), layerOf(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			copy(dense.Pix[y*dense.Stride+4*x:], []byte{100, 50, 25, 200})
			if y%10 == 0 && x < w/5 {
				copy(sparse.Pix[y*sparse.Stride+4*x:], []byte{100, 50, 25, 200})
			}
		}
	}
	f := layerOf(w, h)
	planes := [4][]byte{make([]byte, 4*w*h), make([]byte, 2*w*h), make([]byte, 2*w*h), make([]byte, 2*w*h)}
	for _, src := range []struct {
		name  string
		layer *RGBA
	}{{"sparse", sparse}, {"dense", dense}} {
		for _, tc := range []struct {
			name string
			run  func()
		}{
			{"rgba", func() { f.StraightRGBA(planes[0], 4*w) }},
			{"yuva444p10", func() { f.YUVA444P10(planes[0], planes[1], planes[2], planes[3], [4]int{2 * w, 2 * w, 2 * w, 2 * w}) }},
			{"yuva420p", func() { f.YUVA420P(planes[0], planes[1], planes[2], planes[3], [4]int{w, w / 2, w / 2, w}) }},
		} {
			b.Run(src.name+"/"+tc.name, func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					copy(f.Pix, src.layer.Pix)
					b.StartTimer()
					tc.run()
				}
			})
		}
	}
}
