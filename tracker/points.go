package tracker

import (
	"math"
	"slices"

	"trackink/scene"
)

// Points mode: corners of the analysis plane (Shi–Tomasi: the smaller eigenvalue of the
// gradients' structure tensor over 3 × 3 pixels, local maxima only, strongest first, no
// two closer than a spacing that spreads MaxObjects over the frame) followed from frame to
// frame by pyramidal Lucas–Kanade (lk.go). A point is ended when the flow fails, when
// following it back from the new frame misses where it was by more than fbMax pixels
// (the forward–backward check), when it moves farther than MaxMove, or when it comes
// within half the spacing of an older point. New corners are seeded where no point is, up
// to MaxObjects, every frame that has fewer. Options.PointSeed seeds on another map instead
// of corners (strength): the luma's edges, the chroma, or the chroma's edges; the points
// are followed, checked and thinned alike.
const fbMax = 0.5 // analysis pixels

type point struct {
	x, y float32 // analysis pixels, centres at whole numbers
	age  int     // frames followed
	id   int     // 0 until confirmed
	k    [2]kalman1
}

type pointTracker struct {
	pyr     [2]pyramid
	cur     int // index of this frame's pyramid
	started bool
	pts     []point
	lw      lkWork
	eig     []float32
	prod    []float32 // one row's gx², gx·gy, gy² (three runs of the row's width)
	hsum    []float32 // three rows' sums of prod over three pixels, likewise
	cands   []corner
	sorted  []corner        // order's
	maxV    float32         // the largest value of a map other than corners
	hist    [histBins]int32 // percentile's and order's
	grid    []int32         // per cell: the point in it, -1 none
	taken   []byte          // seed's: 1 where a seed would be too near a point
	gw, gh  int
	cell    float32
}

type corner struct {
	v    float32
	x, y int32
}

func (pt *pointTracker) step(t *Tracker, lum *plane) {
	prev := pt.cur
	pt.cur ^= 1
	a, b := &pt.pyr[prev], &pt.pyr[pt.cur]
	b.build(lum)
	spacing := pointSpacing(lum.w, lum.h, t.o.MaxObjects)
	maxMove := float32(t.o.MaxMove * t.diag / float64(t.factor))
	if pt.started {
		kept := pt.pts[:0]
		for _, p := range pt.pts {
			nx, ny, ok := pt.lw.flow(a, b, p.x, p.y)
			if ok {
				bx, by, bok := pt.lw.flow(b, a, nx, ny)
				ok = bok && math.Hypot(float64(bx-p.x), float64(by-p.y)) <= fbMax &&
					math.Hypot(float64(nx-p.x), float64(ny-p.y)) <= float64(maxMove) &&
					nx >= 0 && ny >= 0 && nx <= float32(lum.w-1) && ny <= float32(lum.h-1)
			}
			if ok {
				p.x, p.y = nx, ny
				p.age++
				kept = append(kept, p)
			}
		}
		pt.pts = kept
	}
	pt.started = true
	pt.thin(lum.w, lum.h, spacing)
	if len(pt.pts) < t.o.MaxObjects {
		pt.seed(t, lum, spacing)
	}
	f := float32(t.factor)
	off := (f - 1) / 2
	vv := math.Pow(t.o.MaxMove*t.diag, 2)
	for i := range pt.pts {
		p := &pt.pts[i]
		fx, fy := float64(float32(p.x*f)+off), float64(float32(p.y*f)+off)
		if p.age == 0 {
			p.k[0], p.k[1] = newKalman1(fx, t.q, t.r, vv), newKalman1(fy, t.q, t.r, vv)
		} else {
			p.k[0].predict()
			p.k[1].predict()
			p.k[0].update(fx)
			p.k[1].update(fy)
		}
		if p.id == 0 && p.age+1 >= t.o.Confirm {
			p.id = t.nextID
			t.nextID++
		}
		if p.id != 0 {
			t.out.Points = append(t.out.Points, scene.Point{ID: p.id, X: float32(p.k[0].p), Y: float32(p.k[1].p)})
		}
	}
}

// pointSpacing is the least distance between points, in analysis pixels: what spreads n
// points over an eighth of the frame's area (texture is rarely everywhere).
func pointSpacing(w, h, n int) float32 {
	return float32(max(3, math.Sqrt(float64(w*h)/float64(8*n))))
}

// thin ends the younger of two points closer than half the spacing (they have converged on
// one feature).
func (pt *pointTracker) thin(w, h int, spacing float32) {
	d := spacing / 2
	pt.resetGrid(w, h, d)
	kept := pt.pts[:0]
	for _, p := range pt.pts { // oldest first: points are appended as they are seeded
		if pt.near(p.x, p.y, d, kept) {
			continue
		}
		kept = append(kept, p)
		pt.mark(p.x, p.y, len(kept)-1)
	}
	pt.pts = kept
}

