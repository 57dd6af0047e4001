package render

import (
	"math"

	"trackink/composite"
	"trackink/overlay"
)

// The echo stage (overlay.EchoPass; the twin of kernels/echo.cu): after a tile's curves, the
// tile's layer is kept in a ring of the last frames' layers, and the kept layers of the
// frames before are laid under it. The ring holds Frames + 1 layers, so that the one this
// frame overwrites is never an echo of it. A kept layer is sparse: a tile holds 8-bit
// channels only where the frame drew (the rows' spans), and a tile it never drew has none,
// so a frame costs the store of the pixels it drew and, per echo, a blend of the pixels that
// echo drew, never the frame's whole area. Echoes that are neither moved nor scaled (the
// default) are blended pixel for pixel within the kept spans; moved or scaled ones are
// sampled bilinearly, pixel by pixel of the tiles they reach (which the frame's set-up
// finds from the kept tiles).

// echoTile is one tile of a kept layer: the spans of the rows drawn and the pixels, 8-bit,
// planar like composite.Tile.
type echoTile struct {
	span   [ts]composite.Span
	planes [composite.Channels][ts * ts]uint8
}

// echoStep is one echo of this frame: the ring slot it reads, each channel's weight (the
// decay's power times the step of a byte), and T^k's inverse (1/Scale^k, k·Offset).
type echoStep struct {
	slot     int
	weight   [composite.Channels]float32
	inv      float32
	dx, dy   float32
	identity bool
}

// echoLayers is the ring of kept layers.
type echoLayers struct {
	pass         overlay.EchoPass
	w, h, tilesX int
	tiles        [][]*echoTile // [slot][tile], nil until that tile first held a layer
	held         [][]bool      // [slot][tile]: the tile holds the slot's layer
	next, filled int           // the slot the next frame keeps its layer in; frames held
	// This frame's: the slot it keeps its layer in, its echoes, the tiles they reach, the
	// quantisation.
	cur      int
	steps    []echoStep
	reach    []bool
	toByte   [composite.Channels]float32
	fromByte [composite.Channels]float32
}

// echoCodeMax is the largest code value of the frame whose layer space is sp: 1023 for
// 10-bit Y'CbCr (its chroma offset 512), else 255. Twin: echoCodeMax in echo.cu.
func echoCodeMax(sp *composite.Space) float32 {
	if sp.M[1][3] > 256 {
		return 1023
	}
	return 255
}

// begin readies the ring for a w × h frame with pass e in space sp (a new ring when the
// size or the number of frames changed) and works out the frame's echoes and the tiles they
// reach.
func (l *echoLayers) begin(e overlay.EchoPass, sp *composite.Space, w, h, tilesX, tilesY int) {
	if l.w != w || l.h != h || l.pass.Frames != e.Frames {
		ring := e.Frames + 1
		*l = echoLayers{w: w, h: h, tilesX: tilesX, tiles: make([][]*echoTile, ring), held: make([][]bool, ring),
			reach: make([]bool, tilesX*tilesY)}
		for s := range ring {
			l.tiles[s] = make([]*echoTile, tilesX*tilesY)
			l.held[s] = make([]bool, tilesX*tilesY)
		}
	}
	l.pass = e
	l.cur = l.next
	clear(l.held[l.cur])
	codeMax := echoCodeMax(sp)
	for c := range composite.Channels {
		l.toByte[c], l.fromByte[c] = 255/codeMax, codeMax/255
	}
	l.toByte[composite.Alpha], l.fromByte[composite.Alpha] = 255, 1/float32(255)
	l.steps = l.steps[:0]
	clear(l.reach)
	if e.Keep {
		return
	}
	ring := len(l.tiles)
	decay, scale := float32(1), float32(1)
	for k := 1; k <= l.filled; k++ {
		decay, scale = float32(decay*e.Decay), float32(scale*e.Scale)
		st := echoStep{slot: (l.cur - k + ring) % ring, inv: 1 / scale,
			dx: float32(float32(k) * e.Offset[0]), dy: float32(float32(k) * e.Offset[1])}
		st.identity = scale == 1 && st.dx == 0 && st.dy == 0
		for c := range st.weight {
			st.weight[c] = float32(decay * l.fromByte[c])
		}
		l.steps = append(l.steps, st)
		l.markReach(&st, scale)
	}
}

