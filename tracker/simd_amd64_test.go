//go:build gc && !purego

package tracker

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLKAVX2MatchesGo: the assembly samples the same templates and sums as the Go code, to
// the bit, at windows inside, across and outside the edges of levels of several sizes,
// on extreme images (all 0 and 255: the largest products) as well as random ones.
func TestLKAVX2MatchesGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range [][2]int{{1, 1}, {7, 5}, {40, 30}, {123, 67}} {
		for _, kind := range []string{"random", "checker"} {
			var a, b pyramid
			mk := func(p *pyramid, seed int) {
				pl := &plane{}
				pl.resize(size[0], size[1])
				for i := range pl.pix {
					if kind == "random" {
						pl.pix[i] = byte(rng.IntN(256))
					} else {
						pl.pix[i] = byte(255 * ((i/size[0] + i%size[0] + seed) % 2))
					}
				}
				p.build(pl)
			}
			mk(&a, 0)
			mk(&b, 1)
			for range 300 {
				I, J := &a.levels[0], &b.levels[0]
				x, y := rng.IntN(I.w+lkWindow)-lkWindow, rng.IntN(I.h+lkWindow)-lkWindow
				w := weights(rng.Float32(), rng.Float32())
				if rng.IntN(4) == 0 {
					w = weights(0, 0)
				}
				var g, v lkWork
				g11, g12, g22 := g.templateGo(I, x, y, &w)
				v11, v12, v22 := v.template(I, x, y, &w)
				if g11 != v11 || g12 != v12 || g22 != v22 || g.tx != v.tx || g.ty != v.ty {
					t.Fatalf("%v %s template at %d,%d: Go %d %d %d, AVX2 %d %d %d", size, kind, x, y, g11, g12, g22, v11, v12, v22)
				}
				for r := 0; r < lkWindow; r++ {
					for c := 0; c < lkWindow; c++ {
						if g.t[r*lkRow+c] != v.t[r*lkRow+c] {
							t.Fatalf("%v %s template image differs at %d,%d", size, kind, c, r)
						}
					}
				}
				gb1, gb2 := g.mismatchGo(J, x, y, &w)
				vb1, vb2 := v.mismatch(J, x, y, &w)
				if gb1 != vb1 || gb2 != vb2 {
					t.Fatalf("%v %s mismatch at %d,%d: Go %d %d, AVX2 %d %d", size, kind, x, y, gb1, gb2, vb1, vb2)
				}
			}
		}
	}
}

// TestDownscaleAVX2MatchGo: downscale by 2 and by 4 of an 8-bit plane gives the same values
// with the assembly as with the Go row loops, and both those of the definition, on widths
// that leave every remainder of 16 output pixels.
func TestDownscaleAVX2MatchGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	defer func() { haveAVX2 = true }()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, f := range []int{2, 4} {
		for ow := 0; ow <= 3*16; ow++ {
			w, h := ow*f+rng.IntN(f), 2*f+rng.IntN(f)
			src := randomSource(rng, w, h, 1, 0, false)
			var want plane
			downscaleRef(&want, src, f)
			var p [2]plane
			for k, avx := range []bool{false, true} {
				haveAVX2 = avx
				downscale(&p[k], src, f)
			}
			for k, name := range []string{"Go", "AVX2"} {
				if string(p[k].pix) != string(want.pix) {
					t.Fatalf("f=%d %dx%d: the %s downscale differs from the definition", f, w, h, name)
				}
			}
		}
	}
}