// The grid finds the points near a place: cells of d/√2, so that points at least d apart
// take one cell each.
func (pt *pointTracker) resetGrid(w, h int, d float32) {
	pt.cell = d / math.Sqrt2
	pt.gw, pt.gh = int(float32(w)/pt.cell)+1, int(float32(h)/pt.cell)+1
	pt.grid = grow(pt.grid, pt.gw*pt.gh)
	for i := range pt.grid {
		pt.grid[i] = -1
	}
}

func (pt *pointTracker) mark(x, y float32, i int) {
	pt.grid[int(y/pt.cell)*pt.gw+int(x/pt.cell)] = int32(i)
}

// near reports whether a point of pts lies within d of (x, y).
func (pt *pointTracker) near(x, y, d float32, pts []point) bool {
	cx, cy := int(x/pt.cell), int(y/pt.cell)
	r := int(math.Ceil(float64(d / pt.cell)))
	for gy := max(cy-r, 0); gy <= min(cy+r, pt.gh-1); gy++ {
		for gx := max(cx-r, 0); gx <= min(cx+r, pt.gw-1); gx++ {
			if i := pt.grid[gy*pt.gw+gx]; i >= 0 {
				q := pts[i]
				if float32((q.x-x)*(q.x-x))+float32((q.y-y)*(q.y-y)) < d*d {
					return true
				}
			}
		}
	}
	return false
}

// seed adds the strongest seeds (local maxima of the seed map, above its threshold) that
// are at least the spacing from every point, up to MaxObjects points in all.
func (pt *pointTracker) seed(t *Tracker, lum *plane, spacing float32) {
	w, h := lum.w, lum.h
	th := pt.strength(t)
	pt.cands = pt.cands[:0]
	// Corners need the whole LK window inside the plane to be followed at once.
	m := lkWindow/2 + 1
	for y := m; y < h-m; y++ {
		row := pt.eig[y*w:]
		for x := m; x < w-m; x++ {
			v := row[x]
			if v <= th || v < row[x-1] || v < row[x+1] || v < pt.eig[(y-1)*w+x] || v < pt.eig[(y+1)*w+x] ||
				v < pt.eig[(y-1)*w+x-1] || v < pt.eig[(y-1)*w+x+1] || v < pt.eig[(y+1)*w+x-1] || v < pt.eig[(y+1)*w+x+1] {
				continue
			}
			pt.cands = append(pt.cands, corner{v, int32(x), int32(y)})
		}
	}
	if t.o.PointSeed != SeedCorners {
		pt.order()
	} else {
		pt.sortCorners()
	}
	pt.taken = grow(pt.taken, w*h)
	clear(pt.taken)
	for _, p := range pt.pts {
		pt.take(p.x, p.y, spacing, w, h)
	}
	for _, c := range pt.cands {
		if len(pt.pts) >= t.o.MaxObjects {
			break
		}
		if pt.taken[int(c.y)*w+int(c.x)] != 0 {
			continue
		}
		x, y := float32(c.x), float32(c.y)
		pt.pts = append(pt.pts, point{x: x, y: y})
		pt.take(x, y, spacing, w, h)
	}
}

// take marks in pt.taken the pixels closer than d to (x, y), where no seed may go: the test
// near makes, done once for each point rather than for each of the tens of thousands of
// candidates the edge maps have (most of which are refused).
func (pt *pointTracker) take(x, y, d float32, w, h int) {
	for py := max(int(math.Ceil(float64(y-d))), 0); py <= min(int(y+d), h-1); py++ {
		row := pt.taken[py*w:][:w]
		fy := float32(py)
		for px := max(int(math.Ceil(float64(x-d))), 0); px <= min(int(x+d), w-1); px++ {
			fx := float32(px)
			if float32((x-fx)*(x-fx))+float32((y-fy)*(y-fy)) < d*d {
				row[px] = 1
			}
		}
	}
}

// sortCorners sorts the corners strongest first, then in raster order: OpenCV's order.
func (pt *pointTracker) sortCorners() {
	slices.SortFunc(pt.cands, func(a, b corner) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		case a.y != b.y:
			return int(a.y - b.y)
		}
		return int(a.x - b.x)
	})
}