// markReach marks the tiles that step st's kept tiles reach: each kept tile's rectangle,
// widened by a pixel for the bilinear taps, moved by T^k (scale, then the step's offset).
func (l *echoLayers) markReach(st *echoStep, scale float32) {
	cx, cy := float32(l.w)/2, float32(l.h)/2
	tilesY := len(l.reach) / l.tilesX
	for i, ok := range l.held[st.slot] {
		if !ok {
			continue
		}
		if st.identity {
			l.reach[i] = true
			continue
		}
		x0, y0 := float32(i%l.tilesX*ts-1), float32(i/l.tilesX*ts-1)
		x1, y1 := x0+ts+2, y0+ts+2
		fx0, fx1 := cx+(x0-cx)*scale+st.dx, cx+(x1-cx)*scale+st.dx
		fy0, fy1 := cy+(y0-cy)*scale+st.dy, cy+(y1-cy)*scale+st.dy
		tx0, tx1 := clampTile(fx0, l.tilesX), clampTile(fx1, l.tilesX)
		ty0, ty1 := clampTile(fy0, tilesY), clampTile(fy1, tilesY)
		for ty := ty0; ty <= ty1; ty++ {
			for tx := tx0; tx <= tx1; tx++ {
				l.reach[ty*l.tilesX+tx] = true
			}
		}
	}
}

// clampTile is the tile holding coordinate v, held to 0..n−1.
func clampTile(v float32, n int) int {
	return int(math.Floor(float64(min(max(v/ts, 0), float32(n-1)))))
}

// end moves the ring on past this frame.
func (l *echoLayers) end() {
	l.next = (l.cur + 1) % len(l.tiles)
	l.filled = min(l.filled+1, l.pass.Frames)
}

// keep stores tile t's layer as tile i of this frame's slot (nothing when t is empty). Each
// row's span is widened to whole groups of 8 pixels (the tile's rows are 8 groups long), so
// that the blends read only whole groups, all stored this frame: the pixels it adds are zero
// in t, and store zero.
func (l *echoLayers) keep(t *composite.Tile, i int) {
	var et *echoTile
	for y := range t.H {
		s := t.Span[y]
		if s.X0 >= s.X1 {
			continue
		}
		if et == nil {
			if et = l.tiles[l.cur][i]; et == nil {
				et = new(echoTile)
				l.tiles[l.cur][i] = et
			}
			l.held[l.cur][i] = true
			et.span = [ts]composite.Span{}
		}
		et.span[y] = composite.Span{X0: s.X0 &^ 7, X1: (s.X1 + 7) &^ 7}
	}
	if et == nil {
		return
	}
	// A plane at a time: each row's span lies within its row.
	for c := range composite.Channels {
		for y := range t.H {
			if s := et.span[y]; s.X0 < s.X1 {
				lo, hi := y*ts+int(s.X0), y*ts+int(s.X1)
				quantize(et.planes[c][lo:hi], t.Planes[c][lo:hi], l.toByte[c])
			}
		}
	}
}

// quantize writes each of src's values times scale to the nearest byte, saturated; src is
// whole groups of 8, taken by the AVX2 twin where there is AVX2.
func quantize(dst []uint8, src []float32, scale float32) {
	if haveAVX2 {
		quantizeAVX2(&dst[0], &src[0], len(src)/8, scale)
		return
	}
	quantizeGo(dst[:len(src)], src, scale)
}

// quantizeGo is quantize, a value at a time. Twin: echoByte in echo.cu.
func quantizeGo(dst []uint8, src []float32, scale float32) {
	for x, v := range src {
		q := float32(v*scale) + 0.5
		dst[x] = uint8(min(max(q, 0), 255))
	}
}

// under lays this frame's echoes under tile t (tile i of the frame), the newest first.
func (l *echoLayers) under(t *composite.Tile, i int) {
	for s := range l.steps {
		st := &l.steps[s]
		if st.identity {
			if l.held[st.slot][i] {
				underKept(t, l.tiles[st.slot][i], &st.weight)
			}
			continue
		}
		l.underMoved(t, st)
	}
}

