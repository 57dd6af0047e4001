package composite

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestToRGBA: a colour coded into each frame format, matrix and range converts back to
// itself within the rounding of the coding (8-bit limited range: 2 of 255).
func TestToRGBA(t *testing.T) {
	colours := [][3]byte{{0, 0, 0}, {255, 255, 255}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {200, 120, 40}, {30, 160, 220}}
	const w, h = 4, 2 // one colour a 2×2 block, so chroma is the colour's own
	for _, m := range []Matrix{BT709, BT601, BT2020} {
		for _, r := range []Range{Limited, Full} {
			for _, depth := range []int{8, 10} {
				for _, c := range colours {
					sp := YCbCrSpaceDepth(m, r, depth)
					v := sp.Color(float32(c[0])/255, float32(c[1])/255, float32(c[2])/255, 1)
					code := func(i int) int { return min(int(math.Round(float64(v[i]))), 1<<depth-1) }
					frames := codedFrames(w, h, m, r, depth, code(0), code(1), code(2))
					for _, f := range frames {
						got, err := ToRGBA(f)
						if err != nil {
							t.Fatal(err)
						}
						for p := 0; p < w*h; p++ {
							for i := range 3 {
								if d := int(got.Pix[4*p+i]) - int(c[i]); d < -2 || d > 2 || got.Pix[4*p+3] != 255 {
									t.Fatalf("%T %v %v %d-bit: %v came back as %v", f, m, r, depth, c, got.Pix[4*p:4*p+4])
								}
							}
						}
					}
				}
			}
		}
	}
	if _, err := ToRGBA(&DeviceNV12{}); err == nil {
		t.Error("a frame in GPU memory converted")
	}
}

// codedFrames returns w × h frames of depth bits holding Y'CbCr (y, cb, cr) everywhere, in
// every host format of that depth.
func codedFrames(w, h int, m Matrix, r Range, depth, y, cb, cr int) []Surface {
	if depth == 8 {
		fill := func(n int, v int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(v)
			}
			return b
		}
		uv := make([]byte, w*h/2)
		for i := 0; i < len(uv); i += 2 {
			uv[i], uv[i+1] = byte(cb), byte(cr)
		}
		return []Surface{
			&YUV420P{Y: fill(w*h, y), U: fill(w*h/4, cb), V: fill(w*h/4, cr), StrideY: w, StrideU: w / 2, StrideV: w / 2, W: w, H: h, Matrix: m, Range: r},
			&NV12{Y: fill(w*h, y), UV: uv, StrideY: w, StrideUV: w, W: w, H: h, Matrix: m, Range: r},
		}
	}
	words := func(n, v int, shift uint) []byte {
		b := make([]byte, 2*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(v)<<shift)
		}
		return b
	}
	uv := make([]byte, w*h)
	for i := 0; i < len(uv); i += 4 {
		binary.LittleEndian.PutUint16(uv[i:], uint16(cb)<<6)
		binary.LittleEndian.PutUint16(uv[i+2:], uint16(cr)<<6)
	}
	return []Surface{
		&YUV420P10{Y: words(w*h, y, 0), U: words(w*h/4, cb, 0), V: words(w*h/4, cr, 0), StrideY: 2 * w, StrideU: w, StrideV: w, W: w, H: h, Matrix: m, Range: r},
		&P010{Y: words(w*h, y, 6), UV: uv, StrideY: 2 * w, StrideUV: 2 * w, W: w, H: h, Matrix: m, Range: r},
	}
}