// order sorts the candidates of a map other than corners strongest first, by their bin of
// histBins over 0 .. the frame's largest value, in raster order within a bin: a counting
// sort, linear in the candidates, where a comparison sort of the tens of thousands a
// gradient map has took most of the seeding's time.
func (pt *pointTracker) order() {
	if pt.maxV == 0 {
		return
	}
	s := float32(histBins-1) / pt.maxV
	bin := func(v float32) int { return histBins - 1 - min(int(v*s), histBins-1) } // strongest first
	clear(pt.hist[:])
	for _, c := range pt.cands {
		pt.hist[bin(c.v)]++
	}
	n := int32(0)
	for b, c := range pt.hist {
		pt.hist[b] = n // the bin's first place
		n += c
	}
	pt.sorted = grow(pt.sorted, len(pt.cands))
	for _, c := range pt.cands {
		b := bin(c.v)
		pt.sorted[pt.hist[b]] = c
		pt.hist[b]++
	}
	pt.cands, pt.sorted = pt.sorted, pt.cands
}

// strength fills pt.eig with the seed map of t's PointSeed for this frame and returns the
// threshold a seed's value must be above: corners' relative to the strongest corner (as
// OpenCV's quality level), the other maps' the (1 − sensitivity) percentile of the
// frame's values (as the pack's maps), or --threshold in the map's units.
func (pt *pointTracker) strength(t *Tracker) float32 {
	l0 := &pt.pyr[pt.cur].levels[0]
	switch t.o.PointSeed {
	case SeedEdges:
		pt.gradient(l0)
	case SeedColor:
		pt.chroma(&t.cb, &t.cr)
	case SeedColorEdges:
		pt.chromaGradient(&t.cb, &t.cr)
	default:
		pt.minEigen(l0)
	}
	// Not max(): it orders NaNs (which no map has) and took 1.6 ms of a 4K frame's 2.7.
	// The maps are at least 0, or a rounding below 0 for corners: the same largest value.
	maxV := float32(0)
	for _, v := range pt.eig {
		if v > maxV {
			maxV = v
		}
	}
	pt.maxV = maxV
	switch {
	case t.o.Threshold != Auto:
		return float32(t.o.Threshold)
	case t.o.PointSeed == SeedCorners:
		// OpenCV's goodFeaturesToTrack quality level, 0.01 at the middle sensitivity.
		return maxV * float32(math.Pow(10, -1-2*(t.o.Sensitivity-0.5)*1))
	}
	return pt.percentile(1 - t.o.Sensitivity)
}

// histBins is the resolution of percentile's histogram: a thousandth of the frame's
// strongest value.
const histBins = 1024

// percentile returns the value of pt.eig (whose largest is pt.maxV) that a fraction q of it is at or below, to within a
// bin of histBins over 0 .. its largest value (the bin's upper edge: what is above it is
// above the percentile). It counts a histogram, not a sorted copy: a frame's values are
// half a million at the analysis size.
func (pt *pointTracker) percentile(q float64) float32 {
	maxV := pt.maxV
	if q <= 0 || maxV == 0 {
		return 0
	}
	clear(pt.hist[:])
	s := float32(histBins-1) / maxV
	for _, v := range pt.eig {
		pt.hist[min(int(v*s), histBins-1)]++
	}
	want := int(math.Ceil(q * float64(len(pt.eig))))
	n := 0
	for b, c := range pt.hist {
		if n += int(c); n >= want {
			return float32(b+1) / s
		}
	}
	return maxV
}

// gradient writes the Scharr gradient magnitude of l, in 8-bit levels a pixel (the
// derivatives scaled by 1/32, as minEigen's), into pt.eig: large along edges, whatever
// their direction, and nearly 0 in flat areas.
func (pt *pointTracker) gradient(l *level) {
	w, h := l.w, l.h
	pt.eig = grow(pt.eig, w*h)
	for y := 0; y < h; y++ {
		d := l.d[2*(l.origin()+y*l.stride):][:2*w]
		e := pt.eig[y*w:][:w]
		for x := range e {
			const s = 1.0 / 32
			gx, gy := float32(d[2*x])*s, float32(d[2*x+1])*s
			e[x] = float32(math.Sqrt(float64(gx*gx) + float64(gy*gy)))
		}
	}
}

// chroma writes each pixel's chroma distance from grey, in 8-bit levels, into pt.eig: the
// length of (Cb, Cr), which is about RGB's max − min (HSV's saturation × value), as
// --detect color's threshold measures it.
func (pt *pointTracker) chroma(cb, cr *plane) {
	n := cb.w * cb.h
	pt.eig = grow(pt.eig, n)
	for i, u := range cb.pix[:n] {
		a, b := float32(int(u)-128), float32(int(cr.pix[i])-128)
		pt.eig[i] = float32(math.Sqrt(float64(a*a) + float64(b*b)))
	}
}

