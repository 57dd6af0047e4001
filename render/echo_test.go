package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"trackink/composite"
	"trackink/overlay"
)

// TestEchoAVX2MatchesGo: the echo stage's AVX2 twins give the Go twins' bits: quantize on
// values around every rounding edge and past the ends, the blend of a kept tile under
// random tiles of random colours.
func TestEchoAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(3, 9))
	src := make([]float32, 4096)
	for i := range src {
		switch i % 4 {
		case 0:
			src[i] = float32(rng.IntN(260)) - 0.5 // on a rounding edge
		case 1:
			src[i] = math.Nextafter32(float32(rng.IntN(256))+0.5, 0)
		case 2:
			src[i] = float32(rng.Float64()*300 - 20)
		default:
			src[i] = float32(rng.Float64())
		}
	}
	for _, scale := range []float32{1, 255, 255 / float32(1023)} {
		var got, want [4096]uint8
		withAVX2(true, func() { quantize(got[:], src, scale) })
		withAVX2(false, func() { quantize(want[:], src, scale) })
		if got != want {
			t.Errorf("quantize at scale %v: AVX2 and Go differ", scale)
		}
	}
	for trial := range 20 {
		var tiles [2]composite.Tile
		et := new(echoTile)
		for y := range ts {
			x0 := 8 * rng.IntN(8)
			et.span[y] = composite.Span{X0: int32(x0), X1: int32(x0 + 8*(1+rng.IntN(8-x0/8)))}
			for x := range ts {
				c := randomColor(rng)
				for k := range composite.Channels {
					tiles[0].Planes[k][y*ts+x] = c[k]
					et.planes[k][y*ts+x] = uint8(rng.IntN(256))
				}
			}
		}
		tiles[0].W, tiles[0].H = ts, ts
		tiles[1] = tiles[0]
		weight := [composite.Channels]float32{0.6, 0.36, 0.216, 0.6 / 255}
		withAVX2(true, func() { underKept(&tiles[0], et, &weight) })
		withAVX2(false, func() { underKept(&tiles[1], et, &weight) })
		if tiles[0].Planes != tiles[1].Planes || tiles[0].Span != tiles[1].Span {
			t.Fatalf("trial %d: the blend under a kept tile differs between AVX2 and Go", trial)
		}
	}
}

// TestEchoFadesAndForgets: a box drawn once, then empty frames with echo 3 (decay 0.5): the
// frames after it show it at half, a quarter, an eighth of its opacity (within the 8-bit
// kept layer's steps), the fourth frame after it not at all; an echo moved by (8, 4) lies
// that far off.
func TestEchoFadesAndForgets(t *testing.T) {
	const w, h = 128, 96
	box := overlay.Box{X: 20, Y: 20, W: 30, H: 20, Fill: overlay.RGBA{A: 1, R: 1}}
	for _, c := range []struct {
		name   string
		offset [2]float32
		at     func(k int) (int, int) // where the box's centre lies k frames after it
	}{
		{"still", [2]float32{}, func(int) (int, int) { return 35, 30 }},
		{"moved", [2]float32{8, 4}, func(k int) (int, int) { return 35 + 8*k, 30 + 4*k }},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRenderer(t, 2)
			pass := overlay.EchoPass{Frames: 3, Decay: 0.5, Scale: 1, Offset: c.offset}
			for k := range 5 {
				fr := &composite.RGBA{Pix: make([]byte, w*h*4), Stride: 4 * w, W: w, H: h}
				p := overlay.Primitives{Echo: pass}
				if k == 0 {
					p.Boxes = []overlay.Box{box}
				}
				draw(t, r, fr, &p)
				x, y := c.at(k)
				got := float64(fr.Pix[4*(y*w+x)])
				want := 255 * math.Pow(0.5, float64(k))
				if k > 3 {
					want = 0
				}
				if math.Abs(got-want) > 1.5 {
					t.Errorf("frame %d after the box: red %v at (%d, %d), want %.1f", k, got, x, y, want)
				}
			}
		})
	}
}
