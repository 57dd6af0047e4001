package tracker

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
)

// rect is a detection in analysis pixels, or (scaled) in frame pixels: corners x0, y0
// (inclusive) to x1, y1 (exclusive), and its area in pixels (the region's, not the box's).
type rect struct {
	x0, y0, x1, y1 float64
	area           float64
	class          int     // Objects: the detector's class; 0 otherwise
	score          float32 // Objects: the detector's score; 0 otherwise
}

func (r rect) w() float64  { return r.x1 - r.x0 }
func (r rect) h() float64  { return r.y1 - r.y0 }
func (r rect) cx() float64 { return (r.x0 + r.x1) / 2 }
func (r rect) cy() float64 { return (r.y0 + r.y1) / 2 }

// iou is the intersection over union of two boxes.
func iou(a, b rect) float64 {
	in := intersection(a, b)
	if in == 0 {
		return 0
	}
	return in / (float64(a.w()*a.h()) + float64(b.w()*b.h()) - in)
}

// intersection is the area of the box where a and b overlap, 0 where they do not.
func intersection(a, b rect) float64 {
	iw := min(a.x1, b.x1) - max(a.x0, b.x0)
	ih := min(a.y1, b.y1) - max(a.y0, b.y0)
	if iw <= 0 || ih <= 0 {
		return 0
	}
	return iw * ih
}

// isodata returns the threshold between the two classes of hist that Otsu's method finds,
// moved by sensitivity between the upper class's mean (0) and the lower's (1): 0.5 is the
// midpoint of the two means. ok is false when the upper class does not stand out of the
// lower, the background, by more than 2 + 4 × (1 − sensitivity) of the background's spread
// (4 at 0.5): a frame of background alone, whose noise or texture Otsu would split in two
// (2.7 to 2.9 spreads apart, whatever its noise), or one lit evenly (daylight streets, 3.5).
// The upper class's own spread does not count: lamps, faces and screens in the dark differ
// from each other far more than the dark around them does (2.9 to 3.6 of their spread
// apart on OpenCV's Megamind.avi, 5.2 to 7.4 of the background's).
func isodata(hist *[256]int, sensitivity float64) (t int, ok bool) {
	total, sum := 0, 0.0
	for i, n := range hist {
		total += n
		sum += float64(i * n)
	}
	if total == 0 {
		return 255, false
	}
	best, bestT := -1.0, 0
	n0, s0 := 0, 0.0
	for i := 0; i < 255; i++ {
		n0 += hist[i]
		s0 += float64(i * hist[i])
		n1 := total - n0
		if n0 == 0 || n1 == 0 {
			continue
		}
		m0, m1 := s0/float64(n0), (sum-s0)/float64(n1)
		v := float64(n0) * float64(n1) * (m0 - m1) * (m0 - m1)
		if v > best {
			best, bestT = v, i
		}
	}
	if best < 0 {
		return 255, false
	}
	var n [2]int
	var s, ss [2]float64
	for i, c := range hist {
		k := 0
		if i > bestT {
			k = 1
		}
		n[k] += c
		s[k] += float64(i * c)
		ss[k] += float64(i * i * c)
	}
	m0, m1 := s[0]/float64(n[0]), s[1]/float64(n[1])
	sd0 := math.Sqrt(max(0, ss[0]/float64(n[0])-m0*m0))
	t = int(math.Round(m1 + float64((m0-m1)*sensitivity)))
	// Never under 3: noise alone splits 2.7 to 2.9 spreads apart, whatever the sensitivity.
	return min(max(t, 0), 254), m1-m0 > max(3, 2+4*(1-sensitivity))*max(sd0, 1)
}

// histogram counts the values of p into h. Four partial counts, one for each of four
// neighbouring pixels, spare the increments of one counter from waiting on each other in
// the runs of equal values that flat regions make.
func histogram(h *[256]int, p []byte) {
	var c [4][256]int32
	n := len(p) &^ 3
	for i := 0; i < n; i += 4 {
		q := p[i : i+4 : i+4]
		c[0][q[0]]++
		c[1][q[1]]++
		c[2][q[2]]++
		c[3][q[3]]++
	}
	for _, v := range p[n:] {
		c[0][v]++
	}
	for v := range h {
		h[v] = int(c[0][v]) + int(c[1][v]) + int(c[2][v]) + int(c[3][v])
	}
}