// chromaGradient writes the Scharr gradient magnitude of the chroma (Cb and Cr together,
// the chroma vector's change), in 8-bit levels a pixel, into pt.eig, 0 on a one-pixel
// border: large where the hue changes between saturated colours or a colour meets grey,
// nearly 0 across a change of brightness alone.
func (pt *pointTracker) chromaGradient(cb, cr *plane) {
	w, h := cb.w, cb.h
	pt.eig = grow(pt.eig, w*h)
	e := pt.eig
	clear(e)
	if w < 3 || h < 3 {
		return
	}
	for y := 1; y < h-1; y++ {
		o := e[y*w:][:w]
		for _, p := range [2][]byte{cb.pix, cr.pix} { // the squares summed in o, then the root
			r0, r1, r2 := p[(y-1)*w:][:w], p[y*w:][:w], p[(y+1)*w:][:w]
			for x := 1; x < w-1; x++ {
				a0, a1, a2 := int(r0[x-1]), int(r1[x-1]), int(r2[x-1])
				c0, c1, c2 := int(r0[x+1]), int(r1[x+1]), int(r2[x+1])
				gx := float32(3*(c0+c2)+10*c1-3*(a0+a2)-10*a1) / 32
				gy := float32(3*(a2-a0+c2-c0)+10*(int(r2[x])-int(r0[x]))) / 32
				o[x] += float32(gx*gx) + float32(gy*gy)
			}
		}
		for x := 1; x < w-1; x++ {
			o[x] = float32(math.Sqrt(float64(o[x])))
		}
	}
}

// minEigen is the smaller eigenvalue of the structure tensor summed over 3 × 3 pixels, of
// the Scharr derivatives of l (scaled to 8-bit levels a pixel), for every pixel but a
// one-pixel border (0 there: no corner is seeded that near the edge anyway). The sums
// go along rows, then down columns, in the order of a 3 × 3 sum row by row, so every
// value is the same float32 whichever way it is computed (eigenRows' AVX2 twin).
func (pt *pointTracker) minEigen(l *level) []float32 {
	w, h := l.w, l.h
	pt.eig = grow(pt.eig, w*h)
	e := pt.eig
	if w < 3 || h < 3 {
		clear(e)
		return e
	}
	clear(e[:w])
	clear(e[(h-1)*w:])
	pt.prod = grow(pt.prod, 3*w)
	pt.hsum = grow(pt.hsum, 9*w)
	for y := 0; y < h; y++ {
		products(pt.prod, l.d[2*(l.origin()+y*l.stride):][:2*w])
		hsum3(pt.hsum[y%3*3*w:][:3*w], pt.prod)
		if y >= 2 {
			eigen3(e[(y-1)*w:][:w], pt.hsum[(y-2)%3*3*w:][:3*w], pt.hsum[(y-1)%3*3*w:][:3*w], pt.hsum[y%3*3*w:][:3*w])
		}
	}
	return e
}

// products writes gx², gx·gy and gy² of the derivatives d (x and y interleaved, scaled by
// 1/32: Scharr's weights sum to 32) into p's three runs.
func products(p []float32, d []int16) {
	w := len(d) / 2
	xx, xy, yy := p[:w], p[w:2*w], p[2*w:3*w]
	for x := productsRows(p, d); x < w; x++ {
		const s = 1.0 / 32
		gx, gy := float32(d[2*x])*s, float32(d[2*x+1])*s
		xx[x], xy[x], yy[x] = gx*gx, gx*gy, gy*gy
	}
}

// hsum3 writes into each run of h the sums of three neighbours of p's run, from x = 1 to
// w − 2.
func hsum3(h, p []float32) {
	w := len(p) / 3
	for k := 0; k < 3; k++ {
		o, r := h[k*w:(k+1)*w], p[k*w:(k+1)*w]
		for x := 1 + hsumRows(o[1:w-1], r); x < w-1; x++ {
			o[x] = r[x-1] + r[x] + r[x+1]
		}
	}
}

// eigen3 writes the smaller eigenvalue of the mean of the three rows' sums into e, from x = 1
// to w − 2 (0 at both ends).
func eigen3(e, a, b, c []float32) {
	w := len(e)
	e[0], e[w-1] = 0, 0
	for x := 1 + eigenRows(e[1:w-1], a[1:], b[1:], c[1:], w); x < w-1; x++ {
		xx := (a[x] + b[x] + c[x]) / 9
		xy := (a[w+x] + b[w+x] + c[w+x]) / 9
		yy := (a[2*w+x] + b[2*w+x] + c[2*w+x]) / 9
		e[x] = (xx+yy)/2 - float32(math.Sqrt(float64(float32((xx-yy)*(xx-yy)/4)+float32(xy*xy))))
	}
}
