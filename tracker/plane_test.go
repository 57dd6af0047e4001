package tracker

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// downscaleRef is downscale's definition, one sample at a time: the box mean of each
// f × f block, (sum + area/2) / area.
func downscaleRef(dst *plane, src source, f int) {
	dst.resize(src.w/f, src.h/f)
	area := f * f
	for y := 0; y < dst.h; y++ {
		for x := 0; x < dst.w; x++ {
			sum := 0
			for dy := 0; dy < f; dy++ {
				for dx := 0; dx < f; dx++ {
					sum += src.at(x*f+dx, y*f+dy)
				}
			}
			dst.pix[y*dst.w+x] = byte((sum + area/2) / area)
		}
	}
}

// randomSource is a w × h plane of random samples (an eighth of them 0 or 255) with step
// samples between neighbours, offset from the first, and rows padded past the width.
func randomSource(rng *rand.Rand, w, h, step, offset int, wide bool) source {
	bytes := 1
	if wide {
		bytes = 2
	}
	stride := (w*step + 5) * bytes
	s := source{pix: make([]byte, stride*h), stride: stride, w: w, h: h, step: step, offset: offset, wide: wide}
	for i := range s.pix {
		s.pix[i] = byte(rng.IntN(256))
		if rng.IntN(8) == 0 {
			s.pix[i] = 255 * byte(rng.IntN(2))
		}
	}
	if wide {
		s.shift = 2
		for i := 1; i < len(s.pix); i += 2 {
			s.pix[i] &= 3
		}
	}
	return s
}

// TestDownscaleMatchesDefinition: every factor's path (the copy, the 2 × 2 and 4 × 4 row
// loops with or without the assembly, the generic loops) gives the box means of the
// definition, on widths that leave every remainder of 16 output pixels, odd heights and
// widths that leave partial blocks, 8- and 16-bit samples, and interleaved planes.
func TestDownscaleMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, f := range []int{1, 2, 3, 4, 5, 8} {
		for _, c := range []struct {
			step, offset int
			wide         bool
		}{{1, 0, false}, {2, 0, false}, {2, 1, false}, {1, 0, true}, {2, 1, true}} {
			for _, ow := range []int{0, 1, 7, 15, 16, 17, 31, 33, 47, 48, 63, 240, 255} {
				w, h := ow*f+rng.IntN(f), 3*f+rng.IntN(f)
				src := randomSource(rng, w, h, c.step, c.offset, c.wide)
				var want, got plane
				downscaleRef(&want, src, f)
				downscale(&got, src, f)
				name := fmt.Sprintf("f=%d %dx%d step %d offset %d wide %v", f, w, h, c.step, c.offset, c.wide)
				if got.w != want.w || got.h != want.h || string(got.pix) != string(want.pix) {
					t.Fatalf("%s: downscale differs from the definition", name)
				}
			}
		}
	}
}

// TestChromaAtFullSize: at factor 1 (a frame analysed whole) chromaAt's row loop gives
// chromaMean's samples, on odd and even sizes, 8- and 16-bit samples, interleaved planes.
func TestChromaAtFullSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		step, offset int
		wide         bool
	}{{1, 0, false}, {2, 0, false}, {2, 1, false}, {1, 0, true}, {2, 1, true}} {
		for _, size := range [][2]int{{1, 1}, {2, 2}, {7, 5}, {16, 9}, {33, 18}, {768, 576}} {
			w, h := size[0], size[1]
			src := randomSource(rng, (w+1)/2, (h+1)/2, c.step, c.offset, c.wide)
			var want, got plane
			want.resize(w, h)
			chromaMean(&want, src, 1, w, h)
			chromaAt(&got, src, 1, w, h)
			if got.w != w || got.h != h || string(got.pix) != string(want.pix) {
				t.Fatalf("%dx%d step %d offset %d wide %v: chromaAt differs from chromaMean", w, h, c.step, c.offset, c.wide)
			}
		}
	}
}