// underKept lays kept tile et, each channel times its weight, under t pixel for pixel,
// within its rows' spans (whole groups of 8: keep's), in AVX2 where there is AVX2. Past
// the frame's right edge the kept pixels are zero and t's stay zero, so t's spans end there.
func underKept(t *composite.Tile, et *echoTile, weight *[composite.Channels]float32) {
	for y := range t.H {
		s := et.span[y]
		if s.X0 >= s.X1 {
			continue
		}
		t.Touch(y, int(s.X0), min(int(s.X1), t.W))
		lo, hi := y*ts+int(s.X0), y*ts+int(s.X1)
		if haveAVX2 {
			underKeptAVX2(&t.Planes[0][lo], &et.planes[0][lo], (hi-lo)/8, weight)
			continue
		}
		underKeptGo(t, et, lo, hi, weight)
	}
}

// underKeptGo lays pixels [lo, hi) of kept tile et (row-major indices), each channel times
// its weight, under t's. Twin: tk_echo at an echo neither moved nor scaled.
func underKeptGo(t *composite.Tile, et *echoTile, lo, hi int, weight *[composite.Channels]float32) {
	p := &t.Planes
	for j := lo; j < hi; j++ {
		k := 1 - p[3][j]
		for c := range composite.Channels {
			e := float32(float32(et.planes[c][j]) * weight[c])
			p[c][j] = p[c][j] + float32(e*k)
		}
	}
}

// underMoved lays echo st under every pixel of t: the kept layer sampled where T^k moves
// onto the pixel's centre, bilinearly. Twin: the moved path of tk_echo.
func (l *echoLayers) underMoved(t *composite.Tile, st *echoStep) {
	cx, cy := float32(l.w)/2, float32(l.h)/2
	p := &t.Planes
	for y := range t.H {
		py := float32(t.Y0+y) + 0.5
		sy := float32(cy+float32(float32(float32(py-cy)-st.dy)*st.inv)) - 0.5
		if !(sy > -1 && sy < float32(l.h)) {
			continue
		}
		fly := float32(math.Floor(float64(sy)))
		iy, fy := int(fly), sy-fly
		lo, hi := ts, 0
		for x := range t.W {
			px := float32(t.X0+x) + 0.5
			sx := float32(cx+float32(float32(float32(px-cx)-st.dx)*st.inv)) - 0.5
			if !(sx > -1 && sx < float32(l.w)) {
				continue
			}
			flx := float32(math.Floor(float64(sx)))
			ix, fx := int(flx), sx-flx
			var q [4][composite.Channels]float32
			any := false
			for n := range 4 {
				any = l.tap(st.slot, ix+n&1, iy+n>>1, &q[n]) || any
			}
			if !any {
				continue
			}
			gx, gy := 1-fx, 1-fy
			j := y*ts + x
			k := 1 - p[3][j]
			for c := range composite.Channels {
				top := float32(float32(q[0][c]*gx) + float32(q[1][c]*fx))
				bot := float32(float32(q[2][c]*gx) + float32(q[3][c]*fx))
				v := float32(float32(top*gy) + float32(bot*fy))
				e := float32(v * st.weight[c])
				p[c][j] = p[c][j] + float32(e*k)
			}
			lo, hi = min(lo, x), max(hi, x+1)
		}
		if lo < hi {
			t.Touch(y, lo, hi)
		}
	}
}

// tap reads frame pixel (x, y) of slot's kept layer into q, as bytes; false (q zero) where
// it holds nothing: outside the frame, in a tile the layer did not draw, or outside its
// row's span.
func (l *echoLayers) tap(slot, x, y int, q *[composite.Channels]float32) bool {
	if x < 0 || y < 0 || x >= l.w || y >= l.h {
		return false
	}
	i := y/ts*l.tilesX + x/ts
	if !l.held[slot][i] {
		return false
	}
	et := l.tiles[slot][i]
	tx, ty := x%ts, y%ts
	if s := et.span[ty]; int32(tx) < s.X0 || int32(tx) >= s.X1 {
		return false
	}
	j := ty*ts + tx
	for c := range composite.Channels {
		q[c] = float32(et.planes[c][j])
	}
	return q[0] != 0 || q[1] != 0 || q[2] != 0 || q[3] != 0
}
