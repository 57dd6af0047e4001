package render

import (
	"bytes"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"trackink/composite"
	"trackink/overlay"
)

// TestEchoAVX2MatchesGo: the echo stage's AVX2 twins give the Go twins' bits: the store of
// a kept row on values around every rounding edge and past the ends, with groups all zero
// (not stored) among them, and the blend of up to 4 kept tiles, each holding random groups,
// under random tiles of random colours.
func TestEchoAVX2MatchesGo(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(3, 9))
	var tile composite.Tile
	for c := range composite.Channels {
		for i := range tile.Planes[c] {
			switch {
			case i/8%3 == 0: // a group of zeros
			case i%4 == 0:
				tile.Planes[c][i] = float32(rng.IntN(260)) - 0.5 // on a rounding edge
			case i%4 == 1:
				tile.Planes[c][i] = math.Nextafter32(float32(rng.IntN(256))+0.5, 0)
			case i%4 == 2:
				tile.Planes[c][i] = float32(rng.Float64()*300 - 20)
			default:
				tile.Planes[c][i] = float32(rng.Float64()) / 300
			}
		}
	}
	for _, scale := range [][composite.Channels]float32{{1, 1, 1, 255}, {255 / float32(1023), 255 / float32(1023), 255 / float32(1023), 255}} {
		var kept [2]echoTile
		for y := range ts {
			for i, avx := range []bool{true, false} {
				withAVX2(avx, func() {
					kept[i].groups[y] = uint8(keepGroups(&kept[i].px[y*ts/8], &tile.Planes[0][y*ts], 8, &scale))
				})
			}
		}
		if kept[0] != kept[1] {
			t.Errorf("keep at scale %v: AVX2 and Go differ", scale)
		}
		if kept[0].groups[0]&1 != 0 || kept[0].groups[0]&2 == 0 {
			t.Errorf("row 0's groups %08b: want the first (all zero) not stored, the second stored", kept[0].groups[0])
		}
		if kept[0].px[0] == (echoGroup{}) {
			t.Errorf("row 0's second group was not stored first: the groups stored are not packed")
		}
	}
	for trial := range 20 {
		var tiles [2]composite.Tile
		kept := make([]echoTile, 1+rng.IntN(4))
		for y := range ts {
			for x := range ts {
				c := randomColor(rng)
				for k := range composite.Channels {
					tiles[0].Planes[k][y*ts+x] = c[k]
				}
			}
		}
		for e := range kept {
			for g := range kept[e].px {
				for k := range composite.Channels {
					for x := range 8 {
						kept[e].px[g][k][x] = uint8(rng.IntN(256))
					}
				}
			}
		}
		stored := make([]int, len(kept))
		for y := range ts {
			for e := range kept {
				kept[e].groups[y], kept[e].start[y] = uint8(rng.IntN(256)), uint16(stored[e])
				stored[e] += bits.OnesCount8(kept[e].groups[y])
			}
		}
		tiles[0].W, tiles[0].H = ts, ts
		tiles[1] = tiles[0]
		var l echoLayers
		l.held, l.tiles = make([][]bool, len(kept)), make([][]*echoTile, len(kept))
		for e := range kept {
			l.held[e], l.tiles[e] = []bool{stored[e] > 0}, []*echoTile{&kept[e]}
			w := float32(math.Pow(0.6, float64(e+1)))
			l.steps = append(l.steps, echoStep{slot: e, identity: true, weight: [composite.Channels]float32{w, w, w, w / 255}})
		}
		for i, avx := range []bool{true, false} {
			withAVX2(avx, func() { l.under(&tiles[i], 0, &echoScratch{}) })
		}
		if tiles[0].Planes != tiles[1].Planes || tiles[0].Span != tiles[1].Span {
			t.Fatalf("trial %d: the blend of %d kept tiles differs between AVX2 and Go", trial, len(kept))
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

// TestEchoReusesKeptTiles: a box crossing the frame leaves kept tiles behind that hold
// nothing once its echoes have passed; the tiles it reaches next reuse them, so that after
// the first frames a frame allocates nothing and the ring holds no more tiles, and they draw
// what a renderer that never reused one draws: one that kept only the frames the echoes
// show (a segment's start).
func TestEchoReusesKeptTiles(t *testing.T) {
	const w, h, echoes = 1280, 128, 3
	box := func(n int) overlay.Box {
		return overlay.Box{X: float32(n * 24 % (w - 40)), Y: float32(5 + n*7%80), W: 30, H: 30, Stroke: 2,
			StrokeColor: overlay.RGBA{A: 1, G: 1}}
	}
	pass := overlay.EchoPass{Frames: echoes, Decay: 0.6, Scale: 1}
	r := newRenderer(t, 2)
	fr := &composite.RGBA{Pix: make([]byte, w*h*4), Stride: 4 * w, W: w, H: h}
	p := overlay.Primitives{Boxes: []overlay.Box{{}}, Echo: pass}
	n := 0
	frame := func() {
		p.Boxes[0] = box(n)
		n++
		clear(fr.Pix)
		draw(t, r, fr, &p)
	}
	owned := func() int { // the kept tiles the ring holds, spare or not
		n := len(r.echo.spare)
		for _, slot := range r.echo.tiles {
			for _, et := range slot {
				if et != nil {
					n++
				}
			}
		}
		return n
	}
	for range 60 {
		frame()
	}
	before := owned()
	if allocs := testing.AllocsPerRun(40, frame); allocs != 0 && !raceEnabled {
		t.Errorf("%v allocations per frame, want 0", allocs)
	}
	if after := owned(); after != before {
		t.Errorf("the ring held %d kept tiles after 60 frames and %d after 101: want them reused", before, after)
	}
	fresh := newRenderer(t, 2)
	want := &composite.RGBA{Pix: make([]byte, w*h*4), Stride: 4 * w, W: w, H: h}
	for k := n - 1 - echoes; k < n; k++ {
		q := overlay.Primitives{Boxes: []overlay.Box{box(k)}, Echo: pass}
		q.Echo.Keep = k < n-1
		draw(t, fresh, want, &q)
	}
	if !bytes.Equal(fr.Pix, want.Pix) {
		t.Errorf("frame %d differs from a fresh renderer's that kept only the %d frames before", n, echoes)
	}
}

// TestEchoKeepReadsBack: a tile whose rows hold random spans of random pixels, some groups
// of 8 all zero among them, kept and read back pixel by pixel (tap, which finds a group
// among the packed ones): every pixel is its value to the nearest byte, and zero outside
// the spans and in the groups that held nothing; on both twins.
func TestEchoKeepReadsBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	for _, avx := range []bool{true, false} {
		if avx && !haveAVX2 {
			continue
		}
		var tile composite.Tile
		tile.Reset(0, 0, ts, ts)
		for y := range ts {
			x0 := rng.IntN(ts)
			x1 := x0 + rng.IntN(ts-x0+1)
			if x0 == x1 {
				continue
			}
			tile.Touch(y, x0, x1)
			for x := x0; x < x1; x++ {
				if (x/8+y)%3 == 0 {
					continue // a group of zeros, within the span
				}
				for c := range composite.Channels {
					tile.Planes[c][y*ts+x] = float32(rng.IntN(256))
				}
			}
		}
		var l echoLayers
		l.begin(overlay.EchoPass{Frames: 1, Decay: 0.5, Scale: 1}, &composite.Space{}, ts, ts, 1, 1)
		withAVX2(avx, func() { l.keep(&tile, 0) })
		for y := range ts {
			for x := range ts {
				var got [composite.Channels]float32
				l.tap(l.cur, x, y, &got)
				for c := range composite.Channels {
					want := tile.Planes[c][y*ts+x]
					if c == composite.Alpha {
						want = float32(min(255, math.Floor(float64(want)*255+0.5)))
					}
					if got[c] != want {
						t.Fatalf("AVX2 %v: pixel (%d, %d) channel %d read back %v, want %v", avx, x, y, c, got[c], want)
					}
				}
			}
		}
	}
}
