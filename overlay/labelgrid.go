package overlay

import (
	"math"
	"slices"
)

// labelGrid finds the placed labels a candidate label would cover: a uniform grid over the
// frame, each cell listing the labels that reach into it, so that a frame of n labels is
// placed in about n × (labels per cell) tests rather than n²/2 (100 000 labels took 13.5 s
// that way). A label beyond the frame's edge is listed in the edge cells: clamping keeps
// every pair of overlapping rectangles in a common cell.
type labelGrid struct {
	cell   int // side of a cell in px
	nx, ny int
	// The cells' lists, in flat arrays that keep their capacity from frame to frame (the
	// drawer allocates nothing in steady state): head[c] is cell c's latest entry, next[e]
	// the entry before e in its cell (-1 ends a list), rect[e] the label entry e lists.
	head, next, rect []int32
	rects            []labelRect
}

// labelRect is a placed label's rectangle.
type labelRect struct{ x, y, w, h int }

// reset empties the grid for a w × h frame of n labels at most maxH px high: square cells
// as high as the highest label (a label, wider than high, reaches into a row of a few), and
// no more cells than labels.
func (g *labelGrid) reset(w, h, n, maxH int) {
	g.cell = max(maxH, int(math.Ceil(math.Sqrt(float64(w)*float64(h)/float64(max(n, 1))))), 1)
	g.nx, g.ny = max((w+g.cell-1)/g.cell, 1), max((h+g.cell-1)/g.cell, 1)
	g.head = slices.Grow(g.head[:0], g.nx*g.ny)[:g.nx*g.ny]
	for i := range g.head {
		g.head[i] = -1
	}
	g.next, g.rect, g.rects = g.next[:0], g.rect[:0], g.rects[:0]
}

// span is the range of cells [lo, hi] that [v, v+size) reaches along an axis of n cells.
func (g *labelGrid) span(v, size, n int) (lo, hi int) {
	lo = min(max(floorDiv(v, g.cell), 0), n-1)
	hi = min(max(floorDiv(v+size-1, g.cell), 0), n-1)
	return lo, hi
}

// add lists a placed label.
func (g *labelGrid) add(r labelRect) {
	i := int32(len(g.rects))
	g.rects = append(g.rects, r)
	x0, x1 := g.span(r.x, r.w, g.nx)
	y0, y1 := g.span(r.y, r.h, g.ny)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			c := cy*g.nx + cx
			g.next = append(g.next, g.head[c])
			g.rect = append(g.rect, i)
			g.head[c] = int32(len(g.next) - 1)
		}
	}
}

// covers reports whether r overlaps a listed label (the same test as before the grid: open
// rectangles, touching edges do not count).
func (g *labelGrid) covers(r labelRect) bool {
	_, _, ok := g.coverSpan(r, true)
	return ok
}

// coverSpan returns the least top and the greatest bottom of the listed labels r overlaps;
// ok false for none. With first it returns at the first found (covers).
func (g *labelGrid) coverSpan(r labelRect, first bool) (top, bottom int, ok bool) {
	x0, x1 := g.span(r.x, r.w, g.nx)
	y0, y1 := g.span(r.y, r.h, g.ny)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			for e := g.head[cy*g.nx+cx]; e >= 0; e = g.next[e] {
				l := &g.rects[g.rect[e]]
				if r.x < l.x+l.w && l.x < r.x+r.w && r.y < l.y+l.h && l.y < r.y+r.h {
					if first {
						return l.y, l.y + l.h, true
					}
					if !ok {
						top, bottom, ok = l.y, l.y+l.h, true
					}
					top, bottom = min(top, l.y), max(bottom, l.y+l.h)
				}
			}
		}
	}
	return top, bottom, ok
}

// maxApart is how far apart moves a label at most, in the label's heights: further, in a
// crowded frame, a label left its box for another's (165 px in a 270-line golden scene).
const maxApart = 3

// apart returns r moved down or up, the less far of the two, to where it covers no listed
// label and stays inside a frame h px high: each way it steps to just past the labels it
// covers, maxApart label heights at most; ok false when neither way finds room (the label
// then stays where it covers another, as one with no free place does). A label kept inside
// the frame by its edge is placed so (placeLabels): labels stacked by the edge are drawn one
// beside the next, the first placed at the edge.
func (g *labelGrid) apart(r labelRect, h int) (moved labelRect, ok bool) {
	for _, down := range [2]bool{true, false} {
		c := r
		for max(c.y-r.y, r.y-c.y) <= maxApart*r.h {
			top, bottom, hit := g.coverSpan(c, false)
			if !hit {
				if d := max(c.y-r.y, r.y-c.y); !ok || d < max(moved.y-r.y, r.y-moved.y) {
					moved, ok = c, true
				}
				break
			}
			if down {
				c.y = bottom
			} else {
				c.y = top - c.h
			}
			if c.y < 0 || c.y+c.h > h {
				break
			}
		}
	}
	return moved, ok
}

// floorDiv is a / b rounded down (b > 0).
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