// binarize sets mask to 1 where p is above t (or, with below, at or under t), else 0.
func binarize(mask []byte, p []byte, t int, below bool) {
	for i := binarizeRows(mask, p, t, below); i < len(p); i++ {
		on := int(p[i]) > t
		if below {
			on = !on
		}
		mask[i] = b2u(on)
	}
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// morph is the work space of binary morphology on one size of plane.
type morph struct{ tmp []byte }

// erode3 and dilate3 apply a 3 × 3 square (separably: rows, then columns) in place; beyond
// the frame's border lies the border pixel itself, so a region touching it is not eaten.
func (m *morph) erode3(mask []byte, w, h int)  { m.apply(mask, w, h, true) }
func (m *morph) dilate3(mask []byte, w, h int) { m.apply(mask, w, h, false) }

func (m *morph) apply(mask []byte, w, h int, erode bool) {
	m.tmp = grow(m.tmp, w*h)
	t := m.tmp
	// Rows: each pixel with its left and right neighbours (the border pixel stands for
	// what lies beyond it); then columns likewise, from t back into mask.
	for y := 0; y < h; y++ {
		r, o := mask[y*w:(y+1)*w], t[y*w:(y+1)*w]
		row3(o, r, r[1:], r[:max(w-1, 0)], erode)
	}
	for y := 0; y < h; y++ {
		c := t[y*w : (y+1)*w]
		up, dn := c, c
		if y > 0 {
			up = t[(y-1)*w : y*w]
		}
		if y < h-1 {
			dn = t[(y+1)*w : (y+2)*w]
		}
		col3(mask[y*w:(y+1)*w], up, c, dn, erode)
	}
}

// row3 sets o[x] to the and (erode) or or of r[x−1], r[x], r[x+1]; right is r from x+1,
// left r up to w−1. Masks hold 0 or 1 a byte, so 32 pixels go at once in AVX2 (op3), and
// what is left eight at once as one 64-bit word.
func row3(o, r, right, left []byte, erode bool) {
	w := len(r)
	if w < 2 {
		copy(o, r)
		return
	}
	le := binary.LittleEndian
	x := 1 + op3(o[1:w-1], r[:w-2], r[1:w-1], r[2:], erode)
	for ; x+8 <= w-1; x += 8 {
		a, b, c := le.Uint64(left[x-1:]), le.Uint64(r[x:]), le.Uint64(right[x:])
		if erode {
			le.PutUint64(o[x:], a&b&c)
		} else {
			le.PutUint64(o[x:], a|b|c)
		}
	}
	for ; x < w-1; x++ {
		if erode {
			o[x] = left[x-1] & r[x] & right[x]
		} else {
			o[x] = left[x-1] | r[x] | right[x]
		}
	}
	if erode {
		o[0], o[w-1] = r[0]&r[1], r[w-2]&r[w-1]
	} else {
		o[0], o[w-1] = r[0]|r[1], r[w-2]|r[w-1]
	}
}

func col3(o, up, c, dn []byte, erode bool) {
	le := binary.LittleEndian
	x := op3(o, up, c, dn, erode)
	for ; x+8 <= len(o); x += 8 {
		a, b, d := le.Uint64(up[x:]), le.Uint64(c[x:]), le.Uint64(dn[x:])
		if erode {
			le.PutUint64(o[x:], a&b&d)
		} else {
			le.PutUint64(o[x:], a|b|d)
		}
	}
	for ; x < len(o); x++ {
		if erode {
			o[x] = up[x] & c[x] & dn[x]
		} else {
			o[x] = up[x] | c[x] | dn[x]
		}
	}
}

// clean removes specks and lines up to open−1 pixels thick (opening by an open × open
// square, open odd), then fills holes and gaps up to closing−1 pixels wide (closing by a
// closing × closing square, closing odd; 3 fills pinholes and two-pixel gaps).
func (m *morph) clean(mask []byte, w, h, open, closing int) {
	for range open / 2 {
		m.erode3(mask, w, h)
	}
	for range open / 2 {
		m.dilate3(mask, w, h)
	}
	for range closing / 2 {
		m.dilate3(mask, w, h)
	}
	for range closing / 2 {
		m.erode3(mask, w, h)
	}
}

// labeller finds the 8-connected components of a mask in two passes: provisional labels
// joined by union-find, then each component's box and area by its root.
type labeller struct {
	labels []int32
	parent []int32
	comps  []rect
	rootOf []int32 // root label → index in comps, -1 until seen
}

func (l *labeller) find(a int32) int32 {
	for l.parent[a] != a {
		l.parent[a] = l.parent[l.parent[a]]
		a = l.parent[a]
	}
	return a
}

func (l *labeller) union(a, b int32) int32 {
	a, b = l.find(a), l.find(b)
	if a == b {
		return a
	}
	if a > b {
		a, b = b, a
	}
	l.parent[b] = a // the smaller label is the root: the result does not depend on the order
	return a
}

// components returns the components of mask (w × h), their areas and boxes in analysis
// pixels, in the order of their first pixel (top to bottom, left to right).
func (l *labeller) components(mask []byte, w, h int) []rect {
	l.labels = grow(l.labels, w*h)
	clear(l.labels)
	l.parent = l.parent[:0]
	l.parent = append(l.parent, 0) // label 0: background
	for y := 0; y < h; y++ {
		row := mask[y*w : (y+1)*w]
		for x := nextSet(row, 0); x < w; x = nextSet(row, x+1) {
			i := y*w + x
			var lab int32
			// Neighbours already labelled: left, and the three above.
			try := func(j int) {
				if n := l.labels[j]; n != 0 {
					if lab == 0 {
						lab = n
					} else if lab != n {
						lab = l.union(lab, n)
					}
				}
			}
			if x > 0 {
				try(i - 1)
			}
			if y > 0 {
				if x > 0 {
					try(i - w - 1)
				}
				try(i - w)
				if x < w-1 {
					try(i - w + 1)
				}
			}
			if lab == 0 {
				lab = int32(len(l.parent))
				l.parent = append(l.parent, lab)
			}
			l.labels[i] = lab
		}
	}
	l.rootOf = grow(l.rootOf, len(l.parent))
	for i := range l.rootOf {
		l.rootOf[i] = -1
	}
	l.comps = l.comps[:0]
	for y := 0; y < h; y++ {
		row := mask[y*w : (y+1)*w]
		for x := nextSet(row, 0); x < w; x = nextSet(row, x+1) {
			lab := l.labels[y*w+x]
			if lab == 0 {
				continue
			}
			r := l.find(lab)
			k := l.rootOf[r]
			if k < 0 {
				k = int32(len(l.comps))
				l.rootOf[r] = k
				l.comps = append(l.comps, rect{x0: float64(x), y0: float64(y), x1: float64(x + 1), y1: float64(y + 1)})
			}
			c := &l.comps[k]
			c.x0, c.x1 = min(c.x0, float64(x)), max(c.x1, float64(x+1))
			c.y1 = float64(y + 1)
			c.area++
		}
	}
	return l.comps
}

// nextSet is the first column from x on where the mask row holds a 1, or len(row): masks
// are mostly empty and hold 0 or 1, so the labeller jumps from one set pixel to the next.
func nextSet(row []byte, x int) int {
	if j := bytes.IndexByte(row[x:], 1); j >= 0 {
		return x + j
	}
	return len(row)
}

// keep filters comps in place to those whose area lies in [minArea, maxArea] analysis
// pixels, the largest maxN of them, largest first (ties in the order found).
func keep(comps []rect, minArea, maxArea float64, maxN int) []rect {
	out := comps[:0]
	for _, c := range comps {
		if c.area >= minArea && c.area <= maxArea {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b rect) int {
		switch {
		case a.area > b.area:
			return -1
		case a.area < b.area:
			return 1
		}
		return 0
	})
	return out[:min(len(out), maxN)]
}