// TestRowsAVX2MatchGo: downscale by 2, the pyramid (pyrDown, Scharr), the corner
// strengths, the thresholds, the morphology, the box mean and the absolute difference give
// the same values with the assembly as without, on widths that leave every remainder of 16
// and 32.
func TestRowsAVX2MatchGo(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	defer func() { haveAVX2 = true }()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range [][2]int{{2, 2}, {33, 9}, {64, 20}, {101, 37}, {1920, 6}} {
		src := source{pix: make([]byte, size[0]*size[1]), stride: size[0], w: size[0], h: size[1], step: 1}
		for i := range src.pix {
			src.pix[i] = byte(rng.IntN(256))
			if rng.IntN(8) == 0 {
				src.pix[i] = 255 * byte(rng.IntN(2))
			}
		}
		var p [2]plane
		var pyr [2]pyramid
		for k, avx := range []bool{false, true} {
			haveAVX2 = avx
			downscale(&p[k], src, 2)
			pyr[k].build(&p[k])
		}
		if string(p[0].pix) != string(p[1].pix) {
			t.Fatalf("%v: downscale differs", size)
		}
		var masks [2][]byte
		for k, avx := range []bool{false, true} {
			haveAVX2 = avx
			var m morph
			masks[k] = make([]byte, len(src.pix))
			for i, v := range src.pix {
				masks[k][i] = b2u(v > 100)
			}
			m.clean(masks[k], size[0], size[1], 5, 3)
		}
		if string(masks[0]) != string(masks[1]) {
			t.Fatalf("%v: morphology differs", size)
		}
		var means [2][]byte
		for k, avx := range []bool{false, true} {
			haveAVX2 = avx
			var bw boxWork
			means[k] = slices.Clone(src.pix)
			boxMean(means[k], size[0], size[1], motionRadius, &bw)
		}
		for i, v := range means[1] {
			x, y := i%size[0], i/size[0]
			sum, n := 0, 0
			for yy := max(y-motionRadius, 0); yy <= min(y+motionRadius, size[1]-1); yy++ {
				for xx := max(x-motionRadius, 0); xx <= min(x+motionRadius, size[0]-1); xx++ {
					sum += int(src.pix[yy*size[0]+xx])
					n++
				}
			}
			if int(v) != sum/n || means[0][i] != v {
				t.Fatalf("%v: mean at %d,%d is %d (Go %d), want %d", size, x, y, v, means[0][i], sum/n)
			}
		}
		for _, th := range []int{-1, 0, 100, 254, 255, 300} {
			for _, below := range []bool{false, true} {
				var bins [2][]byte
				for k, avx := range []bool{false, true} {
					haveAVX2 = avx
					bins[k] = make([]byte, len(src.pix))
					binarize(bins[k], src.pix, th, below)
				}
				if string(bins[0]) != string(bins[1]) {
					t.Fatalf("%v: binarize at %d (below %v) differs", size, th, below)
				}
			}
		}
		other := slices.Clone(src.pix)
		rng.Shuffle(len(other), func(i, j int) { other[i], other[j] = other[j], other[i] })
		diff := make([]byte, len(other))
		for i := absDiff(diff, src.pix, other); i < len(diff); i++ {
			diff[i] = byte(abs(int(src.pix[i]) - int(other[i])))
		}
		for i := range diff {
			if want := byte(abs(int(src.pix[i]) - int(other[i]))); diff[i] != want {
				t.Fatalf("%v: |%d − %d| is %d, want %d", size, src.pix[i], other[i], diff[i], want)
			}
		}
		var eig [2][]float32
		for k, avx := range []bool{false, true} {
			haveAVX2 = avx
			var pt pointTracker
			eig[k] = pt.minEigen(&pyr[k].levels[0])
		}
		for i := range eig[0] {
			if math.Float32bits(eig[0][i]) != math.Float32bits(eig[1][i]) {
				t.Fatalf("%v: corner strength %d is %g in Go, %g in AVX2", size, i, eig[0][i], eig[1][i])
			}
		}
		for l := range pyr[0].levels {
			a, b := &pyr[0].levels[l], &pyr[1].levels[l]
			if string(a.pix) != string(b.pix) || !slices.Equal(a.d, b.d) {
				t.Fatalf("%v: level %d differs", size, l)
			}
		}
	}
}
