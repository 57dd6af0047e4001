package render

import (
	"math"
	"math/bits"
	"sync"
	"unsafe"

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

// echoTile is one tile of a kept layer: which groups of 8 pixels of each row hold anything
// (bit g of groups[y]: pixels 8g to 8g+7 of row y), and the groups, 8-bit, each group's
// four channels together, packed: the groups held, row by row and left to right from px[0]
// (row y's from px[start[y]]); a group that holds nothing is not stored. Packed, a kept
// layer is read back as the stream it was written, however few groups of a row hold
// anything (as along a steep link), so that the blends read what the cache fetched ahead
// rather than wait for each group: spread one a 256-byte row, as they once were, the reads
// of the kept layers under a 4K frame's thin strokes stalled more than they computed.
type echoTile struct {
	groups [ts]uint8
	start  [ts]uint16
	px     [ts * ts / 8]echoGroup
}

// at is the index in px of row y's group g where the tile holds it; else of the next group
// it holds.
func (et *echoTile) at(y, g int) int {
	return int(et.start[y]) + bits.OnesCount8(et.groups[y]&(1<<g-1))
}

// echoGroup is 8 neighbouring pixels of a row, channel by channel.
type echoGroup [composite.Channels][8]uint8

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
	tiles        [][]*echoTile // [slot][tile]: what the tile holds of the slot's layer; nil for nothing
	held         [][]bool      // [slot][tile]: the tile holds something
	// spare are kept tiles that hold nothing, for the next tiles to hold something: after
	// the first frames, a frame allocates none.
	spare        []*echoTile
	spareMu      sync.Mutex
	next, filled int // the slot the next frame keeps its layer in; frames held
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

// end moves the ring on past this frame, its slot's tiles that hold nothing made spare.
func (l *echoLayers) end() {
	for i, et := range l.tiles[l.cur] {
		if et != nil && !l.held[l.cur][i] {
			l.spare = append(l.spare, et)
			l.tiles[l.cur][i] = nil
		}
	}
	l.next = (l.cur + 1) % len(l.tiles)
	l.filled = min(l.filled+1, l.pass.Frames)
}

// keep stores tile t's layer as tile i of this frame's slot: the groups of 8 pixels within
// each row's span that hold anything (the tile's rows are 8 groups long), packed; nothing
// when t holds nothing.
func (l *echoLayers) keep(t *composite.Tile, i int) {
	et := l.tiles[l.cur][i]
	n := 0 // groups stored
	for y := range t.H {
		s := t.Span[y]
		if s.X0 >= s.X1 {
			if et != nil {
				et.groups[y], et.start[y] = 0, uint16(n)
			}
			continue
		}
		if et == nil {
			et = l.spareTile()
			et.groups = [ts]uint8{} // a spare's rows before this one held another tile's
			l.tiles[l.cur][i] = et
		}
		g0, g1 := int(s.X0)/8, (int(s.X1)+7)/8
		held := keepGroups(&et.px[n], &t.Planes[0][y*ts+8*g0], g1-g0, &l.toByte)
		et.groups[y], et.start[y] = uint8(held<<g0), uint16(n)
		n += bits.OnesCount64(held)
	}
	if et != nil {
		for y := t.H; y < ts; y++ {
			et.groups[y], et.start[y] = 0, uint16(n)
		}
	}
	l.held[l.cur][i] = n > 0
}

// spareTile returns a spare kept tile (workers call it at once). When none is spare it
// makes an eighth of the frame's tiles more at once: a frame whose overlay spreads over more
// tiles than the frames before takes them from the spares rather than allocating.
func (l *echoLayers) spareTile() *echoTile {
	l.spareMu.Lock()
	defer l.spareMu.Unlock()
	if len(l.spare) == 0 {
		more := make([]echoTile, max(8, len(l.reach)/8))
		for i := range more {
			l.spare = append(l.spare, &more[i])
		}
	}
	n := len(l.spare)
	et := l.spare[n-1]
	l.spare = l.spare[:n-1]
	return et
}

// keepGroups stores n groups of 8 pixels from the tile planes at src into the kept groups
// from dst on, packed, each channel times its scale to the nearest byte, saturated, leaving
// out each group whose 32 bytes are all zero; bit g of its result says group g was stored.
// In AVX2 where there is AVX2.
func keepGroups(dst *echoGroup, src *float32, n int, scale *[composite.Channels]float32) uint64 {
	if haveAVX2 {
		return keepGroupsAVX2(dst, src, n, scale)
	}
	return keepGroupsGo(dst, src, n, scale)
}

// keepGroupsGo is keepGroups in Go. Twin: echoByte in echo.cu (which stores every pixel).
func keepGroupsGo(dst *echoGroup, src *float32, n int, scale *[composite.Channels]float32) uint64 {
	d := unsafe.Slice(dst, n)
	f := unsafe.Slice(src, 3*ts*ts+8*n)
	var held uint64
	stored := 0
	for g := range n {
		var q echoGroup
		for c := range composite.Channels {
			for x := range 8 {
				v := float32(f[c*ts*ts+8*g+x]*scale[c]) + 0.5
				q[c][x] = uint8(min(max(v, 0), 255))
			}
		}
		if q != (echoGroup{}) {
			d[stored] = q
			stored++
			held |= 1 << g
		}
	}
	return held
}

// echoRow is one echo's part in the blend of a run of groups of a tile row: its first kept
// group of the run, which of the run's groups it holds (bit g: the run's group g, kept at
// px[the bits below g that are set]) and its channels' weights. Its layout is
// underRunAVX2's.
type echoRow struct {
	px     *echoGroup
	held   uint64
	weight [composite.Channels]float32
}

// echoScratch is a worker's scratch for the echo stage: the kept tiles of a tile's echoes,
// the newest first, and their parts in a run of a row (rows[k] is tiles[k]'s).
type echoScratch struct {
	tiles []*echoTile
	rows  []echoRow
}

// under lays this frame's echoes under tile t (tile i of the frame), the newest first.
func (l *echoLayers) under(t *composite.Tile, i int, sc *echoScratch) {
	if len(l.steps) == 0 {
		return
	}
	if !l.steps[0].identity { // then none is: Scale^k or k·Offset is never 1 or 0
		for s := range l.steps {
			l.underMoved(t, &l.steps[s])
		}
		return
	}
	// The echoes neither moved nor scaled, pixel for pixel: each row's runs of groups that
	// any echo holds, every echo of a group blended while its pixels are loaded once.
	sc.tiles, sc.rows = sc.tiles[:0], sc.rows[:0]
	for s := range l.steps {
		if st := &l.steps[s]; l.held[st.slot][i] {
			sc.tiles = append(sc.tiles, l.tiles[st.slot][i])
			sc.rows = append(sc.rows, echoRow{weight: st.weight})
		}
	}
	if len(sc.tiles) == 0 {
		return
	}
	for y := range t.H {
		var any uint
		for _, et := range sc.tiles {
			any |= uint(et.groups[y])
		}
		if any == 0 {
			continue
		}
		t.Touch(y, 8*bits.TrailingZeros(any), min(8*bits.Len(any), t.W))
		for any != 0 {
			g0 := bits.TrailingZeros(any)
			g1 := g0 + bits.TrailingZeros(^(any >> g0))
			any &^= 1<<g1 - 1
			for k, et := range sc.tiles {
				sc.rows[k].px, sc.rows[k].held = &et.px[et.at(y, g0)], uint64(et.groups[y])>>g0
			}
			underRun(t, y*ts+8*g0, g1-g0, sc.rows)
		}
	}
}

// underRun blends, under n groups of tile t from pixel j (row-major), each echo of rows that
// holds a group, the newest first; in AVX2 where there is AVX2.
func underRun(t *composite.Tile, j, n int, rows []echoRow) {
	if haveAVX2 {
		underRunAVX2(&t.Planes[0][j], n, &rows[0], len(rows))
		return
	}
	underRunGo(t, j, n, rows)
}

// underRunGo is underRun in Go. Twin: tk_echo at echoes neither moved nor scaled.
func underRunGo(t *composite.Tile, j, n int, rows []echoRow) {
	p := &t.Planes
	for g := range n {
		for _, r := range rows {
			if r.held&(1<<g) == 0 {
				continue
			}
			q := &unsafe.Slice(r.px, bits.OnesCount64(r.held))[bits.OnesCount64(r.held&(1<<g-1))]
			for x := range 8 {
				i := j + 8*g + x
				k := 1 - p[3][i]
				for c := range composite.Channels {
					e := float32(float32(q[c][x]) * r.weight[c])
					p[c][i] = p[c][i] + float32(e*k)
				}
			}
		}
	}
}

// echoSource is where, along one axis of n pixels, the kept layer is sampled for pixel pos
// of an echo moved by shift and scaled by 1/inv about centre: the sample at or before the
// moved centre (i) and the fraction past it (f); ok is false outside the layer. Each step
// rounds to float32, as the twin does.
func echoSource(pos int, centre, shift, inv float32, n int) (i int, f float32, ok bool) {
	p := float32(pos) + 0.5
	s := float32(centre+float32(float32(float32(p-centre)-shift)*inv)) - 0.5
	if !(s > -1 && s < float32(n)) {
		return 0, 0, false
	}
	fl := float32(math.Floor(float64(s)))
	return int(fl), s - fl, true
}

// underMoved lays echo st under every pixel of t: the kept layer sampled where T^k moves
// onto the pixel's centre, bilinearly. Twin: the moved path of tk_echo.
func (l *echoLayers) underMoved(t *composite.Tile, st *echoStep) {
	cx, cy := float32(l.w)/2, float32(l.h)/2
	p := &t.Planes
	for y := range t.H {
		iy, fy, ok := echoSource(t.Y0+y, cy, st.dy, st.inv, l.h)
		if !ok {
			continue
		}
		lo, hi := ts, 0
		for x := range t.W {
			ix, fx, ok := echoSource(t.X0+x, cx, st.dx, st.inv, l.w)
			if !ok {
				continue
			}
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
// it holds nothing: outside the frame, in a tile the layer did not draw, or in a group of 8
// pixels it did not store.
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
	if et.groups[ty]&(1<<(tx/8)) == 0 {
		return false
	}
	g := &et.px[et.at(ty, tx/8)]
	for c := range composite.Channels {
		q[c] = float32(g[c][tx%8])
	}
	return q[0] != 0 || q[1] != 0 || q[2] != 0 || q[3] != 0
}
